"""``overlapviz --install-desktop``: a desktop entry under $XDG_DATA_HOME that starts the app on a file."""

import configparser
import shlex
import subprocess
import sys
from pathlib import Path

from cli_runs import run_cli

from overlapviz import __version__
from overlapviz.desktop_entry import data_home, desktop_entry


def entry_of(path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(path)
    return parser["Desktop Entry"]


def test_install_desktop_writes_an_entry_that_opens_files_with_this_python(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    code, out, err = run_cli(capsys, "--install-desktop")
    path = tmp_path / "share" / "applications" / "overlapviz.desktop"
    assert (code, out, err) == (0, f"wrote      {path}\n", "")
    entry = entry_of(path)
    assert entry["Type"] == "Application" and entry["Name"] == "overlapviz" and entry["Terminal"] == "false"
    assert entry["Exec"] == f'"{sys.executable}" -m overlapviz %f'
    assert {"application/json", "application/gzip", "application/vnd.sqlite3"} <= set(entry["MimeType"].split(";"))
    started = shlex.split(entry["Exec"].replace("%f", "--version"))
    assert subprocess.run(started, capture_output=True, text=True, timeout=60).stdout == f"overlapviz {__version__}\n"


def test_installing_again_replaces_the_entry_whole(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    (tmp_path / "applications").mkdir()
    (tmp_path / "applications" / "overlapviz.desktop").write_text("[Desktop Entry]\nExec=old\n" * 50)
    assert run_cli(capsys, "--install-desktop")[0] == 0
    assert entry_of(tmp_path / "applications" / "overlapviz.desktop")["Exec"].endswith("-m overlapviz %f")


def test_the_data_home_follows_the_specification(tmp_path):
    assert data_home({"XDG_DATA_HOME": str(tmp_path), "HOME": "/home/x"}) == tmp_path
    assert data_home({"XDG_DATA_HOME": "relative/share", "HOME": "/home/x"}) == Path("/home/x/.local/share")
    assert data_home({"HOME": "/home/x"}) == Path("/home/x/.local/share")


def test_a_python_path_with_quotes_dollars_and_percents_is_escaped_as_the_specification_asks():
    line = next(line for line in desktop_entry('/opt/a "b"/$c%d/py').splitlines() if line.startswith("Exec="))
    assert line == 'Exec="/opt/a \\\\"b\\\\"/\\\\$c%%d/py" -m overlapviz %f'


def test_a_data_home_that_cannot_hold_the_entry_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    (tmp_path / "share").write_text("a file, not a folder")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    code, out, err = run_cli(capsys, "--install-desktop")
    assert (code, out) == (2, "") and err.startswith("overlapviz: error: --install-desktop: ") and err.count("\n") == 1
