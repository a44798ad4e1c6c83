"""Slider release to redrawn timeline, in the app, with the simulated GPU (goal: under 100 ms).

Opens the main window (offscreen unless a Qt platform is chosen), waits for the default
pipeline's first timeline, then repeatedly drags the streams slider between 4 and 3 and
lets go. Each sample runs from the release to the end of the synchronous repaint of the
redrawn timeline: the run on the worker thread, metrics and findings, the new lanes and
items, the metrics panel and the paint. Prints the median and the worst, their ratio to the
goal, and writes benchmarks/results/slider_redraw.json with the machine and the date.

    python -m benchmarks.slider_redraw [--repeats 40]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

GOAL_MS = 100.0


def _drag_to(slider, value: int) -> None:  # type: ignore[no-untyped-def]
    inner = slider._slider._slider  # the QSlider inside the labelled slider
    inner.setSliderDown(True)
    inner.setValue(slider.values().index(value))
    inner.setSliderDown(False)  # the release: the window runs at once, no debounce


def measure(repeats: int) -> tuple[list[float], list[float]]:
    """Release-to-repaint times and the backend's own run times, both in ms."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, QSettings, QTimer

    from overlapviz._qt.app import ensure_app
    from overlapviz._qt.main_window import MainWindow

    app = ensure_app()
    settings = QSettings(str(Path(tempfile.mkdtemp()) / "bench.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings)
    window.show()

    def wait_for_draw() -> None:
        loop = QEventLoop()
        window.timeline_drawn.connect(loop.quit)
        QTimer.singleShot(10_000, loop.quit)
        loop.exec()
        window.timeline_drawn.disconnect(loop.quit)

    if window.shown() is None:
        wait_for_draw()
    app.processEvents()
    samples, runs = [], []
    for i in range(repeats):
        started = time.perf_counter()
        _drag_to(window.controls.streams_slider, 3 if i % 2 == 0 else 4)
        wait_for_draw()
        window.timeline.repaint()
        samples.append((time.perf_counter() - started) * 1e3)
        shown = window.shown()
        runs.append(shown.result.wall_s * 1e3 if shown else float("nan"))
        app.processEvents()
    window.close()
    return samples, runs


def main() -> None:
    from PySide6 import __version__ as pyside_version

    from benchmarks.machine import write_result

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=40)
    args = parser.parse_args()
    samples, runs = measure(args.repeats)
    median, worst = statistics.median(samples), max(samples)
    p90 = statistics.quantiles(samples, n=10)[-1]
    print(f"slider release -> redrawn timeline: median {median:.1f} ms, 90th percentile {p90:.1f} ms,"
          f" worst {worst:.1f} ms over {args.repeats} releases; backend run median {statistics.median(runs):.1f} ms;"
          f" ratio of the median to the {GOAL_MS:.0f} ms goal: {median / GOAL_MS:.2f}")
    write_result("slider_redraw", {
        "what": "streams slider released (4 <-> 3) on the default pipeline, h200 model, until the new timeline"
                " is repainted",
        "qt_platform": os.environ.get("QT_QPA_PLATFORM"),
        "pyside6": pyside_version,
        "repeats": args.repeats,
        "median_ms": round(median, 2),
        "p90_ms": round(p90, 2),
        "worst_ms": round(worst, 2),
        "backend_run_median_ms": round(statistics.median(runs), 2),
        "goal_ms": GOAL_MS,
        "ratio_to_goal": round(median / GOAL_MS, 3),
    })  # fmt: skip


if __name__ == "__main__":
    main()
