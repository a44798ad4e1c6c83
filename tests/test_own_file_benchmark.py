"""The benchmark of overlapviz's own files runs, at a size a test can afford."""

from benchmarks.own_file_scale import main, synthetic_trace
from overlapviz.core.trace.spans import check_spans


def test_the_synthetic_trace_is_a_valid_one():
    check_spans(synthetic_trace(1001))


def test_the_benchmark_runs_at_a_tiny_size(capsys):
    rows = {row["form"]: row for row in main(["--spans", "300", "--repeats", "1", "--out", "-"])}
    assert {"chrome-json", "columnar"} <= set(rows)
    assert rows["columnar"]["bytes"] < rows["chrome-json"]["bytes"]
    assert "columnar" in capsys.readouterr().out
