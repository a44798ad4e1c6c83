"""Unified-memory migrations: their figures by direction, their finding, and the GPU they keep busy."""

from pathlib import Path

import pytest
from tracefactory import MS, US

from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.analysis.migrations import migration_name, migrations_text, no_copies_text
from overlapviz.core.findings import find_findings
from overlapviz.core.findings.program import MIGRATION_SHARE
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import OpKind, TraceBuilder, Unit
from overlapviz.importers.read import read_trace_file

DATA = Path(__file__).resolve().parents[1] / "data"
CUDA_PROGRAM = TraceMeta(backend="file", tool="Nsight Systems", process="./vector_add")


def faulting_trace(migrations: int, each_ns: int, *, kernel_ns: int = 1 * MS, gap_ns: int = 0):
    """A kernel, then `migrations` page-fault migrations back to back (half each way), then another kernel."""
    builder = TraceBuilder()
    builder.add(OpKind.KERNEL, Unit.COMPUTE, 0, kernel_ns, name="add", stream=0)
    clock = kernel_ns + gap_ns
    for i in range(migrations):
        word = "HtoD" if i % 2 == 0 else "DtoH"
        builder.add(OpKind.MIGRATION, Unit.MIGRATION, clock, clock + each_ns, name=migration_name(word), nbytes=4096)
        clock += each_ns
    builder.add(OpKind.KERNEL, Unit.COMPUTE, clock + gap_ns, clock + gap_ns + kernel_ns, name="add", stream=0)
    return builder.build(CUDA_PROGRAM)


def codes(trace):
    return {f.code: f.message for f in find_findings(trace)}


@pytest.mark.parametrize(
    ("name", "h2d", "d2h"),
    [
        # the counts and bytes the files' README gives for copy kinds 11 and 12
        ("balinski-gomory-2025.5-pageable-uvm.sqlite.gz", (34, 311_296), (33, 249_856)),
        ("clue-2023.2-managed-prefetch.sqlite.gz", (445, 37_822_464), (290, 39_526_400)),
    ],
)
def test_migrations_count_by_direction_with_their_bytes(name, h2d, d2h):
    moved = compute_metrics(read_trace_file(DATA / "nsys" / name)).migrations
    assert (moved["h2d"].count, moved["h2d"].bytes) == h2d
    assert (moved["d2h"].count, moved["d2h"].bytes) == d2h
    assert moved["h2d"].busy_ns > 0 and moved["d2h"].busy_ns > 0


def test_a_run_without_copies_names_its_migrations():
    metrics = compute_metrics(read_trace_file(DATA / "nsys/clue-2023.2-managed-prefetch.sqlite.gz"))
    assert metrics.copy_hidden_pct is None
    assert no_copies_text(metrics.migrations) == "no copies; 735 unified-memory migrations"
    assert migrations_text(metrics.migrations) == "735 unified-memory migrations (H2D 445, D2H 290)"
    data = metrics.to_dict()["migrations"]
    assert data["h2d"]["count"] == 445 and data["d2h"]["bytes"] == 39_526_400


def test_a_run_without_migrations_says_no_copies_alone():
    metrics = compute_metrics(read_trace_file(DATA / "torch/torch-pinned.json.gz"))
    assert no_copies_text(metrics.migrations) == "no copies" and migrations_text(metrics.migrations) is None
    assert metrics.to_dict()["migrations"]["h2d"] == {"count": 0, "busy_ms": 0.0, "bytes": 0, "bandwidth_gbps": None}


def test_migrations_for_a_tenth_of_the_run_are_found_with_their_count_time_and_share():
    # 2 ms of kernels and 1,792 migrations of 5 us (8.96 ms): 82% of the run
    message = codes(faulting_trace(1792, 5 * US))["page-fault-migrations"]
    assert "1,792 times on page faults (H2D 896 (3.5 MiB, 4.48 ms), D2H 896 (3.5 MiB, 4.48 ms))" in message
    assert "8.96 ms, 82% of the run" in message
    assert "cudaMemPrefetchAsync" in message and "cudaMemAdvise" in message


def test_migrations_under_a_tenth_of_the_run_are_no_finding():
    trace = faulting_trace(10, 10 * US, kernel_ns=1 * MS)  # 0.1 ms of 2.1 ms: 5%
    assert compute_metrics(trace).migrations["h2d"].count == 5
    assert MIGRATION_SHARE > 0.1 / 2.1
    assert "page-fault-migrations" not in codes(trace)


@pytest.mark.parametrize(
    "name", ["balinski-gomory-2025.5-pageable-uvm.sqlite.gz", "clue-2023.2-managed-prefetch.sqlite.gz"]
)
def test_real_programs_whose_migrations_take_a_sliver_of_the_run_are_not_told_of_them(name):
    # 0.12 of 13.3 ms; 7.4 of 361.6 ms (and prefetched)
    assert "page-fault-migrations" not in codes(read_trace_file(DATA / "nsys" / name))


def test_a_gpu_busy_migrating_pages_is_not_idle():
    # kernels 2 ms of a 12 ms run: idle but for the migrations, which ran 8 ms of it
    busy = faulting_trace(800, 10 * US, gap_ns=1 * MS)
    assert "gpu-idle" not in codes(busy)
    idle = TraceBuilder()
    idle.add(OpKind.KERNEL, Unit.COMPUTE, 0, 1 * MS, name="add", stream=0)
    idle.add(OpKind.KERNEL, Unit.COMPUTE, 11 * MS, 12 * MS, name="add", stream=0)
    assert "gpu-idle" in codes(idle.build(CUDA_PROGRAM))
