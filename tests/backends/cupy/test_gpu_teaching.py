"""The teaching tools on the real GPU (``pytest -m gpu``): pageable vs pinned in one click, a
lesson that runs on the real GPU and one that says it runs on the model, and the bandwidth
plot from the GPU's own sweep. Skipped where there is no GPU.

With $OVERLAPVIZ_GPU_COMPARE_PNG set, the comparison picture is also copied there, for the docs.
"""

from __future__ import annotations

import os
import shutil

import pytest

from overlapviz.core.config import HostMemory, PipelineConfig

pytestmark = pytest.mark.gpu
WAIT_MS = 120_000


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")  # offscreen platform noise
def test_teaching_tools_on_the_real_gpu(gpu_backend, request, tmp_path):
    pytest.importorskip("pytestqt")
    qtbot = request.getfixturevalue("qtbot")  # only now: no QApplication where the GPU is missing
    from PySide6.QtCore import QSettings

    from overlapviz._qt.export.export_view import ExportOptions
    from overlapviz._qt.main_window import MainWindow

    window = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat), live=False)
    qtbot.addWidget(window)
    try:
        window.show()
        assert window.controls.target().backend == "cupy"

        window.teaching.actions.pageable_vs_pinned.trigger()
        qtbot.waitUntil(window.compare.is_comparing, timeout=WAIT_MS)
        a, b = window.compare.side_a().result, window.shown().result
        assert a.trace.meta.backend == b.trace.meta.backend == "cupy"
        assert PipelineConfig.from_dict(a.trace.meta.config).memory is HostMemory.PAGEABLE
        assert a.metrics.host_blocked_ns > 0.5 * a.metrics.makespan_ns
        assert b.metrics.makespan_ns * 4 < a.metrics.makespan_ns
        assert any(c.code == "host-blocked-pageable" for c in window.compare.timeline_a.callouts())
        picture = tmp_path / "compare.png"
        assert window.files.export_png(picture, ExportOptions(width=1920)), window.banner.message()
        if os.environ.get("OVERLAPVIZ_GPU_COMPARE_PNG"):
            shutil.copyfile(picture, os.environ["OVERLAPVIZ_GPU_COMPARE_PNG"])

        names = [lesson.name for lesson in window.teaching.lessons.lessons]
        window.teaching.lessons.start(names.index("streams-one-vs-four"))  # names no device: the GPU
        qtbot.waitUntil(lambda: window.shown() is not None, timeout=WAIT_MS)
        assert window.shown().result.trace.meta.backend == "cupy" and window.lesson_panel.note.isHidden()
        window.teaching.lessons.start(names.index("order-k20c"))  # about the K20c: on its model
        assert window.lesson_panel.note.text().startswith("Simulated:")
        qtbot.waitUntil(lambda: window.shown() is not None, timeout=WAIT_MS)
        assert window.shown().result.trace.meta.simulated

        window.select_target("cupy", gpu_backend.devices()[0].key)
        dialog = window.teaching.open_bandwidth()
        qtbot.waitUntil(lambda: dialog.last is not None or "did not" in dialog.status.text(), timeout=WAIT_MS)
        sweep = dialog.last
        assert sweep is not None, dialog.status.text()
        assert not sweep.simulated and "measured" in dialog.status.text()
        pinned_h2d = [p["gbps"] for p in sweep.points if (p["memory"], p["direction"]) == ("pinned", "h2d")]
        assert max(pinned_h2d) > 40
    finally:
        window.shutdown()
