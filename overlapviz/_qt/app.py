"""Starts the app: Qt's application object, and the window on the default pipeline's live timeline.

With no display (no DISPLAY or WAYLAND_DISPLAY on Linux, and no QT_QPA_PLATFORM chosen) it
says so in one line, draws the default pipeline's timeline to a PNG offscreen instead, and
prints the PNG's path, so the main job still gets done. With QT_QPA_PLATFORM set (as in the
tests) it runs on that platform. Setting OVERLAPVIZ_QUIT_AFTER_DRAW=1 makes the window quit
as soon as its first timeline is drawn (a smoke test of the whole start-up). Given a file
(``overlapviz profile --open``), the window opens on it instead of running the pipeline;
with no display to show it on, that is one line on stderr and exit code 2.

The window's language (`translation.start_language`: ``--lang``, else the one chosen in View ▸
Language, else the locale's) is made the active one before anything is built or said, the
offscreen picture's and the terminal's lines included.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QMessageLogContext, QSettings, QTimer, QtMsgType, qInstallMessageHandler
from PySide6.QtWidgets import QApplication

from overlapviz._qt.cjk_fonts import missing_font_note
from overlapviz._qt.translation import start_language, translate

if TYPE_CHECKING:
    from overlapviz._qt.main_window import MainWindow

QUIT_AFTER_DRAW_ENV = "OVERLAPVIZ_QUIT_AFTER_DRAW"
HEADLESS_PNG_NAME = "overlapviz-default-timeline.png"
OFFSCREEN = "offscreen"
APP_NAME = "overlapviz"
EXIT_NO_DISPLAY = 2  # asked to show a file where no window can be shown


def main(open_path: Path | None = None, language: str | None = None) -> int:
    """Run the app until its window closes, on `open_path` if given; returns the exit code.

    `language` is one asked for on the command line (``--lang``); None: the remembered choice, else the locale's.
    """
    if not has_display():
        if open_path is not None:
            _start_language(QSettings(), language)
            no_display = translate(
                "App",
                "overlapviz: error: no display (no DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM) to show {path} on;"
                " open it where there is one with File \u25b8 Open, or draw it with 'overlapviz render'",
            )
            print(no_display.format(path=open_path), file=sys.stderr)
            return EXIT_NO_DISPLAY
        return _render_instead(language)
    return _run_window(open_path, language)


def start_window(
    open_path: Path | None = None, settings: QSettings | None = None, language: str | None = None
) -> MainWindow:
    """The app's window, shown: live on the default pipeline, or opening `open_path` (live off).

    The window speaks `language` (asked for on the command line), else the one `settings` remember, else the
    locale's.
    """
    from overlapviz._qt.main_window import MainWindow

    settings = settings or QSettings()
    _start_language(settings, language)  # before any widget reads its words
    window = MainWindow(settings, live=False if open_path is not None else None)
    window.show()
    if open_path is not None:
        window.files.open(open_path)
    return window


def _run_window(open_path: Path | None, language: str | None) -> int:
    from overlapviz.app.garbage_collection import settle_heap

    app = ensure_app()
    window = start_window(open_path, language=language)
    if os.environ.get(QUIT_AFTER_DRAW_ENV) == "1":
        window.timeline_drawn.connect(lambda: QTimer.singleShot(0, window.close))
    settle_heap()  # the window's own objects stay out of the collections that runs trigger
    code = app.exec()
    window.shutdown()
    return code


def _render_instead(language: str | None) -> int:
    from overlapviz._qt.export.export_view import ExportOptions
    from overlapviz._qt.export.image_export import write_png
    from overlapviz.core.config import PipelineConfig
    from overlapviz.core.run_errors import BackendError
    from overlapviz.session import run_pipeline
    from overlapviz.view.prepared import prepare_view

    path = Path(tempfile.gettempdir()) / HEADLESS_PNG_NAME
    code = _start_language(QSettings(), language)  # the picture's caption and callouts speak it too
    drawing = translate(
        "App", "overlapviz: no display (no DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM): drawing the timeline to a PNG"
    )
    print(drawing)
    quiet_platform_notes()
    font_note = missing_font_note(code)
    if font_note:
        print(f"overlapviz: {font_note}", file=sys.stderr)
    try:
        result = run_pipeline(PipelineConfig())
        write_png(prepare_view(result), path, ExportOptions())
    except (BackendError, OSError, ValueError) as error:
        failed = translate("App", "overlapviz: could not draw the default timeline: {error}")
        print(failed.format(error=error), file=sys.stderr)
        return 1
    print(path)
    return 0


def _start_language(settings: QSettings, language: str | None) -> str:
    """Make the app's language the active one (Qt's translators need the application first); returns its code."""
    ensure_app()
    return start_language(settings, language)


def has_display(environ: Mapping[str, str] | None = None) -> bool:
    """Whether a window could be shown: a display server, a chosen Qt platform, or not Linux.

    On Linux and the BSDs a window needs ``DISPLAY`` (X11) or ``WAYLAND_DISPLAY``; a set
    ``QT_QPA_PLATFORM`` means someone chose the platform (tests choose ``offscreen``).
    Windows and macOS always have one.
    """
    env = os.environ if environ is None else environ
    if env.get("QT_QPA_PLATFORM"):
        return True
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return True
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


def ensure_app() -> QApplication:
    """The running QApplication, or a new one (offscreen when there is no display)."""
    existing = QCoreApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    if existing is not None:
        raise RuntimeError("a non-widget Qt application is already running in this process")
    if not has_display():
        os.environ["QT_QPA_PLATFORM"] = OFFSCREEN
    app = QApplication([sys.argv[0] if sys.argv else APP_NAME])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(APP_NAME)
    global _APP  # keep it alive for the process: Qt must not outlive its application object
    _APP = app
    return app


_APP: QApplication | None = None


PLATFORM_NOTE = "This plugin does not support"  # the offscreen platform lacks window features; harmless
_QUIET = False  # whether the notes are dropped already


def quiet_platform_notes() -> None:
    """Drop the offscreen platform's notes about window features it lacks (a script's stderr is for errors).

    Every other message goes where it went before.
    """
    global _QUIET
    if _QUIET:
        return
    _QUIET = True
    previous = None

    def handler(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
        if message.startswith(PLATFORM_NOTE):
            return
        if previous is not None:
            previous(kind, context, message)
        else:
            print(message, file=sys.stderr)

    previous = qInstallMessageHandler(handler)
