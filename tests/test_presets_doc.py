"""docs/presets.md's table of pipeline keys is written from the settings' declarations; these tests keep it so."""

from docs.make_presets_table import PAGE, main, render_page


def test_the_committed_table_is_what_the_declarations_write():
    text = PAGE.read_text(encoding="utf-8")
    assert render_page(text) == text, "run python -m docs.make_presets_table"


def test_a_stale_table_is_found(tmp_path, monkeypatch, capsys):
    stale = tmp_path / "presets.md"
    stale.write_text(PAGE.read_text(encoding="utf-8").replace("| 1 to 128 | 4 |", "| 1 to 64 | 4 |"), "utf-8")
    monkeypatch.setattr("docs.make_presets_table.PAGE", stale)
    assert main(["--check"]) == 1
    assert "python -m docs.make_presets_table" in capsys.readouterr().err
    assert main([]) == 0 and main(["--check"]) == 0
    assert "| `streams` | 1 to 128 | 4 |" in stale.read_text(encoding="utf-8")
