"""The seam every backend implements, and the small types that cross it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NotRequired, Protocol, TypedDict, runtime_checkable

from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import KIB, HostMemory, PipelineConfig
from overlapviz.core.trace.spans import Trace


@dataclass(frozen=True, slots=True)
class DeviceInfo:
    """One device a backend can run on."""

    key: str  # what `--device` takes
    name: str  # what a person reads
    simulated: bool
    facts: dict[str, Any] = field(default_factory=dict)


SWEEP_SIZES = tuple(64 * KIB * 4**k for k in range(8))  # 64 KiB, 256 KiB, ..., 1 GiB
# What `overlapviz bandwidth` and the app's plot sweep, where the device has rates for them:
# registered memory moves like pinned memory and would only hide under its curve.
SWEEP_MEMORY_KINDS = (HostMemory.PINNED.value, HostMemory.PAGEABLE.value, HostMemory.WRITE_COMBINED.value)


class BandwidthPoint(TypedDict):
    """One point of a bandwidth sweep: one copy of one size, memory kind and direction."""

    size: int  # bytes
    memory: str  # a copy kind of host memory: "pinned", "pageable", "registered" or "write-combined"
    direction: str  # "h2d" or "d2h"
    gbps: float  # 1e9 bytes per second
    seconds: float  # how long the copy took on the device
    call_seconds: NotRequired[float]  # how long the call held the host thread, where measured


@runtime_checkable
class Backend(Protocol):
    """Runs a pipeline on one of its devices and returns what happened."""

    name: str

    def devices(self) -> list[DeviceInfo]:
        """The devices this backend can run on, the default first."""
        ...

    def run(self, config: PipelineConfig, device: str | None = None, cancel: CancelToken | None = None) -> Trace:
        """Run `config` on `device` (None: the default) and return its trace."""
        ...
