"""NCCL kernels are communication, not compute: on real distributed PyTorch traces, and nowhere else.

The figures are checked against the raw JSON events, measured here without overlapviz's code:
the union of the compute kernels' intervals against the copies' and the collectives'.
"""

import gzip
import json
from collections import Counter
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from overlapviz.commands.main import main
from overlapviz.core.files.trace_export import chrome_dict
from overlapviz.core.files.trace_import import trace_from_chrome
from overlapviz.core.trace.communication import collective_of
from overlapviz.core.trace.lanes import lanes_of
from overlapviz.core.trace.spans import OpKind, Unit
from overlapviz.importers import to_trace
from overlapviz.importers.read import read_trace_file
from overlapviz.session import analyse
from overlapviz.view.span_text import describe_span

DATA = Path(__file__).resolve().parents[1] / "data"
NCCL_ALLREDUCE = "torch-real/hta-nccl-a100-rank0-of-2.json.gz"  # 21 NCCL kernels with Kineto's collective args
NCCL_SAMPLED = ("torch-real/hta-sampled-rank0-of-128.json.gz", "torch-real/hta-sampled-rank1-of-128.json.gz")
NO_NCCL = [
    *(f"torch/{path.name}" for path in sorted((DATA / "torch").glob("*.json.gz"))),
    # the WSL export holds no GPU activity at all: nothing to show
    *(f"nsys/{path.name}" for path in sorted((DATA / "nsys").glob("*.sqlite.gz")) if "no-gpu" not in path.name),
    "torch-real/hta-alexnet-stream-wait.json.gz",
    "torch-real/hta-event-sync-multi-stream.json.gz",
]
# What overlapviz made of these files before communication was a kind of its own (commit b98f477):
# copy time hidden, engines together, efficiency (percent) and lower bound (ms).
BEFORE = {
    "torch/torch-blocking.json.gz": (0.0, 0.0, 29.071, 2.442054),
    "torch/torch-dataloader.json.gz": (0.0, 0.0, 2.168, 0.677977),
    "torch/torch-one-stream.json.gz": (0.0, 0.0, 37.025, 2.442811),
    "torch/torch-pageable.json.gz": (0.0, 0.0, 52.225, 16.611288),
    "torch/torch-pinned.json.gz": (22.066, 57.855, 64.546, 2.591812),
    "torch/torch-train-step.json.gz": (0.0, 0.0, 35.552, 4.027087),
    "torch/torch-wait-stream-sync.json.gz": (0.0, 0.0, 31.282, 2.459012),
    "torch/torch-wait-stream.json.gz": (0.0, 0.0, 30.981, 2.446529),
    "nsys/balinski-gomory-2025.5-pageable-uvm.sqlite.gz": (0.0, 0.0, 35.241, 4.677816),
    "nsys/clue-2023.2-managed-prefetch.sqlite.gz": (None, 0.0, 9.499, 34.347487),
    "nsys/mordred-2021-no-enums.sqlite.gz": (0.0, 0.0, 56.831, 8.54442),
    "nsys/nvfuser-2024.6-nvtx.sqlite.gz": (0.0, 0.0, 0.078, 0.390428),
    "nsys/test-cuda-2026.1-pinned-streams.sqlite.gz": (0.0, 0.0, 60.558, 61.322687),
    "torch-real/hta-alexnet-stream-wait.json.gz": (0.0, 0.0, 0.43, 55.503),
    "torch-real/hta-event-sync-multi-stream.json.gz": (None, 0.0, 1.892, 0.369),
}  # fmt: skip


@cache
def result_of(relative):
    return analyse(read_trace_file(DATA / relative))


@cache
def raw_kernels_and_copies(relative):
    """(start, end, name, args) in µs of the file's kernel events, and of its H2D and D2H copies."""
    events = json.loads(gzip.decompress((DATA / relative).read_bytes()))["traceEvents"]
    spans = [e for e in events if e.get("ph") == "X"]
    kernels = [(e["ts"], e["ts"] + e["dur"], e["name"], e.get("args", {})) for e in spans if e.get("cat") == "kernel"]
    copies = [(e["ts"], e["ts"] + e["dur"]) for e in spans
              if e.get("cat") == "gpu_memcpy" and ("HtoD" in e["name"] or "DtoH" in e["name"])]  # fmt: skip
    return kernels, copies


def merged(intervals):
    """The union of [start, end] intervals, as disjoint sorted pairs."""
    union = []
    for start, end in sorted(intervals):
        if union and start <= union[-1][1]:
            union[-1][1] = max(union[-1][1], end)
        else:
            union.append([start, end])
    return union


def overlap(a, b):
    """How long the interval a and the disjoint intervals b run at once."""
    return sum(max(0.0, min(a[1], end) - max(a[0], start)) for start, end in b)


def expected_shares(relative):
    """Copy time hidden (per copy, summed) and communication hidden (of the collectives' union), in percent."""
    kernels, copies = raw_kernels_and_copies(relative)
    compute = merged([(s, e) for s, e, name, _ in kernels if not name.startswith("nccl")])
    talking = merged([(s, e) for s, e, name, _ in kernels if name.startswith("nccl")])
    copy_total = sum(e - s for s, e in copies)
    copy_hidden = 100 * sum(overlap(c, compute) for c in copies) / copy_total if copy_total else None
    comm_total = sum(e - s for s, e in talking)
    return copy_hidden, 100 * sum(overlap(c, compute) for c in talking) / comm_total


def test_every_nccl_kernel_is_communication_and_every_other_kernel_compute():
    trace = result_of(NCCL_ALLREDUCE).trace
    kernels, _ = raw_kernels_and_copies(NCCL_ALLREDUCE)
    comm = np.flatnonzero(trace.mask(OpKind.COMMUNICATION))
    assert comm.size == sum(name.startswith("nccl") for _, _, name, _ in kernels) == 21
    assert int(trace.mask(OpKind.KERNEL).sum()) == len(kernels) - 21
    assert (trace["unit"][comm] == Unit.COMMUNICATION).all()
    assert not any(trace.name_of(int(row)).startswith("nccl") for row in np.flatnonzero(trace.mask(OpKind.KERNEL)))


def test_the_collective_kineto_names_travels_with_each_span_into_its_tooltip():
    trace = result_of(NCCL_ALLREDUCE).trace
    kernels, _ = raw_kernels_and_copies(NCCL_ALLREDUCE)
    comm = np.flatnonzero(trace.mask(OpKind.COMMUNICATION))
    named = Counter(collective_of(trace.name_of(int(row))) for row in comm)
    assert named == Counter(args["Collective name"] for _, _, name, args in kernels if name.startswith("nccl"))
    assert named == {"allreduce": 15, "broadcast": 6}
    row = int(next(r for r in comm if collective_of(trace.name_of(int(r))) == "allreduce"))
    text = describe_span(trace, row)
    assert text.startswith("Communication: ncclKernel_AllReduce_RING_LL_Sum_float(")
    assert "communication: NCCL collective (allreduce) in process group 0" in text.splitlines()


def test_without_collective_args_the_kernel_name_alone_makes_communication():
    trace = result_of(NCCL_SAMPLED[0]).trace  # HTA's sampled ranks keep no collective args
    comm = np.flatnonzero(trace.mask(OpKind.COMMUNICATION))
    assert comm.size == 10
    assert {collective_of(trace.name_of(int(row))) for row in comm} == {None}
    assert "communication: NCCL kernel" in describe_span(trace, int(comm[0])).splitlines()


@pytest.mark.parametrize("relative", [NCCL_ALLREDUCE, *NCCL_SAMPLED])
def test_copy_and_communication_hidden_match_the_raw_events(relative):
    copy_hidden, comm_hidden = expected_shares(relative)
    metrics = result_of(relative).metrics
    assert metrics.comm_hidden_pct == pytest.approx(comm_hidden, abs=1e-3)
    if copy_hidden is None:
        assert metrics.copy_hidden_pct is None
    else:
        assert metrics.copy_hidden_pct == pytest.approx(copy_hidden, abs=1e-3)


def test_copy_time_hidden_counts_compute_kernels_only():
    # rank 0's copies ran under the NCCL kernels: counted as kernels, 98% of their time looked hidden
    metrics = result_of(NCCL_SAMPLED[0]).metrics
    assert metrics.copy_hidden_pct < 5
    assert metrics.to_dict()["comm_hidden_pct"] == pytest.approx(expected_shares(NCCL_SAMPLED[0])[1], abs=1e-3)


def test_communication_has_its_busy_time_and_a_lane_of_its_own():
    result = result_of(NCCL_ALLREDUCE)
    trace, data = result.trace, result.metrics.to_dict()
    durations = trace.duration_ns[trace.mask(OpKind.COMMUNICATION)]
    assert data["busy_ms"]["communication"] == pytest.approx(durations.sum() / 1e6)
    assert set(data["utilisation"]) == {"h2d", "kernel", "d2h", "communication"}
    assert [lane.key for lane in lanes_of(trace) if lane.unit is Unit.COMMUNICATION] == ["unit-communication"]


def test_communication_round_trips_through_overlapviz_own_files():
    trace = result_of(NCCL_ALLREDUCE).trace
    again = trace_from_chrome(json.loads(json.dumps(chrome_dict(trace))))
    comm = trace.mask(OpKind.COMMUNICATION)
    assert np.array_equal(again.mask(OpKind.COMMUNICATION), comm)
    assert np.array_equal(again["unit"], trace["unit"])
    rows = np.flatnonzero(comm)
    assert [again.name_of(int(r)) for r in rows] == [trace.name_of(int(r)) for r in rows]
    assert analyse(again).metrics.comm_hidden_pct == pytest.approx(result_of(NCCL_ALLREDUCE).metrics.comm_hidden_pct)


@pytest.mark.parametrize("relative", NO_NCCL)
def test_a_trace_without_nccl_has_no_communication_and_the_figures_it_always_had(relative, monkeypatch):
    result = result_of(relative)
    data = result.metrics.to_dict()
    assert not result.trace.mask(OpKind.COMMUNICATION).any()
    assert data["comm_hidden_pct"] is None
    assert set(data["busy_ms"]) == set(data["utilisation"]) == {"h2d", "kernel", "d2h"}
    assert all(lane.unit is not Unit.COMMUNICATION for lane in lanes_of(result.trace))
    figures = ("copy_hidden_pct", "engines_together_pct", "efficiency_pct", "lower_bound_ms")
    assert tuple(data[key] for key in figures) == BEFORE[relative]
    # the same file with no kernel taken for communication gives every figure and finding alike
    monkeypatch.setattr(to_trace, "communication_rows", lambda a, rows: np.zeros(rows.size, dtype=bool))
    before = analyse(read_trace_file(DATA / relative))
    assert before.metrics.to_dict() == data
    assert [f.message for f in before.findings] == [f.message for f in result.findings]


def test_analyze_prints_and_writes_communication_hidden_only_where_there_is_communication(capsys):
    path = DATA / NCCL_SAMPLED[0]
    assert main(["analyze", str(path)]) == 0
    text = capsys.readouterr().out
    hidden = round(result_of(NCCL_SAMPLED[0]).metrics.comm_hidden_pct)
    assert f"copy time hidden 2 %   communication hidden {hidden} %" in text
    assert "communication 396.2 ms (32 %)" in text
    assert main(["analyze", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["comm_hidden_pct"] == pytest.approx(expected_shares(NCCL_SAMPLED[0])[1], abs=1e-3)
    assert report["busy_ms"]["communication"] == pytest.approx(396.199, abs=1e-3)
    assert "exposed-communication" in {finding["code"] for finding in report["findings"]}
    assert main(["analyze", str(DATA / "torch/torch-pinned.json.gz"), "--json"]) == 0
    quiet = json.loads(capsys.readouterr().out)
    assert quiet["comm_hidden_pct"] is None and "communication" not in quiet["busy_ms"]
