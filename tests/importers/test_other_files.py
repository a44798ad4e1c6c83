"""Files taken for traces that overlapviz does not read get one line saying what to open instead."""

import gzip

import pytest

from overlapviz.app.session_file import SessionFormatError, open_file
from overlapviz.core.files.trace_export import export_csv
from overlapviz.core.files.trace_format import TraceFormatError
from overlapviz.importers.other_files import NSYS_REPORT_MAGIC, what_to_open_instead
from overlapviz.importers.read import read_trace_file
from tests.cli_runs import run_cli
from tests.importers.kineto_files import TORCH
from tests.importers.nsys_files import NSYS, STREAMS

# The first bytes of report1.nsys-rep, which Nsight Systems 2026.1 wrote beside the export
# tests/data/nsys/test-cuda-2026.1-pinned-streams.sqlite.gz (README there), up to its version.
REPORT_START = NSYS_REPORT_MAGIC + b" 2026@1@1@204-261137176666v0.\n\x0bLocal (CLI)\x12\x08\x08\x7f"


@pytest.fixture
def report(tmp_path):
    path = tmp_path / "report1.nsys-rep"
    path.write_bytes(REPORT_START + bytes(range(256)))
    return path


def test_an_nsight_report_says_how_to_export_it(report):
    with pytest.raises(TraceFormatError, match=r"nsys export --type sqlite report1.nsys-rep\) and open the .sqlite"):
        read_trace_file(report)


def test_an_nsight_report_is_known_by_its_bytes_whatever_its_name(tmp_path, report):
    renamed = tmp_path / "profile.bin"
    renamed.write_bytes(report.read_bytes())
    assert "an Nsight Systems report" in what_to_open_instead(renamed.read_bytes(), str(renamed))


@pytest.mark.parametrize(("content", "hinted"), [(b"\x00\x01binary", True), (b'{"traceEvents": []}', False)])
def test_a_file_named_as_a_report_is_one_unless_it_is_json(content, hinted):
    assert (what_to_open_instead(content, "old.qdrep") is not None) == hinted


def test_an_export_renamed_as_a_report_is_still_read(tmp_path):
    path = tmp_path / "report1.nsys-rep"
    path.write_bytes(gzip.decompress((NSYS / STREAMS).read_bytes()))
    assert len(read_trace_file(path)) > 0


def test_overlapviz_csv_export_says_to_open_the_json_trace(tmp_path):
    path = tmp_path / "spans.csv"
    export_csv(read_trace_file(TORCH / "torch-pinned.json.gz"), path)
    with pytest.raises(TraceFormatError, match=r"CSV export, which it does not read back: open the \.json trace"):
        read_trace_file(path)


@pytest.mark.parametrize("command", ["analyze", "render"])
def test_the_command_line_gives_the_hint_in_one_line_and_exit_2(capsys, report, tmp_path, command):
    argv = [command, report] if command == "analyze" else [command, report, "-o", tmp_path / "x.png"]
    code, out, err = run_cli(capsys, *argv)
    assert (code, out) == (2, "") and err.count("\n") == 1 and "nsys export --type sqlite" in err


def test_the_app_gets_the_same_line_to_show_in_its_window(report):
    with pytest.raises(SessionFormatError, match=r"an Nsight Systems report, which overlapviz does not read"):
        open_file(report)
