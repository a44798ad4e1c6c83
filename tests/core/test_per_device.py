from pathlib import Path

import numpy as np
import pytest
from tracefactory import MS, on_gpus, pipeline_trace

from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.analysis.trace_facts import START_LATENCY_NS, copy_engine_waits, idle_unit_waits
from overlapviz.core.devices.figures import (
    findings_per_device,
    gpu_names,
    gpu_part,
    gpu_title,
    metrics_per_device,
    trace_findings,
)
from overlapviz.core.findings import PROGRAM_RULES, find_findings
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import OpKind, Trace, TraceBuilder, Unit
from overlapviz.importers.read import read_trace_file

DATA = Path(__file__).parent.parent / "data"
# What the whole program waited for: the same on every GPU, the whole trace's.
PROGRAM_WIDE = ("wall_ms", "host_alloc_ms", "pinned_bytes", "host_issue_ms")


def device_figures(metrics):
    """The figures that speak of one GPU's work alone."""
    return {name: value for name, value in metrics.to_dict().items() if name not in PROGRAM_WIDE}


def two_gpus(offset_ns=2 * MS):
    """GPU 0: a copy-bound pipeline of 4 chunks; GPU 1, `offset_ns` later: a kernel-bound one of 6."""
    first = pipeline_trace(4, 4, h2d_ns=3 * MS, kernel_ns=1 * MS, d2h_ns=1 * MS)
    second = pipeline_trace(6, 3, h2d_ns=1 * MS, kernel_ns=2 * MS, d2h_ns=1 * MS)
    later = {name: values.copy() for name, values in second.columns.items()}
    for column in ("enqueue_ns", "ready_ns", "start_ns", "end_ns"):
        known = later[column] >= 0
        later[column][known] += offset_ns  # by default while GPU 0 still works
    second = Trace(later, second.names, second.meta)
    return first, second, on_gpus(first, second)


@pytest.mark.parametrize("trace", [
    pipeline_trace(8, 4),
    pipeline_trace(4, 1, memory="pageable", copy_engines=1),
    *(read_trace_file(DATA / name) for name in (
        "torch/torch-pinned.json.gz", "torch/torch-train-step.json.gz", "nsys/mordred-2021-no-enums.sqlite.gz",
        "overlapviz/sim-pageable-0.2.0.json.gz",
    )),
])  # fmt: skip
def test_a_trace_of_one_gpu_has_one_entry_with_the_whole_traces_figures(trace):
    per_device = metrics_per_device(trace)
    assert list(per_device) == [0]
    assert per_device[0] == compute_metrics(trace)
    assert list(findings_per_device(trace)[0]) == find_findings(trace)


def test_each_gpu_has_the_figures_of_its_own_work_alone():
    first, second, both = two_gpus()
    per_device = metrics_per_device(both)
    assert list(per_device) == [0, 1]
    assert device_figures(per_device[0]) == device_figures(compute_metrics(first))
    assert device_figures(per_device[1]) == device_figures(compute_metrics(second))


def test_one_gpus_lower_bound_is_its_busiest_engine_not_two_gpus_copies_added():
    first, second, both = two_gpus(offset_ns=20 * MS)  # GPU 1 starts when GPU 0 is done
    whole, per_device = compute_metrics(both), metrics_per_device(both)
    assert per_device[0].lower_bound_ns == compute_metrics(first).busy_ns["h2d"] == 12 * MS
    assert per_device[1].lower_bound_ns == compute_metrics(second).busy_ns["kernel"] == 12 * MS
    assert whole.lower_bound_ns == 18 * MS  # both GPUs' H2D copies taken for one engine's


def test_the_programs_figures_stay_the_whole_traces_and_issue_times_add_up():
    _, _, both = two_gpus()
    whole, per_device = compute_metrics(both), metrics_per_device(both)
    for metrics in per_device.values():
        assert (metrics.wall_ns, metrics.host_alloc_ns, metrics.pinned_bytes) == (
            whole.wall_ns, whole.host_alloc_ns, whole.pinned_bytes,
        )  # fmt: skip
    assert sum(m.host_issue_ns for m in per_device.values()) == whole.host_issue_ns > 0
    assert sum(m.host_blocked_ns for m in per_device.values()) == whole.host_blocked_ns


def test_a_gpus_part_holds_its_ops_the_calls_that_issued_them_and_the_host_spans_of_no_gpu():
    _, _, both = two_gpus()
    part = gpu_part(both, 1)
    devices = both["device"][part.rows]
    assert set(devices[both.device_mask[part.rows]].tolist()) == {1}
    assert (part.trace["device"] == devices).all()
    calls = np.flatnonzero(part.trace["op"] >= 0)
    assert calls.size == int((part.trace.device_mask).sum())  # every op of GPU 1 kept its call
    assert (part.trace["device"][part.trace["op"][calls]] == 1).all()
    synchronize = np.flatnonzero((both["kind"] == OpKind.API) & (both["op"] < 0))
    assert set(synchronize.tolist()) <= set(part.rows.tolist())


def test_each_gpus_findings_point_at_the_whole_traces_rows_of_that_gpu():
    _, _, both = two_gpus()
    found = findings_per_device(both)
    codes = {device: {f.code for f in findings} for device, findings in found.items()}
    assert "copy-bound" in codes[0] and "kernel-bound" in codes[1]
    for device, findings in found.items():
        for finding in findings:
            ops = finding.rows[both.device_mask[finding.rows]]
            assert (both["device"][ops] == device).all()


def test_the_answers_are_worked_out_once_per_trace():
    _, _, both = two_gpus()
    assert metrics_per_device(both) is metrics_per_device(both)
    assert findings_per_device(both) is findings_per_device(both)
    with pytest.raises(TypeError):
        metrics_per_device(both)[0] = compute_metrics(both)  # type: ignore[index]


def test_gpus_are_titled_with_the_names_the_metadata_gives():
    meta = TraceMeta(device="cuda:0,cuda:1", device_name="NVIDIA H200 + NVIDIA A100")
    assert gpu_names(meta) == {0: "NVIDIA H200", 1: "NVIDIA A100"}
    assert gpu_title(meta, 1) == "GPU 1 (NVIDIA A100)"
    assert gpu_title(TraceMeta(device="cuda:3", device_name="NVIDIA H200"), 3) == "GPU 3 (NVIDIA H200)"
    assert gpu_title(TraceMeta(device="cuda:0,cuda:1", device_name="GPU 0 + GPU 1"), 0) == "GPU 0"
    assert gpu_title(TraceMeta(device="h200", device_name="NVIDIA H200 (model)"), 0) == "GPU 0"
    assert gpu_names(TraceMeta(device="cuda:0,cuda:1", device_name="one name")) == {}


def test_findings_of_several_gpus_name_the_gpu_whose_engine_they_speak_of():
    copy_bound = pipeline_trace(8, 4, h2d_ns=3 * MS)
    alone = {f.code: f.message for f in find_findings(copy_bound)}
    assert "the H2D engine was busy" in alone["copy-bound"]
    builder = TraceBuilder()
    builder.add(OpKind.KERNEL, Unit.COMPUTE, 0, MS, name="gemm", stream=0)
    kernel_only = builder.build(copy_bound.meta, origin_ns=0)
    both = {f.code: f.message for f in find_findings(on_gpus(copy_bound, kernel_only))}
    assert "the H2D engine of GPU 0 was busy" in both["copy-bound"]
    both = {f.code: f.message for f in find_findings(on_gpus(copy_bound, copy_bound))}
    assert "the H2D engines of GPUs 0 and 1 were busy" in both["copy-bound"]


def test_a_copy_waits_for_its_own_gpus_engine_only():
    builder = TraceBuilder()
    builder.add(OpKind.H2D, Unit.H2D_ENGINE, 0, 10 * MS, name="memcpy HtoD", stream=0, ready_ns=0, device=0)
    late = builder.add(OpKind.H2D, Unit.H2D_ENGINE, 5 * MS, 6 * MS, name="memcpy HtoD", stream=1, ready_ns=0, device=1)
    trace = builder.build(TraceMeta(device_facts={"copy_engines": 2}), origin_ns=0)
    assert copy_engine_waits(trace)[late] == 0  # GPU 0's engine ran, not its own
    assert idle_unit_waits(trace)[late] == 5 * MS - START_LATENCY_NS  # its own engine stood idle


def test_preparing_a_trace_of_two_gpus_works_out_each_gpus_figures_on_the_run_thread(monkeypatch):
    """Picking a GPU in the window then only reads what preparing kept: nothing is computed on the GUI thread."""
    from overlapviz.core.devices import figures as per_device
    from overlapviz.view.prepared import prepare_trace

    _first, _second, both = two_gpus()
    prepare_trace(both)

    def not_again(*_args):
        raise AssertionError("a GPU's figures were worked out again")

    monkeypatch.setattr(per_device, "compute_metrics", not_again)
    monkeypatch.setattr(per_device, "find_findings", not_again)
    monkeypatch.setattr(per_device, "findings_by_rule", not_again)
    assert set(metrics_per_device(both)) == {0, 1} and set(findings_per_device(both)) == {0, 1}


# --- the findings of a whole trace of two GPUs --------------------------------------------


def two_gpu_run(**settings):
    from overlapviz.core.config import PipelineConfig
    from overlapviz.session import run_pipeline

    return run_pipeline(PipelineConfig(gpus=2, **settings), "sim", "h200x2-nvlink")


def test_a_trace_of_one_gpu_has_the_findings_of_every_rule_on_it():
    trace = pipeline_trace(4, 1, h2d_ns=3 * MS, kernel_ns=1 * MS, d2h_ns=1 * MS)
    metrics = compute_metrics(trace)
    assert trace_findings(trace, metrics) == find_findings(trace, metrics)
    assert find_findings(trace, metrics)  # one stream: a finding to compare


def test_with_two_gpus_a_gpus_findings_are_its_parts_and_say_which_gpu():
    result = two_gpu_run(iters=100)  # copy-bound: the H2D engine of GPU 0 sets the pace
    per_device = findings_per_device(result.trace)
    gpu_findings = [f for f in result.findings if f.code not in {"alloc-per-run", "staged-peer-copy"}]
    assert gpu_findings
    for finding in gpu_findings:
        device, _, message = finding.message.partition(": ")
        assert device in {"GPU 0", "GPU 1"}
        assert message in [found.message for found in per_device[int(device[-1])]]
    bound = next(f for f in result.findings if f.code == "copy-bound")
    assert bound.message.startswith("GPU 0: H2D copies limit this run") and "GPUs" not in bound.message
    assert set(result.trace["device"][bound.rows].tolist()) == {0}  # rows of the whole trace, on GPU 0


def test_with_two_gpus_a_finding_about_the_whole_program_is_given_once():
    result = two_gpu_run(host_alloc="per-run")
    allocs = [f for f in result.findings if f.code == "alloc-per-run"]
    assert len(allocs) == 1 and not allocs[0].message.startswith("GPU")
    assert allocs[0].message == find_findings(result.trace, result.metrics, PROGRAM_RULES)[0].message
