import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from overlapviz._qt.app import HEADLESS_PNG_NAME, QUIT_AFTER_DRAW_ENV, has_display

START = "import sys; from overlapviz._qt.app import main; sys.exit(main())"
DISPLAY_VARS = ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")


def _env(tmp_path, **extra):
    env = {k: v for k, v in os.environ.items() if k not in DISPLAY_VARS}
    env.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"), TMPDIR=str(tmp_path), **extra)
    return env


def test_main_starts_draws_and_quits(tmp_path):
    env = _env(tmp_path, QT_QPA_PLATFORM="offscreen", **{QUIT_AFTER_DRAW_ENV: "1"})
    done = subprocess.run([sys.executable, "-c", START], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="display detection is for Linux")
def test_without_a_display_main_renders_a_png_and_prints_its_path(tmp_path):
    done = subprocess.run([sys.executable, "-c", START], env=_env(tmp_path), capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    first, path, *rest = done.stdout.splitlines()
    assert rest == []
    assert first.startswith("overlapviz: no display")
    assert path == str(tmp_path / HEADLESS_PNG_NAME)
    image = QImage(path)
    assert image.width() == 1920 and not image.isNull()
    assert done.stderr == ""  # one line on stdout says what happened; nothing else to read


@pytest.mark.parametrize(
    ("env", "platform", "expected"),
    [
        ({}, "linux", False),
        ({"DISPLAY": ":0"}, "linux", True),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", True),
        ({"QT_QPA_PLATFORM": "offscreen"}, "linux", True),
        ({"DISPLAY": ""}, "linux", False),
        ({}, "win32", True),
        ({}, "darwin", True),
    ],
)
def test_display_detection(monkeypatch, env, platform, expected):
    monkeypatch.setattr(sys, "platform", platform)
    assert has_display(env) is expected


TORCH = Path(__file__).resolve().parents[2] / "data" / "torch" / "torch-pinned.json.gz"
OVERLAPVIZ = [sys.executable, "-m", "overlapviz"]


def test_overlapviz_file_opens_the_app_on_it_and_draws_it(tmp_path):
    # live mode is off on a file: the one picture that can quit the window is the file's
    env = _env(tmp_path, QT_QPA_PLATFORM="offscreen", **{QUIT_AFTER_DRAW_ENV: "1"})
    done = subprocess.run([*OVERLAPVIZ, str(TORCH)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "invalid choice" not in done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="display detection is for Linux")
@pytest.mark.parametrize("name", [str(TORCH), "not-there-yet.json"], ids=["a-file", "a-trace-name"])
def test_overlapviz_file_without_a_display_says_the_app_has_nowhere_to_show_it(tmp_path, name):
    done = subprocess.run([*OVERLAPVIZ, name], env=_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.startswith("overlapviz: error: no display") and f" {name} on;" in done.stderr
    assert done.stderr.count("\n") == 1 and done.stdout == ""


def test_a_word_that_names_no_command_and_no_file_is_still_a_usage_error(tmp_path):
    done = subprocess.run([*OVERLAPVIZ, "rnu"], env=_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "invalid choice: 'rnu'" in done.stderr
