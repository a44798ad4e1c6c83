"""CUPTI records of one run -> a `Trace` (pure: fake records test it without a GPU).

Matching records to the ops that were issued: CUPTI numbers every API call with a
correlation id that grows in call order, and gives each copy or kernel the id of the call
that issued it. So the run's device records, sorted by correlation id, are the ops in issue
order; that they match the plan kind for kind is checked, not assumed. The plan's host
copies and prefetches are not among them: their times come from the runner (`side_times`),
and the trace still has one row per plan op, in the plan's order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from overlapviz.backends.cupy.cupti_records import ApiRecord, DeviceRecord, HostStep, host_memory_of
from overlapviz.backends.cupy.side_times import SideTimes, Span, is_side_op
from overlapviz.core.config import PipelineConfig
from overlapviz.core.config.pipeline_plan import PlannedOp
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import OpKind, Trace, TraceBuilder, Unit

_VERSION_SUFFIX = re.compile(r"_v\d+$")


class RecordMismatch(ValueError):
    """The CUPTI records do not describe the ops that were issued; the message says how."""


def api_name(raw: str) -> str:
    """``cudaMemcpyAsync_v3020`` -> ``cudaMemcpyAsync`` (CUPTI names carry an ABI version)."""
    return _VERSION_SUFFIX.sub("", raw)


def run_device_records(devices: Iterable[DeviceRecord], apis: Sequence[ApiRecord]) -> list[DeviceRecord]:
    """The copies and kernels issued by the calls in `apis`, in issue (correlation id) order."""
    issued_by = {api.correlation_id for api in apis}
    ours = [d for d in devices if d.correlation_id in issued_by]
    return sorted(ours, key=lambda d: d.correlation_id)


def check_matches_plan(plan: Sequence[PlannedOp], ops: Sequence[DeviceRecord]) -> None:
    """Raise `RecordMismatch` unless `ops` are the planned ops, kind for kind."""
    if len(ops) != len(plan):
        raise RecordMismatch(f"CUPTI reported {len(ops)} copies and kernels for {len(plan)} issued ops")
    for planned, record in zip(plan, ops, strict=True):
        if planned.kind is not record.kind:
            raise RecordMismatch(
                f"op {planned.index} was issued as {planned.kind.label} but CUPTI recorded {record.kind.label}"
            )


def map_stream_ids(plan: Sequence[PlannedOp], ops: Sequence[DeviceRecord]) -> dict[int, int]:
    """CUPTI stream id -> 0-based stream index, learnt in issue order.

    The first op seen on a CUPTI stream names that stream's index; a CUPTI stream that later
    carries an op of another index (or two CUPTI streams for one index) is an error.
    """
    mapping: dict[int, int] = {}
    for planned, record in zip(plan, ops, strict=True):
        known = mapping.setdefault(record.stream_id, planned.stream)
        if known != planned.stream:
            raise RecordMismatch(
                f"CUPTI stream {record.stream_id} carried ops of streams {known} and {planned.stream}"
            )
    if len(set(mapping.values())) != len(mapping):
        raise RecordMismatch("one stream of the pipeline ran on several CUPTI streams")
    return mapping


def issuing_calls(ops: Sequence[DeviceRecord], apis: Sequence[ApiRecord]) -> list[ApiRecord | None]:
    """Per op, the outermost API call with its correlation id (None if CUPTI saw none)."""
    by_id: dict[int, ApiRecord] = {}
    for api in apis:
        held = by_id.get(api.correlation_id)
        if held is None or api.start_ns < held.start_ns:
            by_id[api.correlation_id] = api
    return [by_id.get(record.correlation_id) for record in ops]


def ready_times(plan: Sequence[PlannedOp], ops: Sequence[DeviceRecord], enqueue: Sequence[int]) -> list[int]:
    """When each op's stream reached it: issued, and the op before it in its stream finished.

    A stream runs its ops in order, so this follows from the records; it is where waiting
    (ready -> start) begins. Clipped to the op's start to stay causal under clock jitter.
    """
    last_end: dict[int, int] = {}
    ready = []
    for planned, record, issued in zip(plan, ops, enqueue, strict=True):
        since = max(last_end.get(planned.stream, issued), issued)
        ready.append(min(since, record.start_ns))
        last_end[planned.stream] = record.end_ns
    return ready


def host_spans(apis: Sequence[ApiRecord], linked: set[int], threads: set[int]) -> list[ApiRecord]:
    """API calls to draw on the host lane: the issuing calls and the waits, outermost only.

    A runtime call made through the driver shows up twice (runtime, then driver, inside
    it): only the outer one is kept.
    """
    wanted = [
        api
        for api in apis
        if api.thread_id in threads and (api.correlation_id in linked or "ynchronize" in api.name)
    ]
    wanted.sort(key=lambda api: (api.start_ns, -api.end_ns, not api.runtime))
    kept: list[ApiRecord] = []
    for api in wanted:
        if kept and api.start_ns >= kept[-1].start_ns and api.end_ns <= kept[-1].end_ns:
            continue
        kept.append(api)
    return kept


def cupti_ops(plan: Sequence[PlannedOp]) -> list[PlannedOp]:
    """The ops of `plan` that CUPTI reports as copies and kernels (every op but host copies and prefetches)."""
    return [op for op in plan if not is_side_op(op)]


def trace_from_cupti(
    plan: Sequence[PlannedOp],
    apis: Sequence[ApiRecord],
    devices: Iterable[DeviceRecord],
    config: PipelineConfig,
    meta: TraceMeta,
    host_steps: Sequence[HostStep] = (),
    side: SideTimes | None = None,
) -> Trace:
    """The trace of one run from the API records in its window and all device records seen.

    `apis` must hold only the calls made during the run (the caller cuts them by time), so
    that warm-up work before the run cannot be mistaken for it. `host_steps` (on CUPTI's
    clock) are host work that issued no op, such as allocating buffers inside the run.
    Each op's unit is its plan's; its times, bytes, host memory and name are what CUPTI
    reported, the plan's name standing in where CUPTI gives none (a copy).
    """
    side = side or SideTimes()
    timed = cupti_ops(plan)
    ops = run_device_records(devices, apis)
    check_matches_plan(timed, ops)
    streams = map_stream_ids(timed, ops)
    calls = issuing_calls(ops, apis)
    enqueue = [call.start_ns if call else -1 for call in calls]
    ready = ready_times(timed, ops, [e if e >= 0 else r.start_ns for e, r in zip(enqueue, ops, strict=True)])
    recorded = {planned.index: row for row, planned in enumerate(timed)}
    builder = TraceBuilder()
    for planned in plan:
        row = recorded.get(planned.index)
        if row is None:  # a host copy or a prefetch
            _add_side_op(builder, planned, side.span(planned.index))
            continue
        record, issued = ops[row], enqueue[row]
        ready_ns = ready[row] if issued >= 0 else -1
        _add_recorded_op(builder, planned, record, streams[record.stream_id], issued, ready_ns, config)
    _add_host_spans(builder, plan, apis, timed, ops, calls)
    for step in host_steps:
        builder.add(OpKind.API, Unit.HOST, step.start_ns, step.end_ns, name=step.name)
    return builder.build(replace(meta, timing="cupti"))


def _add_side_op(builder: TraceBuilder, planned: PlannedOp, span: Span) -> None:
    """A host copy or a prefetch, which CUPTI does not report: the runner's times for it."""
    builder.add(
        planned.kind, planned.unit, span.start_ns, span.end_ns, name=planned.name, stream=planned.stream,
        chunk=planned.chunk, enqueue_ns=span.ready_ns, ready_ns=span.ready_ns, nbytes=planned.nbytes,
        memory=planned.memory,
    )  # fmt: skip


def _add_recorded_op(
    builder: TraceBuilder,
    planned: PlannedOp,
    record: DeviceRecord,
    stream: int,
    issued: int,
    ready_ns: int,
    config: PipelineConfig,
) -> None:
    """A copy or kernel CUPTI reported: its times, bytes, host memory and name, the plan's unit."""
    copy = record.kind is not OpKind.KERNEL
    builder.add(
        record.kind,
        planned.unit,
        record.start_ns,
        record.end_ns,
        name=record.name or planned.name,
        stream=stream,
        chunk=planned.chunk,
        enqueue_ns=issued,
        ready_ns=ready_ns,
        nbytes=record.nbytes if copy else planned.nbytes,  # a kernel's bytes over the link are the plan's
        memory=host_memory_of(record, config.memory) if copy else planned.memory,
    )


def _add_host_spans(
    builder: TraceBuilder,
    plan: Sequence[PlannedOp],
    apis: Sequence[ApiRecord],
    timed: Sequence[PlannedOp],
    ops: Sequence[DeviceRecord],
    calls: Sequence[ApiRecord | None],
) -> None:
    """The host thread's API calls (see `host_spans`), each linked to the op it issued."""
    row_of = {record.correlation_id: timed[row].index for row, record in enumerate(ops)}
    threads = {call.thread_id for call in calls if call is not None}
    for api in host_spans(apis, set(row_of), threads):
        row = row_of.get(api.correlation_id, -1)
        builder.add(
            OpKind.API,
            Unit.HOST,
            api.start_ns,
            api.end_ns,
            name=api_name(api.name),
            chunk=plan[row].chunk if row >= 0 else -1,
            op=row,
        )
