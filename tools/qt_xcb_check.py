"""Say which system libraries Qt's X11 platform plugin (xcb) lacks, before the window fails to open.

`make run` runs this first. Without one of the plugin's libraries Qt stops with "Could not
load the Qt platform plugin "xcb"", and names libxcb-cursor0 whichever library is missing.
This asks the dynamic linker instead (`ldd` on PySide6's ``libqxcb.so``, or, where there is
no `ldd`, loading each library the plugin links) and names the missing libraries with the
packages that hold them on Debian/Ubuntu (apt) and Fedora/RHEL (dnf).

Only when Qt would use xcb: ``QT_QPA_PLATFORM`` naming it first, or none chosen on an X11
display. With no display the app draws a PNG instead; on Wayland Qt needs xcb only as a
fallback, so missing libraries are a note there, not a stop. Standard library only, and
nothing of Qt is loaded.

Exit status: 0 when the plugin can load (or xcb is not needed), 1 when libraries are missing.
``--apt-packages`` prints the apt packages to install instead (CI installs them before its run
on Xvfb).
"""

from __future__ import annotations

import argparse
import ctypes
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from pathlib import Path

PLUGIN = Path("Qt", "plugins", "platforms", "libqxcb.so")

# The X11, xcb, keymap, font and GL libraries PySide6 6.11's libqxcb.so links (`ldd` on the
# wheel's plugin; Qt's "Qt for X11 Requirements" page lists the same xcb family; xcb-xinput
# is built in), with the packages that hold them: the Debian 12 names checked with
# `apt-cache policy`; Fedora packages the xcb utilities under their upstream tarball names
# (xcb.freedesktop.org/dist: xcb-util-wm holds icccm, xcb-util-renderutil holds
# render-util), the core extensions in libxcb and the GL dispatch libraries in libglvnd-*.
PACKAGES: dict[str, tuple[str, str]] = {
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libGLX.so.0": ("libglx0", "libglvnd-glx"),
    "libGLdispatch.so.0": ("libglvnd0", "libglvnd"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
}

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found\s*$", re.MULTILINE)


class Need(Enum):
    """How much Qt depends on xcb in an environment."""

    NONE = "none"  # another platform, or no display at all
    FALLBACK = "fallback"  # Wayland first, xcb if that fails
    REQUIRED = "required"


def xcb_need(env: Mapping[str, str], platform: str = sys.platform) -> Need:
    """Whether Qt would load the xcb plugin under `env` on `platform`."""
    if not platform.startswith("linux"):
        return Need.NONE
    chosen = env.get("QT_QPA_PLATFORM", "").strip()
    if chosen:  # Qt tries a "first;second" list in order; "name:options" carries options
        return Need.REQUIRED if chosen.split(";")[0].split(":")[0].strip() == "xcb" else Need.NONE
    if not env.get("DISPLAY"):  # the app draws a PNG offscreen, or Qt runs on Wayland alone
        return Need.NONE
    if env.get("WAYLAND_DISPLAY") or env.get("XDG_SESSION_TYPE") == "wayland":
        return Need.FALLBACK
    return Need.REQUIRED


def plugin_path() -> Path | None:
    """PySide6's xcb plugin, found without importing PySide6; None when it is not installed."""
    spec = importlib.util.find_spec("PySide6")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(folder) / PLUGIN
        if candidate.is_file():
            return candidate
    return None


def missing_from_ldd(output: str) -> list[str]:
    """The libraries `ldd` reported as not found, each once, in its order."""
    return list(dict.fromkeys(_NOT_FOUND.findall(output)))


def missing_by_ldd(plugin: Path, ldd: str) -> list[str] | None:
    """What `ldd` finds missing for `plugin`; None when `ldd` cannot tell."""
    try:
        done = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    missing = missing_from_ldd(done.stdout)
    return missing if missing or done.returncode == 0 else None


def missing_by_loading(load: Callable[[str], object], names: Sequence[str] = tuple(PACKAGES)) -> list[str]:
    """The libraries of `names` that `load` (the dynamic loader) cannot open."""
    missing = []
    for name in names:
        try:
            load(name)
        except OSError:
            missing.append(name)
    return missing


def find_missing(plugin: Path, ldd: str | None, load: Callable[[str], object] = ctypes.CDLL) -> list[str]:
    """The libraries the plugin lacks: by `ldd` where there is one, else by loading each."""
    found = missing_by_ldd(plugin, ldd) if ldd else None
    return missing_by_loading(load) if found is None else found


def install_advice(missing: Sequence[str]) -> list[str]:
    """Lines naming the `missing` libraries and the apt and dnf commands that install them."""
    known = [name for name in missing if name in PACKAGES]
    lines = [f"  {name}" for name in missing]
    if known:
        apt = " ".join(dict.fromkeys(PACKAGES[name][0] for name in known))
        dnf = " ".join(dict.fromkeys(PACKAGES[name][1] for name in known))
        lines += [
            "Install them:",
            f"  Debian, Ubuntu:  sudo apt-get install {apt}",
            f"  Fedora, RHEL:    sudo dnf install {dnf}",
        ]
    for name in missing:
        if name not in PACKAGES:
            lines.append(f"  {name}: `apt-file search {name}` or `dnf provides '*/{name}'` names its package")
    return lines


def check(
    env: Mapping[str, str], plugin: Path | None, ldd: str | None, load: Callable[[str], object]
) -> tuple[int, str]:
    """The exit status and message for `env`: 1 and the advice when Qt needs xcb and it cannot load."""
    need = xcb_need(env)
    if need is Need.NONE or plugin is None:
        return 0, ""
    missing = find_missing(plugin, ldd, load)
    if not missing:
        return 0, ""
    if need is Need.FALLBACK:
        head = "overlapviz: note: should Qt fall back from Wayland to X11, its xcb plugin lacks these libraries:"
        return 0, "\n".join([head, *install_advice(missing)])
    lines = [
        "overlapviz: the window cannot open: Qt's X11 platform plugin (xcb) lacks these system libraries:",
        *install_advice(missing),
        "Then `make run` again. (Qt's own message names libxcb-cursor0 whichever library is missing;",
        "`.venv/bin/overlapviz` starts the app without this check.)",
    ]
    return 1, "\n".join(lines)


def apt_packages(plugin: Path | None, ldd: str | None, load: Callable[[str], object]) -> tuple[int, str]:
    """The apt packages that would let the plugin load, whatever the display (for CI to install).

    Exit status 1 when a missing library is of no known package.
    """
    missing = [] if plugin is None else find_missing(plugin, ldd, load)
    names = " ".join(dict.fromkeys(PACKAGES[name][0] for name in missing if name in PACKAGES))
    return (0 if all(name in PACKAGES for name in missing) else 1), names


def main(argv: Sequence[str] | None = None) -> int:
    """Check this machine; print what is missing on stderr (or, asked, the apt packages on stdout)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--apt-packages", action="store_true",
                        help="print the apt packages of the missing libraries, whatever the display, and stop")
    args = parser.parse_args(argv)
    plugin, ldd = plugin_path(), shutil.which("ldd")
    if args.apt_packages:
        status, names = apt_packages(plugin, ldd, ctypes.CDLL)
        print(names)
        return status
    status, message = check(os.environ, plugin, ldd, ctypes.CDLL)
    if message:
        print(message, file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
