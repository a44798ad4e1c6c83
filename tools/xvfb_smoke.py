"""Use the real app on a real X server, as a person would, and keep a screenshot of every step.

Run under Xvfb (CI does, after `make test`)::

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python tools/xvfb_smoke.py --shots build/xvfb-smoke

It starts the app as `overlapviz` does (the xcb platform, a window manager when one is
installed), three times over, each a process of its own on the same settings, as a user
starts it again (`SESSIONS`):

- the tour: picks a simulated device, moves a slider, opens a lesson (a comparison), enters
  presentation mode with F5 on it (shot at once and after a rest), rests the pointer on a
  span and checks that its tooltip shows and stays, leaves presentation mode, exports a PNG
  through the export and file dialogs (a full HD slide: exactly 1920 x 1080), and quits
  with Ctrl+Q;
- a file: opens a saved trace through Ctrl+O and the file dialog (live mode goes off, and is
  remembered), and quits;
- the start after that: the remembered pipeline is drawn although live mode is off; the
  bandwidth window (Ctrl+B) sweeps, Esc hides it; F7 opens the Exercises panel on a
  prediction that waits for its answer, F7 hides it; and Ctrl+Q quits;
- in Chinese: started again with ``LANG=zh_CN.UTF-8``, the window speaks Simplified Chinese
  (its menus, the lesson's panel); the lesson in presentation mode (F5), and an export
  through the export and file dialogs, each shot so that the Chinese layout can be looked at.

Each app must exit 0 and never abort on a thread left running. Widgets are found as a user
finds them: by object name, by shortcut, by menu. The pointer is moved through the X
server, so Qt sees real pointer events.

Exits 0 when every step of every session worked, 1 otherwise (the failure is printed and
shot too).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QPoint, Qt, QTimer
from PySide6.QtGui import QAction, QCursor, QGuiApplication, QImage, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QFileDialog,
    QGraphicsView,
    QLineEdit,
    QListWidget,
    QMainWindow,
    QMenu,
    QPushButton,
    QSlider,
    QToolTip,
    QWidget,
)

TICK_MS = 50
STEP_TIMEOUT_S = 90.0  # the first run on a slow machine included
TOOLTIP_REST_S = 1.5  # longer than Qt's tooltip wake-up (700 ms) and hide (300 ms) delays together
DIALOG_PAINT_S = 0.7  # a dialog is modal a moment before the X server shows it painted
LESSON = "2."  # the first comparison lesson: two timelines on show
MODEL_MARK = "(model)"  # how the device picker names a simulated device
ROOT = Path(__file__).resolve().parents[1]
SAVED_TRACE = ROOT / "tests" / "data" / "overlapviz" / "sim-pageable-0.2.0.json.gz"
STARTING = "Starting\u2026"  # the status bar before the first picture
SWEPT = "the dashed line"  # the bandwidth window's words once its sweep is drawn
ABORT = "QThread: Destroyed"  # what Qt says as it aborts on a thread left running
SESSION_TIMEOUT_S = 600
CHINESE_LOCALE = {"LANG": "zh_CN.UTF-8"}  # as a Chinese desktop sets it: LANGUAGE, LC_ALL and LC_MESSAGES unset
LOCALE_KEYS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@dataclass(frozen=True)
class Until:
    """A step waits until `ready()` gives something truthy, which the script then gets back."""

    what: str
    ready: Callable[[], object]
    timeout_s: float = STEP_TIMEOUT_S


Script = Generator[Until, object, None]


def pause(seconds: float) -> Until:
    """Wait `seconds`."""
    end = time.monotonic() + seconds
    return Until(f"{seconds:g} s", lambda: time.monotonic() >= end, seconds + 5)


def later(action: Callable[[], object]) -> None:
    """Do `action` from the event loop: a modal dialog it opens must not block the script."""
    QTimer.singleShot(0, action)


@dataclass
class Shots:
    """Numbered screenshots of the whole screen (tooltips and dialogs included)."""

    folder: Path
    session: str
    taken: list[Path] = field(default_factory=list)

    def take(self, name: str) -> Path:
        """Save the screen as the session's next numbered PNG called `name`."""
        path = self.folder / f"{self.session}-{len(self.taken) + 1:02d}-{name}.png"
        screen = QGuiApplication.primaryScreen()
        if screen is None or not screen.grabWindow(0).save(str(path)):
            raise RuntimeError(f"could not save the screenshot {path}")
        self.taken.append(path)
        print(f"  shot {path}", flush=True)
        return path


class Driver:
    """Runs a script of steps from a timer, so it goes on inside the app's modal dialogs too."""

    def __init__(self, script: Script, shots: Shots) -> None:
        self.failure: str | None = None
        self._script, self._shots = script, shots
        self._waiting: Until | None = None
        self._deadline = 0.0
        self._busy = False
        self._timer = QTimer(interval=TICK_MS)
        self._timer.timeout.connect(self._tick)

    def start(self) -> None:
        """Begin the script."""
        self._timer.start()
        self._advance(None)

    def _tick(self) -> None:
        if self._busy or self._waiting is None:
            return
        value = self._guarded(self._waiting.ready)
        if value:
            self._advance(value)
        elif self.failure is None and time.monotonic() > self._deadline:
            self._fail(f"timed out after {self._waiting.timeout_s:g} s waiting for {self._waiting.what}")

    def _advance(self, value: object) -> None:
        self._busy = True
        try:
            self._waiting = self._script.send(value)
            self._deadline = time.monotonic() + self._waiting.timeout_s
            print(f"- {self._waiting.what}", flush=True)
        except StopIteration:
            self._waiting = None
            self._timer.stop()
        except Exception:  # a failed check or a broken step: report it, never hang
            self._fail(traceback.format_exc())
        finally:
            self._busy = False

    def _guarded(self, ready: Callable[[], object]) -> object:
        try:
            return ready()
        except Exception:
            self._fail(traceback.format_exc())
            return None

    def _fail(self, text: str) -> None:
        self.failure = text
        self._waiting = None
        self._timer.stop()
        print(f"FAILED: {text}", file=sys.stderr, flush=True)
        try:
            self._shots.take("failed")
        finally:
            QCoreApplication.exit(1)  # leaves every event loop, modal dialogs' too


# --- finding things as a user would ---------------------------------------------------


def main_window() -> QMainWindow | None:
    """The app's window, once it is on screen."""
    found = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMainWindow) and w.isVisible()]
    return found[0] if found else None


def visible_timelines(window: QWidget) -> list[QGraphicsView]:
    """The timeline views on show, top first."""
    views = [v for v in window.findChildren(QGraphicsView, "timeline_plot") if v.isVisible()]
    return sorted(views, key=lambda v: v.mapToGlobal(QPoint(0, 0)).y())


def action_with_shortcut(window: QWidget, keys: str) -> QAction:
    """The window's action that `keys` (say "F5") triggers."""
    wanted = QKeySequence(keys)
    for action in window.findChildren(QAction):
        if wanted in action.shortcuts():
            return action
    raise AssertionError(f"no action has the shortcut {keys}")


def modal_dialog(kind: type[QDialog], exclude: type[QDialog] | None = None) -> QDialog | None:
    """The modal dialog on show, if it is a `kind` (and not an `exclude`)."""
    dialog = QApplication.activeModalWidget()
    if isinstance(dialog, kind) and not (exclude and isinstance(dialog, exclude)) and dialog.isVisible():
        return dialog
    return None


def press(widget: QWidget, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """A key press and release on `widget`, as the keyboard gives them."""
    QTest.keyClick(widget, key, modifier)


def point_on_span(view: QGraphicsView, kind: str) -> tuple[QPoint, str] | None:
    """A point of `view` (its viewport's coordinates) over a span whose tooltip names `kind`."""
    timeline = view.parentWidget()
    describe = getattr(timeline, "tooltip_at_scene", None)
    if describe is None:
        raise AssertionError("the timeline no longer says what is under a point (tooltip_at_scene)")
    viewport = view.viewport()
    for y in range(0, viewport.height(), 3):
        for x in range(viewport.width() // 10, viewport.width(), 4):
            point = QPoint(x, y)
            text = describe(view.mapToScene(point))
            if text and kind in text:
                return point, text
    return None


# --- the script ------------------------------------------------------------------------


def tour(shots: Shots) -> Script:
    """The first start: every step of the tour, with its check."""
    window = yield from on_screen()
    yield Until("the first timeline is drawn", lambda: visible_timelines(window))
    yield pause(1.0)
    shots.take("started")
    yield from choose_model(window, shots)
    yield from move_slider(window, shots)
    yield from open_lesson(window, shots)
    yield from present(window, shots)
    yield from export_png(window, shots, shots.folder / "export.png")
    yield from quit_with_ctrl_q(window)


def open_file(shots: Shots) -> Script:
    """Ctrl+O and the file dialog open a saved trace; it goes on show and live mode goes off."""
    window = yield from on_screen()
    yield Until("the first timeline is drawn", lambda: STARTING not in visible_text(window.statusBar()))
    later(lambda: press(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier))
    files = yield Until("Ctrl+O opens the file dialog", lambda: modal_dialog(QFileDialog))
    assert isinstance(files, QFileDialog)
    yield from type_path(files, SAVED_TRACE, shots, "open-dialog")
    opened = f"Opened {SAVED_TRACE.name}"
    yield Until(f"the status bar says {opened!r}", lambda: opened in visible_text(window.statusBar()))
    assert not action_with_shortcut(window, "Ctrl+L").isChecked(), "opening a file left live mode on"
    yield pause(0.5)
    shots.take("file-opened")
    yield from quit_with_ctrl_q(window)


def restart(shots: Shots) -> Script:
    """The start after a file was opened: live mode is off as it was left, yet the pipeline is drawn."""
    window = yield from on_screen()
    bar = window.statusBar()
    yield Until("the remembered pipeline is drawn", lambda: "simulated" in visible_text(bar))
    assert not action_with_shortcut(window, "Ctrl+L").isChecked(), "live mode is not off as the last session left it"
    assert point_on_span(visible_timelines(window)[0], "Kernel") is not None, "the first timeline shows no kernel"
    yield pause(1.0)
    shots.take("restarted")
    yield from bandwidth_hidden(window, shots)
    yield from exercises_panel(window, shots)
    yield from quit_with_ctrl_q(window)


def chinese(shots: Shots) -> Script:
    """The start in a Chinese locale: menus and the lesson panel in Chinese, F5 on the lesson, an export."""
    window = yield from on_screen()
    yield Until("the first timeline is drawn", lambda: visible_timelines(window))
    titles = [action.text() for action in window.menuBar().actions()]
    assert all(has_chinese(title) for title in titles), f"menu titles not in Chinese: {titles}"
    yield pause(1.0)
    shots.take("started")
    yield from open_lesson(window, shots)
    panel = window.findChild(QWidget, "lesson_panel")
    assert panel is not None and has_chinese(visible_text(panel)), "the lesson panel is not in Chinese"
    yield from present(window, shots, hover=False)
    yield from export_png(window, shots, shots.folder / "export-zh_CN.png")
    yield from quit_with_ctrl_q(window)


def has_chinese(text: str) -> bool:
    """Whether `text` holds a CJK ideograph."""
    return any("\u4e00" <= letter <= "\u9fff" for letter in text)


def on_screen() -> Generator[Until, object, QMainWindow]:
    """The app's window, on screen and active."""
    found = yield Until("the window is on screen", main_window)
    assert isinstance(found, QMainWindow)
    found.activateWindow()
    yield Until("the window is active", found.isActiveWindow)
    return found


def quit_with_ctrl_q(window: QMainWindow) -> Script:
    """Ctrl+Q, from the window made active again (no window manager gives the focus back from a dialog)."""
    window.activateWindow()
    yield Until("the window is active again", window.isActiveWindow)
    later(lambda: press(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier))
    yield Until("Ctrl+Q closes the window", lambda: not window.isVisible())


def choose_model(window: QMainWindow, shots: Shots) -> Script:
    """Run on a simulated device (the first one offered)."""
    combo = window.findChild(QComboBox, "device_combo")
    assert combo is not None, "no device picker (device_combo)"
    models = [i for i in range(combo.count()) if MODEL_MARK in combo.itemText(i)]
    assert models, f"no simulated device offered: {[combo.itemText(i) for i in range(combo.count())]}"
    if MODEL_MARK not in combo.currentText():
        drawn = timeline_picture(window)
        combo.setCurrentIndex(models[0])
        yield Until("the model's timeline is drawn", lambda: timeline_picture(window) != drawn)
    bar = window.statusBar()
    yield Until("the status bar says simulated", lambda: "simulated" in f"{bar.currentMessage()} {visible_text(bar)}")
    shots.take("model")


def move_slider(window: QMainWindow, shots: Shots) -> Script:
    """One step right on the streams slider; live mode runs and redraws."""
    holder = window.findChild(QWidget, "streams_slider")
    assert holder is not None, "no streams slider (streams_slider)"
    slider = holder.findChild(QSlider)
    assert slider is not None, "the streams slider holds no QSlider"
    before, drawn = slider.value(), timeline_picture(window)
    slider.setFocus()
    press(slider, Qt.Key.Key_Right)
    assert slider.value() == before + 1, f"the slider did not move: {before} -> {slider.value()}"
    yield Until("the timeline is redrawn for one more stream", lambda: timeline_picture(window) != drawn)
    yield pause(0.5)
    shots.take("slider-moved")


def open_lesson(window: QMainWindow, shots: Shots) -> Script:
    """Open lesson 2 from the Lessons menu; its panel and both sides show."""
    menu = window.findChild(QMenu, "lessons_menu")
    assert menu is not None, "no Lessons menu (lessons_menu)"
    lesson = next((a for a in menu.actions() if a.text().replace("&", "").startswith(LESSON)), None)
    assert lesson is not None, f"no lesson {LESSON} in {[a.text() for a in menu.actions()]}"
    later(lesson.trigger)
    title = lesson.text().replace("&", "").split(". ", 1)[1]
    panel = window.findChild(QWidget, "lesson_panel")
    assert panel is not None, "no lesson panel (lesson_panel)"
    yield Until(f"the lesson panel shows {title!r}", lambda: panel.isVisible() and title in visible_text(panel))
    yield Until("both sides of the lesson are drawn", lambda: len(visible_timelines(window)) == 2)
    yield pause(1.0)
    shots.take("lesson")


def present(window: QMainWindow, shots: Shots, hover: bool = True) -> Script:
    """F5 on the comparison enters presentation mode; a span's tooltip shows there and stays; F5 leaves.

    Shot twice: as soon as the window is full screen, and once it has rested; the first shows
    the final layout already (nothing half drawn over the old window), both timelines with
    their lane titles clear of each other.
    """
    assert len(visible_timelines(window)) == 2, "presentation mode is to be shown on a comparison (A and B)"
    action_with_shortcut(window, "F5")  # fails clearly should F5 lose its action
    press(window, Qt.Key.Key_F5)
    yield Until("presentation mode goes full screen", window.isFullScreen)
    screen = window.screen().geometry()
    yield Until("the window has the screen's size", lambda: window.geometry().size() == screen.size())
    yield Until("A and B both show", lambda: len(visible_timelines(window)) == 2)
    assert all(view.height() > 0 for view in visible_timelines(window)), "a timeline has no height"
    shots.take("presentation-at-once")
    yield pause(1.5)
    shots.take("presentation-comparison")
    if hover:
        yield from hover_span(window, shots)
    press(window, Qt.Key.Key_F5)
    yield Until("F5 leaves presentation mode", lambda: not window.isFullScreen())
    yield pause(1.0)
    shots.take("presentation-left")


def hover_span(window: QMainWindow, shots: Shots) -> Script:
    """Rest the pointer on a kernel of the lower timeline; its tooltip must show and stay."""
    view = visible_timelines(window)[-1]
    found = point_on_span(view, "Kernel")
    assert found is not None, "no kernel span found on the timeline"
    point, text = found
    target = view.viewport().mapToGlobal(point)
    for dx in (-6, -3, 0):  # the pointer arrives, as from a hand
        QCursor.setPos(target.x() + dx, target.y())
        yield pause(0.05)
    yield Until("the span's tooltip shows", lambda: QToolTip.isVisible() and QToolTip.text() == text, 5)
    yield pause(TOOLTIP_REST_S)
    assert QToolTip.isVisible(), "the span's tooltip went away while the pointer rested on the span"
    assert QToolTip.text() == text, f"the tooltip changed to {QToolTip.text()!r}"
    shots.take("tooltip")


def export_png(window: QMainWindow, shots: Shots, path: Path) -> Script:
    """Ctrl+E, the export dialog's OK, the file dialog's path: a PNG of the comparison."""
    later(lambda: press(window, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier))
    found = yield Until("Ctrl+E opens the export dialog", lambda: modal_dialog(QDialog, exclude=QFileDialog))
    assert isinstance(found, QDialog)
    yield pause(DIALOG_PAINT_S)
    shots.take("export-dialog")
    buttons = found.findChild(QDialogButtonBox)
    assert buttons is not None and buttons.button(QDialogButtonBox.StandardButton.Ok) is not None
    later(buttons.button(QDialogButtonBox.StandardButton.Ok).click)
    files = yield Until("the file dialog asks where", lambda: modal_dialog(QFileDialog))
    assert isinstance(files, QFileDialog)
    yield from type_path(files, path, shots, "file-dialog")
    image = yield Until(f"{path.name} is written", lambda: readable_png(path))
    assert isinstance(image, QImage)
    size = (image.width(), image.height())
    assert size == (1920, 1080), f"the export, a full HD slide by default, is {size[0]} x {size[1]} px"
    yield pause(0.5)
    shots.take("exported")


def type_path(files: QFileDialog, path: Path, shots: Shots, shot: str) -> Script:
    """Type `path` into the file dialog's name, as its focus is when it opens, and press Return."""
    yield pause(DIALOG_PAINT_S)
    name_edit = files.focusWidget()  # the file name, selected, as the dialog opens
    assert isinstance(name_edit, QLineEdit), f"the file dialog's focus is on a {type(name_edit).__name__}"
    name_edit.selectAll()
    QTest.keyClicks(name_edit, str(path))
    yield pause(0.3)
    shots.take(shot)
    later(lambda: press(name_edit, Qt.Key.Key_Return))


def bandwidth_hidden(window: QMainWindow, shots: Shots) -> Script:
    """Ctrl+B opens the bandwidth window and sweeps; Esc hides it (with no close event: see quitting)."""
    press(window, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    found = yield Until("Ctrl+B opens the bandwidth window", lambda: shown_top_level("bandwidth_dialog"))
    assert isinstance(found, QDialog)
    dialog = found
    yield Until("the sweep is drawn", lambda: SWEPT in visible_text(dialog))
    yield pause(1.0)
    shots.take("bandwidth")
    dialog.activateWindow()
    yield Until("the bandwidth window is active", dialog.isActiveWindow)
    press(dialog, Qt.Key.Key_Escape)
    yield Until("Esc hides the bandwidth window", lambda: not dialog.isVisible())
    yield pause(0.5)
    shots.take("bandwidth-hidden")


def exercises_panel(window: QMainWindow, shots: Shots) -> Script:
    """F7 opens the Exercises panel; the first exercise, a prediction, asks for an answer before it runs."""
    window.activateWindow()
    yield Until("the window is active again", window.isActiveWindow)
    action_with_shortcut(window, "F7")  # fails clearly should F7 lose its action
    press(window, Qt.Key.Key_F7)
    dock = window.findChild(QDockWidget, "exercises_dock")
    assert dock is not None, "no Exercises panel (exercises_dock)"
    yield Until("F7 opens the Exercises panel", dock.isVisible)
    listing, check = dock.findChild(QListWidget, "exercise_list"), dock.findChild(QPushButton, "exercise_check")
    assert listing is not None and check is not None, "the panel lacks its list or its check button"
    assert listing.count() > 0, "no exercise is listed"
    listing.setCurrentRow(0)
    yield Until("the exercise's question shows", check.isVisible)
    assert not check.isEnabled(), f"{check.text()!r} is pressable before an answer is given"
    yield pause(0.5)
    shots.take("exercises")
    press(window, Qt.Key.Key_F7)
    yield Until("F7 hides the Exercises panel", lambda: not dock.isVisible())


def shown_top_level(name: str) -> QWidget | None:
    """The top-level window called `name`, once it is on screen."""
    return next((w for w in QApplication.topLevelWidgets() if w.objectName() == name and w.isVisible()), None)


def readable_png(path: Path) -> QImage | None:
    """The picture at `path`, once it is there whole."""
    image = QImage(str(path)) if path.is_file() else QImage()
    return None if image.isNull() else image


def timeline_picture(window: QMainWindow) -> bytes:
    """What the timelines on show look like now, to tell a redraw from none."""
    views = visible_timelines(window)
    return b"".join(bytes(v.grab().toImage().constBits()) for v in views)


def visible_text(widget: QWidget) -> str:
    """The text of the labels shown in `widget`."""
    return " ".join(w.text() for w in widget.findChildren(QWidget) if w.isVisible() and hasattr(w, "text"))


# --- the run ---------------------------------------------------------------------------


def start_window_manager(command: str | None) -> subprocess.Popen[bytes] | None:
    """Start the window manager `command` (None or not installed: none), as a desktop has one."""
    if not command or shutil.which(command) is None:
        print(f"note: no window manager ({command or 'none asked for'})", flush=True)
        return None
    manager = subprocess.Popen([command], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # it takes the screen before the window maps
    return manager


SESSIONS: dict[str, Callable[[Shots], Script]] = {
    "tour": tour, "file": open_file, "restart": restart, "chinese": chinese,
}  # fmt: skip
SESSION_LOCALES = {"chinese": CHINESE_LOCALE}  # the others run in the environment's (English in CI)


def run(shots_dir: Path, wm: str | None) -> int:
    """Run every session, each in an app process of its own on the same settings; 0 when all passed."""
    if not os.environ.get("DISPLAY"):
        print("xvfb_smoke: no DISPLAY: run it under xvfb-run", file=sys.stderr)
        return 2
    shots_dir.mkdir(parents=True, exist_ok=True)
    for old in shots_dir.glob("*.png"):
        old.unlink()
    with tempfile.TemporaryDirectory(prefix="overlapviz-smoke-") as config:
        manager = start_window_manager(wm)
        try:
            failed = [name for name in SESSIONS if not run_session(name, shots_dir, Path(config))]
        finally:
            if manager is not None:
                manager.terminate()
                manager.wait(10)
    shot = len(list(shots_dir.glob("*.png")))
    print(f"{'FAILED: ' + ', '.join(failed) if failed else 'passed'}: {shot} screenshots in {shots_dir}", flush=True)
    return 1 if failed else 0


def run_session(name: str, shots_dir: Path, config: Path) -> bool:
    """Start the app for session `name` in a new process; True when every step passed and it quit with 0."""
    print(f"session {name}", flush=True)
    env = os.environ | {"QT_QPA_PLATFORM": "xcb", "XDG_CONFIG_HOME": str(config)}  # the user's settings stay untouched
    if name in SESSION_LOCALES:
        env = {key: value for key, value in env.items() if key not in LOCALE_KEYS} | SESSION_LOCALES[name]
    paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    env["PYTHONPATH"] = os.pathsep.join(paths)  # the app of this checkout, whatever the environment installed
    command = [sys.executable, __file__, "--session", name, "--shots", str(shots_dir)]
    try:
        done = subprocess.run(command, env=env, stderr=subprocess.PIPE, text=True, timeout=SESSION_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        print(f"FAILED: session {name} ran past {SESSION_TIMEOUT_S} s", file=sys.stderr, flush=True)
        return False
    sys.stderr.write(done.stderr)
    if ABORT in done.stderr:
        print(f"FAILED: session {name}: the app aborted on a thread left running", file=sys.stderr, flush=True)
    elif done.returncode != 0:
        print(f"FAILED: session {name} exited with {done.returncode}", file=sys.stderr, flush=True)
    return done.returncode == 0 and ABORT not in done.stderr


def run_one(name: str, shots_dir: Path) -> int:
    """Start the app with session `name`'s script driving it; 0 when every step passed and the app quit with 0."""
    QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_DontUseNativeDialogs)  # Qt's dialogs, not a desktop's
    app = QApplication(["overlapviz"])
    shots = Shots(shots_dir, name)
    driver = Driver(SESSIONS[name](shots), shots)
    QTimer.singleShot(0, driver.start)
    from overlapviz.commands.main import main as overlapviz_main

    code = overlapviz_main([])
    del app
    if driver.failure is None and code != 0:
        print(f"FAILED: the app exited with {code}", file=sys.stderr)
    return 0 if driver.failure is None and code == 0 else 1


def main() -> int:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=Path, default=Path("build/xvfb-smoke"), help="folder for the screenshots")
    parser.add_argument("--wm", default="openbox", help="window manager to start ('' for none)")
    parser.add_argument("--session", choices=SESSIONS, help="run this one session here (what `run` starts)")
    args = parser.parse_args()
    # absolute: the app's file dialogs open in the export folder or home, where a relative path
    # typed into them would land, not in the folder the smoke run started from
    shots = args.shots.resolve()
    return run_one(args.session, shots) if args.session else run(shots, args.wm or None)


if __name__ == "__main__":
    sys.exit(main())
