"""Atomic file writes: a reader sees the old file or the whole new one, never half a file.

The data goes to a temporary file in the target's folder (so the final rename stays on one
file system), is flushed to disk, then renamed over the target with `os.replace`. Any failure
removes the temporary file and raises `OSError` naming the target path.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

_TEMP_SUFFIX = ".tmp"


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write `data` to `path` atomically.

    Parameters
    ----------
    path
        The file to create or replace.
    data
        Its complete new contents.

    Raises
    ------
    OSError
        The file could not be written (missing folder, no permission, disk full, ...); the
        error names `path`, and neither a partial file nor a temporary file is left behind.
    """
    target = Path(path)
    try:
        temp = _write_temp(target, data)
    except OSError as error:
        raise _naming(error, target) from error
    try:
        os.replace(temp, target)
    except OSError as error:
        _remove_quietly(temp)
        raise _naming(error, target) from error
    _sync_folder(target.parent)


def atomic_write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """Write `text` to `path` atomically (see `atomic_write_bytes`).

    Parameters
    ----------
    path
        The file to create or replace.
    text
        Its complete new contents; line endings are written as given.
    encoding
        The text encoding.
    """
    atomic_write_bytes(path, text.encode(encoding))


def _write_temp(target: Path, data: bytes) -> Path:
    """Write `data` to a fresh temporary file beside `target` and flush it to disk."""
    # O_EXCL with a random name instead of tempfile.mkstemp: mkstemp creates the file 0600,
    # while this lets the usual umask decide the final file's permissions.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        temp = target.with_name(f".{target.name}.{secrets.token_hex(6)}{_TEMP_SUFFIX}")
        try:
            fd = os.open(temp, flags, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        _remove_quietly(temp)
        raise
    return temp


def _naming(error: OSError, target: Path) -> OSError:
    """Rebuild `error` so that it names the file that could not be written.

    ``OSError(errno, ...)`` picks the matching subclass (FileNotFoundError, PermissionError).
    """
    if error.errno is None:
        return OSError(f"cannot write {target}: {error}")
    return OSError(error.errno, error.strerror or os.strerror(error.errno), str(target))


def _remove_quietly(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable where the platform allows it (POSIX)."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
