from PySide6.QtWidgets import QMenu

from overlapviz._qt.buffer_release import RELEASED, BufferRelease
from overlapviz._qt.main_window import MainWindow
from overlapviz.backends import registry


def test_release_buffers_frees_what_the_backends_keep_and_says_so(qtbot, monkeypatch):
    released, said = [], []

    class Keeps:
        def release_buffers(self):
            released.append(True)

    monkeypatch.setattr(registry, "_loaded", {"cupy": Keeps()})
    buffers = BufferRelease(said.append)
    try:
        buffers.release()
        qtbot.waitUntil(lambda: bool(said), timeout=5000)
    finally:
        buffers.shutdown()
    assert released == [True] and said == [RELEASED]


def test_a_failed_release_is_said_in_words(qtbot, monkeypatch):
    said = []

    class Broken:
        def release_buffers(self):
            raise RuntimeError("the GPU is gone")

    monkeypatch.setattr(registry, "_loaded", {"cupy": Broken()})
    buffers = BufferRelease(said.append)
    try:
        buffers.release()
        qtbot.waitUntil(lambda: bool(said), timeout=5000)
    finally:
        buffers.shutdown()
    assert said == ["The buffers could not be released: the GPU is gone"]


def test_the_run_menu_releases_the_buffers(qtbot, settings, monkeypatch):
    released = []

    class Keeps:
        def release_buffers(self):
            released.append(True)

    window = MainWindow(settings, live=False)
    qtbot.addWidget(window)
    monkeypatch.setattr(registry, "_loaded", {"cupy": Keeps()})
    try:
        run_menu = window.findChild(QMenu, "run_menu")
        assert "Release &buffers" in [action.text() for action in run_menu.actions()]
        window.window_actions.release_buffers.trigger()
        qtbot.waitUntil(lambda: bool(released), timeout=5000)
        qtbot.waitUntil(lambda: window.statusBar().currentMessage() == RELEASED, timeout=5000)
    finally:
        window.shutdown()
