"""Waiting for the window's file actions, which read and write off the GUI thread."""

from __future__ import annotations

FILE_TIMEOUT_MS = 20_000


def open_and_wait(qtbot, window, path):
    """Open `path` in `window`; True once it is on show, False once the window said why not."""
    with qtbot.waitSignal(window.files.open_finished, timeout=FILE_TIMEOUT_MS) as blocker:
        assert window.files.open(path)
    return blocker.args[0]


def write_and_wait(qtbot, window, start):
    """Run `start` (a file action that writes); True once written, False once the window said why not.

    `start` returning False (nothing to write, no path) is returned as it is, without waiting.
    """
    with qtbot.waitSignal(window.files.write_finished, timeout=FILE_TIMEOUT_MS, raising=False) as blocker:
        began = start()
        if not began:
            return False
    assert blocker.signal_triggered, "the write never finished"
    return blocker.args[0]
