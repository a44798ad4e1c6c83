"""Draw the pictures of docs/app.md: exports of the model's timelines and the window itself.

Run from the repository root (no display needed):

    python docs/make_app_images.py

Writes docs/images/*.png. Look at every picture before committing it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QSettings, QTimer

from overlapviz._qt.app import ensure_app
from overlapviz._qt.main_window import MainWindow
from overlapviz._qt.render import render_trace_png
from overlapviz.core.config import PipelineConfig
from overlapviz.session import run_pipeline

IMAGES = Path(__file__).resolve().parent / "images"
EXPORTS = {
    "timeline-default-light-1920.png": (PipelineConfig(), "h200", "light", 1920),
    "timeline-default-dark-3840.png": (PipelineConfig(), "h200", "dark", 3840),
    "timeline-pageable-light-3840.png": (PipelineConfig(memory="pageable", chunks=8), "h200", "light", 3840),
    "timeline-legacy-dark-1920.png": (PipelineConfig(stream_kind="legacy"), "h200", "dark", 1920),
    "timeline-c1060-breadth-light-1920.png": (PipelineConfig(order="breadth"), "tesla-c1060", "light", 1920),
}


def exports() -> None:
    """Render the timelines of `EXPORTS` with the model, as `overlapviz render` would."""
    for name, (config, device, theme, width) in EXPORTS.items():
        trace = run_pipeline(config, "sim", device).trace
        print(render_trace_png(trace, IMAGES / name, width=width, theme=theme))


def window_screenshot(theme: str, name: str) -> None:
    """The whole window on the default pipeline, its first finding selected."""
    settings = QSettings(str(Path(tempfile.mkdtemp()) / "docs.ini"), QSettings.Format.IniFormat)
    settings.setValue("theme", theme)
    window = MainWindow(settings)
    window.resize(1600, 900)
    window.show()
    loop = QEventLoop()
    window.timeline_drawn.connect(loop.quit)
    QTimer.singleShot(10_000, loop.quit)
    loop.exec()
    window.metrics.select_finding(0)
    settle = QEventLoop()
    QTimer.singleShot(300, settle.quit)  # let pending layout and paints happen, as on a screen
    settle.exec()
    window.grab().save(str(IMAGES / name))
    print(IMAGES / name)
    window.close()


def compare_screenshot(theme: str, name: str) -> None:
    """The window comparing the default pipeline from pageable (A) and pinned (B) memory."""
    settings = QSettings(str(Path(tempfile.mkdtemp()) / "docs.ini"), QSettings.Format.IniFormat)
    settings.setValue("theme", theme)
    window = MainWindow(settings, live=False)
    window.resize(1800, 1000)
    window.show()
    loop = QEventLoop()
    window.timeline_drawn.connect(loop.quit)
    QTimer.singleShot(10_000, loop.quit)
    window.teaching.compare.pageable_vs_pinned()
    loop.exec()
    settle = QEventLoop()
    QTimer.singleShot(300, settle.quit)
    settle.exec()
    window.grab().save(str(IMAGES / name))
    print(IMAGES / name)
    window.close()


def main() -> None:
    """Write every picture."""
    ensure_app()
    IMAGES.mkdir(exist_ok=True)
    exports()
    window_screenshot("light", "window-light.png")
    compare_screenshot("light", "window-compare-light.png")


if __name__ == "__main__":
    main()
