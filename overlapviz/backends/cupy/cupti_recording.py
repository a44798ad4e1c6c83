"""Recording the user's own CUDA work with CUPTI: what ``overlapviz profile`` and ``record()`` collect.

The process's one collector (`shared_collector`) is borrowed for the recording: what it held
before is flushed and thrown away, and only records that start after the recording began
are kept. Calls made through the driver show up twice (the runtime call, then the driver
call inside it): only the outermost one is kept, as for overlapviz's own runs.

The collector enables copies, kernels and API calls only. Memsets and NVTX ranges are not
recorded: enabling more kinds for everyone would put records into the CuPy backend's runs
that it never asked for. `NOT_RECORDED` says so wherever a recording is shown.

Records carry no device index (the collector does not keep it), so every copy and kernel is
put on the device that is current when the recording stops.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from overlapviz.backends.cupy.cupti_records import ApiRecord, DeviceRecord
from overlapviz.backends.cupy.cupti_session import CuptiCollector, CuptiUnavailable, shared_collector
from overlapviz.backends.cupy.cupti_sharing import Delivery, foreign_reason
from overlapviz.backends.cupy.cupti_trace import host_spans
from overlapviz.core.i18n import N_, _

TOOL = "overlapviz profile (CUPTI)"
NOT_RECORDED = N_("memsets and NVTX ranges are not recorded (CUPTI records copies, kernels and API calls only)")


class RecordingUnavailable(RuntimeError):
    """Recording cannot start here (no CuPy, no GPU, no CUPTI, or CUPTI is taken); the message says why."""


@dataclass(frozen=True, slots=True)
class Recorded:
    """What a recording collected: its records, cut to the time it ran, and where it ran."""

    apis: list[ApiRecord]
    devices: list[DeviceRecord]
    device: int
    device_name: str
    recorded: str  # ISO date, local time
    caveat: str  # why the records may not be the whole story ("" when nothing says so)


def cut_to_recording(delivery: Delivery, since_ns: int, until_ns: int) -> tuple[list[ApiRecord], list[DeviceRecord]]:
    """The outermost calls that started in [`since_ns`, `until_ns`) and the ops that started after `since_ns`.

    Calls after `until_ns` are the recording's own (the synchronize that ends it).
    """
    window = [api for api in delivery.apis if since_ns <= api.start_ns < until_ns]
    ids = {api.correlation_id for api in window}
    threads = {api.thread_id for api in window}
    apis = host_spans(window, ids, threads)
    devices = sorted((d for d in delivery.devices if d.start_ns >= since_ns), key=lambda d: d.start_ns)
    return apis, devices


def caveat_of(delivery: Delivery) -> str:
    """The note a recording carries: what is never recorded, and any sign of another CUPTI client."""
    shared = foreign_reason(delivery.foreign)
    return f"{_(NOT_RECORDED)}; {shared}" if shared else _(NOT_RECORDED)


class Recording:
    """A context manager that records the CUDA work done inside it with CUPTI.

    Raises `RecordingUnavailable` on entering when CuPy, a GPU or CUPTI is missing, or when
    another profiler holds CUPTI (its records and ours would be mixed up: say so and stop).
    After the block, `recorded` holds what was collected.
    """

    def __init__(self) -> None:
        self.recorded: Recorded | None = None
        self._collector: CuptiCollector | None = None
        self._cupy: Any = None
        self._since_ns = 0

    def __enter__(self) -> Recording:
        self._cupy = _usable_cupy()
        collector = _free_collector()
        collector.flush()
        collector.take()  # earlier work of this process: not part of the recording
        self._since_ns = collector.timestamp()
        self._collector = collector
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        collector, self._collector = self._collector, None
        if collector is None:
            return
        until_ns = collector.timestamp()
        device = int(self._cupy.cuda.runtime.getDevice())
        try:
            self._cupy.cuda.runtime.deviceSynchronize()  # so that every op issued has finished and is recorded
        finally:
            collector.flush()
            delivery = collector.take()
        apis, devices = cut_to_recording(delivery, self._since_ns, until_ns)
        self.recorded = Recorded(
            apis, devices, device, _device_name(self._cupy, device),
            dt.datetime.now().astimezone().date().isoformat(), caveat_of(delivery),
        )  # fmt: skip


def _usable_cupy() -> Any:
    try:
        import cupy
    except ImportError as error:
        raise RecordingUnavailable(f"recording needs CuPy and an NVIDIA GPU; CuPy is not installed ({error})") from None
    try:
        count = int(cupy.cuda.runtime.getDeviceCount())
    except Exception as error:  # CuPy installed, but no driver or no device
        raise RecordingUnavailable(f"recording needs an NVIDIA GPU; CUDA says: {error}") from None
    if count == 0:
        raise RecordingUnavailable("recording needs an NVIDIA GPU; CUDA finds none")
    return cupy


def _free_collector() -> CuptiCollector:
    """The shared collector, when no other CUPTI client is attached to this process."""
    try:
        collector = shared_collector()
    except CuptiUnavailable as error:
        raise RecordingUnavailable(f"cannot record with CUPTI: {error}") from None
    taken = collector.other_subscriber()
    if taken:
        raise RecordingUnavailable(f"cannot record with CUPTI: {taken}; stop it first")
    return collector


def _device_name(cupy: Any, device: int) -> str:
    try:
        name = cupy.cuda.runtime.getDeviceProperties(device)["name"]
    except Exception:  # the name is a label only: a device that cannot say is still the device
        return f"GPU {device}"
    return name.decode() if isinstance(name, bytes) else str(name)
