"""Bad PyTorch profiler traces: one KinetoFormatError, one line naming the file and what is wrong."""

import json

import pytest
from kineto_files import document_of, encoded

from overlapviz.importers import kineto
from overlapviz.importers.kineto import KinetoFormatError, read_kineto
from overlapviz.resources import asset_path

SOURCE = "bad\ntrace.json"  # a newline in the name must not break the line


def kernel(**changes):
    event = {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 10.5, "dur": 2.25,
             "args": {"device": 0, "stream": 7, "correlation": 3}}  # fmt: skip
    event.update(changes)
    return event


def trace(*events, **top):
    return encoded({"schemaVersion": 1, "traceEvents": list(events), **top})


def refusal(raw):
    with pytest.raises(KinetoFormatError) as caught:
        read_kineto(raw, SOURCE)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 400, message
    assert message.startswith("bad\\ntrace.json: ")
    return message


def nested(depth):
    return b"[" * depth + b"]" * depth


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"", "the file is empty"),
        (b" \n", "the file is empty"),
        (b"not json at all", "not JSON"),
        (trace(kernel())[:-7], "not JSON"),  # cut short
        (b'{"schemaVersion": 1, "traceEvents": [{"name": "\xff"}]}', "not JSON"),
        (b'{"traceEvents": [{"ts": NaN}]}', "not JSON"),
        (b"[]", "not a PyTorch profiler trace"),
        (b'{"schemaVersion": 1}', "no traceEvents"),
        (b'{"traceEvents": {}}', "not a PyTorch profiler trace"),
        (b'{"schemaVersion": 1, "traceEvents": {}}', "wrong type"),
        (b'{"traceEvents": [], "a": ' + nested(5000) + b"}", "nests too deeply"),
        (trace(kernel(ts=0)).replace(b'"ts": 0', b'"ts": ' + nested(3000)), "nests too deeply"),
        (trace(kernel(args={"stream": 2**63})), "at `$.traceEvents[0].args.stream`"),
        (trace(kernel(pid=2**64)), "at `$.traceEvents[0].pid`"),
        (trace(kernel(), kernel(args={"correlation": -(2**63) - 1})), "at `$.traceEvents[1].args.correlation`"),
        (trace(kernel(args={"stream": [7]})), "wrong type"),
        (trace(kernel(args={"bytes": 1.5})), "wrong type"),
        (trace(kernel(args={"device": True})), "wrong type"),
        (trace(kernel(args=[])), "wrong type"),
        (trace(kernel(cat=7)), "wrong type"),
        (trace(kernel(), deviceProperties=[{"name": "H200"}]), "deviceProperties"),
        (trace(kernel(), baseTimeNanoseconds=-5), "baseTimeNanoseconds"),
        (trace(kernel(), baseTimeNanoseconds=5 * 10**18), "baseTimeNanoseconds"),
    ],
)
def test_undecodable_files_are_refused_in_one_line(raw, words):
    assert words in refusal(raw)


def without(event, key):
    return {k: v for k, v in event.items() if k != key}


@pytest.mark.parametrize(
    ("event", "words"),
    [
        (without(kernel(), "ts"), "event 1 (kernel 'k'): it has no ts"),
        (without(kernel(), "dur"), "it has no dur"),
        (kernel(ts="10.5"), "its ts '\"10.5\"' is not a number"),
        (kernel(dur=None), "its dur 'null' is not a number"),
        (kernel(ts=[1]), "not a number"),
        (kernel(ts=1e300), "out of range"),
        (kernel(ts=-1.5), "its ts is negative"),
        (kernel(dur=-0.001), "its dur is negative"),
        (kernel(name="x" * 100_000, dur=-1), "kernel 'xxxx"),
        (kernel(args={"device": 40000}), "its device 40000 is past the last index, 32767"),
        (kernel(cat="gpu_memcpy", args={"bytes": -2}), "its byte count -2 is negative"),
    ],
)
def test_a_row_without_good_times_is_refused_naming_the_event(event, words):
    other = {"ph": "X", "cat": "cpu_op", "name": "aten::add", "ts": "not read", "dur": 1}
    assert words in refusal(trace(other, event))


def test_times_past_int64_are_refused():
    raw = trace(kernel(ts=3 * 10**15, dur=3 * 10**15), baseTimeNanoseconds=4 * 10**18)
    assert "ends past the last time int64 nanoseconds can hold" in refusal(raw)


@pytest.mark.parametrize(
    "document",
    [
        {"traceEvents": []},
        {"traceEvents": [kernel()]},  # "kernel" alone is not Kineto's
        {"traceEvents": [{"ph": "X", "cat": "h2d", "name": "copy", "ts": 1, "dur": 1}], "otherData": {}},
        json.loads(next(iter(sorted(asset_path("traces").glob("*.json")))).read_text()),  # overlapviz's own
    ],
)
def test_traces_of_other_tools_are_refused(document):
    assert "not a PyTorch profiler trace" in refusal(encoded(document))


def test_events_read_only_by_other_tools_may_hold_anything():
    document = document_of("torch-pinned.json.gz")
    document["traceEvents"].append({"ph": "X", "cat": "cpu_op", "name": "aten::x", "ts": "later", "dur": {"a": 1}})
    document["traceEvents"].append({"ph": "i", "cat": "kernel", "name": "instant", "ts": []})
    assert len(read_kineto(encoded(document), "extra.json")) == 450


def test_a_byte_order_mark_is_allowed():
    assert len(read_kineto(b"\xef\xbb\xbf" + trace(kernel()), "bom.json")) == 1


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (trace(*[kernel()] * 7, kernel(args={"stream": 2**63})), "at `$.traceEvents[7].args.stream`"),
        (trace(*[kernel()] * 9, kernel(dur=-1)), "event 9 (kernel 'k'): its dur is negative"),
        (b'{"traceEvents": [' + b'{"cat": "x"}, ' * 8 + b'{"cat": 5}]}', "not a PyTorch profiler trace"),
        (trace(*[kernel()] * 8, kernel(name="\udcff")).replace(b"\\udcff", b"\xff"), "not JSON (Invalid UTF-8"),
    ],
)
def test_events_past_the_first_batch_are_named_by_their_place_in_the_file(raw, words, monkeypatch):
    monkeypatch.setattr(kineto, "BATCH_EVENTS", 3)
    assert words in refusal(raw)


def test_categories_in_later_batches_tell_a_kineto_file(monkeypatch):
    monkeypatch.setattr(kineto, "BATCH_EVENTS", 2)
    events = [{"ph": "X", "cat": "x", "name": "a", "ts": 1, "dur": 1}] * 5 + [kernel(), {"cat": "cuda_runtime"}]
    assert len(read_kineto(encoded({"traceEvents": events}), "late.json")) == 1
