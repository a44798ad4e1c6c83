"""tools/qt_xcb_check.py: what `make run` says when Qt's xcb plugin lacks system libraries.

Every test runs on a fake `ldd` or a fake loader in its temp dir, never on this machine's
libraries.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fake_command import fake_command

from tools import qt_xcb_check
from tools.qt_xcb_check import PACKAGES, Need, apt_packages, check, missing_from_ldd, xcb_need

SCRIPT = Path(qt_xcb_check.__file__)
X11 = {"DISPLAY": ":1"}

LDD_OUTPUT = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibQt6XcbQpa.so.6 => /x/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f34)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f35)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x00007f36)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
"""
ALL_FOUND = "\tlibxcb.so.1 => /lib/libxcb.so.1 (0x1)\n\tlibX11.so.6 => /lib/libX11.so.6 (0x2)\n"


def _fake_ldd(folder: Path, output: str, status: int = 0) -> Path:
    """An `ldd` that prints `output`, exits `status` and notes the file it was asked about."""
    return fake_command(folder, "ldd", output, status)


def _fake_plugin(root: Path) -> Path:
    plugin = root / "PySide6" / qt_xcb_check.PLUGIN
    plugin.parent.mkdir(parents=True)
    plugin.write_bytes(b"")
    (root / "PySide6" / "__init__.py").write_text("")
    return plugin


def _no_loading(name: str) -> object:
    raise AssertionError(f"loaded {name} though ldd answered")


def test_ldd_not_found_lines_are_named_once_each_in_order():
    assert missing_from_ldd(LDD_OUTPUT) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    assert missing_from_ldd(ALL_FOUND) == []


def test_missing_libraries_are_named_with_their_apt_and_dnf_packages(tmp_path):
    plugin = _fake_plugin(tmp_path)
    ldd = _fake_ldd(tmp_path / "bin", LDD_OUTPUT)
    status, message = check(X11, plugin, str(ldd), _no_loading)
    assert status == 1
    lines = message.splitlines()
    assert "  libxcb-icccm.so.4" in lines and "  libxcb-keysyms.so.1" in lines
    assert "  Debian, Ubuntu:  sudo apt-get install libxcb-icccm4 libxcb-keysyms1" in lines
    assert "  Fedora, RHEL:    sudo dnf install xcb-util-wm xcb-util-keysyms" in lines
    assert "libxcb-cursor.so.0" not in message  # found: not blamed, whatever Qt says
    assert (tmp_path / "bin" / "asked").read_text().split() == [str(plugin)]


def test_packages_shared_by_several_libraries_are_named_once(tmp_path):
    names = ("libxcb-shm.so.0", "libxcb-sync.so.1", "libxcb-icccm.so.4")
    output = "".join(f"\t{name} => not found\n" for name in names)
    status, message = check(X11, _fake_plugin(tmp_path), str(_fake_ldd(tmp_path / "bin", output)), _no_loading)
    assert status == 1
    assert "  Debian, Ubuntu:  sudo apt-get install libxcb-shm0 libxcb-sync1 libxcb-icccm4" in message
    assert "  Fedora, RHEL:    sudo dnf install libxcb xcb-util-wm" in message


def test_a_library_of_no_known_package_gets_a_way_to_find_it(tmp_path):
    output = "\tlibxcb-icccm.so.4 => not found\n\tlibfancy.so.3 => not found\n"
    status, message = check(X11, _fake_plugin(tmp_path), str(_fake_ldd(tmp_path / "bin", output)), _no_loading)
    assert status == 1
    hint = "  libfancy.so.3: `apt-file search libfancy.so.3` or `dnf provides '*/libfancy.so.3'` names its package"
    assert hint in message
    assert "sudo apt-get install libxcb-icccm4\n" in message  # the unknown one is not guessed into the command


def test_nothing_missing_says_nothing(tmp_path):
    assert check(X11, _fake_plugin(tmp_path), str(_fake_ldd(tmp_path / "bin", ALL_FOUND)), _no_loading) == (0, "")


def test_without_ldd_each_library_is_loaded(tmp_path):
    absent = {"libxcb-keysyms.so.1", "libxcb-icccm.so.4"}
    tried: list[str] = []

    def load(name: str) -> object:
        tried.append(name)
        if name in absent:
            raise OSError(f"{name}: cannot open shared object file")
        return object()

    status, message = check(X11, _fake_plugin(tmp_path), None, load)
    assert tried == list(PACKAGES)
    assert status == 1
    assert "sudo apt-get install libxcb-icccm4 libxcb-keysyms1" in message


def test_an_ldd_that_cannot_read_the_plugin_falls_back_to_loading(tmp_path):
    ldd = _fake_ldd(tmp_path / "bin", "\tnot a dynamic executable\n", status=1)
    status, message = check(X11, _fake_plugin(tmp_path), str(ldd), lambda name: object())
    assert (status, message) == (0, "")
    assert (tmp_path / "bin" / "asked").exists()


def test_wayland_first_makes_missing_libraries_a_note_not_a_stop(tmp_path):
    env = {"DISPLAY": ":1", "WAYLAND_DISPLAY": "wayland-0"}
    status, message = check(env, _fake_plugin(tmp_path), str(_fake_ldd(tmp_path / "bin", LDD_OUTPUT)), _no_loading)
    assert status == 0
    assert message.startswith("overlapviz: note:") and "sudo apt-get install libxcb-icccm4 libxcb-keysyms1" in message


def test_no_plugin_installed_is_left_to_qt(tmp_path):
    assert check(X11, None, str(_fake_ldd(tmp_path / "bin", LDD_OUTPUT)), _no_loading) == (0, "")


@pytest.mark.parametrize(
    ("env", "platform", "need"),
    [
        ({"DISPLAY": ":0"}, "linux", Need.REQUIRED),
        ({"DISPLAY": ":0", "XDG_SESSION_TYPE": "x11"}, "linux", Need.REQUIRED),
        ({"QT_QPA_PLATFORM": "xcb"}, "linux", Need.REQUIRED),
        ({"QT_QPA_PLATFORM": "xcb:nomitshm;wayland", "WAYLAND_DISPLAY": "w"}, "linux", Need.REQUIRED),
        ({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"}, "linux", Need.NONE),
        ({"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":0"}, "linux", Need.NONE),
        ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, "linux", Need.FALLBACK),
        ({"DISPLAY": ":0", "XDG_SESSION_TYPE": "wayland"}, "linux", Need.FALLBACK),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", Need.NONE),
        ({}, "linux", Need.NONE),  # no display: the app draws a PNG instead
        ({"DISPLAY": ":0"}, "darwin", Need.NONE),
    ],
)
def test_xcb_is_checked_only_where_qt_would_use_it(env, platform, need):
    assert xcb_need(env, platform) is need


def test_apt_packages_are_listed_for_ci_whatever_the_display(tmp_path):
    ldd = str(_fake_ldd(tmp_path / "bin", LDD_OUTPUT))
    assert apt_packages(_fake_plugin(tmp_path), ldd, _no_loading) == (0, "libxcb-icccm4 libxcb-keysyms1")
    unknown = str(_fake_ldd(tmp_path / "other", "\tlibfancy.so.3 => not found\n"))
    assert apt_packages(tmp_path / "PySide6" / qt_xcb_check.PLUGIN, unknown, _no_loading) == (1, "")
    assert apt_packages(None, ldd, _no_loading) == (0, "")


def _run_script(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    packages = tmp_path / "packages"
    _fake_plugin(packages)
    bin_dir = tmp_path / "bin"
    _fake_ldd(bin_dir, LDD_OUTPUT)
    base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    base |= {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(packages)}
    command = [sys.executable, str(SCRIPT), *args]
    return subprocess.run(command, env=base | env, capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the check is for Linux desktops")
def test_the_script_stops_make_run_with_the_packages_to_install(tmp_path):
    done = _run_script(tmp_path, DISPLAY=":1")
    assert done.returncode == 1
    assert done.stdout == ""
    assert "sudo apt-get install libxcb-icccm4 libxcb-keysyms1" in done.stderr
    assert "sudo dnf install xcb-util-wm xcb-util-keysyms" in done.stderr
    asked = (tmp_path / "bin" / "asked").read_text().split()
    assert asked == [str(tmp_path / "packages" / "PySide6" / qt_xcb_check.PLUGIN)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the check is for Linux desktops")
def test_the_script_is_silent_offscreen(tmp_path):
    done = _run_script(tmp_path, DISPLAY=":1", QT_QPA_PLATFORM="offscreen")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert not (tmp_path / "bin" / "asked").exists()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the check is for Linux desktops")
def test_the_script_prints_the_apt_packages_for_ci(tmp_path):
    done = _run_script(tmp_path, "--apt-packages", QT_QPA_PLATFORM="offscreen")
    assert (done.returncode, done.stdout, done.stderr) == (0, "libxcb-icccm4 libxcb-keysyms1\n", "")
