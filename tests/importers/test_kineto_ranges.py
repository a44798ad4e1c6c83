"""Batches cut from the text at event boundaries: the same activities as the whole document decoded first."""

import pytest
from kineto_files import NAMES, OTHERS, activities_of, encoded, others_activities_of, others_raw_of, raw_of
from test_kineto import same_activities
from test_kineto_errors import kernel

from overlapviz.importers import kineto
from overlapviz.importers.kineto import KinetoFormatError, read_kineto
from overlapviz.importers.kineto_ranges import cut_events


def whole_document_read(raw, source, monkeypatch):
    """`read_kineto` as it reads a file whose events it cannot cut: the whole document decoded first."""
    with monkeypatch.context() as patched:
        patched.setattr(kineto, "cut_events", lambda raw, batch_bytes: None)
        return read_kineto(raw, source)


@pytest.mark.parametrize("name", NAMES)
def test_cut_into_many_batches_a_trace_reads_as_whole(name, monkeypatch):
    monkeypatch.setattr(kineto, "BATCH_EVENTS", 3)  # about one event a batch
    assert len(cut_events(raw_of(name), 3 * kineto.EVENT_BYTES).ranges) > 100
    assert same_activities(read_kineto(raw_of(name), name), activities_of(name))
    assert same_activities(whole_document_read(raw_of(name), name, monkeypatch), activities_of(name))


def test_other_projects_traces_are_cut(monkeypatch):
    for path in sorted(OTHERS.glob("*.json.gz")):  # INFO lines after the events, whose texts hold "]"
        raw = others_raw_of(path.name)
        assert cut_events(raw, 10_000) is not None
        assert same_activities(whole_document_read(raw, path.name, monkeypatch), others_activities_of(path.name))


BOUNDARY_IN_TEXT = kernel(name='gemm"}, {"cat": "kernel')  # a "}, {" inside a name is no cut


@pytest.mark.parametrize(
    "document",
    [
        {"schemaVersion": 1, "traceEvents": [kernel(), BOUNDARY_IN_TEXT, kernel(), BOUNDARY_IN_TEXT]},
        {"traceEvents": [kernel(), kernel()], "deviceProperties": [{"id": 0, "name": "A100"}]},  # arrays after
        {"schemaVersion": 1, "traceEvents": [kernel(name="k]"), kernel()], "INFO": ["x] y", "z}]"]},
        {"schemaVersion": 1, "traceEvents": []},
    ],
)
def test_awkward_layouts_read_as_the_whole_document(document, monkeypatch):
    monkeypatch.setattr(kineto, "BATCH_EVENTS", 1)
    raw = encoded(document)
    assert same_activities(read_kineto(raw, "t.json"), whole_document_read(raw, "t.json", monkeypatch))


def outcome(read):
    """What a read gives: its activities, or its error's message."""
    try:
        return read()
    except KinetoFormatError as error:
        return str(error)


@pytest.mark.parametrize(
    "raw",
    [
        b'{"traceEvents": [KERNEL], "traceEvents": [KERNEL, KERNEL]}',  # JSON keeps the last
        b'{"traceEvents": [KERNEL, KERNEL], "traceEvents": []}',
        b'{"a": "\\"traceEvents\\": [", "traceEvents": [KERNEL]}',
        b'{"traceEvents": null, "schemaVersion": 1}',
        b'{"schemaVersion": 1, "traceEvents": [KERNEL, KERNEL] junk',
        b'{"schemaVersion": 1, "traceEvents": [KERNEL,\f KERNEL]}',  # no JSON whitespace
        b'{"schemaVersion": 1, "traceEvents": [KERNEL, {"cat": "kernel", "ts": -1}]}',
    ],
)
def test_a_file_cut_wrong_reads_as_the_whole_document(raw, monkeypatch):
    monkeypatch.setattr(kineto, "BATCH_EVENTS", 1)
    raw = raw.replace(b"KERNEL", encoded(kernel()))
    cut = outcome(lambda: read_kineto(raw, "t.json"))
    whole = outcome(lambda: whole_document_read(raw, "t.json", monkeypatch))
    assert cut == whole if isinstance(whole, str) else same_activities(cut, whole)


def test_collectives_are_numbered_alike_however_the_batches_fall(monkeypatch):
    name = "hta-nccl-a100-rank0-of-2.json.gz"  # kernels with a "Collective name", in many batches
    whole = others_activities_of(name)
    assert (whole["collective"] >= 0).any()
    monkeypatch.setattr(kineto, "BATCH_EVENTS", 7)
    assert same_activities(read_kineto(others_raw_of(name), name), whole)
    assert same_activities(whole_document_read(others_raw_of(name), name, monkeypatch), whole)
