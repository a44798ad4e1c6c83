"""Starts the app: the window on the default pipeline's live timeline.

With no display (no DISPLAY or WAYLAND_DISPLAY on Linux, and no QT_QPA_PLATFORM chosen) it
says so in one line, draws the default pipeline's timeline to a PNG offscreen instead, and
prints the PNG's path, so the main job still gets done. With QT_QPA_PLATFORM set (as in the
tests) it runs on that platform. Setting OVERLAPVIZ_QUIT_AFTER_DRAW=1 makes the window quit
as soon as its first timeline is drawn (a smoke test of the whole start-up).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings, QTimer

QUIT_AFTER_DRAW_ENV = "OVERLAPVIZ_QUIT_AFTER_DRAW"
HEADLESS_PNG_NAME = "overlapviz-default-timeline.png"


def main() -> int:
    """Run the app until its window closes; returns the exit code."""
    from overlapviz._qt.qt_app import has_display

    if not has_display():
        return _render_instead()
    return _run_window()


def _run_window() -> int:
    from overlapviz._qt.heap import settle_heap
    from overlapviz._qt.main_window import MainWindow
    from overlapviz._qt.qt_app import ensure_app

    app = ensure_app()
    window = MainWindow(QSettings())
    if os.environ.get(QUIT_AFTER_DRAW_ENV) == "1":
        window.timeline_drawn.connect(lambda: QTimer.singleShot(0, window.close))
    window.show()
    settle_heap()  # the window's own objects stay out of the collections that runs trigger
    code = app.exec()
    window.shutdown()
    return code


def _render_instead() -> int:
    from overlapviz._qt.render import quiet_platform_notes, render_trace_png
    from overlapviz.backends.base import BackendError
    from overlapviz.core.config import PipelineConfig
    from overlapviz.session import run_pipeline

    path = Path(tempfile.gettempdir()) / HEADLESS_PNG_NAME
    print("overlapviz: no display (no DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM): drawing the timeline to a PNG")
    quiet_platform_notes()
    try:
        result = run_pipeline(PipelineConfig())
        render_trace_png(result.trace, path)
    except (BackendError, OSError, ValueError) as error:
        print(f"overlapviz: could not draw the default timeline: {error}", file=sys.stderr)
        return 1
    print(path)
    return 0
