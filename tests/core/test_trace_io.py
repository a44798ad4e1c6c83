import csv
import itertools
import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from overlapviz.core.files import trace_import
from overlapviz.core.files.trace_export import (
    CSV_HEADER,
    UNPLACED_LANE_TITLE,
    chrome_dict,
    csv_text,
    export_chrome,
    export_csv,
)
from overlapviz.core.files.trace_format import FORMAT_VERSION, TraceFormatError
from overlapviz.core.files.trace_import import import_chrome, trace_from_chrome
from overlapviz.core.trace.columns import COLUMNS
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import MemoryKind, OpKind, Trace, TraceBuilder, Unit

META = {
    "backend": "sim",
    "device": "h200",
    "device_name": "NVIDIA H200",
    "timing": "model",
    "config": {"size_bytes": 4096, "chunks": 2, "streams": 2, "memory": "pinned"},
    "version": "0.1.0",
    "device_facts": {"copy_engines": 3},
    "simulated": True,
}


def small_trace() -> Trace:
    """Two chunks on two streams: per chunk a host call and an op for H2D, kernel, D2H."""
    b = TraceBuilder()
    for chunk in range(2):
        for step, (kind, unit, name) in enumerate(
            [(OpKind.H2D, Unit.H2D_ENGINE, "h2d"), (OpKind.KERNEL, Unit.COMPUTE, "fma"),
             (OpKind.D2H, Unit.D2H_ENGINE, "d2h")]
        ):
            t0 = 1000 * (chunk * 3 + step)
            op = b.add(kind, unit, t0 + 1500, t0 + 2400, name=name, stream=chunk, chunk=chunk,
                       enqueue_ns=t0 + 100, ready_ns=t0 + 900, nbytes=2048 if kind != OpKind.KERNEL else 0,
                       memory=MemoryKind.PINNED if kind != OpKind.KERNEL else MemoryKind.NONE)
            b.add(OpKind.API, Unit.HOST, t0 + 50, t0 + 110, name="cudaMemcpyAsync", op=op)
    return b.build(TraceMeta.from_dict(META), origin_ns=0)


def assert_same_trace(a: Trace, b: Trace) -> None:
    assert len(a) == len(b)
    for name in COLUMNS:
        assert a[name].dtype == b[name].dtype, name
        assert np.array_equal(a[name], b[name]), name
    assert a.names == b.names
    assert a.meta == b.meta


def x_events(doc):
    return [e for e in doc["traceEvents"] if e["ph"] == "X"]


# --- structure Perfetto needs -----------------------------------------------------------


def test_document_shape():
    doc = chrome_dict(small_trace())
    assert set(doc) == {"traceEvents", "displayTimeUnit", "otherData"}
    assert doc["displayTimeUnit"] == "ms"
    assert doc["otherData"]["overlapviz"] == FORMAT_VERSION
    assert doc["otherData"]["meta"] == META
    for event in x_events(doc):
        assert event["pid"] == 1
        assert isinstance(event["tid"], int)
        assert isinstance(event["ts"], float) and isinstance(event["dur"], float)


def test_lanes_are_named_and_sorted():
    doc = chrome_dict(small_trace())
    names = {e["tid"]: e["args"]["name"] for e in doc["traceEvents"] if e["name"] == "thread_name"}
    titles = ["Host thread", "Stream 0", "Stream 1", "H2D engine", "Compute", "D2H engine"]
    assert list(names.values()) == titles
    sort = {e["tid"]: e["args"]["sort_index"] for e in doc["traceEvents"] if e["name"] == "thread_sort_index"}
    assert sort == {tid: tid for tid in names}
    assert {e["tid"] for e in x_events(doc)} == set(names)
    process = [e for e in doc["traceEvents"] if e["name"] == "process_name"]
    assert process[0]["args"]["name"] == "overlapviz: NVIDIA H200, sim backend, simulated"


def lane_titles(doc) -> list[str]:
    return [e["args"]["name"] for e in doc["traceEvents"] if e["name"] == "thread_name"]


def test_legacy_stream_lane_is_named_so():
    trace = small_trace().with_meta(config={"stream_kind": "legacy"})
    assert "Legacy default stream" in lane_titles(chrome_dict(trace))


def test_empty_lanes_are_not_written():
    b = TraceBuilder()
    b.add(OpKind.KERNEL, Unit.COMPUTE, 0, 10, name="k", stream=0)
    assert lane_titles(chrome_dict(b.build(TraceMeta()))) == ["Stream 0", "Compute"]


def test_overlapping_spans_of_a_lane_get_their_own_tracks():
    b = TraceBuilder()
    b.add(OpKind.KERNEL, Unit.COMPUTE, 0, 100, name="k", stream=0)
    b.add(OpKind.KERNEL, Unit.COMPUTE, 50, 150, name="k", stream=1)  # side by side with the first
    b.add(OpKind.KERNEL, Unit.COMPUTE, 100, 120, name="k", stream=2)  # starts as the first ends
    doc = chrome_dict(b.build(TraceMeta()))
    titles = {e["tid"]: e["args"]["name"] for e in doc["traceEvents"] if e["name"] == "thread_name"}
    compute = {}
    for event in x_events(doc):
        if titles[event["tid"]].startswith("Compute"):
            compute.setdefault(titles[event["tid"]], []).append(event["args"].get("row", event["args"].get("copy_of")))
    assert compute == {"Compute": [0, 2], "Compute (2)": [1]}


def assert_tracks_nest(doc) -> None:
    by_tid: dict[int, list[tuple[int, int]]] = {}
    for event in x_events(doc):
        by_tid.setdefault(event["tid"], []).append((event["args"]["start_ns"], event["args"]["end_ns"]))
    for spans in by_tid.values():
        spans.sort()
        assert all(end <= next_start for (_, end), (next_start, _) in itertools.pairwise(spans))


def test_span_no_lane_shows_still_round_trips():
    b = TraceBuilder()
    b.add(OpKind.KERNEL, Unit.COMPUTE, 0, 10, name="k", stream=0)
    b.add(OpKind.H2D, Unit.HOST, 5, 9, name="odd", stream=-1)  # a device op on no unit lane
    trace = b.build(TraceMeta())
    doc = chrome_dict(trace)
    assert lane_titles(doc)[-1] == UNPLACED_LANE_TITLE
    assert_same_trace(trace_from_chrome(doc), trace)


def test_device_ops_drawn_in_stream_and_unit_lane_host_calls_once():
    trace = small_trace()
    doc = chrome_dict(trace)
    lane_title = {e["tid"]: e["args"]["name"] for e in doc["traceEvents"] if e["name"] == "thread_name"}
    lanes_of_row: dict[int, list[str]] = {}
    for event in x_events(doc):
        row = event["args"].get("row", event["args"].get("copy_of"))
        lanes_of_row.setdefault(row, []).append(lane_title[event["tid"]])
    for row in range(len(trace)):
        if trace["kind"][row] == OpKind.API:
            assert lanes_of_row[row] == ["Host thread"]
        else:
            stream, unit = trace["stream"][row], Unit(trace["unit"][row])
            assert lanes_of_row[row] == [f"Stream {stream}", unit.title]


def test_each_row_carried_once_and_copies_point_back():
    doc = chrome_dict(small_trace())
    carriers = [e for e in x_events(doc) if "row" in e["args"]]
    copies = [e for e in x_events(doc) if "copy_of" in e["args"]]
    assert sorted(e["args"]["row"] for e in carriers) == list(range(12))
    assert len(copies) == 6  # the device ops, once more in their unit lane
    assert all("row" not in e["args"] for e in copies)


def test_args_hold_every_column_in_words():
    doc = chrome_dict(small_trace())
    first_h2d = next(e for e in x_events(doc) if e["args"].get("row") == 0)
    assert first_h2d["args"] == {
        "row": 0, "kind": "h2d", "unit": "h2d_engine", "memory": "pinned", "stream": 0, "chunk": 0,
        "enqueue_ns": 100, "ready_ns": 900, "start_ns": 1500, "end_ns": 2400, "bytes": 2048, "op": -1,
        "device": 0, "thread": 0,
    }
    assert first_h2d["ts"] == 1.5 and first_h2d["dur"] == 0.9
    assert first_h2d["name"] == "h2d" and first_h2d["cat"] == "h2d"


# --- round trip -----------------------------------------------------------------------


def test_file_round_trip_is_exact(tmp_path):
    trace = small_trace()
    export_chrome(trace, tmp_path / "run.json")
    assert_same_trace(import_chrome(tmp_path / "run.json"), trace)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json"]


def test_empty_trace_round_trips(tmp_path):
    empty = TraceBuilder().build(TraceMeta(backend="sim"))
    export_chrome(empty, tmp_path / "e.json")
    assert_same_trace(import_chrome(tmp_path / "e.json"), empty)


def test_gpu_and_host_thread_of_each_span_round_trip(tmp_path):
    b = TraceBuilder()
    op = b.add(OpKind.H2D, Unit.H2D_ENGINE, 10, 20, name="h2d", stream=0, device=1, thread=-1)
    b.add(OpKind.API, Unit.HOST, 0, 5, name="cudaMemcpyAsync", op=op, device=1, thread=2**40)
    trace = b.build(TraceMeta())
    export_chrome(trace, tmp_path / "t.json")
    assert_same_trace(import_chrome(tmp_path / "t.json"), trace)


def format_1_document(trace: Trace):
    """What overlapviz wrote before spans had a GPU and a host thread: no such args, format 1."""
    doc = chrome_dict(trace)
    doc["otherData"]["overlapviz"] = 1
    for event in x_events(doc):
        event["args"].pop("device")
        event["args"].pop("thread")
    return doc


def test_a_format_1_file_reads_as_one_gpu_and_one_host_thread():
    b = TraceBuilder()
    op = b.add(OpKind.H2D, Unit.H2D_ENGINE, 10, 20, name="h2d", stream=0, device=5, thread=9)
    b.add(OpKind.API, Unit.HOST, 0, 5, name="cudaMemcpyAsync", op=op, device=5, thread=9)
    loaded = trace_from_chrome(json.loads(json.dumps(format_1_document(b.build(TraceMeta())))))
    assert loaded["device"].tolist() == [0, 0] and loaded["thread"].tolist() == [0, 0]
    assert loaded["op"].tolist() == [-1, 0] and loaded["start_ns"].tolist() == [10, 0]


def test_a_format_2_span_without_its_gpu_is_refused():
    doc = chrome_dict(small_trace())
    next(iter(x_events(doc)))["args"].pop("device")
    with pytest.raises(TraceFormatError, match=r"args\.device is missing"):
        trace_from_chrome(doc)


def test_numpy_values_in_meta_are_written_as_plain_json(tmp_path):
    trace = small_trace().with_meta(device_facts={"copy_engines": np.int64(2), "bw": np.array([1.5, 2.0])})
    export_chrome(trace, tmp_path / "t.json")
    assert import_chrome(tmp_path / "t.json").meta.device_facts == {"copy_engines": 2, "bw": [1.5, 2.0]}


def test_unserialisable_meta_fails_before_writing(tmp_path):
    trace = small_trace().with_meta(extra=object())
    with pytest.raises(TypeError, match="object"):
        export_chrome(trace, tmp_path / "t.json")
    assert list(tmp_path.iterdir()) == []


MAX_NS = 2**48  # about 3.3 days: ns / 1000 as a float keeps every nanosecond up to here


@st.composite
def traces(draw):
    n = draw(st.integers(0, 40))
    names = tuple(draw(st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=6, unique=True)))
    times = st.integers(0, MAX_NS)
    cols = {name: [] for name in COLUMNS}
    for _ in range(n):
        start = draw(times)
        cols["kind"].append(draw(st.sampled_from(list(OpKind))))
        cols["unit"].append(draw(st.sampled_from(list(Unit))))
        cols["stream"].append(draw(st.integers(-1, 40)))
        cols["chunk"].append(draw(st.integers(-1, 2**31 - 1)))
        cols["enqueue_ns"].append(draw(st.integers(-1, MAX_NS)))
        cols["ready_ns"].append(draw(st.integers(-1, MAX_NS)))
        cols["start_ns"].append(start)
        cols["end_ns"].append(start + draw(st.integers(0, MAX_NS - start)))
        cols["bytes"].append(draw(st.integers(0, 2**40)))
        cols["memory"].append(draw(st.sampled_from(list(MemoryKind))))
        cols["name"].append(draw(st.integers(0, len(names) - 1)))
        cols["op"].append(draw(st.integers(-1, max(n - 1, 0))))
        cols["device"].append(draw(st.integers(-1, 2**15 - 1)))
        cols["thread"].append(draw(st.integers(-1, 2**63 - 1)))
    meta = draw(st.fixed_dictionaries({
        "backend": st.sampled_from(["sim", "cupy"]), "simulated": st.booleans(),
        "device": st.text(max_size=10),
        "device_facts": st.fixed_dictionaries({"copy_engines": st.integers(1, 3)}),
    }))
    return Trace(cols, names, TraceMeta.from_dict(meta))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(traces())
def test_round_trip_exact_for_random_traces(trace):
    doc = json.loads(json.dumps(chrome_dict(trace)))
    assert_same_trace(trace_from_chrome(doc), trace)
    assert_tracks_nest(doc)
    for event in x_events(doc):
        row = event["args"].get("row", event["args"].get("copy_of"))
        # the microsecond floats alone give back every nanosecond
        assert round(event["ts"] * 1000) == trace["start_ns"][row]
        assert round(event["ts"] * 1000) + round(event["dur"] * 1000) == trace["end_ns"][row]


# --- what import rejects --------------------------------------------------------------


def write(tmp_path: Path, content) -> Path:
    path = tmp_path / "in.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def good_doc():
    return json.loads(json.dumps(chrome_dict(small_trace())))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not a JSON file"),
        ("", "not a JSON file"),
        (json.dumps({"foo": 1}), "no traceEvents list"),
        (json.dumps(17), "no traceEvents list"),
        (json.dumps([{"name": "x", "ph": "X", "ts": 0, "dur": 1, "pid": 1, "tid": 1}]), "plain array format"),
        (json.dumps({"traceEvents": [{"name": "x", "ph": "X", "ts": 0, "dur": 1, "pid": 1, "tid": 1}]}),
         "without overlapviz data"),
    ],
)
def test_not_ours_rejected_with_reason(tmp_path, content, message):
    path = write(tmp_path, content)
    with pytest.raises(TraceFormatError, match=message) as caught:
        import_chrome(path)
    assert str(path) in str(caught.value)


def test_plain_chrome_trace_says_only_own_traces_open(tmp_path):
    path = write(tmp_path, {"traceEvents": [], "displayTimeUnit": "ms", "otherData": {"version": "x"}})
    with pytest.raises(TraceFormatError, match="overlapviz can only open traces it wrote"):
        import_chrome(path)


def test_binary_file_rejected(tmp_path):
    path = tmp_path / "in.json"
    path.write_bytes(b"\xff\xfe\x00garbage\x80")
    with pytest.raises(TraceFormatError, match="not a JSON file"):
        import_chrome(path)


def test_missing_file_is_oserror(tmp_path):
    with pytest.raises(FileNotFoundError):
        import_chrome(tmp_path / "absent.json")


def test_good_doc_is_accepted():  # the mutations below start from a valid document
    assert len(trace_from_chrome(good_doc())) == 12


def mutate_first_carrier(doc, change):
    event = next(e for e in doc["traceEvents"] if e["ph"] == "X" and "row" in e["args"])
    change(event)
    return doc


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda e: e["args"].pop("start_ns"), r"args.start_ns is missing"),
        (lambda e: e["args"].update(bytes=1.5), r"args.bytes is not a whole number"),
        (lambda e: e["args"].update(stream=True), r"args.stream is not a whole number"),
        (lambda e: e["args"].update(kind="copy"), r"args.kind is 'copy'; expected one of h2d, kernel"),
        (lambda e: e["args"].update(unit="gpu"), r"args.unit is 'gpu'"),
        (lambda e: e["args"].update(memory=3), r"args.memory is 3"),
        (lambda e: e.update(name="renamed"), r"not in otherData.names"),
        (lambda e: e.update(args={}), r"has no overlapviz args"),
        (lambda e: e["args"].update(end_ns=0), r"ends before it starts"),
        (lambda e: e["args"].update(row=5), r"row 5 appears twice"),
        (lambda e: e["args"].update(row=99), r"rows are not numbered 0 to 11: row 1 is missing"),
    ],
)
def test_damaged_events_rejected(change, message):
    with pytest.raises(TraceFormatError, match=message):
        trace_from_chrome(mutate_first_carrier(good_doc(), change))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda o: o.update(overlapviz=FORMAT_VERSION + 1), "reads formats up to"),
        (lambda o: o.update(overlapviz="1"), "not a format version"),
        (lambda o: o.pop("names"), "otherData.names is missing"),
        (lambda o: o.update(names=[1, 2]), "otherData.names is missing or is not a list"),
        (lambda o: o.update(meta=[]), "otherData.meta is not an object"),
    ],
)
def test_damaged_other_data_rejected(change, message):
    doc = good_doc()
    change(doc["otherData"])
    with pytest.raises(TraceFormatError, match=message):
        trace_from_chrome(doc)


def test_non_object_event_rejected():
    doc = good_doc()
    doc["traceEvents"].append(3)
    with pytest.raises(TraceFormatError, match="is not an object"):
        trace_from_chrome(doc)


def test_foreign_events_without_row_are_ignored_only_if_not_spans():
    doc = good_doc()
    doc["traceEvents"].append({"name": "marker", "ph": "i", "ts": 1, "pid": 1, "tid": 1})
    assert len(trace_from_chrome(doc)) == 12


# --- CSV --------------------------------------------------------------------------------


def test_csv_one_row_per_span(tmp_path):
    trace = small_trace()
    export_csv(trace, tmp_path / "spans.csv")
    with open(tmp_path / "spans.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert tuple(rows[0]) == CSV_HEADER
    assert len(rows) == len(trace) + 1
    assert rows[1] == ["0", "h2d", "h2d", "h2d_engine", "0", "0", "100", "900", "1500", "2400", "900",
                       "2048", "pinned", "0", "0"]
    assert rows[2][:4] == ["1", "api", "cudaMemcpyAsync", "host"]
    assert rows[2][-3:] == ["none", "0", "0"]


def test_csv_says_each_spans_gpu_and_host_thread():
    b = TraceBuilder()
    op = b.add(OpKind.KERNEL, Unit.COMPUTE, 10, 20, name="k", stream=0, device=3, thread=4242)
    b.add(OpKind.API, Unit.HOST, 0, 5, name="cudaLaunchKernel", op=op, device=3, thread=4242)
    rows = list(csv.reader(csv_text(b.build(TraceMeta())).splitlines()))
    assert [dict(zip(rows[0], row, strict=True))["device"] for row in rows[1:]] == ["3", "3"]
    assert [dict(zip(rows[0], row, strict=True))["thread"] for row in rows[1:]] == ["4242", "4242"]


def test_csv_quotes_names_with_commas(tmp_path):
    b = TraceBuilder()
    b.add(OpKind.KERNEL, Unit.COMPUTE, 0, 5, name='k<float, 4>"x"', stream=0)
    export_csv(b.build(TraceMeta()), tmp_path / "s.csv")
    with open(tmp_path / "s.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[1][2] == 'k<float, 4>"x"'


def test_failed_exports_leave_nothing(tmp_path):
    folder = tmp_path / "missing"
    with pytest.raises(OSError, match="missing"):
        export_csv(small_trace(), folder / "s.csv")
    with pytest.raises(OSError, match="missing"):
        export_chrome(small_trace(), folder / "t.json")
    assert list(tmp_path.iterdir()) == []


ASSET_TRACES = Path(__file__).parents[2] / "assets" / "traces"


@pytest.mark.parametrize("name", sorted(p.name for p in ASSET_TRACES.glob("*.json")))
def test_a_whole_file_is_read_a_column_at_a_time_to_the_trace_the_event_by_event_reading_gives(name, monkeypatch):
    path = ASSET_TRACES / name
    document = json.loads(path.read_text())
    events, other = trace_import._document_parts(document)
    names = {n: i for i, n in enumerate(other["names"])}
    int_args = trace_import._int_args_of(other["overlapviz"])
    assert trace_import._columns_at_once(events, names, int_args) is not None  # the fast way was taken
    at_once = trace_from_chrome(document)
    decoded = trace_import.trace_at_once(path.read_bytes())  # straight from the bytes, no dict per event
    assert decoded is not None
    assert_same_trace(decoded, at_once)
    monkeypatch.setattr(trace_import, "_columns_at_once", lambda *_args: None)
    assert_same_trace(at_once, trace_from_chrome(document))


@pytest.mark.parametrize(
    ("where", "value", "message"),
    [
        ("stream", True, "args.stream is not a whole number: True"),
        ("bytes", 2**63, "args.bytes 9223372036854775808 is out of range"),
        ("chunk", 2**31, "args.chunk 2147483648 is out of range"),
        ("start_ns", 1.5, "args.start_ns is not a whole number: 1.5"),
        ("kind", ["h2d"], "args.kind is a list; expected one of h2d"),
        ("row", 0, "row 0 appears twice"),
    ],
)
def test_a_bad_value_anywhere_is_named_by_the_event_by_event_reading(where, value, message, tmp_path):
    document = chrome_dict(small_trace())
    spans = [e for e in document["traceEvents"] if e.get("ph") == "X" and "row" in e.get("args", {})]
    spans[-1]["args"][where] = value
    with pytest.raises(TraceFormatError, match=re.escape(message)):
        trace_from_chrome(json.loads(json.dumps(document)))
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    assert trace_import.trace_at_once(path.read_bytes()) is None
    with pytest.raises(TraceFormatError, match=re.escape(message)):
        import_chrome(path)
