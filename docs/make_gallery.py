"""Draw a picture of every lesson into docs/gallery/ and write docs/gallery.md.

Run from the repository root (no display needed):

    python docs/make_gallery.py

Each lesson runs on the model (the device it names, else the H200), and is drawn as
`overlapviz run --preset NAME --backend sim --png FILE` draws it: a comparison as one picture,
A above B on one time axis, with the findings as callouts. A lesson whose run is refused (the
RAM guard's) is shown as the app's window with the refusal in it. Look at every picture
before committing it.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QSettings, QTimer

from overlapviz._qt.app import ensure_app
from overlapviz._qt.main_window import MainWindow
from overlapviz._qt.render import render_comparison_png, render_trace_png
from overlapviz.core.files.atomic_write import atomic_write_text
from overlapviz.core.run_errors import BackendError
from overlapviz.presets import Preset, lessons
from overlapviz.session import run_pipeline

DOCS = Path(__file__).resolve().parent
GALLERY = DOCS / "gallery"
PAGE = DOCS / "gallery.md"
WIDTH = 1920
WINDOW_SIZE = (1920, 1000)
DEFAULT_DEVICE = "h200"

INTRO = """# Lesson gallery

Every lesson of [lessons.md](lessons.md), drawn by the app on the simulated GPU: the H200
model, or the device the lesson names. A comparison lesson is one picture: A above B on one
time axis (the longer run sets it), a caption over each, and the differences at the bottom.
The findings are drawn as callouts, a few words over a bracket just above the spans they
explain. Each picture is what this command draws:

```
overlapviz run --preset NAME --backend sim --png NAME.png
```

The last lesson's run is refused by the RAM guard, so its picture is the app's window, with
the lesson beside the timeline and the refusal above it. `python docs/make_gallery.py` draws
the pictures and writes this page again. The lessons speak Simplified Chinese too: lesson 2 in
Chinese, and the app's window on it, are in [translating.md](translating.md#what-it-looks-like).
"""


def file_name(preset: Preset) -> str:
    """``02-overlap-pinned-vs-pageable.png``: in lesson order."""
    return f"{preset.lesson or 0:02d}-{preset.name}.png"


def draw_lesson(preset: Preset, path: Path) -> str:
    """Draw `preset` to `path`; returns how it was drawn ("render" or "window")."""
    try:
        results = [
            run_pipeline(config, "sim", device or DEFAULT_DEVICE)
            for config, device in zip(preset.configs, preset.devices, strict=True)
        ]
    except BackendError:
        window_picture(preset, path)
        return "window"
    traces = [result.trace for result in results]
    if len(traces) == 2:
        render_comparison_png(traces, preset.labels, path, width=WIDTH, title=f"{preset.lesson}. {preset.title}")
    else:
        render_trace_png(traces[0], path, width=WIDTH)
    return "render"


def window_picture(preset: Preset, path: Path) -> None:
    """The app's window with lesson `preset` started in it."""
    settings = QSettings(str(Path(tempfile.mkdtemp()) / "gallery.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings, live=False)
    window.resize(*WINDOW_SIZE)
    window.show()
    index = next(i for i, lesson in enumerate(window.teaching.lessons.lessons) if lesson.name == preset.name)
    window.teaching.lessons.start(index)
    wait_until(lambda: window.banner.message() != "" or window.shown() is not None)
    wait_ms(300)  # let layout and paints settle, as on a screen
    window.grab().save(str(path))
    window.close()


def wait_until(done: Callable[[], bool], timeout_ms: int = 10_000) -> None:
    """Run the event loop until `done()` or the timeout."""
    waited = 0
    while not done() and waited < timeout_ms:
        wait_ms(20)
        waited += 20


def wait_ms(ms: int) -> None:
    """Run the event loop for `ms` milliseconds."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def page(presets: list[Preset], how: dict[str, str]) -> str:
    """The gallery page."""
    parts = [INTRO]
    for preset in presets:
        name = file_name(preset)
        where = "the app's window" if how[preset.name] == "window" else "drawn headless"
        parts.append(
            f"## {preset.lesson}. {preset.title} (`{preset.name}`)\n\n{preset.text}\n\n"
            f"![Lesson {preset.lesson}, {where}: {preset.title}](gallery/{name})\n"
        )
    return "\n".join(parts)


def main() -> None:
    """Draw every lesson and write the page."""
    ensure_app()
    GALLERY.mkdir(exist_ok=True)
    presets = lessons()
    how = {}
    for preset in presets:
        path = GALLERY / file_name(preset)
        how[preset.name] = draw_lesson(preset, path)
        print(path)
    atomic_write_text(PAGE, page(presets, how))
    print(PAGE)


if __name__ == "__main__":
    main()
