"""Presentation mode (F5): full screen, the projector theme, large type, the lessons by arrow key.

Everything but the timeline(s) and the error strip steps aside; the lesson's title and
text become a caption above the timeline, with the run's headline numbers (a comparison
shows its own table of differences). Left and Right (and Page Up /
Page Down, which presentation clickers send) step through the lessons, Space plays or
pauses the replay, Esc leaves. Those keys are taken before any widget sees them, so a
focused timeline does not pan instead. Leaving restores the theme, text size, window state
and panels as they were. Whether the window presents is the application model's
(`presenting`); this view follows it, and its caption follows the lesson and the run on show.
Entering and leaving change the window in one step: nothing of it is painted until its new
size has arrived and its layouts have settled (`HeldPaint`); `settled` says when it has.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from overlapviz._qt.export.caption import join_values
from overlapviz._qt.translation import translate
from overlapviz._qt.widgets.font_scale import FontScale
from overlapviz._qt.widgets.held_paint import HeldPaint
from overlapviz._qt.widgets.metrics_panel import metric_texts
from overlapviz._qt.widgets.taken_keys import take_key
from overlapviz.app.lessons import Lessons
from overlapviz.app.model import AppModel, LessonOnShow
from overlapviz.core.analysis.metrics import Metrics
from overlapviz.core.i18n import grouped
from overlapviz.view.formatting import format_percent

PROJECTOR_THEME = "projector"
TEXT_SCALE = 1.8  # about 18 pt from a 10 pt desktop font: readable from the back of a hall
# The scale is for a full-HD slide. A 1280 x 720 projector draws the same picture as large with
# two thirds of the pixels, so its text takes two thirds of the scale: the same share of the
# screen, and room left for the timelines (at 1.8 on 720 px, a lesson's text, the captions and
# the table of differences left a comparison's timelines a few pixels each).
SLIDE_HEIGHT_PX = 1080
SMALLEST_TEXT_SCALE = 1.0


def text_scale(height_px: int) -> float:
    """The presentation's text scale on a screen `height_px` tall: in proportion to a full-HD slide's."""
    return max(SMALLEST_TEXT_SCALE, min(TEXT_SCALE, TEXT_SCALE * height_px / SLIDE_HEIGHT_PX))


class PresentationHost(Protocol):
    """What presentation mode needs from the window: its state, its panels, its looks."""

    presentation_caption: QLabel

    def panels(self) -> list[QWidget]: ...
    def theme_name(self) -> str: ...
    def set_theme(self, name: str, *, remember: bool = True) -> None: ...
    def windowState(self) -> Qt.WindowState: ...  # noqa: N802 (Qt's name)
    def setWindowState(self, state: Qt.WindowState) -> None: ...  # noqa: N802 (Qt's name)
    def showFullScreen(self) -> None: ...  # noqa: N802 (Qt's name)
    def window(self) -> QWidget: ...  # the top-level window (Qt's)


@dataclass
class _Before:
    """What presentation mode changed, to put back."""

    theme: str
    scale: float
    state: Qt.WindowState
    hidden: list[QWidget]


class PresentationMode(QObject):
    """Presents the window while the model says so; `changed` says when it entered or left.

    `settled` follows once the window is painted again, in its final layout.
    """

    changed = Signal(bool)
    settled = Signal()

    def __init__(
        self, host: PresentationHost, model: AppModel, lessons: Lessons, fonts: FontScale | None,
        toggle_replay: Callable[[], None], parent: QObject | None = None,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self._host = host
        self._model = model
        self._lessons = lessons
        self._fonts = fonts
        self._before: _Before | None = None
        self._held = HeldPaint(host.window(), self)
        self._held.released.connect(self.settled)
        self._keys: dict[Qt.Key, Callable[[], object]] = {
            Qt.Key.Key_Right: lessons.next, Qt.Key.Key_PageDown: lessons.next,
            Qt.Key.Key_Left: lessons.previous, Qt.Key.Key_PageUp: lessons.previous,
            Qt.Key.Key_Space: toggle_replay, Qt.Key.Key_Escape: self.leave,
        }  # fmt: skip
        model.presenting_changed.connect(self._follow)
        model.lesson_changed.connect(lambda _lesson: self._update_caption())
        model.shown_changed.connect(lambda _shown: self._update_caption())
        model.pinned_changed.connect(lambda _pinned: self._update_caption())

    @property
    def active(self) -> bool:
        """Whether the window is presenting."""
        return self._before is not None

    def toggle(self) -> None:
        """Enter, or leave."""
        self._model.set_presenting(not self._model.presenting)

    def enter(self) -> None:
        """Full screen, projector theme, large type, caption; lesson keys on."""
        self._model.set_presenting(True)

    def leave(self) -> None:
        """Back to the window as it was."""
        self._model.set_presenting(False)

    def _follow(self, presenting: bool) -> None:
        if presenting:
            self._enter()
        else:
            self._leave()

    def _enter(self) -> None:
        if self.active:
            return
        w, fonts = self._host, self._fonts
        self._held.hold()
        shown = [panel for panel in w.panels() if not panel.isHidden()]
        self._before = _Before(w.theme_name(), fonts.scale if fonts else 1.0, w.windowState(), shown)
        for panel in shown:
            panel.hide()
        w.set_theme(PROJECTOR_THEME, remember=False)
        self._fit_text()
        self._update_caption()
        w.presentation_caption.show()
        self._resize(w.showFullScreen)
        self._fit_text()  # the size full screen gave at once (offscreen); a window manager's comes as a resize
        _application().installEventFilter(self)
        self.changed.emit(True)

    def _leave(self) -> None:
        before, self._before = self._before, None
        if before is None:
            return
        w = self._host
        self._held.hold()
        _application().removeEventFilter(self)
        w.presentation_caption.hide()
        w.set_theme(before.theme, remember=False)
        if self._fonts is not None:
            self._fonts.set_scale(before.scale)
        for panel in before.hidden:
            panel.show()
        self._resize(lambda: w.setWindowState(before.state))
        self.changed.emit(False)

    def _resize(self, change_state: Callable[[], None]) -> None:
        """Change the window's state, then paint it once its new size has arrived.

        Without a window manager (offscreen) the size changes at once; on X it arrives later,
        unless the window already has the screen's size.
        """
        window = self._host.window()
        size = window.size()
        change_state()
        screen = window.screen()
        at_screen_size = screen is not None and window.size() == screen.geometry().size()
        self._held.release_when_resized(window.size() == size and not (at_screen_size and window.isFullScreen()))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """Take the lesson keys before any widget or shortcut does; fit the text to the screen's size."""
        if event.type() == QEvent.Type.Resize and watched is self._host.window():
            self._fit_text()
        return take_key(event, self._keys)

    def _fit_text(self) -> None:
        """Scale the text for the window's height (the screen's, once full screen arrives)."""
        scale = text_scale(self._host.window().height())
        if self._fonts is not None and abs(self._fonts.scale - scale) > 1e-3:
            self._fonts.set_scale(scale)

    def _update_caption(self) -> None:
        if not self.active:
            return
        shown = self._model.shown
        numbers = "" if shown is None or self._model.comparing else headline(shown.result.metrics)
        caption = self._host.presentation_caption
        caption.setText(caption_html(self._model.lesson, len(self._lessons.lessons), numbers))


def headline(metrics: Metrics) -> str:
    """``Makespan 5.93 ms · copy time hidden 86 % · efficiency 90 % · host blocked none · H2D ... · D2H ...``."""
    texts = metric_texts(metrics)
    talking = (
        []
        if metrics.comm_hidden_pct is None
        else [translate("Presentation", "communication hidden {value}").format(value=texts["comm_hidden"])]
    )
    return join_values([
        translate("Presentation", "Makespan {value}").format(value=texts["makespan"]),
        translate("Presentation", "copy time hidden {value}").format(value=texts["copy_hidden"]),
        *talking,
        translate("Presentation", "efficiency {value}").format(value=format_percent(metrics.efficiency_pct)),
        translate("Presentation", "host blocked {value}").format(value=texts["blocked"]),
        f"H2D {texts['h2d_bandwidth']}", f"D2H {texts['d2h_bandwidth']}",  # the same in every language
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


def caption_html(lesson: LessonOnShow | None, count: int, numbers: str = "") -> str:
    """The presentation caption: the lesson's title and text, which lesson of how many, the numbers.

    A lesson the user has changed the settings of gives way to "your own settings", naming the
    lesson it started from, so that its words never caption a run it did not make.
    """
    first = (
        translate("Presentation", "Press \u2192 for the lesson") if count == 1
        else translate("Presentation", "Press \u2192 for the first of {count} lessons").format(count=grouped(count))
    )  # fmt: skip
    lines = [f"<b>{html.escape(first)}</b>"]
    if lesson is not None:
        where = f"{grouped(lesson.index + 1)}/{grouped(count)} \u00b7 {html.escape(lesson.preset.title)}"
        if lesson.departed:
            lines = [
                translate("Presentation", "<b>Your own settings</b> (changed from lesson {lesson})").format(
                    lesson=where
                )
            ]
        else:
            lines = [f"<b>{where}</b>", html.escape(lesson.preset.text)]
    if numbers:
        lines.append(f"<b>{html.escape(numbers)}</b>")
    keys = translate("Presentation", "\u2190 \u2192 lessons  \u00b7  Space replay  \u00b7  Esc leaves")
    lines.append(f"<span style='font-size: small'>{html.escape(keys)}</span>")
    return "<br>".join(lines)
