"""Device profiles: the numbers that make the model one GPU rather than another.

Profiles are TOML files in ``profiles/``; every number there carries its source in a comment.
A user's own profiles (``overlapviz calibrate`` writes them) are read the same way, from the
user's folder or a path (`profile_files`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from overlapviz.backends.sim.host_kinds import SECTION as HOST_KINDS_SECTION
from overlapviz.backends.sim.host_kinds import HostKinds, HostKindsError, host_kinds_from
from overlapviz.backends.sim.pageable_spread import PageableSpread, measured_pageable_spread
from overlapviz.backends.sim.peer_link import SECTION as PEER_SECTION
from overlapviz.backends.sim.peer_link import PeerLink, PeerLinkError, peer_link_from
from overlapviz.backends.sim.profile_files import is_profile_path, profile_file, user_profile_keys
from overlapviz.core.config import GIB, MIB
from overlapviz.core.files.toml_text import TomlError, parse_toml

PROFILE_DIR = Path(__file__).resolve().parent / "profiles"
PER_ENGINE_QUEUES = 0  # `work_queues` value for pre-Kepler GPUs: one FIFO per engine, in issue order


class ProfileError(ValueError):
    """A profile file is missing, malformed or incomplete."""


@dataclass(frozen=True, slots=True)
class DeviceProfile:
    """What the model needs to know about one GPU and its host."""

    key: str
    name: str
    summary: str
    # Engines and queues
    copy_engines: int  # 1: one engine copies one direction at a time; 2 or more: one per direction
    work_queues: int  # hardware work queues (Hyper-Q connections); 0: one FIFO per engine
    concurrent_kernels: bool
    delayed_kernel_signal: bool  # Fermi: back-to-back kernels signal completion only together
    sm_count: int
    blocks_per_sm: int  # resident 256-thread blocks per SM
    # The link (pinned memory)
    link: str  # what connects the GPU to the host, e.g. "PCIe Gen5 x16"
    link_peak_gbps: float  # the link's theoretical limit per direction (1e9 bytes/s)
    h2d_gbps: float
    d2h_gbps: float
    copy_latency_us: float  # fixed cost of each copy on the engine
    bidirectional_factor: float  # each direction's share of its bandwidth while both run
    # Pageable memory (staged by the driver, host thread blocked)
    pageable_h2d_gbps: float
    pageable_d2h_gbps: float
    first_touch_gbps: float  # rate at which the host faults in never-touched pages
    # Kernels
    kernel_launch_us: float  # a kernel that does nothing (iters = 0)
    fma_base_ns_per_element: float  # load + store per element, whole GPU busy
    fma_ns_per_element_iter: float  # one FMA per element, whole GPU busy
    fma_latency_ns: float  # one dependent FMA in one thread: bounds a kernel too small to fill the GPU
    kernel_memory_gbps: float  # bytes read + written per second by a streaming kernel
    sincos_ns_per_element: float  # the blog's sin/cos/sqrt kernel, whole GPU busy
    # Timing between dependent ops and on the host
    signal_latency_us: float  # from an op's end to the next op of its stream becoming ready
    memcpy_call_us: float  # host time inside cudaMemcpyAsync (pinned)
    launch_call_us: float  # host time inside cuLaunchKernel
    issue_gap_us: float  # host time between two calls (the caller's own code)
    host_ram_gib: float  # the host's RAM: what the guard against pinning too much measures against
    # Host buffers allocated inside the run (host_alloc = "per-run"). Per-byte costs are given at
    # `alloc_sizes_mib` and interpolated linearly in size between them (the nearest outside).
    alloc_sizes_mib: tuple[float, ...]
    pin_alloc_ns_per_byte: tuple[float, ...]  # cudaMallocHost
    pin_free_ns_per_byte: tuple[float, ...]  # cudaFreeHost
    touch_ns_per_byte: tuple[float, ...]  # the host's first write to fresh pageable pages
    free_ns_per_byte: tuple[float, ...]  # free() of a touched pageable buffer
    register_ns_per_byte: tuple[float, ...]  # cudaHostRegister of touched pages
    unregister_ns_per_byte: tuple[float, ...]  # cudaHostUnregister
    malloc_us: float  # malloc of a large buffer: reserves addresses, no pages yet
    # Write-combined, mapped, managed and staged memory, CUDA Graphs: only where measured
    host_kinds: HostKinds | None = None
    # Two of these GPUs, joined by NVLink or by PCIe: only where the profile has a [peer] section
    peer: PeerLink | None = None

    @property
    def per_engine_queues(self) -> bool:
        """Whether each engine has one FIFO for all streams (before Kepler) instead of Hyper-Q."""
        return self.work_queues == PER_ENGINE_QUEUES

    @property
    def separate_copy_directions(self) -> bool:
        """Whether H2D and D2H copies run on different engines (and so at the same time)."""
        return self.copy_engines >= 2

    def facts(self) -> dict[str, Any]:
        """Device facts for traces and `overlapviz devices`."""
        return {
            "copy_engines": self.copy_engines,
            "work_queues": "per engine" if self.per_engine_queues else self.work_queues,
            "concurrent_kernels": self.concurrent_kernels,
            "delayed_kernel_signal": self.delayed_kernel_signal,
            "sm_count": self.sm_count,
            "h2d_gbps": self.h2d_gbps,
            "d2h_gbps": self.d2h_gbps,
            "link": self.link,
            "link_peak_gbps": self.link_peak_gbps,
            "host_ram_gib": self.host_ram_gib,
        } | ({} if self.peer is None else self.peer.facts())

    @property
    def pageable_spread(self) -> PageableSpread | None:
        """What real machines of this profile measured for pageable memory (None where unknown).

        The model copies pageable memory at one measurement's rates; this is the range other
        measurements found (`overlapviz.backends.sim.pageable_spread`).
        """
        return measured_pageable_spread(self.key)

    @property
    def host_ram_bytes(self) -> int:
        """The host's RAM in bytes."""
        return int(self.host_ram_gib * GIB)

    def alloc_ns(self, per_byte: tuple[float, ...], n_bytes: int) -> float:
        """Nanoseconds of an allocation call on `n_bytes`, from one of the per-byte cost tables."""
        sizes = [mib * MIB for mib in self.alloc_sizes_mib]
        return float(np.interp(n_bytes, sizes, per_byte)) * n_bytes


def available_profiles() -> list[str]:
    """Keys of the shipped profiles, from the files in ``profiles/``."""
    return sorted(path.stem for path in PROFILE_DIR.glob("*.toml"))


def user_profiles() -> list[str]:
    """Keys of the profiles in the user's folder that load (`profile_files.user_profile_dir`).

    One that does not load is left out here, so that it cannot hide the others; naming it
    (``--device NAME``) gives the reason.
    """
    keys = []
    for key in user_profile_keys(PROFILE_DIR):
        try:
            load_profile(key)
        except ProfileError:
            continue
        keys.append(key)
    return keys


def load_profile(key: str) -> DeviceProfile:
    """Read the profile `key`: shipped, in the user's folder, or a file path; `ProfileError` names what is wrong.

    A profile may start from another one (``based_on = "h200"`` at the top of the file) and
    change only some of its numbers: a what-if model of the same machine.
    """
    label = _label(profile_file(key, PROFILE_DIR))
    flat = {**_profile_values(key, ()), "key": key}
    host_kinds = flat.pop(HOST_KINDS_SECTION, None)
    peer = flat.pop(PEER_SECTION, None)
    wanted = {f.name for f in fields(DeviceProfile)} - _SECTIONS
    missing = sorted(wanted - set(flat))
    unknown = sorted(set(flat) - wanted)
    if missing or unknown:
        raise ProfileError(f"{label}: missing {missing or 'nothing'}, unknown {unknown or 'nothing'}")
    tables = {name: tuple(value) for name, value in flat.items() if isinstance(value, list)}
    lengths = {name: len(table) for name, table in tables.items()}
    if len(set(lengths.values())) > 1 or 0 in lengths.values():
        raise ProfileError(f"{label}: the per-size tables differ in length or are empty: {lengths}")
    if list(tables.get("alloc_sizes_mib", ())) != sorted(tables.get("alloc_sizes_mib", ())):
        raise ProfileError(f"{label}: alloc_sizes_mib must be in increasing order")
    values = {**flat, **tables}
    for item in fields(DeviceProfile):
        problem = "" if item.name in _SECTIONS else value_problem(item.name, str(item.type), values[item.name])
        if problem:
            raise ProfileError(f"{label}: {item.name} {problem}")
    try:
        kinds = host_kinds_from(host_kinds, label, value_problem) if host_kinds else None
        link = peer_link_from(peer, label, value_problem) if peer else None
    except (HostKindsError, PeerLinkError) as error:
        raise ProfileError(str(error)) from None
    return DeviceProfile(**values, host_kinds=kinds, peer=link)


def value_problem(name: str, annotation: str, value: Any) -> str:
    """What is wrong with `value` for the field `name` of type `annotation` ("" if nothing).

    Numbers must be finite and not negative, rates (``*_gbps``) and counts of hardware
    above zero: the model divides by the ones and fills the others.
    """
    if annotation == "str":
        return "" if isinstance(value, str) else f"must be text, not {value!r}"
    if annotation == "bool":
        return "" if isinstance(value, bool) else f"must be true or false, not {value!r}"
    if annotation.startswith("tuple") and not isinstance(value, tuple):
        return f"must be a list of numbers, not {value!r}"
    numbers = value if annotation.startswith("tuple") else (value,)
    kind = int if annotation == "int" else (int, float)
    if not all(isinstance(n, kind) and not isinstance(n, bool) for n in numbers):
        return f"must be {'whole numbers' if kind is int else 'numbers'}, not {value!r}"
    if not all(math.isfinite(n) and n >= 0 for n in numbers):
        return f"must be finite and not negative, not {value!r}"
    if (name.endswith("_gbps") or name in _AT_LEAST_ONE) and min(numbers) <= 0:
        return f"must be above zero, not {value!r}"
    return ""


_AT_LEAST_ONE = {"copy_engines", "sm_count", "blocks_per_sm"}
_SECTIONS = {HOST_KINDS_SECTION, PEER_SECTION}  # the sections kept whole, as objects of their own


def _label(path: Path) -> str:
    """How messages name a profile file: a shipped one by its name, any other by its path."""
    return path.name if path.parent == PROFILE_DIR else str(path)


def _profile_values(key: str, seen: tuple[str, ...]) -> dict[str, Any]:
    """The file's values, sections flattened, on top of those of the profile it is based on."""
    path = profile_file(key, PROFILE_DIR)
    label = _label(path)
    if is_profile_path(key) and not path.is_file():
        why = "it is a folder" if path.is_dir() else "there is no such file"
        raise ProfileError(f"cannot read the device profile {key}: {why}")
    if not path.is_file():
        known = ", ".join(available_profiles() + user_profiles())
        where = f" (the base of {seen[-1]!r})" if seen else ""
        raise ProfileError(f"unknown device profile {key!r}{where}; known: {known}")
    if key in seen:
        raise ProfileError(f"{label}: based_on goes round in a circle: {' -> '.join((*seen, key))}")
    try:
        data = parse_toml(path.read_bytes())
    except TomlError as error:
        raise ProfileError(f"{label}: not valid TOML ({error})") from None
    except (OSError, UnicodeDecodeError) as error:
        cause = getattr(error, "strerror", None) or error
        raise ProfileError(f"cannot read the device profile {label}: {cause}") from None
    base = data.pop("based_on", None)
    flat = _profile_values(str(base), (*seen, key)) if base is not None else {}
    for name in sorted(_SECTIONS):  # a section of its own: changed field by field, like the rest
        section = data.pop(name, {})
        if not isinstance(section, dict):
            raise ProfileError(f"{label}: [{name}] must be a section")
        if section:
            flat[name] = {**flat.get(name, {}), **section}
    for section in (data.pop("device", {}), *data.values()):
        if not isinstance(section, dict):
            raise ProfileError(f"{label}: every value belongs in a [section]")
        flat.update(section)
    return flat
