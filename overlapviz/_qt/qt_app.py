"""Starting Qt: whether there is a display, and a QApplication for offscreen work."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

OFFSCREEN = "offscreen"
APP_NAME = "overlapviz"


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
