"""The findings about how real programs issue their work, on small built traces and the real files."""

from pathlib import Path

import pytest

from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.config import PipelineConfig
from overlapviz.core.findings import find_findings
from overlapviz.core.findings.program import legacy_default_stream, small_copies, staged_peer_copy
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import MemoryKind, OpKind, TraceBuilder, Unit
from overlapviz.importers.read import read_trace_file
from overlapviz.session import run_pipeline

DATA = Path(__file__).resolve().parent.parent / "data"
US = 1000


def codes(trace):
    return [finding.code for finding in find_findings(trace)]


# --- the legacy default stream ------------------------------------------------------------


def legacy_mix(meta):
    """A kernel on stream 1, then a copy on stream 0 that waits for it, then a kernel on 1 that waits for the copy."""
    b = TraceBuilder()
    b.add(OpKind.KERNEL, Unit.COMPUTE, 0, 1000 * US, name="k", stream=1, ready_ns=0)
    b.add(OpKind.H2D, Unit.H2D_ENGINE, 1000 * US, 2000 * US, name="h2d", stream=0, ready_ns=100 * US, nbytes=1 << 20,
          memory=MemoryKind.PINNED)  # fmt: skip
    b.add(OpKind.KERNEL, Unit.COMPUTE, 2000 * US, 3000 * US, name="k", stream=1, ready_ns=1100 * US)
    return b.build(meta, origin_ns=0)


def test_ops_held_back_by_the_legacy_default_stream_are_found_with_their_wait():
    trace = legacy_mix(TraceMeta(legacy_streams=(0,)))
    [finding] = legacy_default_stream(trace, compute_metrics(trace))
    # the copy waited 0.9 ms for stream 1's kernel (the H2D engine was free), the second kernel 0.9 ms for the copy
    assert finding.message.startswith("2 device ops waited 1.80 ms in all (the run took 3.00 ms) for work on another")
    assert "1 op ran on the legacy default stream" in finding.message and "cudaStreamNonBlocking" in finding.message
    assert finding.rows.tolist() == [1, 2]
    assert "legacy-default-stream" in codes(trace)


def test_the_same_waits_without_a_legacy_stream_are_not_blamed_on_it():
    trace = legacy_mix(TraceMeta())
    assert legacy_default_stream(trace, compute_metrics(trace)) == []


def test_everything_on_the_legacy_stream_is_left_to_single_stream():
    trace = legacy_mix(TraceMeta(legacy_streams=(0, 1)))
    assert legacy_default_stream(trace, compute_metrics(trace)) == []


def test_waits_for_the_same_engine_are_the_engines_not_the_legacy_streams():
    b = TraceBuilder()
    b.add(OpKind.KERNEL, Unit.COMPUTE, 0, 1000 * US, name="k", stream=1, ready_ns=0)
    b.add(OpKind.KERNEL, Unit.COMPUTE, 1000 * US, 2000 * US, name="k", stream=0, ready_ns=100 * US)
    trace = b.build(TraceMeta(legacy_streams=(0,)), origin_ns=0)
    assert legacy_default_stream(trace, compute_metrics(trace)) == []


@pytest.mark.parametrize(
    "name", ["nsys/mordred-2021-no-enums.sqlite.gz", "nsys/test-cuda-2026.1-pinned-streams.sqlite.gz",
             "torch/torch-pinned.json.gz"]
)  # fmt: skip
def test_no_real_trace_here_mixes_the_legacy_stream_with_others(name):
    assert "legacy-default-stream" not in codes(read_trace_file(DATA / name))


def test_a_real_program_all_on_the_legacy_stream_with_next_to_no_copies_is_not_told_to_use_streams():
    # the hash join's copies ran 0.09 ms of its 15 ms: nothing a stream could hide under its kernels
    codes = {f.code for f in find_findings(read_trace_file(DATA / "nsys/mordred-2021-no-enums.sqlite.gz"))}
    assert "single-stream" not in codes and "small-copies" in codes


# --- many small copies --------------------------------------------------------------------


def test_the_real_hash_join_copies_many_small_pieces():
    trace = read_trace_file(DATA / "nsys/mordred-2021-no-enums.sqlite.gz")
    [finding] = small_copies(trace, compute_metrics(trace))
    assert finding.message.startswith(
        "45 H2D copies of less than 64 KiB each (123.2 KiB in all, 2.7 KiB on average) took 0.773 ms in cudaMemcpy"
        " and the copies (4% of what the program waited for): each paid a fixed cost of at least 8.67 µs"
    )
    assert finding.message.endswith("they would pay it once: about 0.382 ms less.")
    assert len(finding.rows) == 90  # the copies and the calls that issued them


@pytest.mark.parametrize("name", ["torch/torch-dataloader.json.gz", "torch/torch-train-step.json.gz",
                                  "nsys/test-cuda-2026.1-pinned-streams.sqlite.gz"])  # fmt: skip
def test_a_few_small_copies_or_large_ones_are_no_finding(name):
    trace = read_trace_file(DATA / name)
    assert small_copies(trace, compute_metrics(trace)) == []


def small_copy_loop(count, nbytes, call_us=10, kernel_us=1000):
    """`count` copies of `nbytes`, each issued by a call of `call_us` µs and taking 2 µs, then a kernel."""
    b = TraceBuilder()
    t = 0
    for _ in range(count):
        op = b.add(OpKind.H2D, Unit.H2D_ENGINE, t + 5 * US, t + 7 * US, name="h2d", stream=0, nbytes=nbytes,
                   memory=MemoryKind.PINNED)  # fmt: skip
        b.add(OpKind.API, Unit.HOST, t, t + call_us * US, name="cudaMemcpyAsync_v3020", op=op)
        t += call_us * US
    b.add(OpKind.KERNEL, Unit.COMPUTE, t, t + kernel_us * US, name="k", stream=0)
    return b.build(TraceMeta(), origin_ns=0)


def test_small_copies_say_their_time_and_what_one_batch_would_save():
    trace = small_copy_loop(20, 4096)
    [finding] = small_copies(trace, compute_metrics(trace))
    assert finding.message == (
        "20 H2D copies of less than 64 KiB each (80.0 KiB in all, 4.0 KiB on average) took 0.200 ms in"
        " cudaMemcpyAsync and the copies (17% of what the program waited for): each paid a fixed cost of at least"
        " 10.0 µs whatever its size, more than its bytes took. Packed into one buffer and copied at once, they"
        " would pay it once: about 0.190 ms less."
    )


@pytest.mark.parametrize(("count", "nbytes"), [(15, 4096), (20, 64 * 1024)])
def test_too_few_or_not_small_copies_are_no_finding(count, nbytes):
    trace = small_copy_loop(count, nbytes)
    assert small_copies(trace, compute_metrics(trace)) == []


def test_small_copies_that_take_a_sliver_of_the_run_are_no_finding():
    trace = small_copy_loop(20, 4096, kernel_us=100_000)  # 0.2 ms of small copies beside a 100 ms kernel
    assert small_copies(trace, compute_metrics(trace)) == []


# --- a peer copy staged through the host ------------------------------------------------


def staged(devices=(0, 1), sizes=(16 << 20, 16 << 20), h2d_called_us=None, synchronized=True):
    b = TraceBuilder()
    b.add(OpKind.KERNEL, Unit.COMPUTE, 0, 1000 * US, name="k", stream=0, device=devices[0])
    b.add(OpKind.D2H, Unit.D2H_ENGINE, 1000 * US, 2300 * US, name="d2h", stream=0, device=devices[0], nbytes=sizes[0],
          memory=MemoryKind.PINNED)  # fmt: skip
    b.add(OpKind.H2D, Unit.H2D_ENGINE, 2400 * US, 3700 * US, name="h2d", stream=1, device=devices[1], nbytes=sizes[1],
          memory=MemoryKind.PINNED)  # fmt: skip
    b.add(OpKind.KERNEL, Unit.COMPUTE, 3700 * US, 4000 * US, name="k", stream=1, device=devices[1])
    if h2d_called_us is not None:
        if synchronized:  # the host waits for the D2H copy's bytes
            b.add(OpKind.API, Unit.HOST, 1500 * US, 2305 * US, name="cudaStreamSynchronize_v3020")
        b.add(OpKind.API, Unit.HOST, h2d_called_us * US, (h2d_called_us + 5) * US, name="cudaMemcpyAsync", op=2)
    return b.build(TraceMeta(), origin_ns=0)


def test_a_copy_from_gpu_to_gpu_through_host_memory_is_found():
    trace = staged()
    [finding] = staged_peer_copy(trace, compute_metrics(trace))
    assert finding.message.startswith(
        "Data went from one GPU to another through host memory once (GPU 0 to GPU 1): a D2H copy, then an H2D"
        " copy of the same bytes (16.8 MB in all; 2.60 ms of copying, 65% of the run)."
    )
    assert "cudaMemcpyPeerAsync" in finding.message and finding.rows.tolist() == [1, 2]
    assert "staged-peer-copy" in codes(trace)


@pytest.mark.parametrize(("devices", "sizes"), [((0, 0), (16 << 20, 16 << 20)), ((0, 1), (16 << 20, 8 << 20))])
def test_copies_to_and_from_one_gpu_or_of_other_sizes_are_no_staging(devices, sizes):
    trace = staged(devices, sizes)
    assert staged_peer_copy(trace, compute_metrics(trace)) == []


def test_an_h2d_copy_issued_once_the_d2h_copy_ended_can_be_staging():
    trace = staged(h2d_called_us=2350)
    [finding] = staged_peer_copy(trace, compute_metrics(trace))
    assert finding.rows.tolist() == [1, 2]


def test_an_h2d_copy_issued_later_by_a_host_that_never_waited_for_the_d2h_copy_is_no_staging():
    trace = staged(h2d_called_us=2350, synchronized=False)  # the host issued on, never holding the bytes
    assert staged_peer_copy(trace, compute_metrics(trace)) == []


def test_an_h2d_copy_issued_before_the_d2h_copy_ended_sends_other_bytes():
    trace = staged(h2d_called_us=500)  # the host had not got the D2H copy's bytes yet
    assert staged_peer_copy(trace, compute_metrics(trace)) == []


@pytest.mark.parametrize("iters", [1860, 100])  # with 100 the first chunks are out before the last are issued
@pytest.mark.parametrize("peer_access", [True, False])
def test_the_two_gpu_pipeline_is_no_staging_though_it_copies_one_size_both_ways(peer_access, iters):
    config = PipelineConfig(gpus=2, peer_access=peer_access, iters=iters)
    trace = run_pipeline(config, "sim", "h200x2-nvlink").trace
    assert staged_peer_copy(trace, compute_metrics(trace)) == []


@pytest.mark.parametrize("name", ["nsys/balinski-gomory-2025.5-pageable-uvm.sqlite.gz", "torch/torch-pinned.json.gz"])
def test_real_programs_on_one_gpu_stage_nothing(name):
    trace = read_trace_file(DATA / name)
    assert staged_peer_copy(trace, compute_metrics(trace)) == []
