"""The app, offscreen, on the real GPU (``pytest -m gpu``): the sliders and toggles drive real
runs, the timeline redraws with each, and the picture exports. Skipped where there is no GPU.

With $OVERLAPVIZ_GPU_PNG (window) and $OVERLAPVIZ_GPU_TIMELINE_PNG (exported timeline) set,
the pictures are also copied there, for the docs.
"""

from __future__ import annotations

import os
import shutil

import pytest

from overlapviz.core.config import HostMemory, PipelineConfig

pytestmark = pytest.mark.gpu
WAIT_MS = 60_000


def wait_for_run(qtbot, window, matches):
    """Wait until the trace on show is a real-GPU run of the config `matches` accepts."""

    def done():
        shown = window.shown()
        if shown is None:
            return False
        meta = shown.result.trace.meta
        return meta.backend == "cupy" and matches(PipelineConfig.from_dict(meta.config))

    qtbot.waitUntil(done, timeout=WAIT_MS)
    return window.shown().result


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")  # offscreen platform noise
def test_app_drives_the_real_gpu_and_exports_a_picture(gpu_backend, request, tmp_path):
    pytest.importorskip("pytestqt")
    qtbot = request.getfixturevalue("qtbot")  # only now: no QApplication where the GPU is missing
    from PySide6.QtCore import QSettings

    from overlapviz._qt.export.export_view import ExportOptions
    from overlapviz._qt.main_window import MainWindow

    window = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat), live=True)
    qtbot.addWidget(window)
    try:
        window.show()
        controls = window.controls
        assert controls.target() is not None and controls.target().backend == "cupy"

        first = wait_for_run(qtbot, window, lambda c: c == PipelineConfig())
        assert first.trace.meta.timing == "cupti" and not first.trace.meta.simulated

        controls.streams_slider.step(-2)  # as the arrow keys do
        wanted = controls.config().streams
        assert wanted < 4
        wait_for_run(qtbot, window, lambda c: c.streams == wanted)

        controls.memory.button(HostMemory.PAGEABLE).click()
        pageable = wait_for_run(qtbot, window, lambda c: c.memory is HostMemory.PAGEABLE and c.streams == wanted)
        assert pageable.metrics.host_blocked_ns > 0.5 * pageable.metrics.makespan_ns  # stuck in the copies

        controls.memory.button(HostMemory.PINNED).click()
        controls.streams_slider.step(2)
        controls.chunks_slider.step(1)
        chunks = controls.config().chunks
        final = wait_for_run(qtbot, window, lambda c: c.memory is HostMemory.PINNED and c.chunks == chunks)
        # a pinned copy's call returns in microseconds (its copy may just have started by then)
        assert final.metrics.host_blocked_ns < 0.05 * final.metrics.makespan_ns

        screenshot = tmp_path / "window.png"  # the whole window: controls, timeline, status bar
        assert window.grab().save(str(screenshot))
        if os.environ.get("OVERLAPVIZ_GPU_PNG"):
            shutil.copyfile(screenshot, os.environ["OVERLAPVIZ_GPU_PNG"])
        picture = tmp_path / "timeline.png"
        # pictures are drawn in short steps and written off the GUI thread: wait for the write
        with qtbot.waitSignal(window.files.write_finished, timeout=60_000) as written:
            assert window.files.export_png(picture, ExportOptions(width=1920, theme="light")), window.banner
        assert written.args[0], window.banner
        assert picture.stat().st_size > 10_000
        if os.environ.get("OVERLAPVIZ_GPU_TIMELINE_PNG"):
            shutil.copyfile(picture, os.environ["OVERLAPVIZ_GPU_TIMELINE_PNG"])
    finally:
        window.shutdown()
