"""Draw the pictures of docs/translating.md: a lesson's comparison and the app's window, in Simplified Chinese.

Run from the repository root (no display needed; a CJK font must be installed, e.g.
``fonts-noto-cjk``, or the Chinese is drawn as boxes):

    python docs/make_language_images.py

The comparison is what ``overlapviz run --preset overlap-pinned-vs-pageable --backend sim
--lang zh_CN --png FILE`` draws; the window is the app started in Chinese on the same lesson.
Look at both before committing them.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from make_gallery import wait_ms, wait_until  # the gallery's own ways of letting the window settle
from PySide6.QtCore import QSettings

from overlapviz._qt.app import ensure_app
from overlapviz._qt.cjk_fonts import missing_font_note
from overlapviz._qt.main_window import MainWindow
from overlapviz._qt.render import render_comparison_png
from overlapviz._qt.translation import install_translators
from overlapviz.core.i18n import set_language
from overlapviz.presets import lessons
from overlapviz.session import run_pipeline

IMAGES = Path(__file__).resolve().parent / "images"
LANGUAGE = "zh_CN"
LESSON = "overlap-pinned-vs-pageable"
DEVICE = "h200"
WIDTH = 1920
WINDOW_SIZE = (1920, 1000)


def main() -> int:
    """Draw both pictures; 1 when no CJK font would draw them."""
    set_language(LANGUAGE)  # before the lessons are read: they are read in the active language
    ensure_app()
    install_translators(LANGUAGE)
    note = missing_font_note(LANGUAGE)
    if note is not None:
        print(note, file=sys.stderr)  # the pictures would show boxes
        return 1

    preset = next(lesson for lesson in lessons() if lesson.name == LESSON)
    traces = [run_pipeline(config, "sim", device or DEVICE).trace for config, device in zip(
        preset.configs, preset.devices, strict=True)]  # fmt: skip
    comparison = IMAGES / f"lesson-{preset.lesson}-{LANGUAGE}.png"
    render_comparison_png(traces, preset.labels, comparison, width=WIDTH, title=f"{preset.lesson}. {preset.title}")
    print(comparison)

    settings = QSettings(str(Path(tempfile.mkdtemp()) / "language.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings, live=False)
    window.resize(*WINDOW_SIZE)
    window.show()
    index = next(i for i, lesson in enumerate(window.teaching.lessons.lessons) if lesson.name == LESSON)
    window.teaching.lessons.start(index)
    wait_until(lambda: window.shown() is not None)
    wait_ms(500)  # let layout and paints settle, as on a screen
    path = IMAGES / f"window-{LANGUAGE}.png"
    window.grab().save(str(path))
    window.close()
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
