"""The window's title: the app's name, after the file on show (both sides' files, when comparing).

A run of the pipeline has no name of its own beyond the app's; a file's name says what is on
show even with the status bar hidden (presentation mode) or the window among many. Pure: no Qt.
"""

from __future__ import annotations

from overlapviz.app.model import Pinned, Shown

APP_TITLE = "overlapviz"
DASH = " \u2014 "
SIDES_SEPARATOR = " \u00b7 "


def window_title(shown: Shown | None, pinned: Pinned | None) -> str:
    """``torch-train-step.json.gz — overlapviz``; ``A: x.json · B: y.json — overlapviz``; else ``overlapviz``."""
    b = None if shown is None else shown.source
    if pinned is None:
        return APP_TITLE if b is None else f"{b.name}{DASH}{APP_TITLE}"
    sides = [f"{side}: {path.name}" for side, path in (("A", pinned.a.source), ("B", b)) if path is not None]
    return f"{SIDES_SEPARATOR.join(sides)}{DASH}{APP_TITLE}" if sides else APP_TITLE
