"""Presentation mode (F5): full screen, the projector theme, large type, the lessons by arrow key.

Everything but the timeline(s) and the error strip steps aside; the lesson's title and
text become a caption above the timeline, with the run's headline numbers (a comparison
shows its own table of differences). Left and Right (and Page Up /
Page Down, which presentation clickers send) step through the lessons, Space plays or
pauses the replay, Esc leaves. Those keys are taken before any widget sees them, so a
focused timeline does not pan instead. Leaving restores the theme, text size, window state
and panels as they were.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QLabel, QToolBar, QWidget

from overlapviz._qt.export.caption import SEPARATOR
from overlapviz._qt.widgets.metrics_panel import metric_texts
from overlapviz.core.metrics import Metrics
from overlapviz.presets import Preset
from overlapviz.view.formatting import format_percent

if TYPE_CHECKING:
    from overlapviz._qt.main_window import MainWindow
    from overlapviz._qt.teaching.lesson_controller import LessonController
    from overlapviz._qt.teaching.replay import ReplayController

PROJECTOR_THEME = "projector"
TEXT_SCALE = 1.8  # about 18 pt from a 10 pt desktop font: readable from the back of a hall
HINT = "\u2190 \u2192 lessons  \u00b7  Space replay  \u00b7  Esc leaves"


@dataclass
class _Before:
    """What presentation mode changed, to put back."""

    theme: str
    scale: float
    state: Qt.WindowState
    hidden: list[QWidget]


class PresentationMode(QObject):
    """Enters and leaves presentation mode for one window; `changed` says which."""

    changed = Signal(bool)

    def __init__(self, window: MainWindow, lessons: LessonController, replay: ReplayController) -> None:
        super().__init__(window)
        self._window = window
        self._lessons = lessons
        self._replay = replay
        self._before: _Before | None = None
        self._keys = {
            Qt.Key.Key_Right: lessons.next, Qt.Key.Key_PageDown: lessons.next,
            Qt.Key.Key_Left: lessons.previous, Qt.Key.Key_PageUp: lessons.previous,
            Qt.Key.Key_Space: replay.toggle, Qt.Key.Key_Escape: self.leave,
        }  # fmt: skip
        lessons.started.connect(lambda *_args: self._update_caption())
        window.timeline_drawn.connect(self._update_caption)

    @property
    def active(self) -> bool:
        """Whether the window is presenting."""
        return self._before is not None

    def toggle(self) -> None:
        """Enter, or leave."""
        if self.active:
            self.leave()
        else:
            self.enter()

    def enter(self) -> None:
        """Full screen, projector theme, large type, caption; lesson keys on."""
        if self.active:
            return
        w = self._window
        fonts = w.fonts
        panels = [w.controls_column, w.right_column, w.menuBar(), w.statusBar(), *w.findChildren(QToolBar)]
        shown = [panel for panel in panels if not panel.isHidden()]
        self._before = _Before(w.theme_name(), fonts.scale if fonts else 1.0, w.windowState(), shown)
        for panel in shown:
            panel.hide()
        w.set_theme(PROJECTOR_THEME, remember=False)
        if fonts is not None:
            fonts.set_scale(TEXT_SCALE)
        self._update_caption()
        w.presentation_caption.show()
        w.showFullScreen()
        _application().installEventFilter(self)
        self.changed.emit(True)

    def leave(self) -> None:
        """Back to the window as it was."""
        before, self._before = self._before, None
        if before is None:
            return
        w = self._window
        _application().removeEventFilter(self)
        w.presentation_caption.hide()
        w.setWindowState(before.state)
        w.set_theme(before.theme, remember=False)
        if w.fonts is not None:
            w.fonts.set_scale(before.scale)
        for panel in before.hidden:
            panel.show()
        self.changed.emit(False)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """Take the lesson keys before any widget or shortcut does."""
        if not isinstance(event, QKeyEvent) or event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        action = self._keys.get(Qt.Key(event.key()))
        if action is None:
            return False
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # deliver it as a key press, not as some widget's shortcut
            return True
        if event.type() == QEvent.Type.KeyPress:
            action()
            return True
        return False

    def _update_caption(self) -> None:
        if not self.active:
            return
        preset, index = self._lessons.current(), self._lessons.index
        shown = self._window.shown()
        numbers = "" if shown is None or self._window.compare.is_comparing() else headline(shown.result.metrics)
        caption = self._window.presentation_caption
        caption.setText(caption_html(preset, index, len(self._lessons.lessons), numbers))


def headline(metrics: Metrics) -> str:
    """``Makespan 5.93 ms · copy time hidden 86 % · efficiency 90 % · host blocked none · H2D ... · D2H ...``."""
    texts = metric_texts(metrics)
    return SEPARATOR.join([
        f"Makespan {texts['makespan']}", f"copy time hidden {texts['copy_hidden']}",
        f"efficiency {format_percent(metrics.efficiency_pct)}", f"host blocked {texts['blocked']}",
        f"H2D {texts['h2d_bandwidth']}", f"D2H {texts['d2h_bandwidth']}",
    ])  # fmt: skip


def caption_label() -> QLabel:
    """The label above the timeline that presentation mode fills with the lesson (hidden until then)."""
    label = QLabel()
    label.setObjectName("presentation_caption")
    label.setWordWrap(True)
    label.hide()
    return label


def _application() -> QCoreApplication:
    app = QApplication.instance()
    if app is None:
        raise RuntimeError("presentation mode needs a running QApplication")
    return app


def caption_html(preset: Preset | None, index: int | None, count: int, numbers: str = "") -> str:
    """The presentation caption: the lesson's title and text, which lesson of how many, the numbers."""
    lines = [f"<b>Press \u2192 for the first of {count} lessons</b>"]
    if preset is not None and index is not None:
        lines = [f"<b>{index + 1}/{count} \u00b7 {html.escape(preset.title)}</b>", html.escape(preset.text)]
    if numbers:
        lines.append(f"<b>{html.escape(numbers)}</b>")
    lines.append(f"<span style='font-size: small'>{html.escape(HINT)}</span>")
    return "<br>".join(lines)
