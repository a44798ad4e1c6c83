"""Values a trace file may hold: each rule refuses what once crashed loading or analysis."""

import json

import pytest
from tracefactory import pipeline_trace

from overlapviz.core.files.trace_export import chrome_dict
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.core.files.trace_import import import_chrome
from overlapviz.core.trace.checks import TraceValueError, check_int, check_meta, short_repr
from overlapviz.core.trace.spans import Trace, check_spans


@pytest.mark.parametrize(
    ("meta", "words"),
    [
        ({"device_facts": None}, "device_facts is not an object"),
        ({"device_facts": [1]}, "device_facts is not an object"),
        ({"device_facts": {"copy_engines": "abc"}}, "copy_engines is 'abc'"),
        ({"device_facts": {"copy_engines": None}}, "copy_engines is None"),
        ({"device_facts": {"copy_engines": 0}}, "from 1 to 64"),
        ({"config": "fast"}, "config is not an object"),
        ({"device_name": "x" * 10_000_000}, "10,000,000 characters long"),
        ({"device_name": {"a": 1}}, "device_name is not text"),
        ({"simulated": "yes"}, "simulated is not true or false"),
    ],
)
def test_bad_metadata_is_refused_with_its_key(meta, words):
    with pytest.raises(TraceValueError, match=words):
        check_meta(meta)


def test_metadata_nested_too_deep_is_refused_without_recursion():
    deep: dict = {}
    for _ in range(100_000):  # far past Python's recursion limit
        deep = {"a": deep}
    with pytest.raises(TraceValueError, match="nested more than"):
        check_meta({"device_facts": {}, "extra": deep})


def test_good_metadata_passes():
    check_meta(pipeline_trace(4, 2).meta.to_dict())
    check_meta({"config": None, "device_facts": {"copy_engines": 2}, "device_name": "NVIDIA H200"})


@pytest.mark.parametrize(
    ("column", "value", "words"),
    [("start_ns", 2**63, "out of range"), ("stream", 2**31, "out of range"), ("op", -(2**31) - 1, "out of range"),
     ("bytes", 1.5, "not a whole number"), ("chunk", True, "not a whole number"), ("end_ns", "7", "not a whole")],
)
def test_integers_must_fit_their_column(column, value, words):
    with pytest.raises(TraceValueError, match=words):
        check_int("event 3", f"args.{column}", value, column=column)


def test_a_row_number_must_fit_an_int32_column():
    assert check_int("event 0", "args.row", 5) == 5
    with pytest.raises(TraceValueError, match="out of range"):
        check_int("event 0", "args.row", 2**31)


def _with(trace, column, row, value):
    columns = {name: array.copy() for name, array in trace.columns.items()}
    columns[column][row] = value
    return Trace(columns, trace.names, trace.meta)


@pytest.mark.parametrize(
    ("column", "value", "words"),
    [("op", 10_000, "not a row of this trace"), ("start_ns", -1, "start_ns is unknown"),
     ("ready_ns", -5, "ready_ns is negative"), ("bytes", -1, "bytes is negative")],
)
def test_spans_must_point_at_rows_and_have_known_times(column, value, words):
    trace = pipeline_trace(4, 2)
    check_spans(trace)
    with pytest.raises(TraceValueError, match=words):
        check_spans(_with(trace, column, 1, value))


def test_short_repr_stays_short_and_safe():
    assert short_repr(10**5000).startswith("a number of about")
    assert short_repr("x" * 10**6) == "'" + "x" * 36 + "..."
    assert short_repr([[[]]]) == "a list" and short_repr({"a": 1}) == "an object"


def _exported(tmp_path, change):
    document = chrome_dict(pipeline_trace(4, 2))
    change(document)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(document))
    return path


def _first_row_event(document):
    return next(e for e in document["traceEvents"] if e.get("ph") == "X" and "row" in e.get("args", {}))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: _first_row_event(d).__setitem__("name", {"a": 1}), "its name is not text"),
        (lambda d: _first_row_event(d)["args"].__setitem__("start_ns", 2**63), "out of range"),
        (lambda d: _first_row_event(d)["args"].__setitem__("stream", 2**31), "out of range"),
        (lambda d: d["otherData"]["meta"].__setitem__("device_facts", "gpu"), "device_facts is not an object"),
    ],
)
def test_a_damaged_file_is_refused_whole(tmp_path, change, words):
    with pytest.raises(TraceFormatError, match=words):
        import_chrome(_exported(tmp_path, change))


def test_json_nested_past_the_parser_is_a_format_error(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(TraceFormatError, match="nested too deeply"):
        import_chrome(path)
