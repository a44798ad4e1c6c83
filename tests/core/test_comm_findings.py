"""Communication hidden and exposed: the arithmetic on small traces, the finding on real distributed ones."""

from pathlib import Path

import numpy as np
import pytest

from overlapviz.core.analysis.metrics import comm_hidden_pct, compute_metrics, copy_hidden_pct
from overlapviz.core.devices.figures import metrics_per_device
from overlapviz.core.findings.communication import EXPOSED_COMM_SHARE, exposed_comm_ns, exposed_communication
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import OpKind, TraceBuilder, Unit
from overlapviz.importers.read import read_trace_file
from overlapviz.session import analyse

DATA = Path(__file__).resolve().parents[1] / "data"
MS = 1_000_000


def trace_of(*spans):
    """A trace of (kind, start ms, end ms) device ops."""
    builder = TraceBuilder()
    units = {OpKind.KERNEL: Unit.COMPUTE, OpKind.COMMUNICATION: Unit.COMMUNICATION, OpKind.H2D: Unit.H2D_ENGINE}
    for kind, start, end in spans:
        builder.add(kind, units[kind], int(start * MS), int(end * MS), name=kind.label, stream=0)
    return builder.build(TraceMeta())


def test_communication_hidden_is_the_share_of_its_union_a_compute_kernel_ran_under():
    # two collectives overlapping each other (0-4 and 2-6 ms: 6 ms of communication), compute 3-5 ms
    trace = trace_of(
        (OpKind.COMMUNICATION, 0, 4), (OpKind.COMMUNICATION, 2, 6), (OpKind.KERNEL, 3, 5), (OpKind.KERNEL, 4, 5)
    )
    assert comm_hidden_pct(trace) == pytest.approx(100 * 2 / 6)
    assert exposed_comm_ns(trace) == 4 * MS


def test_a_copy_under_a_collective_alone_is_not_hidden():
    trace = trace_of((OpKind.H2D, 0, 2), (OpKind.COMMUNICATION, 0, 2), (OpKind.KERNEL, 1, 2))
    assert copy_hidden_pct(trace) == pytest.approx(50.0)


def test_no_communication_gives_no_figure_and_no_busy_entry():
    metrics = compute_metrics(trace_of((OpKind.H2D, 0, 2), (OpKind.KERNEL, 1, 3)))
    assert metrics.comm_hidden_pct is None
    assert set(metrics.busy_ns) == {"h2d", "kernel", "d2h"}


def test_communication_is_an_engine_of_its_own_in_the_lower_bound():
    metrics = compute_metrics(trace_of((OpKind.KERNEL, 0, 1), (OpKind.COMMUNICATION, 1, 4)))
    assert metrics.lower_bound_ns == 3 * MS
    assert metrics.busy_ns["communication"] == 3 * MS


@pytest.mark.parametrize(
    ("exposed_ms", "fires"),
    [(EXPOSED_COMM_SHARE * 10 + 0.01, True), (EXPOSED_COMM_SHARE * 10 - 0.01, False)],
)
def test_the_finding_fires_from_a_tenth_of_the_run_exposed(exposed_ms, fires):
    # a 10 ms run of compute, then a collective of which `exposed_ms` run past the compute
    trace = trace_of((OpKind.KERNEL, 0, 10 - exposed_ms), (OpKind.COMMUNICATION, 9 - exposed_ms, 10))
    found = exposed_communication(trace, compute_metrics(trace))
    assert bool(found) is fires


def test_communication_under_compute_is_no_finding():
    trace = trace_of((OpKind.KERNEL, 0, 10), (OpKind.COMMUNICATION, 1, 9))
    assert comm_hidden_pct(trace) == 100.0
    assert exposed_communication(trace, compute_metrics(trace)) == []


@pytest.mark.parametrize("name", ["hta-sampled-rank0-of-128.json.gz", "hta-sampled-rank1-of-128.json.gz"])
def test_exposed_communication_fires_on_real_ranks_whose_collectives_ran_alone(name):
    result = analyse(read_trace_file(DATA / "torch-real" / name))
    [finding] = [f for f in result.findings if f.code == "exposed-communication"]
    trace, metrics = result.trace, result.metrics
    assert (trace["kind"][finding.rows] == OpKind.COMMUNICATION).all()
    assert exposed_comm_ns(trace) >= EXPOSED_COMM_SHARE * metrics.makespan_ns
    assert "bucket_cap_mb" in finding.message and "backward_prefetch" in finding.message
    exposed_ms = round(exposed_comm_ns(trace) / MS, 1)
    assert f"Communication ran exposed {exposed_ms} ms" in finding.message


@pytest.mark.parametrize(
    "relative",
    [
        # rank 0 of 2: 39 ms of its all-reduces ran alone, but in a 661 ms run (6%)
        "torch-real/hta-nccl-a100-rank0-of-2.json.gz",
        # no communication at all
        "torch/torch-pinned.json.gz",
        "nsys/test-cuda-2026.1-pinned-streams.sqlite.gz",
    ],
)
def test_exposed_communication_stays_quiet_where_it_is_short_or_absent(relative):
    result = analyse(read_trace_file(DATA / relative))
    assert "exposed-communication" not in {f.code for f in result.findings}
    share = exposed_comm_ns(result.trace) / result.metrics.makespan_ns
    assert share < EXPOSED_COMM_SHARE
    assert np.isfinite(share)


def test_each_gpu_has_its_own_communication_hidden():
    # GPU 0 communicates 0-4 ms with nothing computing; GPU 1 computes then, and communicates 4-6 ms under its kernel
    builder = TraceBuilder()
    spans = [(0, OpKind.COMMUNICATION, 0, 4), (1, OpKind.KERNEL, 0, 6), (1, OpKind.COMMUNICATION, 4, 6)]
    for device, kind, start, end in spans:
        unit = Unit.COMMUNICATION if kind is OpKind.COMMUNICATION else Unit.COMPUTE
        builder.add(kind, unit, start * MS, end * MS, name=kind.label, stream=0, device=device)
    trace = builder.build(TraceMeta(device="cuda:0,cuda:1"))
    per_gpu = metrics_per_device(trace)
    assert (per_gpu[0].comm_hidden_pct, per_gpu[1].comm_hidden_pct) == (0.0, 100.0)
    # over both GPUs at once, GPU 1's kernel seems to hide GPU 0's collective too: why each GPU has its own
    assert compute_metrics(trace).comm_hidden_pct == 100.0
