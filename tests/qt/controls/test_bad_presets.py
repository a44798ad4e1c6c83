"""A preset the window cannot read at start: the window starts, and says which file and why."""

from __future__ import annotations

from overlapviz._qt.main_window import MainWindow


def test_the_window_starts_with_a_note_when_a_preset_nests_too_deeply(qtbot, settings, tmp_path, monkeypatch):
    (tmp_path / "deep.toml").write_text('title = "t"\ntext = "x"\nx = ' + "{a = " * 5000 + "1" + "}" * 5000 + "\n")
    monkeypatch.setattr("overlapviz.presets.presets_folder", lambda: tmp_path)
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.shown() is not None, timeout=10_000)
    message = window.banner.message()
    assert message.startswith("The lessons could not be read: ") and "deep.toml" in message
    assert "nests arrays or tables too deeply" in message and "\n" not in message
    window.shutdown()
