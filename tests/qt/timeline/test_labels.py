import dataclasses
from pathlib import Path

import numpy as np
from qt_traces import kernels_only_trace, two_chunk_trace

from overlapviz._qt.export.caption import caption_text
from overlapviz.app.kernel_time import BEFORE_A_RUN, KernelTimeHint
from overlapviz.app.run_targets import RunTarget, available_targets, default_target, target_title
from overlapviz.backends.sim.ops import kernel_cost
from overlapviz.backends.sim.profile import load_profile
from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.config import MIB, KernelKind, PipelineConfig
from overlapviz.core.findings.finding import ms_text
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import OpKind
from overlapviz.importers.read import read_trace_file
from overlapviz.session import run_pipeline
from overlapviz.view.formatting import (
    copy_hidden_text,
    direction_bandwidth_text,
    format_bandwidth,
    format_duration,
    format_percent,
    format_time_saved,
)
from overlapviz.view.kernel_time import kernel_rate
from overlapviz.view.status_text import SIMULATED, status_line, status_parts

DATA = Path(__file__).resolve().parents[2] / "data"


def test_durations_read_in_ms_the_unit_of_the_time_axis():
    assert format_duration(512) == "512 ns" and format_duration(5_120) == "5.12 \u00b5s"  # under 0.1 ms
    assert format_duration(742_000) == "0.742 ms" and format_duration(74_200) == "74.2 \u00b5s"
    assert format_duration(6_090_000) == "6.09 ms"
    assert format_duration(7_955_600_000) == "7955.6 ms"  # as the findings write it (ms_text), not "7.96 s"
    assert format_duration(7_955_600_000) == f"{ms_text(7_955_600_000)}"
    assert format_duration(0) == "0 ms" and format_duration(-0.4) == "0 ms"


def test_missing_numbers_are_a_dash():
    assert format_bandwidth(None) == "\u2014"
    assert format_bandwidth(float("nan")) == "\u2014"
    assert format_bandwidth(55.36) == "55.4 GB/s"
    assert format_percent(None) == "\u2014"
    assert format_percent(87.4) == "87 %"
    assert format_percent(-0.4) == "0 %"
    assert format_percent(None, "no copies") == "no copies"


def test_time_saved_never_reads_as_a_negative_saving():
    assert format_time_saved(9_576_000, 2.6156) == "9.58 ms (2.62\u00d7)"
    assert format_time_saved(-367_000, 0.9946) == "none: 0.367 ms slower\nthan back to back"
    assert format_time_saved(-367_000, 0.9946, short=True) == "none: 0.367 ms slower"
    assert format_time_saved(0, 1.0, short=True) == "none"
    assert "-" not in format_time_saved(-367_000, 0.9946) and "\u2212" not in format_time_saved(-1, 1.0)


def test_status_says_simulated_when_the_model_drew_it():
    meta = two_chunk_trace().meta
    parts = status_parts(meta, 0.0123)
    assert parts[:3] == ["Backend: test", "Device: Test GPU", "Timing: model"]
    assert SIMULATED in parts
    assert parts[-1] == "Run took 12.3 ms"


def test_status_of_a_real_run_does_not_say_simulated():
    meta = two_chunk_trace().with_meta(simulated=False, timing="cupti", backend="cupy").meta
    line = status_line(meta, 0.5)
    assert SIMULATED not in line and "Timing: cupti" in line and "Backend: cupy" in line


def test_status_ends_with_the_backends_caveat_when_it_gives_one():
    caveat = "Real pageable times vary with the host's memory system."
    parts = status_parts(two_chunk_trace().with_meta(caveat=caveat).meta, 0.0123)
    assert parts[-2:] == ["Run took 12.3 ms", caveat]
    assert all("caveat" not in part.lower() for part in status_parts(two_chunk_trace().meta, 0.0123))


def test_status_of_an_opened_file_names_it():
    assert status_parts(two_chunk_trace().meta, 0.0, Path("/x/run.json"))[-1] == "Opened run.json"


def test_caption_has_config_device_backend_makespan_efficiency_and_copy_time_hidden():
    trace = two_chunk_trace()  # busiest engine 2 of 4 ms; of 4 ms of copies, 2 ms run under a kernel
    text = caption_text(trace, compute_metrics(trace)).replace("\u00a0", " ")  # values are unbreakable
    assert "8 MiB, 2 streams x 2 chunks" in text
    assert "Test GPU" in text and "test backend, timing: model" in text
    assert "makespan 4.00 ms  \u00b7  efficiency 50 %  \u00b7  copy time hidden 50 %" in text
    assert "overlap" not in text and text.endswith("simulated")


def test_caption_of_a_run_without_copies_says_so():
    kernels = kernels_only_trace()
    text = caption_text(kernels, compute_metrics(kernels)).replace("\u00a0", " ")
    assert "no copies" in text and "copy time hidden" not in text and "efficiency 100 %" in text


def test_caption_of_a_real_run_on_managed_memory_names_its_migrations():
    trace = read_trace_file(DATA / "nsys/clue-2023.2-managed-prefetch.sqlite.gz")
    text = caption_text(trace, compute_metrics(trace)).replace("\u00a0", " ")
    assert "no copies; 735 unified-memory migrations" in text


def test_caption_of_a_real_run_with_copies_and_migrations_names_both():
    trace = read_trace_file(DATA / "nsys/balinski-gomory-2025.5-pageable-uvm.sqlite.gz")
    text = caption_text(trace, compute_metrics(trace)).replace("\u00a0", " ")
    assert "copy time hidden 0 %  \u00b7  67 unified-memory migrations (H2D 34, D2H 33)" in text


def test_the_metrics_panel_says_unknown_for_copies_without_bytes_and_a_dash_for_none():
    metrics = compute_metrics(kernels_only_trace())
    assert direction_bandwidth_text(metrics, "h2d") == "\u2014"
    no_bytes = dataclasses.replace(metrics, busy_ns={**metrics.busy_ns, "h2d": 1000})
    assert direction_bandwidth_text(no_bytes, "h2d") == "unknown"
    assert copy_hidden_text(metrics) == "no copies"


def test_caption_without_a_config_still_describes_the_run():
    trace = two_chunk_trace().with_meta(config=None, simulated=False)
    text = caption_text(trace, compute_metrics(trace)).replace("\u00a0", " ")
    assert text.startswith("Test GPU") and "simulated" not in text


REAL = RunTarget("test", "test-gpu", "Test GPU (real GPU, test)", simulated=False)
H200 = RunTarget("sim", "h200", "NVIDIA H200 (model)", simulated=True)


def test_kernel_time_on_a_real_gpu_scales_its_own_last_rate():
    trace = two_chunk_trace()  # 2 chunks of 1 Mi elements, 1860 iters, kernels of 1 ms, on test/test-gpu
    rate = kernel_rate(trace)
    assert rate is not None and (rate.backend, rate.device, rate.kernel) == ("test", "test-gpu", KernelKind.FMA)
    hint = KernelTimeHint()
    hint.learn(rate)
    config = PipelineConfig.from_dict(trace.meta.config)
    assert hint.text(config, REAL) == "\u2248 1.00 ms per chunk"
    assert hint.text(config.replace(iters=930), REAL) == "\u2248 0.500 ms per chunk"
    assert hint.text(config.replace(chunks=1), REAL) == "\u2248 2.00 ms per chunk"


def test_a_rate_from_another_device_or_kernel_is_never_used():
    hint = KernelTimeHint()
    hint.learn(kernel_rate(two_chunk_trace()))
    elsewhere = RunTarget("test", "other-gpu", "Other GPU (real GPU, test)", simulated=False)
    assert hint.text(PipelineConfig(), elsewhere) == BEFORE_A_RUN
    assert hint.text(PipelineConfig(kernel=KernelKind.SINCOS), REAL) == BEFORE_A_RUN
    assert hint.text(PipelineConfig(), None) == BEFORE_A_RUN


def test_on_a_model_the_hint_is_the_models_own_kernel_time_whatever_ran_before():
    hint = KernelTimeHint()
    big = PipelineConfig(size_bytes=32 << 30)  # the pin-too-much lesson: 16 chunks of 2 GiB, never run
    expected = kernel_cost(big, load_profile("h200"))[0]
    assert hint.text(big, H200) == f"\u2248 {format_duration(expected)} per chunk"
    tesla = run_pipeline(PipelineConfig(chunks=1024, size_bytes=256 * MIB), "sim", "tesla-c1060").trace
    hint.learn(kernel_rate(tesla))  # a slow device's rate, from tiny chunks: not the H200's
    assert hint.text(big, H200) == f"\u2248 {format_duration(expected)} per chunk"
    shown = run_pipeline(PipelineConfig(), "sim", "h200").trace
    kernels = shown.duration_ns[shown.mask(OpKind.KERNEL)]
    assert hint.text(PipelineConfig(), H200) == f"\u2248 {format_duration(float(np.median(kernels)))} per chunk"


def test_kernel_time_without_kernel_work():
    assert KernelTimeHint().text(PipelineConfig(iters=0), H200) == "copies only: no kernel work"
    assert KernelTimeHint().text(PipelineConfig(kernel=KernelKind.SINCOS, iters=0), H200).startswith("\u2248")
    trace = two_chunk_trace()
    assert kernel_rate(trace.with_meta(config={**trace.meta.config, "iters": 0})) is None


def test_device_titles_always_say_real_or_simulated():
    assert target_title("NVIDIA H200", "cupy", simulated=False) == "NVIDIA H200 (real GPU, cupy)"
    assert target_title("NVIDIA H200 (model)", "sim", simulated=True) == "NVIDIA H200 (model)"
    assert target_title("Tesla C1060", "sim", simulated=True) == "Tesla C1060 (model)"


def test_the_model_is_always_on_offer():
    targets = available_targets()
    assert {"h200", "tesla-c1060", "tesla-c2050", "tesla-k20c"} <= {t.device for t in targets if t.backend == "sim"}
    assert default_target(targets) in targets


def test_the_status_says_how_much_pinned_memory_a_real_gpu_run_kept():
    from overlapviz.view.status_text import status_line

    line = status_line(TraceMeta(backend="cupy", timing="cupti", pinned_kept_bytes=512 * 2**20), 0.1)
    assert "512 MiB pinned kept for the next run (Run \u25b8 Release buffers)" in line
    assert "pinned kept" not in status_line(TraceMeta(backend="sim", timing="model"), 0.1)
