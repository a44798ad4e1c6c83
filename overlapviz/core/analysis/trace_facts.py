"""What the findings measure in a trace, apart from the sentences they make of it.

Each function is one measurement (a count, a wait, a bound) that a finding, a callout on
the timeline or a test can ask for; the thresholds and the words are `overlapviz.core.findings`'.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.analysis.busy_unions import kind_union_pieces, kinds_union
from overlapviz.core.analysis.intervals import (
    IntArray,
    IntpArray,
    covered_ns,
    uncovered_up_to_pieces,
    union_intervals,
    union_with_pieces,
)
from overlapviz.core.analysis.metrics import Metrics
from overlapviz.core.config import ConfigError, PipelineConfig
from overlapviz.core.trace.answer_cache import kept_per_trace, once_per_trace
from overlapviz.core.trace.frozen_columns import count_distinct, distinct, few_distinct
from overlapviz.core.trace.spans import DEVICE_KINDS, OpKind, Trace, Unit, equal_to_any


def delays_kernel_signals(trace: Trace) -> bool:
    """Whether the device holds back back-to-back kernels' completion signals (Fermi, compute capability 2.x).

    The model says so in its device facts; a real GPU is known by its compute capability.
    """
    facts = trace.meta.device_facts
    if not isinstance(facts, dict):
        return False
    if facts.get("delayed_kernel_signal") is True:
        return True
    capability = facts.get("compute_capability")
    return isinstance(capability, str) and capability.split(".")[0] == "2"


# The time a GPU takes to start an op its queue has handed over, even with nothing in the way:
# a few microseconds on current GPUs (the H200's launch latency, docs/model.md). Waits up to it
# are the hardware's own pace, not scheduling; in a program of thousands of small ops they add up.
START_LATENCY_NS = 10_000


@once_per_trace  # read by the rule's callouts and the tests
def idle_unit_waits(trace: Trace) -> npt.NDArray[np.int64]:
    """Per row: how long a device op, ready to run, waited while no op ran on its unit (prefetches: 0).

    A unit is one GPU's: an engine of another GPU busy is no reason to wait.

    The first `START_LATENCY_NS` of each wait are left out: no op starts sooner than that.
    """
    waits = np.zeros(len(trace), dtype=np.int64)
    rows, waited = idle_waits_by_row(trace)
    waits[rows] = waited
    return waits


@kept_per_trace  # the false-dependency rule reads only the ops that waited: no pass over every row
def idle_waits_by_row(trace: Trace) -> tuple[npt.NDArray[np.intp], IntArray]:
    """The device ops with an `idle_unit_waits` above 0, and those waits (read-only; each unit's rows in order)."""
    rows, waits = [np.zeros(0, dtype=np.intp)], [np.zeros(0, dtype=np.int64)]
    # A prefetch waits for the driver's migrations, which need not follow the engine it is drawn on.
    device = trace.rows(*(kind for kind in DEVICE_KINDS if kind != OpKind.PREFETCH))
    for on_unit in _each_unit(trace, device, scheduling=True):
        start = trace["start_ns"][on_unit]
        unit_s, unit_e, piece = _unit_union(trace, on_unit, start)
        ready = trace["ready_ns"][on_unit]
        waited = (ready >= 0) & (start > ready)
        if not waited.all():  # in a pipeline nearly every op waits: no gathers for those
            on_unit, ready, piece = on_unit[waited], ready[waited], piece[waited]
        # each op starts inside its own piece of the union: only the time before that piece can be idle
        wait = uncovered_up_to_pieces(unit_s, unit_e, ready, piece)
        wait -= START_LATENCY_NS
        idle = wait > 0
        rows.append(on_unit[idle])
        waits.append(wait[idle])
    found = np.concatenate(rows), np.concatenate(waits)
    for array in found:
        array.flags.writeable = False
    return found


def _unit_union(trace: Trace, on_unit: npt.NDArray[np.intp], start: IntArray) -> tuple[IntArray, IntArray, IntpArray]:
    """The union of the ops `on_unit` (starting at `start`) and each op's piece: its kind's, where all are of one."""
    kind = OpKind(int(trace["kind"][on_unit[0]]))
    if trace.rows(kind).size == on_unit.size and bool((trace["kind"][on_unit] == kind).all()):
        return kind_union_pieces(trace, kind)  # the same rows: the union the metrics made already
    return union_with_pieces(start, trace["end_ns"][on_unit])


def on_gpus_of_several_streams(trace: Trace, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
    """Per row of `rows`: a device op of a GPU whose ops ran on two or more streams (one has nothing to mix up)."""
    if rows.size == 0:
        return np.zeros(0, dtype=bool)
    device = trace.rows(*DEVICE_KINDS)
    on_stream = trace["stream"][device] >= 0
    gpus, streams = trace["device"][device][on_stream], trace["stream"][device][on_stream]
    several = [gpu for gpu in few_distinct(gpus) if _two_or_more(streams[gpus == gpu])]
    found: npt.NDArray[np.bool_] = trace.device_mask[rows] & equal_to_any(trace["device"][rows], several)
    return found


def _two_or_more(values: npt.NDArray[Any]) -> bool:
    """Whether `values` holds two or more distinct values (no sort: one comparison with the first)."""
    return values.size > 1 and bool((values != values[0]).any())


@kept_per_trace  # the stream and pipeline findings each ask
def chunk_count(trace: Trace) -> int:
    """Distinct chunks among the device ops (or the most ops of one kind when unlabelled)."""
    chunks = trace["chunk"][trace.rows(*DEVICE_KINDS)]
    labelled = chunks >= 0
    if labelled.any():
        return count_distinct(chunks if labelled.all() else chunks[labelled])
    return max((trace.rows(kind).size for kind in (OpKind.H2D, OpKind.KERNEL, OpKind.D2H)), default=0)


def streams_available(trace: Trace) -> int:
    """Streams the pipeline could use: from its config when known, else those in the trace."""
    config = pipeline_config(trace)
    if config.get("stream_kind") == "legacy":
        return 1
    streams = config.get("streams")
    if isinstance(streams, int) and not isinstance(streams, bool):
        return streams
    return len(distinct(trace["stream"][trace.device_mask]))


def bottleneck_stage(trace: Trace, metrics: Metrics) -> tuple[str, int]:
    """Return the busiest stage's name and busy time (a shared copy engine is one stage)."""
    busy = metrics.busy_ns
    stages = {"kernels": busy["kernel"]}
    if trace.copy_engines < 2:
        stages["copies"] = busy["h2d"] + busy["d2h"]
    else:
        stages.update({"H2D copies": busy["h2d"], "D2H copies": busy["d2h"]})
    name = max(stages, key=stages.__getitem__)
    return name, stages[name]


@once_per_trace
def copy_engine_waits(trace: Trace) -> npt.NDArray[np.int64]:
    """Per row: how long a copy, ready to run, waited while its engine (its GPU's) ran other copies."""
    waits = np.zeros(len(trace), dtype=np.int64)
    copies = trace.rows(OpKind.H2D, OpKind.D2H)
    for on_engine in _each_unit(trace, copies):
        start = trace["start_ns"][on_engine]
        union_s, union_e = union_intervals(start, trace["end_ns"][on_engine])
        ready = trace["ready_ns"][on_engine]
        waited = (ready >= 0) & (start > ready)
        waits[on_engine[waited]] = covered_ns(union_s, union_e, ready[waited], start[waited])
    return waits


def _each_unit(trace: Trace, indices: npt.NDArray[np.intp], *, scheduling: bool = False) -> list[npt.NDArray[np.intp]]:
    """The rows `indices` (sorted) split by the hardware unit that ran them, each GPU's apart, as sorted row indices.

    With `scheduling`, communication counts on the compute unit: NCCL's kernels and the
    compute share the SMs. The split reads only the rows' own units and GPUs, not whole columns.
    """
    units, gpus = trace["unit"][indices], trace["device"][indices]
    if scheduling:
        units = np.where(units == Unit.COMMUNICATION, np.int8(Unit.COMPUTE), units)
    split = []
    several_gpus = _two_or_more(gpus)
    for gpu in few_distinct(gpus):
        on_gpu, of_gpu = (indices[gpus == gpu], units[gpus == gpu]) if several_gpus else (indices, units)
        split += [on_gpu[of_gpu == unit] for unit in few_distinct(of_gpu)]
    return split


def idle_while_issuing_ns(trace: Trace, calls: npt.NDArray[np.intp]) -> int:
    """Time inside the run with no device op running while the host was issuing `calls`."""
    return idle_while_ns(trace, issuing_parts(trace, calls)) if calls.size else 0


def idle_while_ns(trace: Trace, parts: tuple[IntArray, IntArray]) -> int:
    """Time inside the run with no device op running while one of `parts` (start and end times) was."""
    ran_s, ran_e = kinds_union(trace, *DEVICE_KINDS)
    if ran_s.size < 2 or parts[0].size == 0:
        return 0
    issue_s, issue_e = union_intervals(*parts)
    return int(covered_ns(issue_s, issue_e, ran_e[:-1], ran_s[1:]).sum())


def issuing_parts(trace: Trace, calls: npt.NDArray[np.intp]) -> tuple[IntArray, IntArray]:
    """Each issuing call up to the moment its op started: after that the host is blocked."""
    call_s = trace["start_ns"][calls]
    call_e = np.minimum(trace["end_ns"][calls], np.maximum(call_s, trace["start_ns"][trace["op"][calls]]))
    return call_s, call_e


def pipeline_settings(trace: Trace) -> PipelineConfig | None:
    """The pipeline a run of overlapviz's ran, validated; None for another program's trace or stale settings."""
    data = pipeline_config(trace)
    if not data:
        return None
    try:
        return PipelineConfig.from_dict(dict(data))
    except (ConfigError, TypeError, ValueError):
        return None


def is_pipeline(trace: Trace) -> bool:
    """Whether the trace is a run of overlapviz's pipeline (it carries its settings), not another program's."""
    return bool(pipeline_config(trace))


def pipeline_config(trace: Trace) -> dict[str, Any]:
    """The pipeline settings a run of overlapviz's carries; {} for another program's trace."""
    config = trace.meta.config
    return config if isinstance(config, dict) else {}
