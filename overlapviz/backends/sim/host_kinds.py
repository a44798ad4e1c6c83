"""What a profile knows of the host memory kinds beyond pinned and pageable memory.

The ``[host_kinds]`` section of a profile: the rates of write-combined copies and host reads,
of kernels reaching mapped host memory, of managed memory's faults and prefetches, of the
host's memcpy through a staging ring, and of launching the pipeline as a CUDA Graph. Only a
GPU where these were measured has them (the H200: ``benchmarks/results/h200_host_kinds.json``);
a profile without the section runs pinned, pageable and registered memory only, and says so
when asked for another kind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from overlapviz.core.config import HostMemory, PipelineConfig

SECTION = "host_kinds"
# The kinds every profile can run from its [link], [pageable] and [kernel] numbers alone.
BASIC_MEMORIES = frozenset({HostMemory.PINNED, HostMemory.PAGEABLE, HostMemory.REGISTERED})


class HostKindsError(ValueError):
    """The [host_kinds] section is incomplete or holds a bad value; the message says which."""


@dataclass(frozen=True, slots=True)
class HostKinds:
    """Measured rates of the other host memory kinds and of CUDA Graphs on one machine."""

    # Write-combined pinned memory: copies from and to it, and the host reading it back
    wc_h2d_gbps: float
    wc_d2h_gbps: float
    wc_host_read_gbps: float  # the host copying the output buffer out of write-combined memory
    # Mapped (zero-copy) memory: a kernel reading its chunk across the link and writing it back
    mapped_gbps: float  # bytes read plus bytes written per second, both directions at once
    # Managed memory
    fault_gbps: float  # pages migrated by the kernel's faults, the kernel stalled meanwhile
    managed_host_read_gbps: float  # the host reading output left on the GPU: faults it back
    prefetch_h2d_gbps: float  # cudaMemPrefetchAsync to the GPU
    prefetch_d2h_gbps: float  # cudaMemPrefetchAsync back to the host
    prefetch_call_us: float  # host time inside one cudaMemPrefetchAsync call
    migrations_one_at_a_time: bool  # the driver carries out one prefetch at a time, both directions
    prefetched_host_read_gbps: float  # the host reading output prefetched back to it
    # A staging ring: the host's memcpy between pageable data and the pinned slots
    staging_memcpy_gbps: float
    # CUDA Graphs: host time per op, inside cudaGraphLaunch and when capturing, at `graph_ops` ops
    graph_ops: tuple[float, ...]
    graph_launch_us_per_op: tuple[float, ...]
    graph_capture_us_per_op: tuple[float, ...]

    def graph_launch_ns(self, ops: int) -> float:
        """Host nanoseconds one op costs inside cudaGraphLaunch, for a graph of `ops` ops."""
        return self._per_op_ns(self.graph_launch_us_per_op, ops)

    def graph_capture_ns(self, ops: int) -> float:
        """Host nanoseconds to capture and instantiate a graph of `ops` ops (paid once)."""
        return self._per_op_ns(self.graph_capture_us_per_op, ops) * ops

    def _per_op_ns(self, table: tuple[float, ...], ops: int) -> float:
        """A per-op cost at `ops`, linear in the op count between the measured ones (the nearest outside)."""
        return float(np.interp(ops, self.graph_ops, table)) * 1e3


def host_kinds_from(section: Mapping[str, Any], label: str, check: Callable[[str, str, Any], str]) -> HostKinds:
    """Build `HostKinds` from a profile's [host_kinds] table; `check` is the profile's value check.

    Raises
    ------
    HostKindsError
        A field is missing, unknown or has a bad value, or the graph tables differ in length.
    """
    wanted = {f.name for f in fields(HostKinds)}
    missing, unknown = sorted(wanted - set(section)), sorted(set(section) - wanted)
    if missing or unknown:
        raise HostKindsError(f"{label}: [{SECTION}] missing {missing or 'nothing'}, unknown {unknown or 'nothing'}")
    values: dict[str, Any] = {name: tuple(v) if isinstance(v, list) else v for name, v in section.items()}
    for item in fields(HostKinds):
        problem = check(item.name, str(item.type), values[item.name])
        if problem:
            raise HostKindsError(f"{label}: {item.name} {problem}")
    tables = ("graph_ops", "graph_launch_us_per_op", "graph_capture_us_per_op")
    lengths = {len(values[name]) for name in tables}
    if len(lengths) != 1 or 0 in lengths or list(values["graph_ops"]) != sorted(values["graph_ops"]):
        raise HostKindsError(f"{label}: the graph tables must be equally long, not empty, graph_ops increasing")
    return HostKinds(**values)


def needs_host_kinds(config: PipelineConfig) -> bool:
    """Whether running `config` takes numbers only a [host_kinds] section has."""
    return config.memory not in BASIC_MEMORIES or config.graph


def missing_host_kinds_message(config: PipelineConfig, profile_key: str) -> str:
    """Why a profile without [host_kinds] cannot run `config`."""
    what = "a CUDA Graph" if config.graph and config.memory in BASIC_MEMORIES else f"{config.memory.value} memory"
    allowed = ", ".join(sorted(m.value for m in BASIC_MEMORIES))
    return (
        f"the {profile_key} profile has no measurements of {what}: it runs {allowed} memory without graphs;"
        " the h200 profile has them all"
    )

