"""File > Open folder in the window: the overview of a job's ranks, a rank's timeline and back, Compare ranks."""

from file_waits import FILE_TIMEOUT_MS
from PySide6.QtCore import Qt
from rank_folders import RANK_FILES, READ_TIMEOUT_MS, open_folder_and_wait

from overlapviz.app.aligning import first_device_ns
from overlapviz.view.rank_overview import pair_shifts


def _rank_labels(window):
    ticks = window.rank_panel.plot.getAxis("left")._tickLevels[0]
    return [label for _y, label in ticks]


def test_a_folder_shows_a_row_per_rank_counting_the_ranks_read(qtbot, window, job_folder):
    said = []
    window.statusBar().messageChanged.connect(said.append)
    assert open_folder_and_wait(qtbot, window, job_folder)
    assert window.ranks.showing_ranks()
    assert [label.split()[:2] for label in _rank_labels(window)] == [["rank", "0"], ["rank", "1"]]
    assert "rank 2 of 2 read" in said
    assert said[-1].startswith("2 ranks read from")
    assert "2 ranks of 128" in window.rank_panel.heading.text()
    assert window.rank_panel.findings.count() >= 1
    assert not window.legend.isVisible()  # the timeline's key: the overview has its own


def test_a_click_opens_the_ranks_file_and_back_shows_the_same_overview(qtbot, window, job_folder):
    assert open_folder_and_wait(qtbot, window, job_folder)
    overview, plot = window.ranks.opened, window.rank_panel.plot
    with qtbot.waitSignal(window.files.open_finished, timeout=FILE_TIMEOUT_MS):
        qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=plot.row_centre(1).toPoint())
    assert window.shown().source.name == RANK_FILES[1].name
    assert not window.ranks.showing_ranks() and window.legend.isVisible()
    assert window.ranks.actions.back_to_ranks.isEnabled()
    window.ranks.actions.back_to_ranks.trigger()
    assert window.ranks.showing_ranks()
    assert window.ranks.opened is overview and not window.ranks.tasks.busy  # nothing read again
    plot.set_selected([0])
    with qtbot.waitSignal(window.files.open_finished, timeout=FILE_TIMEOUT_MS):
        qtbot.keyClick(plot, Qt.Key.Key_Return)
    assert window.shown().source.name == RANK_FILES[0].name


def test_compare_ranks_puts_two_ranks_on_the_jobs_clock(qtbot, window, job_folder):
    assert open_folder_and_wait(qtbot, window, job_folder)
    plot, panel = window.rank_panel.plot, window.rank_panel
    for row in (0, 1):
        qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier,
                         plot.row_centre(row).toPoint())  # fmt: skip
    assert plot.selected == [0, 1] and panel.compare_button.isEnabled()
    qtbot.mouseClick(panel.compare_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.model.pinned is not None, timeout=READ_TIMEOUT_MS)
    pinned, shown = window.model.pinned, window.model.shown
    assert (pinned.a.label, shown.label) == ("rank 0", "rank 1")
    assert not window.ranks.showing_ranks()
    rows = window.ranks.opened.overview.rows
    shift_a, shift_b = pair_shifts(rows[0], rows[1])
    # each side's own first device op, moved by the job's clocks and nothing else (no line-up at first ops)
    own = [summary.device_start_ns - summary.origin_ns for summary in window.ranks.opened.job.ranks]
    assert first_device_ns(pinned.view.trace) == own[0] + shift_a
    assert first_device_ns(shown.view.trace) == own[1] + shift_b
    assert window.statusBar().currentMessage().startswith("Rank 0 (A) and rank 1 (B) on the job's clock")
