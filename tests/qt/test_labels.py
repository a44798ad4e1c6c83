from pathlib import Path

from qt_traces import two_chunk_trace

from overlapviz._qt.export.caption import caption_text
from overlapviz._qt.formatting import format_bandwidth, format_duration, format_percent
from overlapviz._qt.kernel_time import kernel_rate_ns, kernel_time_text
from overlapviz._qt.run_targets import available_targets, default_target, target_title
from overlapviz._qt.status_text import SIMULATED, status_line, status_parts
from overlapviz.core.config import PipelineConfig
from overlapviz.core.metrics import compute_metrics


def test_durations_read_in_the_unit_that_suits_them():
    assert format_duration(512) == "512 ns"
    assert format_duration(74_200) == "74.2 µs"
    assert format_duration(6_090_000) == "6.09 ms"
    assert format_duration(1_250_000_000) == "1.25 s"


def test_missing_numbers_are_a_dash():
    assert format_bandwidth(None) == "\u2014"
    assert format_bandwidth(float("nan")) == "\u2014"
    assert format_bandwidth(55.36) == "55.4 GB/s"
    assert format_percent(None) == "\u2014"
    assert format_percent(87.4) == "87 %"
    assert format_percent(-0.4) == "0 %"


def test_status_says_simulated_when_the_model_drew_it():
    meta = two_chunk_trace().meta
    parts = status_parts(meta, 0.0123)
    assert parts[:3] == ["Backend: test", "Device: Test GPU", "Timing: model"]
    assert SIMULATED in parts
    assert parts[-1] == "Run took 12.3 ms"


def test_status_of_a_real_run_does_not_say_simulated():
    meta = {**two_chunk_trace().meta, "simulated": False, "timing": "cupti", "backend": "cupy"}
    line = status_line(meta, 0.5)
    assert SIMULATED not in line and "Timing: cupti" in line and "Backend: cupy" in line


def test_status_of_an_opened_file_names_it():
    assert status_parts(two_chunk_trace().meta, 0.0, Path("/x/run.json"))[-1] == "Opened run.json"


def test_caption_has_config_device_backend_makespan_and_overlap():
    trace = two_chunk_trace()
    text = caption_text(trace, compute_metrics(trace))
    assert "8 MiB, 2 streams x 2 chunks" in text
    assert "Test GPU" in text and "test backend, timing: model" in text
    assert "makespan 4.00 ms" in text and "overlap" in text and text.endswith("simulated")


def test_caption_without_a_config_still_describes_the_run():
    trace = two_chunk_trace().with_meta(config=None, simulated=False)
    text = caption_text(trace, compute_metrics(trace))
    assert text.startswith("Test GPU") and "simulated" not in text


def test_kernel_time_scales_with_chunk_size_and_iterations():
    trace = two_chunk_trace()  # 2 chunks of 1 Mi elements, 1860 iters, kernels of 1 ms
    rate = kernel_rate_ns(trace)
    assert rate is not None
    config = PipelineConfig.from_dict(trace.meta["config"])
    assert kernel_time_text(config, rate) == "\u2248 1.00 ms per chunk"
    assert kernel_time_text(config.replace(iters=930), rate) == "\u2248 500 µs per chunk"
    assert kernel_time_text(config.replace(chunks=1), rate) == "\u2248 2.00 ms per chunk"


def test_kernel_time_before_a_run_and_without_kernel_work():
    assert kernel_time_text(PipelineConfig(), None) == "kernel time per chunk: after the first run"
    assert kernel_time_text(PipelineConfig(iters=0), 1.0) == "copies only: no kernel work"
    trace = two_chunk_trace()
    assert kernel_rate_ns(trace.with_meta(config={**trace.meta["config"], "iters": 0})) is None


def test_device_titles_always_say_real_or_simulated():
    assert target_title("NVIDIA H200", "cupy", simulated=False) == "NVIDIA H200 (real GPU, cupy)"
    assert target_title("NVIDIA H200 (model)", "sim", simulated=True) == "NVIDIA H200 (model)"
    assert target_title("Tesla C1060", "sim", simulated=True) == "Tesla C1060 (model)"


def test_the_model_is_always_on_offer():
    targets = available_targets()
    assert {"h200", "tesla-c1060", "tesla-c2050", "tesla-k20c"} <= {t.device for t in targets if t.backend == "sim"}
    assert default_target(targets) in targets
