"""The trace's metadata as a typed value: built once from a file's object, written back as it was."""

import dataclasses
import gzip
import json
from pathlib import Path

import pytest
from tracefactory import pipeline_trace

from overlapviz.core.config import PipelineConfig
from overlapviz.core.files.trace_export import chrome_dict, export_chrome
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.core.files.trace_import import import_chrome
from overlapviz.core.trace.checks import TraceValueError
from overlapviz.core.trace.meta import TraceMeta

OLD_FILES = Path(__file__).parents[1] / "data" / "overlapviz"

# What the CuPy backend wrote for a CUPTI-timed run, in the order it wrote the entries.
CUPY_META = {
    "backend": "cupy", "device": "cuda:0", "device_name": "NVIDIA H200",
    "config": PipelineConfig().to_dict(), "version": "0.2.0", "simulated": False,
    "device_facts": {"name": "NVIDIA H200", "copy_engines": 3, "sm_count": 132},
    "host_wall_ns": 6_100_000, "timing": "cupti", "pinned_kept_bytes": 512 * 2**20,
}  # fmt: skip


def _json(document: object) -> bytes:
    return json.dumps(document, separators=(",", ":"), allow_nan=False).encode()


def _old(name: str) -> bytes:
    return gzip.decompress((OLD_FILES / name).read_bytes())


@pytest.mark.parametrize("name", ["sim-pageable-0.2.0.json.gz", "sim-window-0.2.0.json.gz"])
def test_a_file_the_model_drew_before_reads_back_and_writes_its_entries_again(name):
    trace = import_chrome(OLD_FILES / name)
    assert trace.meta.simulated is True and trace.meta.backend == "sim" and trace.meta.device == "h200"
    assert trace.meta.caveat is not None and trace.meta.caveat.startswith("Real pageable copies")
    assert trace.meta.config is not None and trace.meta.config["memory"] == "pageable"
    assert trace.meta.extra == {}
    # the file format has moved on since (device and thread columns), the metadata has not
    assert json.loads(_json(chrome_dict(trace)))["otherData"]["meta"] == json.loads(_old(name))["otherData"]["meta"]


def test_the_window_of_an_old_file_is_a_pair_of_whole_numbers():
    window = import_chrome(OLD_FILES / "sim-window-0.2.0.json.gz").meta.window
    assert window is not None and window[0] < window[1] and all(isinstance(edge, int) for edge in window)


def test_another_tools_trace_written_before_reads_back_with_its_entries():
    old = json.loads(_old("torch-pinned-0.2.0.json.gz"))
    trace = import_chrome(OLD_FILES / "torch-pinned-0.2.0.json.gz")
    meta = trace.meta
    assert (meta.backend, meta.tool, meta.source, meta.recorded) == (
        "file", "PyTorch profiler", "torch-pinned.json.gz", "2026-12-01",
    )  # fmt: skip
    assert meta.tool_version is None and meta.not_shown == {"annotation ranges": 16} and not meta.simulated
    written = chrome_dict(trace)
    # The one difference: an entry that was null is left out (it reads back as the same None).
    assert old["otherData"]["meta"].pop("tool_version") is None
    assert written["otherData"]["meta"] == old["otherData"]["meta"]


def test_the_real_gpus_entries_load_typed_whatever_their_order():
    meta = TraceMeta.from_dict(CUPY_META)
    assert (meta.host_wall_ns, meta.pinned_kept_bytes, meta.timing) == (6_100_000, 512 * 2**20, "cupti")
    assert meta.device_facts["copy_engines"] == 3 and meta.simulated is False and meta.extra == {}
    assert meta.to_dict() == CUPY_META
    assert TraceMeta.from_dict(meta.to_dict()) == meta


def test_a_new_run_round_trips_byte_for_byte(tmp_path):
    trace = pipeline_trace(4, 2).with_meta(caveat="careful", window=(0, 5))
    export_chrome(trace, tmp_path / "a.json")
    again = import_chrome(tmp_path / "a.json")
    assert again.meta == trace.meta
    export_chrome(again, tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_entries_this_version_does_not_know_are_kept_and_written_back(tmp_path):
    trace = pipeline_trace(2, 1).with_meta(chunks_asked=8, later={"a": [1, 2]})
    assert trace.meta.extra == {"chunks_asked": 8, "later": {"a": [1, 2]}}
    export_chrome(trace, tmp_path / "t.json")
    document = json.loads((tmp_path / "t.json").read_text())
    assert list(document["otherData"]["meta"])[-2:] == ["chunks_asked", "later"]
    assert import_chrome(tmp_path / "t.json").meta.extra == {"chunks_asked": 8, "later": {"a": [1, 2]}}


def test_an_entry_named_extra_is_an_entry_like_any_other():
    meta = TraceMeta.from_dict({"backend": "sim", "extra": 5})
    assert meta.extra == {"extra": 5} and meta.to_dict() == {"backend": "sim", "simulated": False, "extra": 5}


def test_replace_sets_fields_and_keeps_other_entries_in_extra():
    meta = TraceMeta(backend="sim", simulated=True)
    changed = meta.replace(caveat="careful", window=(1, 2), note="kept")
    assert (changed.caveat, changed.window, changed.extra) == ("careful", (1, 2), {"note": "kept"})
    assert meta == TraceMeta(backend="sim", simulated=True)  # the original is untouched
    assert changed.replace(note=None).extra == {"note": None}


def test_with_meta_gives_a_new_trace_with_new_metadata():
    trace = pipeline_trace(2, 1)
    other = trace.with_meta(caveat="a word of caution")
    assert other is not trace and other.meta.caveat == "a word of caution"
    assert trace.meta.caveat is None and other.meta.config == trace.meta.config


def test_the_metadata_is_frozen_and_owns_its_mappings():
    config = {"chunks": 2}
    meta = TraceMeta.from_dict({"config": config, "device_facts": {"copy_engines": 2}})
    config["chunks"] = 99
    assert meta.config == {"chunks": 2}
    with pytest.raises(dataclasses.FrozenInstanceError):
        meta.backend = "cupy"  # type: ignore[misc]


def test_defaults_are_left_out_but_simulated_is_always_written():
    assert TraceMeta().to_dict() == {"simulated": False}
    assert TraceMeta.from_dict({}) == TraceMeta() == TraceMeta.from_dict({"config": None, "caveat": None})


@pytest.mark.parametrize(
    ("entries", "words"),
    [
        ({"simulated": "yes"}, "meta.simulated is not true or false: 'yes'"),
        ({"tool": 5}, "meta.tool is not text: 5"),
        ({"source": "x" * 5000}, "meta.source is 5,000 characters long; at most 1,024"),
        ({"host_wall_ns": 1.5}, "meta.host_wall_ns is not a whole number: 1.5"),
        ({"pinned_kept_bytes": -1}, "meta.pinned_kept_bytes is -1; expected a whole number from 0"),
        ({"window": "2:4"}, r"meta.window is '2:4'; expected \[start_ns, end_ns\]"),
        ({"window": [1, 2, 3]}, r"meta.window is a list; expected \[start_ns, end_ns\]"),
        ({"window": [5, 2]}, "meta.window 5 to 2 ns is not a time range"),
        ({"window": [0, "9"]}, "window end is not a whole number: '9'"),
        ({"not_shown": [1]}, "meta.not_shown is not an object: a list"),
        ({"not_shown": {"memsets": -3}}, r"meta.not_shown\['memsets'\] is -3"),
        ({"device_facts": {"copy_engines": 0}}, "copy_engines is 0; expected a whole number from 1 to 64"),
    ],
)
def test_a_bad_entry_is_refused_with_a_message_naming_it(entries, words):
    with pytest.raises(TraceValueError, match=words):
        TraceMeta.from_dict({"backend": "sim", **entries})


def test_a_file_with_a_bad_entry_is_refused_whole_naming_the_file_and_the_entry(tmp_path):
    document = json.loads(_old("sim-window-0.2.0.json.gz"))
    document["otherData"]["meta"]["window"] = [9, 1]
    (tmp_path / "bad.json").write_text(json.dumps(document))
    with pytest.raises(TraceFormatError, match=r"bad\.json: meta\.window 9 to 1 ns is not a time range"):
        import_chrome(tmp_path / "bad.json")
