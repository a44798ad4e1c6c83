import pytest
from tracefactory import MS, pipeline_trace

from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.analysis.time_window import Window, WindowError, clip_to_window, parse_window
from overlapviz.core.trace.spans import OpKind


def test_parse_window_reads_milliseconds_and_open_ends():
    trace = pipeline_trace(4, 2)
    assert parse_window("1:2.5", trace) == Window(1 * MS, 2_500_000)
    assert parse_window("2:", trace) == Window(2 * MS, int(trace["end_ns"].max()))
    assert parse_window(":3", trace) == Window(0, 3 * MS)


@pytest.mark.parametrize(("text", "words"), [("3:1", "empty"), ("a:b", "not a window"), (":", "not a window"),
                                             ("1e3:2", "not a window"), ("9" * 30 + ":", "far past")])
def test_bad_windows_say_why(text, words):
    with pytest.raises(WindowError, match=words):
        parse_window(text, pipeline_trace(4, 2))


def test_a_window_cuts_spans_to_its_edges_and_keeps_the_calls_links():
    trace = pipeline_trace(8, 4)
    window = Window(2 * MS + MS // 2, 5 * MS)
    part = clip_to_window(trace, window)
    assert part["start_ns"].min() >= window.start_ns and part["end_ns"].max() <= window.end_ns
    assert compute_metrics(part).makespan_ns <= window.end_ns - window.start_ns
    calls = part["op"] >= 0
    assert (part["kind"][part["op"][calls]] != OpKind.API).all()  # still pointing at device ops
    assert part.meta.window == (window.start_ns, window.end_ns)


def test_a_window_with_nothing_in_it_is_refused():
    trace = pipeline_trace(4, 2)
    with pytest.raises(WindowError, match="no span"):
        clip_to_window(trace, Window(int(trace["end_ns"].max()) + MS, int(trace["end_ns"].max()) + 2 * MS))


def test_the_whole_trace_as_a_window_changes_no_figure():
    trace = pipeline_trace(8, 4)
    whole = clip_to_window(trace, Window(0, int(trace["end_ns"].max())))
    assert compute_metrics(whole) == compute_metrics(trace)


def test_a_copy_cut_by_an_edge_keeps_its_bandwidth():
    trace = pipeline_trace(8, 4, h2d_ns=2 * MS)
    whole = compute_metrics(trace).bandwidth_gbps["h2d"]
    part = compute_metrics(clip_to_window(trace, Window(MS // 3, 7 * MS + MS // 7))).bandwidth_gbps["h2d"]
    assert part == pytest.approx(whole, rel=1e-6)
