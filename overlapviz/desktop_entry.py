"""``overlapviz --install-desktop``: the app in the desktop's menu, and in its "Open with" for traces.

Writes one freedesktop.org desktop entry, ``applications/overlapviz.desktop`` under
``$XDG_DATA_HOME`` (``~/.local/share`` when unset or not absolute, as the specification says).
Its ``MimeType`` line offers the app for the files it opens (JSON, gzip, SQLite), without
making it the default for any; its ``Exec`` line starts this same Python on ``-m overlapviz
FILE``, so it works from a pipx or any other environment without a PATH.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from overlapviz.core.files.atomic_write import atomic_write_text

ENTRY_NAME = "overlapviz.desktop"
MIME_TYPES = ("application/json", "application/gzip", "application/x-gzip", "application/vnd.sqlite3",
              "application/x-sqlite3")  # fmt: skip
ICON = "utilities-system-monitor"  # a name of the freedesktop.org icon naming specification


def data_home(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME``, or ``~/.local/share`` where it is unset, empty or relative."""
    env = os.environ if environ is None else environ
    given = env.get("XDG_DATA_HOME", "")
    return Path(given) if os.path.isabs(given) else Path(env.get("HOME") or Path.home()) / ".local" / "share"


def install_desktop_entry(environ: Mapping[str, str] | None = None) -> Path:
    """Write the desktop entry (replacing an older one whole); returns its path.

    Raises
    ------
    OSError
        The entry could not be written; the message names the file.
    """
    path = data_home(environ) / "applications" / ENTRY_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, desktop_entry(sys.executable))
    return path


def desktop_entry(python: str) -> str:
    """The desktop entry's text, its app started by the Python at `python`."""
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Name=overlapviz",
        "GenericName=GPU copy and kernel timeline",
        "Comment=See where asynchronous GPU copies and kernels overlap, where they don't, and why",
        f"Exec={_quoted(python)} -m overlapviz %f",
        f"Icon={ICON}",
        "Terminal=false",
        "Categories=Development;Education;Science;",
        f"MimeType={';'.join(MIME_TYPES)};",
        "",
    ])  # fmt: skip


def _quoted(argument: str) -> str:
    """`argument` as the Exec key takes it: quoted, then escaped as every string value is, ``%`` doubled."""
    quoted = '"' + "".join(f"\\{c}" if c in '"`$\\' else c for c in argument) + '"'
    return quoted.replace("\\", "\\\\").replace("%", "%%")
