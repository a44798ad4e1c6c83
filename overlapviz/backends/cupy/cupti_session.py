"""CUPTI activity tracing through ``cupti-python``: enabled once per process, flushed per run.

What the H200 measurements taught (see the project's pitfalls): enabling the activity kinds
right before a run cost about 25%, so they are enabled once and stay on; after each flush
the next activity makes CUPTI ask (in Python) for a new 16 MiB buffer, so the runner issues
a tiny op before its timed region to take that cost there; ``CONCURRENT_KERNEL``, never
``KERNEL``, which serialises kernels.

CUPTI is shared by every client in the process (see `cupti_sharing`): the collector counts
records of kinds it never enabled, can probe whether another client holds the subscription,
and can take the callbacks back once a client that took them has gone.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from overlapviz.backends.cupy.cupti_records import ApiRecord, DeviceRecord, copy_op_kind
from overlapviz.backends.cupy.cupti_sharing import Delivery, subscriber_reason
from overlapviz.core.trace.spans import OpKind

BUFFER_BYTES = 16 * 1024 * 1024


class CuptiUnavailable(RuntimeError):
    """CUPTI cannot trace in this process; the message says why (shown as the timing note)."""


class CuptiTaken(CuptiUnavailable):
    """Another CUPTI client holds CUPTI now; once it lets go, CUPTI may be used again."""


@dataclass(frozen=True, slots=True)
class ActivityKinds:
    """The numeric values of the CUPTI activity kinds the converter handles."""

    kernel: int
    memcpy: int
    runtime: int
    driver: int


def record_of(
    activity: Any, kinds: ActivityKinds, api_name: Callable[[bool, int], str]
) -> ApiRecord | DeviceRecord | None:
    """A plain record for one CUPTI activity, or None for kinds the trace does not use."""
    kind = int(activity.kind)
    if kind == kinds.kernel:
        return DeviceRecord(
            OpKind.KERNEL, int(activity.start), int(activity.end), int(activity.correlation_id),
            int(activity.stream_id), name=str(activity.name),
        )  # fmt: skip
    if kind == kinds.memcpy:
        op = copy_op_kind(int(activity.copy_kind))
        if op is None:
            return None
        return DeviceRecord(
            op, int(activity.start), int(activity.end), int(activity.correlation_id), int(activity.stream_id),
            nbytes=int(activity.bytes), src_kind=int(activity.src_kind), dst_kind=int(activity.dst_kind),
        )  # fmt: skip
    if kind in (kinds.runtime, kinds.driver):
        runtime = kind == kinds.runtime
        return ApiRecord(
            api_name(runtime, int(activity.cbid)), int(activity.start), int(activity.end),
            int(activity.correlation_id), int(activity.thread_id), runtime,
        )  # fmt: skip
    return None


class CuptiCollector:
    """Collects API, copy and kernel records of this process until `take` hands them over."""

    def __init__(self) -> None:
        try:
            from cupti import cupti
        except ImportError as error:
            raise CuptiUnavailable(f"cupti-python is not installed ({error})") from error
        self._cupti = cupti
        kind = cupti.ActivityKind
        self.kinds = ActivityKinds(
            int(kind.CONCURRENT_KERNEL), int(kind.MEMCPY), int(kind.RUNTIME), int(kind.DRIVER)
        )
        self._enabled_kinds = [kind.CONCURRENT_KERNEL, kind.MEMCPY, kind.RUNTIME, kind.DRIVER]
        self._own_kinds = {int(k) for k in self._enabled_kinds}
        self._names: dict[tuple[bool, int], str] = {}
        self._lock = threading.Lock()
        self._apis: list[ApiRecord] = []
        self._devices: list[DeviceRecord] = []
        self._foreign: Counter[str] = Counter()
        shared = other_subscriber(cupti)  # registering now would take that client's records
        if shared:
            raise CuptiTaken(shared)
        try:
            self.rearm()
        except Exception as error:
            raise _unavailable(error, _status_name(cupti, error)) from error

    def _buffer_requested(self) -> tuple[int, int]:
        return BUFFER_BYTES, 0  # 0: as many records as fit

    def _buffer_completed(self, activities: Iterable[Any]) -> None:
        apis: list[ApiRecord] = []
        devices: list[DeviceRecord] = []
        foreign: Counter[str] = Counter()
        for activity in activities:
            if int(activity.kind) not in self._own_kinds:
                foreign[self._kind_name(int(activity.kind))] += 1
                continue
            record = record_of(activity, self.kinds, self._api_name)
            if isinstance(record, ApiRecord):
                apis.append(record)
            elif record is not None:
                devices.append(record)
        with self._lock:
            self._apis.extend(apis)
            self._devices.extend(devices)
            self._foreign.update(foreign)

    def _kind_name(self, kind: int) -> str:
        try:
            return str(self._cupti.ActivityKind(kind).name)
        except ValueError:
            return f"kind {kind}"

    def _api_name(self, runtime: bool, cbid: int) -> str:
        key = (runtime, cbid)
        if key not in self._names:
            domain = self._cupti.CallbackDomain.RUNTIME_API if runtime else self._cupti.CallbackDomain.DRIVER_API
            self._names[key] = str(self._cupti.get_callback_name(domain, cbid))
        return self._names[key]

    def timestamp(self) -> int:
        """CUPTI's clock now, in ns: the time base of every record."""
        return int(self._cupti.get_timestamp())

    def flush(self) -> None:
        """Deliver every record of finished work (forced: incomplete buffers too)."""
        self._cupti.activity_flush_all(1)

    def take(self) -> Delivery:
        """Everything collected since the last `take`, handed over and forgotten."""
        with self._lock:
            delivery = Delivery(self._apis, self._devices, dict(self._foreign))
            self._apis, self._devices, self._foreign = [], [], Counter()
        return delivery

    def other_subscriber(self) -> str:
        """Why another client holds CUPTI's subscription now ("" when none does, as far as CUPTI says)."""
        return other_subscriber(self._cupti)

    def rearm(self) -> None:
        """Register our buffer callbacks and enable our kinds (again, after a client that took them left)."""
        self._cupti.activity_register_callbacks(self._buffer_requested, self._buffer_completed)
        self.resume()

    def pause(self) -> None:
        """Stop recording (to time untraced runs for the overhead measurement)."""
        for kind in self._enabled_kinds:
            self._cupti.activity_disable(kind)

    def resume(self) -> None:
        """Record again (the first runs after this are slower: warm up before timing)."""
        for kind in self._enabled_kinds:
            self._cupti.activity_enable(kind)


def other_subscriber(cupti: Any) -> str:
    """Subscribe and unsubscribe at once: the reason when CUPTI refuses a second subscriber, else "".

    Before CUPTI 13.5 a process has one subscriber, and Nsight Systems and torch.profiler
    subscribe; with several allowed this finds nothing, and the checks on the records decide.
    """
    try:
        handle = cupti.subscribe(_ignore_callback, None)
    except Exception as error:
        return subscriber_reason(_status_name(cupti, error) or str(error))
    with suppress(Exception):  # held for a moment only: nothing more to learn from letting go
        cupti.unsubscribe(handle)
    return ""


def _ignore_callback(*_: Any) -> None:
    """The probe subscription enables no domain, so this is never called."""


def _status_name(cupti: Any, error: Exception) -> str:
    """CUPTI's name for the status a ``cuptiError`` carries ("" when it carries none)."""
    try:
        return str(cupti.Result(error.status).name)  # type: ignore[attr-defined]
    except Exception:
        return ""


def _why(error: Exception, status: str = "") -> str:
    text = f"{type(error).__name__}: {status or error}"
    return subscriber_reason(text) or f"CUPTI could not be enabled ({text})"


def _unavailable(error: Exception, status: str = "") -> CuptiUnavailable:
    why = _why(error, status)
    return CuptiTaken(why) if subscriber_reason(why) else CuptiUnavailable(why)


_collector: CuptiCollector | None = None
_failure: str | None = None
_guard = threading.Lock()


def shared_collector() -> CuptiCollector:
    """The process's one collector, created on first use; `CuptiUnavailable` if it cannot be.

    A failure is remembered, except another client holding CUPTI (`CuptiTaken`): once it
    has let go, the next call tries again.
    """
    global _collector, _failure
    with _guard:
        if _collector is None and _failure is None:
            try:
                _collector = CuptiCollector()
            except CuptiTaken:
                raise
            except CuptiUnavailable as error:
                _failure = str(error)
        if _collector is None:
            raise CuptiUnavailable(_failure or "CUPTI is unavailable")
        return _collector
