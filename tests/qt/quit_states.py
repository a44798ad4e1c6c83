"""Start the app, bring it into one state with its own actions, then quit it with File ▸ Quit (Ctrl+Q).

Run as ``python tests/qt/quit_states.py STATE`` with QT_QPA_PLATFORM=offscreen and a settings
folder of its own (`test_quitting` does, one process per state): the process's exit code is
the app's. Once the app's `main` has returned, a QThread still running or a child process
still alive is named on stderr and the exit code is 3; a QThread the process frees while it
runs aborts it ("QThread: Destroyed while thread ... is still running", exit 134).

STATE is one of `STATES`: a pipeline run in flight, a bandwidth sweep in flight, the
bandwidth window hidden with Esc after its sweep, an export being drawn and written, a file
being read in a child process; or ``start-fails``, where building the window fails part way
(the lessons cannot be read) and the failure must reach the caller with no thread left.
"""

from __future__ import annotations

import multiprocessing
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QCoreApplication, Qt, QThread, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

if TYPE_CHECKING:
    from overlapviz._qt.main_window import MainWindow

POLL_MS = 20
WAIT_S = 30.0
EXIT_LEFT_RUNNING = 3
EXIT_STUCK = 4
LARGE_TRACE = Path(__file__).parents[1] / "data" / "torch" / "torch-dataloader.json.gz"  # read in a child process

_threads: list[QThread] = []


def _track_threads() -> None:
    start = QThread.start

    def tracked(self: QThread, *args: object) -> None:
        _threads.append(self)
        start(self, *args)

    QThread.start = tracked  # type: ignore[method-assign]


def when(what: str, ready: Callable[[], object], then: Callable[[], None]) -> None:
    """Call `then` once `ready()` is true (polled from the event loop); exit `EXIT_STUCK` after `WAIT_S`."""
    deadline = time.monotonic() + WAIT_S

    def poll() -> None:
        if ready():
            then()
        elif time.monotonic() > deadline:
            stuck(what)
        else:
            QTimer.singleShot(POLL_MS, poll)

    poll()


def stuck(what: str) -> None:
    """Give up waiting for `what`: say so and leave the app's event loop with `EXIT_STUCK`."""
    print(f"quit_states: timed out waiting for {what}", file=sys.stderr)
    QCoreApplication.exit(EXIT_STUCK)


def quit_app(window: MainWindow) -> None:
    """File ▸ Quit, as Ctrl+Q triggers it."""
    window.window_actions.quit.trigger()


def quit_during_run(window: MainWindow) -> None:
    window.request_run()
    assert window.runner.busy
    quit_app(window)


def quit_during_sweep(window: MainWindow) -> None:
    window.teaching.actions.bandwidth.trigger()
    assert window.teaching.bandwidth.runner.busy
    quit_app(window)


def quit_after_hiding_bandwidth(window: MainWindow) -> None:
    window.teaching.actions.bandwidth.trigger()
    dialog = window.teaching.bandwidth

    def escape() -> None:
        dialog.activateWindow()
        QTest.keyClick(dialog, Qt.Key.Key_Escape)
        when("Esc to hide the bandwidth window", lambda: not dialog.isVisible(), lambda: quit_app(window))

    when("the bandwidth sweep", lambda: dialog.last is not None and dialog.isVisible(), escape)


def quit_during_export(window: MainWindow) -> None:
    from overlapviz._qt.export.export_view import ExportOptions

    def export() -> None:
        folder = Path(tempfile.mkdtemp(prefix="overlapviz-quit-"))
        assert window.files.export_png(folder / "timeline.png", ExportOptions())
        assert window.files.export_trace(folder / "trace.json")
        assert window.files.tasks.busy
        quit_app(window)

    when("the first picture", window.shown, export)


def quit_while_opening(window: MainWindow) -> None:
    assert window.files.open(LARGE_TRACE)
    when("the child process reading the file", multiprocessing.active_children, lambda: quit_app(window))


def fail_at_start() -> None:
    """The lessons cannot be read as the window is built (a preset that breaks the loader)."""
    import overlapviz._qt.main_window as main_window

    assert callable(main_window.lessons), "the window no longer reads the lessons through `lessons`"

    def broken() -> list[object]:
        raise RecursionError("maximum recursion depth exceeded while reading a preset")

    main_window.lessons = broken  # type: ignore[assignment]


STATES: dict[str, Callable[..., None]] = {
    "run": quit_during_run,
    "bandwidth-sweep": quit_during_sweep,
    "bandwidth-hidden": quit_after_hiding_bandwidth,
    "export": quit_during_export,
    "opening": quit_while_opening,
}


def main_window() -> MainWindow:
    """The app's window, once `overlapviz._qt.app.main` has built it."""
    from overlapviz._qt.main_window import MainWindow

    return next(w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow))


def leftovers() -> list[str]:
    """The QThreads still running and the child processes still alive."""
    threads = [t.objectName() for t in _threads if shiboken6.isValid(t) and t.isRunning()]
    children = multiprocessing.active_children()
    return [*(f"QThread {name!r}" for name in threads), *(f"child process {c.pid}" for c in children)]


def run(state: str) -> int:
    """Start the app in `state`, quit it; the app's exit code, or `EXIT_LEFT_RUNNING`."""
    from overlapviz._qt.app import ensure_app, main, quiet_platform_notes

    _track_threads()
    ensure_app()
    quiet_platform_notes()
    if state == "start-fails":
        fail_at_start()
    else:
        QTimer.singleShot(0, lambda: STATES[state](main_window()))
    QTimer.singleShot(int(WAIT_S * 1000), lambda: stuck("the app to quit"))
    try:
        code = main()
    finally:
        left = leftovers()
        if left:
            print(f"quit_states: still running after the app quit: {', '.join(left)}", file=sys.stderr)
    return EXIT_LEFT_RUNNING if left else code


if __name__ == "__main__":  # the file reader's child process imports this module too (spawn)
    sys.exit(run(sys.argv[1]))
