"""Draw the instructor's view of an exercise put to the class, for docs/exercises.md ("With a lab server").

Run from the repository root under an X server of full HD size:

    xvfb-run -a -s "-screen 0 1920x1080x24" python -m docs.make_exercise_class_image

Starts a real lab server on the model (``overlapviz serve --backend sim --port 0``), opens the
window with the instructor's credential and the Exercises panel on "Which comes first", sends
it to the class, has a class of learners predict through the server, and writes
docs/images/exercise-class.png once the histogram shows their answers. The app's settings are
kept in a folder of their own, never the user's. Look at the picture before committing it.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication

from docs.make_exercise_images import DOCK_WIDTH, SIZE, save, settle, wait_until
from overlapviz._qt.app import ensure_app
from overlapviz._qt.main_window import MainWindow
from overlapviz.app.exercise_class import index_of
from overlapviz.app.lab_connection import LabSettings
from overlapviz.lab.client import LabClient

ROOT = Path(__file__).resolve().parents[1]
EXERCISE = "overlap-which-first"
CLASS = {"pinned": 14, "pageable": 3, "same": 6}  # how many learners pick each choice


def start_server() -> tuple[subprocess.Popen[str], dict[str, str]]:
    """The real `overlapviz serve` on the model, and what it printed (its url and credentials)."""
    command = [sys.executable, "-m", "overlapviz", "serve", "--backend", "sim", "--host", "127.0.0.1", "--port", "0"]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    printed: dict[str, str] = {}
    assert server.stdout is not None
    for line in server.stdout:
        if line.strip() == "ready":
            return server, printed
        name, _, value = line.strip().partition(": ")
        printed[name] = value
    raise SystemExit("make_exercise_class_image: the lab server did not start")


def class_predicts(url: str, join_code: str, round_number: int) -> None:
    """The class's learners predict, each under an id of their own."""
    learner = 0
    for answer, count in CLASS.items():
        for _ in range(count):
            learner += 1
            LabClient(url, join_code, f"learner-{learner}").predict(EXERCISE, round_number, answer)


def picture(printed: dict[str, str], settings: QSettings) -> None:
    """The instructor's window once the class has predicted."""
    window = MainWindow(settings, live=False)
    window.select_target("sim", "h200")
    window.setGeometry(0, 0, *SIZE)
    window.show()
    window.lab.set(LabSettings(printed["url"], printed["instructor token"]))
    dock, tools = window.exercises, window.class_exercises
    dock.open()
    window.resizeDocks([dock.dock], [DOCK_WIDTH], Qt.Orientation.Horizontal)
    dock.panel.list.setCurrentRow(index_of(dock.session.exercises, EXERCISE) or 0)
    wait_until(tools.box.isVisible, "the server to answer the instructor")
    tools.box.send_button.click()
    wait_until(lambda: "round" in tools.box.said.text(), "the exercise to be sent")
    round_number = LabClient(printed["url"], printed["instructor token"], "docs").class_predictions(EXERCISE)["round"]
    class_predicts(printed["url"], printed["join code"], round_number)
    view = tools.box.histogram
    wait_until(lambda: view.histogram is not None and view.histogram.count == sum(CLASS.values()), "the histogram")
    settle(1.0)
    save(window, "exercise-class.png")
    window.close()


def main() -> None:
    """Start the server, picture the instructor's window, stop the server."""
    ensure_app()
    server, printed = start_server()
    try:
        with tempfile.TemporaryDirectory(prefix="overlapviz-images-") as folder:
            picture(printed, QSettings(str(Path(folder) / "settings.ini"), QSettings.Format.IniFormat))
    finally:
        server.terminate()
        server.wait(20)
    app = QApplication.instance()
    if app is not None:
        app.processEvents()


if __name__ == "__main__":
    main()
