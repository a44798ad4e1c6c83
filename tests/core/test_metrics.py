import dataclasses
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tracefactory import MS, US, alloc_trace, pipeline_trace

from overlapviz.core.analysis.intervals import at_least_two_ns, covered_ns, union_intervals
from overlapviz.core.analysis.metrics import (
    Metrics,
    chunking_bound_ns,
    compute_metrics,
    copy_bandwidth_gbps,
    host_blocked_per_row,
    wall_ns,
)
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import OpKind, Trace, TraceBuilder, Unit

UNITS_2 = {OpKind.H2D: Unit.H2D_ENGINE, OpKind.KERNEL: Unit.COMPUTE, OpKind.D2H: Unit.D2H_ENGINE}
UNITS_1 = {OpKind.H2D: Unit.COPY_ENGINE, OpKind.KERNEL: Unit.COMPUTE, OpKind.D2H: Unit.COPY_ENGINE}


def build(spans, copy_engines=2, host=()):
    """spans: (kind, start, end, stream, chunk, bytes); host: (start, end, op index into spans)."""
    builder = TraceBuilder()
    units = UNITS_2 if copy_engines >= 2 else UNITS_1
    rows = [
        builder.add(kind, units[kind], start, end, name=kind.label, stream=stream, chunk=chunk, nbytes=nbytes)
        for kind, start, end, stream, chunk, nbytes in spans
    ]
    for start, end, op in host:
        builder.add(OpKind.API, Unit.HOST, start, end, name="cudaMemcpyAsync", op=rows[op] if op >= 0 else -1)
    return builder.build(TraceMeta(device_facts={"copy_engines": copy_engines}), origin_ns=0)


# Two chunks on two streams: H2D 2+2, kernels 3+3, D2H 1+1 (ns).
TWO_CHUNKS = [
    (OpKind.H2D, 0, 2, 0, 0, 1000),
    (OpKind.KERNEL, 2, 5, 0, 0, 0),
    (OpKind.D2H, 5, 6, 0, 0, 500),
    (OpKind.H2D, 2, 4, 1, 1, 1000),
    (OpKind.KERNEL, 5, 8, 1, 1, 0),
    (OpKind.D2H, 8, 9, 1, 1, 500),
]


def test_two_chunk_pipeline_metrics_are_exact():
    m = compute_metrics(build(TWO_CHUNKS))
    assert m.makespan_ns == 9
    assert m.serial_ns == 12
    # stages: H2D 4 + 3 + 1 = 8, kernel 6 + 2 + 1 = 9, D2H 2 + 2 + 3 = 7
    assert m.chunking_bound_ns == 9
    # the busiest engine, compute, is busy 2..8: 6 ns
    assert m.lower_bound_ns == 6
    assert m.efficiency_pct == pytest.approx(100 * 6 / 9)
    # copy time 6 ns; under kernels (2..8): the H2D 2..4 and the D2H 5..6, 3 ns
    assert m.copy_hidden_pct == pytest.approx(50.0)
    # two or more engines busy: 2..4 (H2D, kernel), 5..6 (kernel, D2H): 3 of 9 ns
    assert m.engines_together_pct == pytest.approx(100 * 3 / 9)
    assert m.time_saved_ns == 3
    assert m.speedup == pytest.approx(12 / 9)
    assert m.busy_ns == {"h2d": 4, "kernel": 6, "d2h": 2}
    assert m.utilisation == pytest.approx({"h2d": 4 / 9, "kernel": 6 / 9, "d2h": 2 / 9})
    assert m.bandwidth_gbps == pytest.approx({"h2d": 2000 / 4, "d2h": 1000 / 2})


def test_makespan_runs_from_first_device_start_to_last_device_end_ignoring_host_calls():
    trace = build(TWO_CHUNKS, host=[(0, 1, 0)])
    shifted = Trace(
        {**trace.columns, "start_ns": trace["start_ns"] + 100, "end_ns": trace["end_ns"] + 100},
        trace.names,
        trace.meta,
    )
    assert compute_metrics(shifted).makespan_ns == 9


def test_a_late_chunk_lowers_efficiency_not_below_zero():
    # same ops, but the second chunk runs 1 ns later: makespan 10, compute still busy 6 ns
    late = [(kind, start + 1, end + 1, s, c, b) if c == 1 else (kind, start, end, s, c, b)
            for kind, start, end, s, c, b in TWO_CHUNKS]
    m = compute_metrics(build(late))
    assert m.makespan_ns == 10
    assert m.lower_bound_ns == 6
    assert m.efficiency_pct == pytest.approx(60.0)


@pytest.mark.parametrize(
    ("copy_engines", "expected"),
    [
        # two engines: H2D 6 + 1 + 3 = 10, kernel 2 + 3 + 3 = 8, D2H 6 + 3 + 1 = 10
        (2, 10),
        # one engine: max(6 + 6, 2 + 3 + 3)
        (1, 12),
    ],
)
def test_chunking_bound_for_copy_heavy_chunks(copy_engines, expected):
    spans = [
        (OpKind.H2D, 0, 3, 0, 0, 1), (OpKind.KERNEL, 3, 4, 0, 0, 0), (OpKind.D2H, 4, 7, 0, 0, 1),
        (OpKind.H2D, 3, 6, 1, 1, 1), (OpKind.KERNEL, 6, 7, 1, 1, 0), (OpKind.D2H, 7, 10, 1, 1, 1),
    ]
    assert chunking_bound_ns(build(spans, copy_engines)) == expected


def test_chunking_bound_with_one_engine_is_kernel_bound_when_kernels_dominate():
    trace = pipeline_trace(4, 4, h2d_ns=1 * MS, kernel_ns=5 * MS, d2h_ns=2 * MS, copy_engines=1)
    # max(4 + 8, 20 + 1 + 2)
    assert chunking_bound_ns(trace) == 23 * MS


def test_chunking_bound_ignores_a_missing_stage():
    spans = [(OpKind.H2D, 0, 2, 0, 0, 1), (OpKind.D2H, 2, 4, 0, 0, 1),
             (OpKind.H2D, 2, 4, 1, 1, 1), (OpKind.D2H, 4, 6, 1, 1, 1)]
    # H2D: 4 + 0 + 2; D2H: 4 + 2 + 0
    assert chunking_bound_ns(build(spans)) == 6


def test_one_chunk_hides_nothing_and_its_bound_is_its_busiest_engine():
    m = compute_metrics(pipeline_trace(1, 4))
    assert m.chunking_bound_ns == m.serial_ns == m.makespan_ns == 3 * MS
    assert m.copy_hidden_pct == 0.0
    assert m.engines_together_pct == 0.0
    assert m.lower_bound_ns == 1 * MS
    assert m.speedup == pytest.approx(1.0)


def test_a_copy_only_run_has_nothing_to_hide_under():
    spans = [(OpKind.H2D, 0, 2, 0, 0, 1), (OpKind.D2H, 2, 4, 0, 0, 1),
             (OpKind.H2D, 2, 4, 1, 1, 1), (OpKind.D2H, 4, 6, 1, 1, 1)]
    m = compute_metrics(build(spans))
    assert m.copy_hidden_pct == 0.0
    # yet both copy engines were busy together 2..4
    assert m.engines_together_pct == pytest.approx(100 * 2 / 6)


def test_with_one_copy_engine_both_directions_are_one_engine():
    spans = [(OpKind.H2D, 0, 2, 0, 0, 1), (OpKind.D2H, 1, 3, 1, 1, 1)]  # overlapping: impossible on one engine
    m = compute_metrics(build(spans, copy_engines=1))
    assert m.engines_together_pct == 0.0  # one engine is never busy "together" with itself
    assert m.lower_bound_ns == 3  # the union of its copies, not 2 + 2
    assert m.efficiency_pct == pytest.approx(100.0)


def test_kernels_sharing_the_device_never_push_a_share_past_100():
    trace = pipeline_trace(4, 4, h2d_ns=100 * US, kernel_ns=5 * MS, d2h_ns=100 * US, concurrent_kernels=True)
    m = compute_metrics(trace)
    assert m.makespan_ns < m.chunking_bound_ns  # the old fill-and-drain bound is beaten here
    assert m.efficiency_pct is not None and m.efficiency_pct <= 100.0
    # running side by side, the kernels cover the run once, not four times over
    assert m.busy_ns["kernel"] == 20 * MS
    assert m.utilisation["kernel"] <= 1.0
    assert m.utilisation["kernel"] == pytest.approx((m.makespan_ns - 200 * US) / m.makespan_ns, rel=0.05)


def test_a_device_left_idle_gives_low_efficiency_and_negative_time_saved():
    trace = pipeline_trace(8, 4, h2d_ns=2 * US, kernel_ns=2 * US, d2h_ns=2 * US, call_ns=50 * US)
    m = compute_metrics(trace)
    assert m.makespan_ns > m.serial_ns
    assert m.time_saved_ns < 0
    assert m.efficiency_pct is not None and 0.0 <= m.efficiency_pct < 10.0


def test_at_least_two_counts_unions_not_pieces_and_touching_is_not_together():
    a = union_intervals([0, 10], [5, 15])
    b = union_intervals([5], [12])  # touches a at 5, overlaps 10..12
    c = union_intervals([11], [20])
    assert at_least_two_ns([a, b]) == 2
    assert at_least_two_ns([a, b, c]) == 5  # 10..12 (a, b, and c from 11) then 12..15 (a, c)
    assert at_least_two_ns([a]) == 0


@settings(database=None, deadline=None, max_examples=200)
@given(
    durations=st.lists(
        st.tuples(st.integers(0, 1000), st.integers(0, 1000), st.integers(0, 1000)), min_size=1, max_size=12
    ),
    copy_engines=st.sampled_from([1, 2, 3]),
)
def test_every_share_stays_within_0_and_100_and_bounds_stay_ordered(durations, copy_engines):
    spans, t = [], 0
    for chunk, stage_durations in enumerate(durations):
        for kind, d in zip((OpKind.H2D, OpKind.KERNEL, OpKind.D2H), stage_durations, strict=True):
            spans.append((kind, t, t + d, 0, chunk, 1))
            t += d
    m = compute_metrics(build(spans, copy_engines))
    assert m.chunking_bound_ns <= m.serial_ns
    busiest = max(m.busy_ns.values()) if copy_engines >= 2 else max(
        m.busy_ns["h2d"] + m.busy_ns["d2h"], m.busy_ns["kernel"]
    )
    assert m.chunking_bound_ns >= busiest
    assert m.lower_bound_ns <= min(busiest, m.makespan_ns)
    for share in (m.copy_hidden_pct, m.engines_together_pct, m.efficiency_pct):
        assert share is None or 0.0 <= share <= 100.0
    if len(durations) == 1:
        assert m.chunking_bound_ns == m.serial_ns


def test_host_blocked_counts_only_the_part_of_a_call_while_its_own_op_ran():
    spans = [(OpKind.H2D, 4, 12, 0, 0, 8), (OpKind.D2H, 0, 8, 1, 1, 8), (OpKind.KERNEL, 20, 30, 0, 0, 0)]
    host = [
        (0, 10, 0),  # op ran from 4: blocked 6
        (5, 10, 1),  # op already running when the call began: blocked 5
        (10, 15, 2),  # op started after the call returned: not blocked
        (15, 40, -1),  # a synchronise call issues nothing: not counted
    ]
    trace = build(spans, host=host)
    m = compute_metrics(trace)
    assert m.host_blocked_ns == 11
    assert host_blocked_per_row(trace).tolist() == [0, 0, 0, 6, 5, 0, 0]
    # issuing: each call up to the next call's start, less its blocked part (never below 0)
    assert m.host_issue_ns == max(0, 5 - 0 - 6) + max(0, 10 - 5 - 5) + (15 - 10)


def test_a_pageable_pipeline_blocks_the_host_for_every_copy():
    trace = pipeline_trace(4, 4, memory="pageable")
    m = compute_metrics(trace)
    assert m.host_blocked_ns == m.busy_ns["h2d"] + m.busy_ns["d2h"]
    pinned = compute_metrics(pipeline_trace(4, 4, memory="pinned"))
    assert pinned.host_blocked_ns == 0
    assert pinned.host_issue_ns == 12 * 5 * US


def test_host_links_to_missing_or_non_device_rows_are_ignored():
    builder = TraceBuilder()
    copy = builder.add(OpKind.H2D, Unit.H2D_ENGINE, 0, 10, name="h2d", stream=0, chunk=0, nbytes=10)
    sync = builder.add(OpKind.API, Unit.HOST, 0, 10, name="cudaDeviceSynchronize")
    builder.add(OpKind.API, Unit.HOST, 0, 10, name="cudaMemcpyAsync", op=sync)
    builder.add(OpKind.API, Unit.HOST, 0, 10, name="cudaMemcpyAsync", op=99)
    builder.add(OpKind.API, Unit.HOST, 0, 10, name="cudaMemcpyAsync", op=copy)
    m = compute_metrics(builder.build(TraceMeta()))
    assert m.host_blocked_ns == 10
    assert m.host_issue_ns == 0


def test_a_trace_without_host_spans_has_nothing_blocked():
    m = compute_metrics(pipeline_trace(4, 4, host=False))
    assert m.host_blocked_ns == 0
    assert m.host_issue_ns == 0
    assert m.makespan_ns > 0


def test_a_trace_without_copies_has_no_bandwidth():
    spans = [(OpKind.KERNEL, 0, 5, 0, 0, 0), (OpKind.KERNEL, 5, 9, 1, 1, 0)]
    trace = build(spans)
    m = compute_metrics(trace)
    assert m.bandwidth_gbps == {"h2d": None, "d2h": None}
    assert m.busy_ns == {"h2d": 0, "kernel": 9, "d2h": 0}
    assert np.isnan(copy_bandwidth_gbps(trace)).all()


def test_an_empty_trace_gives_zeros_not_errors():
    m = compute_metrics(TraceBuilder().build(TraceMeta()))
    assert (m.makespan_ns, m.serial_ns, m.lower_bound_ns, m.host_blocked_ns) == (0, 0, 0, 0)
    assert m.copy_hidden_pct is None and m.efficiency_pct is None
    assert m.engines_together_pct == 0.0
    assert m.speedup == 1.0
    assert m.utilisation == {"h2d": 0.0, "kernel": 0.0, "d2h": 0.0}
    assert m.bandwidth_gbps == {"h2d": None, "d2h": None}


def test_copy_bandwidth_per_row():
    builder = TraceBuilder()
    builder.add(OpKind.H2D, Unit.H2D_ENGINE, 0, 1000, name="h2d", nbytes=55_000)
    builder.add(OpKind.KERNEL, Unit.COMPUTE, 0, 1000, name="k")
    builder.add(OpKind.D2H, Unit.D2H_ENGINE, 0, 2000, name="d2h", nbytes=11_000)
    builder.add(OpKind.D2H, Unit.D2H_ENGINE, 5, 5, name="d2h", nbytes=10)  # instant: no bandwidth
    builder.add(OpKind.API, Unit.HOST, 0, 10, name="cudaMemcpyAsync", op=0)
    bandwidth = copy_bandwidth_gbps(builder.build(TraceMeta()))
    assert bandwidth[0] == pytest.approx(55.0)
    assert bandwidth[2] == pytest.approx(5.5)
    assert np.isnan(bandwidth[[1, 3, 4]]).all()


def test_to_dict_is_json_ready_and_in_milliseconds():
    m = compute_metrics(pipeline_trace(4, 4, h2d_ns=1_500_000))
    data = m.to_dict()
    json.dumps(data)
    assert data["makespan_ms"] == pytest.approx(m.makespan_ns / 1e6)
    assert data["busy_ms"] == {"h2d": 6.0, "kernel": 4.0, "d2h": 4.0}
    assert data["host_issue_ms"] == pytest.approx(0.06)
    assert set(data) == {
        "makespan_ms", "serial_ms", "lower_bound_ms", "best_for_chunking_ms", "copy_hidden_pct",
        "engines_together_pct", "efficiency_pct", "time_saved_ms", "speedup", "host_blocked_ms",
        "busy_ms", "utilisation", "bandwidth_gbps", "host_issue_ms", "wall_ms", "host_alloc_ms", "pinned_bytes",
        "comm_hidden_pct",
        "migrations",
    }
    assert data["comm_hidden_pct"] is None  # no communication in a pipeline run


def test_wall_runs_from_the_first_host_call_to_the_last_and_alloc_counts_only_allocation_calls():
    m = compute_metrics(alloc_trace())
    assert m.makespan_ns == 3 * MS + 20  # the device part alone, as before
    assert m.wall_ns == 180 * MS + 3 * MS + 30 + 50 * MS  # allocations, the pipeline and its sync, the frees
    assert m.host_alloc_ns == 230 * MS  # not the issuing calls, not the sync
    data = m.to_dict()
    assert data["wall_ms"] == pytest.approx(233.00003) and data["host_alloc_ms"] == 230.0


def test_without_allocation_calls_alloc_is_zero_and_wall_is_the_host_extent():
    m = compute_metrics(alloc_trace(before=(), after=()))
    assert m.host_alloc_ns == 0
    assert m.wall_ns == 3 * MS + 30  # the first call starts 10 ns before its op; the sync ends with the last op


def test_wall_is_the_makespan_without_host_spans():
    m = compute_metrics(pipeline_trace(4, 4, host=False))
    assert m.wall_ns == m.makespan_ns > 0
    assert m.host_alloc_ns == 0


def test_alloc_names_with_cupti_suffixes_and_nested_calls_count_once():
    builder = TraceBuilder()
    builder.add(OpKind.API, Unit.HOST, 0, 100, name="cudaMallocHost_v3020")
    builder.add(OpKind.API, Unit.HOST, 10, 90, name="cuMemHostAlloc")  # the driver call inside it
    builder.add(OpKind.API, Unit.HOST, 100, 130, name="first touch")
    builder.add(OpKind.API, Unit.HOST, 130, 200, name="cudaLaunchKernel")
    builder.add(OpKind.H2D, Unit.H2D_ENGINE, 140, 150, name="malloc")  # a device op by that name is no allocation
    m = compute_metrics(builder.build(TraceMeta()))
    assert m.host_alloc_ns == 130
    assert m.wall_ns == 200


def test_metrics_are_frozen():
    m = compute_metrics(pipeline_trace(2, 2))
    assert isinstance(m, Metrics)
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.makespan_ns = 0  # type: ignore[misc]


def test_union_intervals_merges_overlapping_and_touching_ones():
    starts, ends = union_intervals([5, 0, 2, 10, 20], [8, 3, 5, 12, 20])
    assert starts.tolist() == [0, 10, 20]
    assert ends.tolist() == [8, 12, 20]


@settings(database=None, deadline=None, max_examples=200)
@given(
    spans=st.lists(st.tuples(st.integers(0, 60), st.integers(0, 20)), max_size=15),
    windows=st.lists(st.tuples(st.integers(-5, 90), st.integers(0, 40)), min_size=1, max_size=5),
)
def test_covered_ns_matches_counting_unit_steps(spans, windows):
    starts = [s for s, _ in spans]
    ends = [s + d for s, d in spans]
    union_s, union_e = union_intervals(starts, ends)
    a = np.array([w for w, _ in windows])
    b = a + np.array([d for _, d in windows])
    covered = covered_ns(union_s, union_e, a, b)
    for lo, hi, got in zip(a, b, covered, strict=True):
        steps = sum(any(s <= t < e for s, e in zip(starts, ends, strict=True)) for t in range(lo, hi))
        assert got == steps


def test_wall_counts_work_not_the_ranges_around_it():
    b = TraceBuilder()
    b.add(OpKind.ANNOTATION, Unit.HOST, 0, 1000, name="step 0", device=-1)
    op = b.add(OpKind.KERNEL, Unit.COMPUTE, 300, 600, name="k", stream=0)
    b.add(OpKind.API, Unit.HOST, 200, 250, name="cudaLaunchKernel", op=op)
    assert wall_ns(b.build(TraceMeta(), origin_ns=0)) == 400


def test_a_direction_whose_copies_record_no_bytes_has_an_unknown_bandwidth():
    # H2D copies with their bytes, D2H copies without (as some traces write them), no D2D at all
    spans = [(OpKind.H2D, 0, 2, 0, 0, 2000), (OpKind.KERNEL, 2, 5, 0, 0, 0), (OpKind.D2H, 5, 6, 0, 0, 0)]
    metrics = compute_metrics(build(spans))
    assert metrics.bandwidth_gbps == {"h2d": 1000.0, "d2h": None}
    assert metrics.busy_ns["d2h"] == 1
    assert json.loads(json.dumps(metrics.to_dict()))["bandwidth_gbps"]["d2h"] is None


def test_a_copy_without_recorded_bytes_has_no_bandwidth_of_its_own():
    spans = [(OpKind.H2D, 0, 2, 0, 0, 2000), (OpKind.D2H, 5, 6, 0, 0, 0)]
    bandwidth = copy_bandwidth_gbps(build(spans))
    assert bandwidth[0] == 1000.0 and np.isnan(bandwidth[1])
