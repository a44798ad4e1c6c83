"""Draw the picture of a learner's window following the instructor, for docs/lab.md.

Run from the repository root, under a virtual display (the window is drawn as on a screen):

    xvfb-run -a -s "-screen 0 1920x1080x24" python docs/make_lab_images.py

Starts a real lab server on the model (``overlapviz serve --backend sim --port 0``), opens the
app's window on it as a learner, follows the instructor, makes one run with the instructor's
token (the lesson of one stream against four, its four-stream side), waits until the window
shows it and writes docs/images/lab-follow.png. Look at the picture before committing it.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QEventLoop, QSettings, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the fixture that starts a real server lives beside the tests

from overlapviz._qt.app import ensure_app  # noqa: E402
from overlapviz._qt.main_window import MainWindow  # noqa: E402
from overlapviz._qt.themes import THEMES, apply_stylesheet  # noqa: E402
from overlapviz.app.lab_connection import LabSettings  # noqa: E402
from overlapviz.presets import get_preset  # noqa: E402
from tests.lab.lab_client_server import LabAccess, access  # noqa: E402
from tests.lab.lab_server import LabServer  # noqa: E402

PATH = ROOT / "docs" / "images" / "lab-follow.png"
SIZE = (1600, 900)
POINT_SIZE = 11
WAIT_S = 90.0


def settle(ms: int = 300) -> None:
    """Let pending layout, paints and queued signals happen, as on a screen."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def wait_for(done: object, what: str) -> None:
    """Process events until `done()` holds; stop with `what` after `WAIT_S`."""
    deadline = time.monotonic() + WAIT_S
    while not done():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up waiting for {what}")
        settle(100)


def follow_and_draw(server: LabAccess, settings: QSettings) -> None:
    """A learner's window following the instructor, with one instructor's run on show, saved to `PATH`."""
    window = MainWindow(settings, live=False)
    window.resize(*SIZE)
    window.show()
    window.lab_tools.use(LabSettings(server.url, server.join_code))
    wait_for(lambda: window.shown() is not None, "the learner's first run")
    window.lab_tools.follow_action.trigger()
    wait_for(lambda: "following" in window.lab_tools.status_label.text(), "the server to count the follower")
    config = get_preset("streams-one-vs-four").configs[1]
    server.client(server.instructor_token, "instructor").run(config.to_dict())
    wait_for(lambda: window.model.config == config and window.shown() is not None, "the instructor's run")
    settle(800)
    PATH.parent.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(PATH))
    window.lab_tools.follow_action.trigger()
    window.close()
    print(PATH)


def main() -> None:
    """Start the server, draw the window following it, stop the server."""
    app = ensure_app()
    apply_stylesheet(app, THEMES["light"])
    font = QFont(app.font())
    font.setPointSize(POINT_SIZE)
    QApplication.setFont(font)
    with tempfile.TemporaryDirectory() as folder:
        settings = QSettings(os.path.join(folder, "settings.ini"), QSettings.Format.IniFormat)
        server = LabServer.start()
        try:
            follow_and_draw(access(server), settings)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
