"""Device profiles: the numbers that make the model one GPU rather than another.

Profiles are TOML files in ``profiles/``; every number there carries its source in a comment.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

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

    @property
    def separate_copy_directions(self) -> bool:
        """Whether H2D and D2H copies run on different engines (and so at the same time)."""
        return self.copy_engines >= 2

    def facts(self) -> dict[str, Any]:
        """Device facts for traces and `overlapviz devices`."""
        return {
            "copy_engines": self.copy_engines,
            "work_queues": self.work_queues or "per engine",
            "concurrent_kernels": self.concurrent_kernels,
            "sm_count": self.sm_count,
            "h2d_gbps": self.h2d_gbps,
            "d2h_gbps": self.d2h_gbps,
        }


def available_profiles() -> list[str]:
    """Profile keys, from the files in ``profiles/``."""
    return sorted(path.stem for path in PROFILE_DIR.glob("*.toml"))


def load_profile(key: str) -> DeviceProfile:
    """Read ``profiles/<key>.toml``; `ProfileError` names what is wrong."""
    path = PROFILE_DIR / f"{key}.toml"
    if not path.is_file():
        raise ProfileError(f"unknown device profile {key!r}; known: {', '.join(available_profiles())}")
    with path.open("rb") as stream:
        data = tomllib.load(stream)
    flat = {"key": key, **data.pop("device", {})}
    for section in data.values():
        flat.update(section)
    wanted = {f.name for f in fields(DeviceProfile)}
    missing = sorted(wanted - set(flat))
    unknown = sorted(set(flat) - wanted)
    if missing or unknown:
        raise ProfileError(f"{path.name}: missing {missing or 'nothing'}, unknown {unknown or 'nothing'}")
    return DeviceProfile(**flat)
