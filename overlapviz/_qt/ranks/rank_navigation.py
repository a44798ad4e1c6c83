"""File ▸ Open folder, the rank overview, a rank's timeline and back.

A folder is read as a job on a thread of its own (`app.job_opening`: the ranks summarised in
worker processes), the status bar counting the ranks read; the window keeps only the
summaries. The overview then takes the centre of the window. Opening a rank is File ▸ Open
of its events, read only then: its file, or in an Nsight export of several processes its
process's alone, as the job's analysis read them (`rank_loading`); "Back to the ranks" shows
the overview again as it was, without reading anything. Compare ranks reads the two ranks'
events, moves them onto the job's clock (`app.rank_pair`) and shows them as A and B.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import cast

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMainWindow, QStackedWidget, QWidget

from overlapviz._qt.files.background import BackgroundTasks, Task, TaskOutcome
from overlapviz._qt.files.file_actions import FileActions
from overlapviz._qt.files.problem_words import problem_words
from overlapviz._qt.ranks.rank_actions import RankActions, build_rank_actions
from overlapviz._qt.ranks.rank_loading import load_rank
from overlapviz._qt.ranks.rank_panel import RankOverviewPanel
from overlapviz._qt.translation import translate
from overlapviz.app.controller import AppController
from overlapviz.app.job_opening import OpenedJob, read_job_folder
from overlapviz.app.ports import Messages
from overlapviz.app.rank_pair import RankPair, rank_pair, show_rank_pair
from overlapviz.core.cancel import CancelToken
from overlapviz.job.worker import RankSource
from overlapviz.view.rank_overview import RankRow


class RankNavigation(QObject):
    """The way between a job's overview and its ranks' timelines. `job_shown` fires as an overview goes on show."""

    job_shown = Signal()
    job_failed = Signal(str)
    _progress = Signal(int, int)

    def __init__(
        self, window: QMainWindow, stack: QStackedWidget, panel: RankOverviewPanel, files: FileActions,
        controller: AppController, messages: Messages,
    ) -> None:  # fmt: skip
        super().__init__(window)
        self._stack, self.panel, self._files = stack, panel, files
        self._timelines = cast(QWidget, stack.widget(0))  # `centre_stack` puts the timelines first
        self._controller, self._messages = controller, messages
        self.opened: OpenedJob | None = None
        self._timeline_only: list[QWidget] = []  # what the overview hides: the timeline's colour key
        self._reading: CancelToken | None = None
        self.tasks = BackgroundTasks("overlapviz-ranks", self)
        self.tasks.done.connect(self._on_done)
        self._then: dict[Task, Callable[[TaskOutcome], None]] = {}
        self.actions: RankActions = build_rank_actions(window)
        self._connect()

    def _connect(self) -> None:
        a, model = self.actions, self._controller.model
        a.open_folder.triggered.connect(lambda: self.open_folder())
        a.back_to_ranks.triggered.connect(self.back_to_ranks)
        a.compare_ranks.triggered.connect(lambda: self.compare_rows(list(self.panel.plot.selected)))
        self.panel.open_requested.connect(self.open_row)
        self.panel.compare_requested.connect(self.compare_rows)
        self.panel.plot.selection_changed.connect(lambda rows: a.compare_ranks.setEnabled(len(rows) == 2))
        self._progress.connect(self._say_progress)
        model.shown_changed.connect(lambda _shown: self._show_page(self._timelines))
        self._enable()

    def open_folder(self, folder: Path | None = None) -> bool:
        """Read the traces in `folder` (asked for when not given) as one job's ranks; False: none chosen."""
        folder = folder or self._files.dialogs.folder_path(
            translate("RankNavigation", "Open a folder of a job's traces, one per rank")
        )
        if folder is None:
            return False
        if self._reading is not None:
            self._reading.cancel()
        self._controller.set_live(False)  # a run landing meanwhile would take the overview's place
        self._controller.runs.cancel()
        said = translate("RankNavigation", "Reading the ranks in {folder}\u2026")
        self._messages.show_notice(said.format(folder=folder.name))
        task = self.tasks.submit(partial(read_job_folder, folder, progress=self._progress.emit))
        self._reading = task.cancel
        self._then[task] = partial(self._read, folder)
        return True

    def open_row(self, row: int) -> bool:
        """Open the rank in `row` of the overview: its file, as File ▸ Open opens it."""
        rank = self._row(row)
        if rank is None:
            return False
        self._controller.compare.unpin()
        said = translate("RankNavigation", "Reading rank {rank} ({file})\u2026")
        self._messages.show_notice(said.format(rank=rank.rank, file=rank.file.name))
        source = self._source_of(rank)
        return self._files.open(rank.file, lambda _path, cancel: load_rank(source, cancel))

    def compare_rows(self, rows: list[int]) -> bool:
        """Rank A and rank B (rows of the overview) on one time axis, the job's clock."""
        ranks = [self._row(row) for row in rows]
        if len(ranks) != 2 or ranks[0] is None or ranks[1] is None:
            self._messages.show_error(
                translate("RankNavigation", "Compare ranks takes two ranks: Ctrl+click two rows of the overview.")
            )
            return False
        pair = (ranks[0], ranks[1])
        said = translate("RankNavigation", "Reading ranks {a} and {b}\u2026")
        self._messages.show_notice(said.format(a=pair[0].rank, b=pair[1].rank))
        sources = (self._source_of(pair[0]), self._source_of(pair[1]))
        self._then[self.tasks.submit(partial(_read_pair, pair, sources))] = self._compared
        return True

    def back_to_ranks(self) -> bool:
        """Show the overview again, as it was (nothing is read again); False: no job was opened."""
        if self.opened is None:
            return False
        self._show_page(self.panel)
        self.panel.plot.setFocus()
        return True

    def hide_with_overview(self, *widgets: QWidget) -> None:
        """Hide `widgets` (the timeline's colour key) while the overview is on show."""
        self._timeline_only += widgets

    def showing_ranks(self) -> bool:
        """Whether the overview is on show (rather than a timeline)."""
        return self._stack.currentWidget() is self.panel

    def shutdown(self) -> None:
        """Stop reading and stop the thread."""
        if self._reading is not None:
            self._reading.cancel()
        self.tasks.shutdown()
        self._then.clear()

    # --- internals -----------------------------------------------------------------------

    def _row(self, row: int) -> RankRow | None:
        return None if self.opened is None else self.opened.overview.row_at(row)

    def _source_of(self, rank: RankRow) -> RankSource:
        return RankSource(str(rank.file)) if self.opened is None else self.opened.source_of(rank)

    def _say_progress(self, read: int, total: int) -> None:
        said = translate("RankNavigation", "rank {read} of {total} read")
        self._messages.show_notice(said.format(read=read, total=total))

    def _on_done(self, outcome: TaskOutcome) -> None:
        then = self._then.pop(outcome.task, None)
        if then is not None:
            then(outcome)

    def _read(self, folder: Path, outcome: TaskOutcome) -> None:
        if outcome.task.cancel is self._reading:
            self._reading = None
        if outcome.cancelled:
            return
        if outcome.error is not None:
            said = translate("RankNavigation", "Could not open the folder {folder} as a job: {reason}")
            text = said.format(folder=folder.name, reason=_problem(outcome.error, folder))
            self._messages.show_error(text)
            self.job_failed.emit(text)
            return
        self.opened = outcome.result
        self.panel.show_overview(self.opened.overview, folder.name)
        self._messages.clear_error()
        count = len(self.opened.overview.rows)
        said = (
            translate("RankNavigation", "{n} rank read from {folder}")
            if count == 1
            else translate("RankNavigation", "{n} ranks read from {folder}")
        )
        self._messages.show_notice(said.format(n=count, folder=folder))
        self._show_page(self.panel)
        self.panel.plot.setFocus()
        self.job_shown.emit()

    def _compared(self, outcome: TaskOutcome) -> None:
        if outcome.error is not None:
            said = translate("RankNavigation", "Could not compare the ranks: {reason}")
            self._messages.show_error(said.format(reason=_problem(outcome.error, None)))
        elif not outcome.cancelled:
            show_rank_pair(self._controller, outcome.result)

    def _show_page(self, page: QWidget) -> None:
        self._stack.setCurrentWidget(page)
        for widget in self._timeline_only:
            widget.setVisible(page is not self.panel)
        self._enable()

    def _enable(self) -> None:
        self.actions.back_to_ranks.setEnabled(self.opened is not None and not self.showing_ranks())
        self.actions.compare_ranks.setEnabled(self.showing_ranks() and len(self.panel.plot.selected) == 2)


def _read_pair(rows: tuple[RankRow, RankRow], sources: tuple[RankSource, RankSource], cancel: CancelToken) -> RankPair:
    """Both ranks' events (a file, or a process of an export of several) prepared, then put on the job's clock."""
    opened = [load_rank(source, cancel) for source in sources]
    views = [o.view for o in opened]
    if views[0] is None or views[1] is None:
        raise ValueError(translate("RankNavigation", "a rank's file holds no trace"))  # said in the window
    return rank_pair(rows, (views[0], views[1]), cancel)


def _problem(error: BaseException, path: Path | None) -> str:
    """The reason in words, the files in the folder `path` by their names alone; an unexpected error by its type too."""
    said = problem_words(error, path)
    return said if path is None else said.replace(f"{path}{os.sep}", "")
