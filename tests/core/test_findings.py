import dataclasses

import numpy as np
import pytest
from tracefactory import MS, US, alloc_trace, pipeline_trace

from overlapviz.core.analysis.metrics import compute_metrics, issuing_calls
from overlapviz.core.findings import (
    COPY_QUEUE_SHARE,
    Finding,
    find_findings,
)
from overlapviz.core.findings.finding import rows_of as rows_of_groups
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import MemoryKind, OpKind, TraceBuilder, Unit


def codes(trace):
    return [f.code for f in find_findings(trace)]


def the(code, trace):
    found = [f for f in find_findings(trace) if f.code == code]
    assert len(found) == 1, f"expected one {code!r} finding, got {codes(trace)}"
    return found[0]


def rows_of(trace, *kinds):
    return set(np.flatnonzero(trace.mask(*kinds)).tolist())


# --- general -----------------------------------------------------------------------------------


def test_empty_and_host_only_traces_have_no_findings():
    assert find_findings(TraceBuilder().build(TraceMeta())) == []
    builder = TraceBuilder()
    builder.add(OpKind.API, Unit.HOST, 0, 100, name="cudaDeviceSynchronize")
    assert find_findings(builder.build(TraceMeta())) == []


def test_given_metrics_are_used_as_they_are():
    trace = pipeline_trace(8, 1)
    assert find_findings(trace, compute_metrics(trace)) == find_findings(trace)
    assert find_findings(pipeline_trace(16, 4)) != find_findings(trace)


def test_findings_are_frozen_and_point_at_real_rows():
    trace = pipeline_trace(8, 4, memory="pageable")
    found = find_findings(trace)
    assert found
    for finding in found:
        assert isinstance(finding, Finding)
        assert len(finding.rows) and all(0 <= r < len(trace) for r in finding.rows)
        assert finding.rows.tolist() == sorted(set(finding.rows.tolist()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        found[0].code = "x"  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        found[0].rows[0] = 1


def test_findings_keep_their_rows_as_a_read_only_copy_and_compare_by_value():
    given = np.array([3, 1], dtype=np.int64)
    finding = Finding("code", "message", given)
    given[0] = 7
    assert finding.rows.dtype == np.int64 and finding.rows.tolist() == [3, 1]
    assert finding == Finding("code", "message", [3, 1]) and hash(finding) == hash(Finding("code", "message", (3, 1)))
    assert finding != Finding("code", "message", [3, 2]) and finding != Finding("code", "message", [3])
    assert finding != Finding("other", "message", [3, 1])


def test_rows_of_gives_every_row_once_in_order_as_an_array():
    rows = rows_of_groups(np.array([5, 2, 5]), np.array([], dtype=np.intp), [2, 0])
    assert rows.dtype == np.int64 and rows.tolist() == [0, 2, 5]
    assert rows_of_groups().tolist() == []


# --- host-blocked-pageable ---------------------------------------------------------------------


def test_pageable_copies_that_block_the_host_fire():
    trace = pipeline_trace(8, 4, memory="pageable")
    finding = the("host-blocked-pageable", trace)
    # 16 copies of 1 ms each, the host blocked in every one; the run takes 24.075 ms
    assert "blocked 16.0 ms (66% of the run) inside cudaMemcpyAsync" in finding.message
    assert "pageable" in finding.message and "cudaMallocHost" in finding.message
    copy_calls = {r for r in range(len(trace)) if trace["kind"][r] == OpKind.API and trace["op"][r] >= 0
                  and trace["kind"][trace["op"][r]] != OpKind.KERNEL}
    assert set(finding.rows) == copy_calls | rows_of(trace, OpKind.H2D, OpKind.D2H)


def test_pinned_copies_do_not_fire_the_pageable_rule():
    assert "host-blocked-pageable" not in codes(pipeline_trace(8, 4, memory="pinned"))


def test_pageable_copies_that_block_under_a_hundredth_of_the_run_do_not_fire():
    # tiny pageable copies next to long kernels: the host is blocked 0.64 ms of an 80 ms run
    trace = pipeline_trace(8, 4, memory="pageable", h2d_ns=40 * US, d2h_ns=40 * US, kernel_ns=10 * MS)
    assert "host-blocked-pageable" not in codes(trace)


def test_pageable_copies_that_block_a_hundredth_of_the_run_or_more_fire():
    # the same with copies of 100 us: blocked 1.6 ms of an 81 ms run, 2%
    trace = pipeline_trace(8, 4, memory="pageable", h2d_ns=100 * US, d2h_ns=100 * US, kernel_ns=10 * MS)
    assert "(2% of the run)" in the("host-blocked-pageable", trace).message


def test_cupti_call_names_lose_their_version_suffix():
    builder = TraceBuilder()
    copy = builder.add(OpKind.H2D, Unit.H2D_ENGINE, 0, 10 * MS, name="memcpy", memory=MemoryKind.PAGEABLE,
                       stream=0, chunk=0, nbytes=1)
    builder.add(OpKind.API, Unit.HOST, 0, 10 * MS, name="cudaMemcpyAsync_v3020", op=copy)
    finding = the("host-blocked-pageable", builder.build(TraceMeta()))
    assert "inside cudaMemcpyAsync:" in finding.message
    assert "blocked 10.0 ms (100% of the run)" in finding.message


# --- single-stream -----------------------------------------------------------------------------


def test_one_stream_with_several_chunks_fires():
    trace = pipeline_trace(8, 1)
    finding = the("single-stream", trace)
    assert "ran on one stream" in finding.message
    assert "24 device ops of the 8 chunks" in finding.message
    assert "24.0 ms against 24.0 ms" in finding.message
    assert set(finding.rows) == rows_of(trace, OpKind.H2D, OpKind.KERNEL, OpKind.D2H)


def test_the_legacy_stream_is_named_as_such():
    finding = the("single-stream", pipeline_trace(8, 4, legacy=True))
    assert "ran on the legacy default stream" in finding.message
    assert "Non-blocking streams" in finding.message


def test_several_streams_do_not_fire_single_stream():
    assert "single-stream" not in codes(pipeline_trace(8, 4))


def test_one_chunk_on_one_stream_does_not_fire_single_stream():
    assert "single-stream" not in codes(pipeline_trace(1, 1))


# --- copy-queue --------------------------------------------------------------------------------


def two_copies(second_start, ready=0, unit=Unit.H2D_ENGINE, copy_engines=2):
    builder = TraceBuilder()
    builder.add(OpKind.H2D, unit, 0, 10 * MS, name="h2d", stream=0, chunk=0, ready_ns=0, nbytes=1)
    builder.add(OpKind.H2D, unit, second_start, second_start + 10 * MS, name="h2d", stream=1, chunk=1,
                ready_ns=ready, nbytes=1)
    return builder.build(TraceMeta(device_facts={"copy_engines": copy_engines}))


def test_a_copy_waiting_for_its_engine_fires_copy_queue():
    finding = the("copy-queue", two_copies(second_start=10 * MS))
    assert finding.rows.tolist() == [1]
    assert "1 H2D copy, ready to run, waited 10.0 ms in all (the run took 20.0 ms)" in finding.message
    assert "H2D engine" in finding.message and "one copy at a time" in finding.message


def test_only_time_with_the_engine_busy_counts_as_queueing():
    # ready at 0, started at 12 ms, but the engine was free from 10 ms: 10 ms queued for the engine
    assert the("copy-queue", two_copies(second_start=12 * MS)).message.count("waited 10.0 ms") == 1
    # ready only at 12 ms: it never waited for the engine
    assert "copy-queue" not in codes(two_copies(second_start=12 * MS, ready=12 * MS))


def test_queueing_in_a_pipeline_that_reached_its_chunking_bound_is_no_finding():
    # copies queue on their engine in every busy pipeline; with the run near the best its
    # chunking allows nothing was lost to it
    trace = pipeline_trace(16, 4)
    metrics = compute_metrics(trace)
    assert metrics.time_saved_ns >= 0.9 * (metrics.serial_ns - metrics.chunking_bound_ns)
    assert "copy-queue" not in codes(trace)


def test_each_direction_gets_its_own_copy_queue_finding():
    trace = pipeline_trace(8, 4, copy_engines=1, kernel_ns=500 * US, order="breadth")
    messages = [f.message for f in find_findings(trace) if f.code == "copy-queue"]
    assert [m.split(" copies")[0] for m in messages] == ["7 H2D", "7 D2H"]
    assert all("single copy engine (it carries both directions)" in m for m in messages)


def test_copy_queue_needs_ready_times():
    assert "copy-queue" not in codes(pipeline_trace(16, 4, ready=False))


def test_copy_queue_under_its_threshold_does_not_fire():
    # one stream: every copy is ready only when the op before it is done, so none waits
    assert "copy-queue" not in codes(pipeline_trace(8, 1))
    wait = int(COPY_QUEUE_SHARE * 100 * MS) - 1
    builder = TraceBuilder()
    builder.add(OpKind.H2D, Unit.H2D_ENGINE, 0, 10 * MS, name="h2d", stream=0, chunk=0, ready_ns=0)
    builder.add(OpKind.H2D, Unit.H2D_ENGINE, 10 * MS, 20 * MS, name="h2d", stream=1, chunk=1,
                ready_ns=10 * MS - wait)
    builder.add(OpKind.KERNEL, Unit.COMPUTE, 20 * MS, 100 * MS, name="k", stream=1, chunk=1)
    assert "copy-queue" not in codes(builder.build(TraceMeta()))


# --- kernel-bound / copy-bound -----------------------------------------------------------------


def test_heavy_kernels_fire_kernel_bound():
    trace = pipeline_trace(16, 4, kernel_ns=3 * MS)
    finding = the("kernel-bound", trace)
    assert finding.message.startswith("Kernels limit this run: the compute unit was busy 96% of it")
    assert "(48.0 ms of 50.0 ms) against 16.0 ms for the busiest copy direction (H2D)" in finding.message
    assert set(finding.rows) == rows_of(trace, OpKind.KERNEL)
    assert "copy-bound" not in codes(trace)


@pytest.mark.parametrize(("heavy", "kind", "label"), [("h2d_ns", OpKind.H2D, "H2D"), ("d2h_ns", OpKind.D2H, "D2H")])
def test_heavy_copies_fire_copy_bound_naming_the_direction(heavy, kind, label):
    trace = pipeline_trace(16, 4, **{heavy: 3 * MS})
    finding = the("copy-bound", trace)
    assert finding.message.startswith(f"{label} copies limit this run: the {label} engine was busy 96%")
    assert set(finding.rows) == rows_of(trace, kind)
    assert "kernel-bound" not in codes(trace)


def test_with_one_copy_engine_the_copies_count_together():
    trace = pipeline_trace(8, 4, copy_engines=1, kernel_ns=500 * US, order="breadth")
    finding = the("copy-bound", trace)
    assert finding.message.startswith("Copies limit this run: the single copy engine, shared by both")
    assert set(finding.rows) == rows_of(trace, OpKind.H2D, OpKind.D2H)
    # kernels twice either direction, but only as busy as both together
    trace = pipeline_trace(8, 4, copy_engines=1, kernel_ns=2 * MS, order="breadth")
    assert "kernel-bound" not in codes(trace)
    assert "kernel-bound" in codes(pipeline_trace(8, 4, copy_engines=2, kernel_ns=2 * MS, order="breadth"))


def test_balanced_stages_fire_neither_bound():
    found = codes(pipeline_trace(16, 4, kernel_ns=1100 * US))
    assert "kernel-bound" not in found and "copy-bound" not in found


def test_no_bound_without_overlap_or_with_one_chunk():
    assert "kernel-bound" not in codes(pipeline_trace(16, 1, kernel_ns=3 * MS))
    assert "kernel-bound" not in codes(pipeline_trace(1, 4, kernel_ns=3 * MS))


# --- too-few-chunks ----------------------------------------------------------------------------


def test_two_chunks_on_four_streams_fire_too_few_chunks():
    trace = pipeline_trace(2, 4)
    finding = the("too-few-chunks", trace)
    assert "cost at least 2.00 ms (50% of the run): with only 2 chunks" in finding.message
    first_h2d = min(rows_of(trace, OpKind.H2D), key=lambda r: trace["start_ns"][r])
    last_d2h = max(rows_of(trace, OpKind.D2H), key=lambda r: trace["end_ns"][r])
    assert finding.rows.tolist() == sorted([first_h2d, last_d2h])


def test_one_chunk_with_streams_to_spare_fires_too_few_chunks():
    assert "with only 1 chunk," in the("too-few-chunks", pipeline_trace(1, 4)).message


def test_enough_chunks_do_not_fire_too_few_chunks():
    assert "too-few-chunks" not in codes(pipeline_trace(16, 4))


def test_too_few_chunks_needs_more_than_one_stream():
    assert "too-few-chunks" not in codes(pipeline_trace(2, 1))
    assert "too-few-chunks" not in codes(pipeline_trace(2, 4, legacy=True))


def test_short_fill_and_drain_do_not_fire_too_few_chunks():
    # copies are tiny next to the kernels: filling and draining cost 0.2 ms of 40 ms
    assert "too-few-chunks" not in codes(pipeline_trace(4, 4, kernel_ns=10 * MS, h2d_ns=100 * US, d2h_ns=100 * US))


def test_waiting_for_other_reasons_is_not_blamed_on_chunks():
    # two streams for eight chunks: the run is long because of the streams, not the chunks
    trace = pipeline_trace(8, 2)
    m = compute_metrics(trace)
    assert m.makespan_ns - max(m.busy_ns.values()) >= 0.25 * m.makespan_ns
    assert "too-few-chunks" not in codes(trace)


# --- too-many-chunks ---------------------------------------------------------------------------


def tiny_chunks(chunks, call_ns=10 * US, op_ns=2 * US, **kwargs):
    return pipeline_trace(chunks, 4, h2d_ns=op_ns, kernel_ns=op_ns, d2h_ns=op_ns, call_ns=call_ns, **kwargs)


def test_per_call_cost_of_many_tiny_chunks_fires_too_many_chunks():
    trace = tiny_chunks(1024)
    finding = the("too-many-chunks", trace)
    assert "issuing 3,072 API calls for 1,024 chunks, about 10.0 µs each" in finding.message
    assert "the device sat idle" in finding.message
    assert "Fewer, larger chunks" in finding.message
    calls = {r for r in range(len(trace)) if trace["kind"][r] == OpKind.API and trace["op"][r] >= 0}
    assert set(finding.rows) == calls


def test_cheap_calls_do_not_fire_too_many_chunks():
    assert "too-many-chunks" not in codes(pipeline_trace(16, 4))
    assert "too-many-chunks" not in codes(tiny_chunks(1024, call_ns=100))


def test_a_device_waiting_for_the_host_fires_too_many_chunks():
    # the host spends 35 ms of a 50 ms run issuing two kernels (15 ms up to the second call,
    # 20 ms in it); the device sits idle 30 ms between them, so the run ends far past its ideal
    builder = TraceBuilder()
    first = builder.add(OpKind.KERNEL, Unit.COMPUTE, 0, 10 * MS, name="k", stream=0, chunk=0)
    second = builder.add(OpKind.KERNEL, Unit.COMPUTE, 40 * MS, 50 * MS, name="k", stream=1, chunk=1)
    builder.add(OpKind.API, Unit.HOST, 0, 1, name="cuLaunchKernel", op=first)
    builder.add(OpKind.API, Unit.HOST, 15 * MS, 35 * MS, name="cuLaunchKernel", op=second)
    finding = the("too-many-chunks", builder.build(TraceMeta(config={"chunks": 2, "streams": 2})))
    assert "The host spent 35.0 ms (70% of the run)" in finding.message
    assert "the device sat idle 20.0 ms (40%)" in finding.message


def test_another_programs_trace_is_launch_bound_not_chunked():
    builder = TraceBuilder()  # a trace without pipeline settings: another program's
    first = builder.add(OpKind.KERNEL, Unit.COMPUTE, 0, 10 * MS, name="k", stream=0)
    second = builder.add(OpKind.KERNEL, Unit.COMPUTE, 40 * MS, 50 * MS, name="k", stream=1)
    builder.add(OpKind.API, Unit.HOST, 0, 1, name="cudaLaunchKernel", op=first)
    builder.add(OpKind.API, Unit.HOST, 15 * MS, 35 * MS, name="cudaLaunchKernel", op=second)
    trace = builder.build(TraceMeta())
    finding = the("launch-bound", trace)
    assert "CUDA Graph" in finding.message and "chunk" not in finding.message
    assert "too-many-chunks" not in codes(trace) and "too-few-chunks" not in codes(trace)


def test_another_programs_single_stream_speaks_of_ops_not_chunks():
    trace = pipeline_trace(8, 1).with_meta(config=None)
    finding = the("single-stream", trace)
    assert finding.message.startswith("All 24 device ops ran on one stream")
    assert "chunk" not in finding.message


def test_time_inside_pageable_copies_is_not_taken_for_per_call_cost():
    # pageable D2H calls wait for their stream's kernel: long calls, but no per-call cost
    trace = pipeline_trace(64, 4, memory="pageable", kernel_ns=3 * MS, h2d_ns=100 * US, d2h_ns=100 * US)
    calls = np.flatnonzero(issuing_calls(trace))
    assert trace.duration_ns[calls].sum() > 0.5 * compute_metrics(trace).makespan_ns
    assert "too-many-chunks" not in codes(trace)


def test_one_chunk_never_asks_for_fewer_chunks():
    assert "too-many-chunks" not in codes(tiny_chunks(1, call_ns=1 * MS))


def test_a_host_bound_run_is_not_blamed_on_a_stage():
    # kernels are the busiest stage and the stages overlap, so kernel-bound would apply,
    # but the host issuing the calls is what sets the pace
    trace = pipeline_trace(256, 4, h2d_ns=10 * US, kernel_ns=20 * US, d2h_ns=10 * US, call_ns=10 * US)
    metrics = compute_metrics(trace)
    assert metrics.makespan_ns < 0.9 * metrics.serial_ns
    assert metrics.busy_ns["kernel"] >= 1.2 * max(metrics.busy_ns["h2d"], metrics.busy_ns["d2h"])
    assert "too-many-chunks" in codes(trace)
    assert not {"kernel-bound", "copy-bound"} & set(codes(trace))


# --- alloc-per-run -----------------------------------------------------------------------------


def test_pinned_allocation_inside_the_run_fires_and_names_the_calls():
    trace = alloc_trace()
    finding = the("alloc-per-run", trace)
    assert finding.message.startswith(
        "Getting and giving back host memory took 230.0 ms, 99% of the 233.0 ms the program waited, against"
        " 3.00 ms for the copies and kernels (cudaMallocHost 180.0 ms, cudaFreeHost 50.0 ms): cudaMallocHost"
        " pins every page of a buffer before it returns"
    )
    assert "once" in finding.message and "reuse them" in finding.message
    assert "freed with cudaFreeHost" in finding.message
    allocations = {r for r in range(len(trace)) if trace.name_of(r) in ("cudaMallocHost", "cudaFreeHost")}
    assert set(finding.rows) == allocations and len(allocations) == 4


def test_pageable_allocation_inside_the_run_fires_with_its_own_reason():
    trace = alloc_trace(before=(("malloc", 60 * US), ("first touch", 40 * MS)), after=(("free", 1 * MS),))
    finding = the("alloc-per-run", trace)
    assert "(malloc 60.0 µs, first touch 40.0 ms, free 1.00 ms)" in finding.message
    assert "hands fresh pages over only when the program first touches them" in finding.message
    assert "pins every page" not in finding.message
    assert "cudaMallocHost" in finding.message and "cudaFreeHost" in finding.message  # the advice still names them


def test_allocation_that_is_a_small_share_of_the_wall_time_does_not_fire():
    # 0.5 ms of allocation against a 3 ms pipeline: 14% of what the program waited
    trace = alloc_trace(before=(("cudaMallocHost", MS // 4),), after=(("cudaFreeHost", MS // 4),))
    assert compute_metrics(trace).host_alloc_ns == MS // 2
    assert "alloc-per-run" not in codes(trace)


def test_a_run_without_allocation_calls_does_not_fire_the_alloc_rule():
    assert "alloc-per-run" not in codes(alloc_trace(before=(), after=()))
    assert "alloc-per-run" not in codes(pipeline_trace(16, 4))


def waiting_copies(second_start_ns):
    """Two H2D copies on one engine, both ready at 0; the second starts at `second_start_ns`."""
    builder = TraceBuilder()
    builder.add(OpKind.H2D, Unit.H2D_ENGINE, 0, 10 * MS, name="c", stream=0, chunk=0, ready_ns=0)
    builder.add(OpKind.H2D, Unit.H2D_ENGINE, second_start_ns, second_start_ns + 10 * MS, name="c", stream=1,
                chunk=1, ready_ns=0)
    return builder.build(TraceMeta())


def test_a_wait_with_the_engine_idle_is_a_false_dependency():
    trace = waiting_copies(20 * MS)  # the engine stands idle from 10 to 20 ms
    finding = the("false-dependency", trace)
    assert finding.rows.tolist() == [1]
    # the first 10 µs of a wait are the GPU's own start latency, not scheduling
    assert finding.message.startswith("1 H2D copy, ready to run, waited 9.99 ms in all")


def test_a_wait_for_a_busy_engine_is_no_false_dependency():
    assert "false-dependency" not in codes(waiting_copies(10 * MS))


def test_on_one_stream_a_wait_with_the_engine_idle_is_no_false_dependency():
    builder = TraceBuilder()
    builder.add(OpKind.H2D, Unit.H2D_ENGINE, 0, 10 * MS, name="c", stream=0, chunk=0, ready_ns=0)
    builder.add(OpKind.H2D, Unit.H2D_ENGINE, 20 * MS, 30 * MS, name="c", stream=0, chunk=1, ready_ns=0)
    assert "false-dependency" not in codes(builder.build(TraceMeta()))
    # the same two copies on two streams of one GPU, or each on a GPU of its own: only the first is one
    builder = TraceBuilder()
    builder.add(OpKind.H2D, Unit.H2D_ENGINE, 0, 10 * MS, name="c", stream=0, chunk=0, ready_ns=0)
    builder.add(OpKind.H2D, Unit.H2D_ENGINE, 20 * MS, 30 * MS, name="c", stream=1, chunk=1, ready_ns=0, device=1)
    assert "false-dependency" in codes(waiting_copies(20 * MS))
    assert "false-dependency" not in codes(builder.build(TraceMeta()))


@pytest.mark.parametrize(
    ("facts", "fermi"),
    [
        ({"delayed_kernel_signal": True}, True),  # the model of a Fermi GPU says so
        ({"compute_capability": "2.0"}, True),  # a real Fermi GPU
        ({"compute_capability": "9.0"}, False),  # Hopper
        ({"delayed_kernel_signal": False}, False),
        ({}, False),
    ],
)
def test_the_false_dependency_speaks_of_fermi_only_on_fermi(facts, fermi):
    trace = waiting_copies(20 * MS).with_meta(device_facts=facts)
    message = the("false-dependency", trace).message
    assert ("Fermi" in message) is fermi
    assert "false dependency" in message
