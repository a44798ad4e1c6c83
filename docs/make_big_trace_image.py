"""Open a PyTorch profiler trace of 10^7 events in the real app and keep a screenshot of it.

For docs/traces.md ("Big traces"). Run on an X server, from the repository root::

    xvfb-run -a -s "-screen 0 1920x1080x24" .venv/bin/python docs/make_big_trace_image.py

Writes the synthetic trace of `benchmarks/big_kineto.py` (about 2 GB of JSON) into a
temporary folder unless ``--trace FILE`` names one, starts the window as ``overlapviz FILE``
does (settings of its own, in a temporary folder), waits for the timeline to be drawn, and
grabs the window from the screen into ``docs/images/big-trace-10m.png``. It prints the
seconds from the start of the open to the picture and the peak resident memory of this
process and of the file's reader (a child process). Look at the picture before committing it.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QEventLoop, QSettings, QTimer
from PySide6.QtGui import QGuiApplication

from benchmarks.big_kineto import write_trace
from overlapviz._qt.app import ensure_app, start_window

IMAGES = Path(__file__).resolve().parent / "images"
EVENTS = 10**7
TIMEOUT_S = 900.0  # a 2-core machine included
SETTLE_MS = 1500  # the status bar and the findings panel catch up with the drawn timeline


def _peak_bytes(who: int) -> int:
    return resource.getrusage(who).ru_maxrss * 1024  # Linux gives KiB


def shoot(trace: Path, out: Path) -> None:
    """Open `trace` in a fresh window, wait for its timeline, grab the window into `out`."""
    app = ensure_app()
    with tempfile.TemporaryDirectory() as settings_dir:
        settings = QSettings(str(Path(settings_dir) / "overlapviz.ini"), QSettings.Format.IniFormat)
        loop = QEventLoop()
        begin = time.perf_counter()
        window = start_window(trace, settings)
        window.resize(1920, 1040)
        drawn: list[float] = []

        def on_drawn() -> None:
            drawn.append(time.perf_counter() - begin)
            loop.quit()

        window.timeline_drawn.connect(on_drawn)
        QTimer.singleShot(int(TIMEOUT_S * 1000), loop.quit)
        loop.exec()
        if not drawn:
            raise SystemExit(f"the timeline was not drawn within {TIMEOUT_S:.0f} s")
        QTimer.singleShot(SETTLE_MS, loop.quit)
        loop.exec()
        screen = QGuiApplication.primaryScreen()
        picture = screen.grabWindow(window.winId())
        if not picture.save(str(out)):
            raise SystemExit(f"cannot write {out}")
        print(f"drawn {drawn[0]:.1f} s after the open began; wrote {out} ({picture.width()}x{picture.height()})")
        print(
            f"peak resident memory: this process {_peak_bytes(resource.RUSAGE_SELF) / 1e9:.2f} GB,"
            f" the largest child {_peak_bytes(resource.RUSAGE_CHILDREN) / 1e9:.2f} GB"
        )
        window.close()
        window.shutdown()
        app.processEvents()


def main() -> None:
    """Write the synthetic trace (or take --trace), open it in the window, keep the screenshot."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trace", type=Path, help="open this trace instead of writing the synthetic one")
    parser.add_argument("--events", type=int, default=EVENTS, help="the synthetic trace's events (default 10^7)")
    parser.add_argument("--out", type=Path, default=IMAGES / "big-trace-10m.png")
    args = parser.parse_args()
    if args.trace is not None:
        shoot(args.trace, args.out)
        return
    with tempfile.TemporaryDirectory() as folder:
        trace = Path(folder) / "big.pt.trace.json"
        size = write_trace(trace, args.events, compressed=False)
        print(f"wrote {args.events:,} events, {size / 1e9:.2f} GB, to {trace}", file=sys.stderr)
        shoot(trace, args.out)


if __name__ == "__main__":
    main()
