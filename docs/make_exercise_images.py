"""Draw the pictures of the Exercises panel for docs/exercises.md ("In the app").

Run from the repository root under an X server of full HD size:

    xvfb-run -a -s "-screen 0 1920x1080x24" python -m docs.make_exercise_images

Writes docs/images/exercise-predict.png (the window with the Exercises panel open on the
"Sixteen chunks on one stream" prediction, a guess of 50 % typed, Run and check enabled) and
docs/images/exercise-reveal.png (the same once run on the H200 model: the guess beside what was
measured, the mark, the explanation and the spans it names outlined on the timeline). The app's
settings are kept in a folder of their own, never the user's. Look at the pictures before
committing them.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSettings, Qt
from PySide6.QtWidgets import QApplication

from overlapviz._qt.app import ensure_app
from overlapviz._qt.main_window import MainWindow
from overlapviz.app.exercise_session import Phase

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
EXERCISE = "one-stream"
GUESS = "50"  # percent of the copy time hidden: the learner's guess
SIZE = (1920, 1080)
DOCK_WIDTH = 560
TIMEOUT_S = 60.0


def wait_until(ready: Callable[[], object], what: str) -> None:
    """Let the event loop run until `ready()` holds (a run on its thread, a paint)."""
    end = time.monotonic() + TIMEOUT_S
    while not ready():
        if time.monotonic() > end:
            raise SystemExit(f"make_exercise_images: gave up waiting for {what}")
        QCoreApplication.processEvents()
        time.sleep(0.02)


def settle(seconds: float = 0.5) -> None:
    """Let pending layouts and paints happen, as on a screen."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QCoreApplication.processEvents()
        time.sleep(0.02)


def open_window(settings: QSettings) -> MainWindow:
    """The app's window on the H200 model, full HD, with the Exercises panel open on `EXERCISE`."""
    window = MainWindow(settings, live=False)
    window.select_target("sim", "h200")
    window.setGeometry(0, 0, *SIZE)
    window.show()
    dock = window.exercises
    dock.open()
    window.resizeDocks([dock.dock], [DOCK_WIDTH], Qt.Orientation.Horizontal)
    names = [exercise.name for exercise in dock.session.exercises]
    dock.panel.list.setCurrentRow(names.index(EXERCISE))
    dock.panel.detail.answer_box.number.setText(GUESS)
    settle()
    return window


def save(window: MainWindow, name: str) -> None:
    """The window as it is now, as docs/images/`name`."""
    path = IMAGES / name
    if not window.grab().save(str(path)):
        raise SystemExit(f"make_exercise_images: could not write {path}")
    print(path)


def main() -> None:
    """Open the window, picture the question, run and check, picture the reveal."""
    ensure_app()
    with tempfile.TemporaryDirectory(prefix="overlapviz-images-") as folder:
        settings = QSettings(str(Path(folder) / "settings.ini"), QSettings.Format.IniFormat)
        window = open_window(settings)
        save(window, "exercise-predict.png")
        dock = window.exercises
        dock.panel.detail.check_button.click()
        wait_until(lambda: dock.session.on_show is not None and dock.session.on_show.phase is Phase.REVEALED, "the run")
        settle(1.0)
        save(window, "exercise-reveal.png")
        window.close()
    app = QApplication.instance()
    if app is not None:
        app.processEvents()


if __name__ == "__main__":
    main()
