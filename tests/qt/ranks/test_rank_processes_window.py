"""A job profiled as one Nsight export of two processes: each rank opens, and compares, as its own process alone."""

import sys
from pathlib import Path

from file_waits import FILE_TIMEOUT_MS
from rank_folders import READ_TIMEOUT_MS, open_folder_and_wait

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "importers"))

from nsys_files import STREAMS, two_process_export

from overlapviz.importers.read import read_trace_file


def _export_folder(tmp_path):
    folder = tmp_path / "job"
    folder.mkdir()
    two_process_export(STREAMS, folder / "job.sqlite")
    return folder, len(read_trace_file(folder / "job.sqlite"))


def test_opening_a_rank_of_an_export_of_two_processes_opens_its_process_alone(qtbot, window, tmp_path):
    folder, whole = _export_folder(tmp_path)
    assert open_folder_and_wait(qtbot, window, folder)
    assert len(window.ranks.opened.overview.rows) == 2
    with qtbot.waitSignal(window.files.open_finished, timeout=FILE_TIMEOUT_MS) as opened:
        assert window.ranks.open_row(1)
    assert opened.args[0]
    trace = window.shown().view.trace
    assert len(trace) == whole // 2 and trace.meta.process == "rank-two"
    assert window.shown().source == folder / "job.sqlite"


def test_compare_ranks_of_an_export_of_two_processes_shows_each_process_alone(qtbot, window, tmp_path):
    folder, whole = _export_folder(tmp_path)
    assert open_folder_and_wait(qtbot, window, folder)
    assert window.ranks.compare_rows([0, 1])
    qtbot.waitUntil(lambda: window.model.pinned is not None, timeout=READ_TIMEOUT_MS)
    a, b = window.model.pinned.a.view.trace, window.model.shown.view.trace
    assert len(a) == len(b) == whole // 2
    assert b.meta.process == "rank-two" and a.meta.process != "rank-two"
