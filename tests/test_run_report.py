from overlapviz import run_report
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.run_report import caveat_of, recorded_by


def test_recorded_by_names_the_tool_its_version_the_day_and_the_gpu():
    meta = TraceMeta(tool="Nsight Systems", tool_version="2024.6.1", recorded="2025-03-02", device_name="NVIDIA H200")
    assert recorded_by(meta) == "Nsight Systems 2024.6.1, 2025-03-02, NVIDIA H200"
    assert recorded_by(TraceMeta(tool="PyTorch profiler")) == "PyTorch profiler"


def test_overlapviz_runs_were_recorded_by_no_other_tool():
    assert recorded_by(TraceMeta(backend="sim", device_name="NVIDIA H200 (model)")) is None
    assert recorded_by(TraceMeta(tool="")) is None  # a tool that is no text is refused on load (test_trace_meta)


def test_a_caveat_is_one_sentence_of_text_or_none():
    assert caveat_of(TraceMeta(caveat="Real pageable times vary.")) == "Real pageable times vary."
    assert caveat_of(TraceMeta(caveat="")) is None and caveat_of(TraceMeta()) is None


def test_no_figure_of_the_summary_reads_as_a_negative_zero():
    assert run_report.percent_text(-0.04) == "0 %" and run_report.percent_text(-0.6) == "-1 %"
    assert run_report._ms(-0.4) == "0 ms"
    assert run_report._gbps(-0.0, True) == "0 GB/s"


def test_a_bandwidth_is_unknown_where_copies_ran_without_bytes_and_a_dash_where_none_ran():
    assert run_report._gbps(None, True) == "unknown"
    assert run_report._gbps(None, False) == "-"
    assert run_report._gbps(55.04, True) == "55.0 GB/s"
