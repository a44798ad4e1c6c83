"""Partial files: where a file is written before it is renamed into place, and their cleanup.

A partial file lives beside its destination (the final rename must stay on one file system)
and says what it is: ``.run.json.overlapviz-partial-<pid>-<hex>``, hidden, named after the
file it becomes and the process writing it. A process killed while writing cannot remove
its own; `remove_stale_partials` removes those of processes that are gone, and every write
calls it on its folder first, so the next write there cleans up after the killed one.

The writer is recognised by its process id alone, which holds on one machine: a folder
shared over the network with another machine that writes into it at the same moment could
see that machine's live partial file taken for a stale one (its write then fails cleanly).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from pathlib import Path

from overlapviz.core.files import posix
from overlapviz.core.files.file_system import name_length, name_limit

PARTIAL_MARK = ".overlapviz-partial-"
_TOKEN_BYTES = 6  # 12 hex digits: two writers of one process never pick the same name
_PARTIAL_NAME = re.compile(rf"\.(?s:.*){re.escape(PARTIAL_MARK)}(?P<pid>[0-9]+)-[0-9a-f]{{{2 * _TOKEN_BYTES}}}")


def partial_path(target: Path) -> Path:
    """Return a fresh partial file name for `target`, in its folder, that fits the file system.

    Parameters
    ----------
    target
        The file the partial file will be renamed to.

    Returns
    -------
    Path
        ``.<name>.overlapviz-partial-<pid>-<hex>`` beside `target`; `target`'s name is
        shortened when the whole would exceed the folder's limit on names.
    """
    tail = f"{PARTIAL_MARK}{os.getpid()}-{secrets.token_hex(_TOKEN_BYTES)}"
    room = name_limit(target.parent) - name_length(tail) - 1
    stem = target.name
    while stem and name_length(stem) > room:
        stem = stem[:-1]
    return target.with_name(f".{stem}{tail}")


def writer_of(name: str) -> int | None:
    """Return the process id in a partial file's name; None for a name that is not one."""
    match = _PARTIAL_NAME.fullmatch(name)
    return int(match["pid"]) if match else None


def remove_stale_partials(folder: Path) -> list[Path]:
    """Remove the partial files in `folder` whose writing process has gone.

    Only regular files named as `partial_path` names them are touched; one that cannot be
    removed (another user's, say) is left as it is.

    Parameters
    ----------
    folder
        The folder about to be written in.

    Returns
    -------
    list of Path
        The files removed.
    """
    if not posix.available():  # os.kill(pid, 0) would terminate the process on Windows
        return []
    removed = []
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            pid = writer_of(entry.name)
            if pid is None or _is_running(pid) or not _is_regular(entry):
                continue
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    return removed


def _is_running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)  # signal 0 only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, and belongs to someone else
        return True
    except (OverflowError, ValueError):  # no process can have that number
        return False
    except OSError:
        return True  # cannot tell: keep the file
    return pid > 0  # 0 would have asked about our own process group


def _is_regular(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file(follow_symlinks=False)
    except OSError:
        return False
