"""Atomic file writes: a reader sees the old file or the whole new one, never half a file.

The data goes to a partial file in the destination's folder (so the final rename stays on one
file system, see `core.files.partial_files`), is flushed to disk, then renamed over the destination
with `os.replace`. Only a regular file, or nothing, is ever replaced: a symbolic link is
written through to the file it names and stays a link, and a folder, named pipe, device or
socket at the destination is refused (`core.files.write_destination`). A file that is replaced keeps its
permission bits (and, when root writes it, its owner), as ``cp`` would leave them; being a
new file, it no longer shares content with other hard links to the old one.

Inside `written_together`, the renames wait for the end of the block, so the files written
there appear together: all of them or, when anything in the block fails, none. Any failure
removes the partial files and raises `OSError` naming the destination.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from overlapviz.core.files import posix
from overlapviz.core.files.partial_files import partial_path, remove_stale_partials
from overlapviz.core.files.write_destination import DestinationError, resolve_destination
from overlapviz.core.i18n import _


@dataclass(frozen=True, slots=True)
class _Staged:
    """A finished partial file waiting to be renamed over its target."""

    given: Path  # the path the caller named, for messages and the re-check
    target: Path  # the file it replaces: `given`, or the end of its links
    partial: Path


@dataclass(slots=True)
class _WriteSet:
    staged: list[_Staged] = field(default_factory=list)


_OPEN_SET: ContextVar[_WriteSet | None] = ContextVar("overlapviz_open_write_set", default=None)


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write `data` to `path` atomically.

    Parameters
    ----------
    path
        The file to create or replace; a symbolic link is written through.
    data
        Its complete new contents.

    Raises
    ------
    DestinationError
        There is something other than a regular file at `path` (see `core.files.write_destination`).
    OSError
        The file could not be written (missing folder, no permission, disk full, ...); the
        error names `path`, and neither a partial file nor a temporary file is left behind.
    """
    given = Path(path)
    target = resolve_destination(given)
    remove_stale_partials(target.parent)
    staged = _Staged(given, target, _write_partial(given, target, data))
    open_set = _OPEN_SET.get()
    if open_set is not None:
        open_set.staged.append(staged)
        return
    _rename_all([staged])


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


@contextlib.contextmanager
def written_together() -> Iterator[None]:
    """Let the atomic writes made in this block (in this thread) appear together at its end.

    Each write goes to its partial file at once; the renames into place wait for the end of
    the block and then run back to back, in the order the files were written. When the block
    raises, no file is renamed and the partial files are removed: every destination keeps
    its old contents. A block inside another joins the outer one.

    Raises
    ------
    OSError
        A destination changed while the block ran, or a rename failed; the error names the
        file. When a rename fails, the files renamed before it hold their new contents.
    """
    if _OPEN_SET.get() is not None:
        yield
        return
    open_set = _WriteSet()
    token = _OPEN_SET.set(open_set)
    try:
        yield
    except BaseException:
        _discard(open_set.staged)
        raise
    finally:
        _OPEN_SET.reset(token)
    _rename_all(open_set.staged)


def _rename_all(staged: list[_Staged]) -> None:
    """Check every destination again, then rename each partial file over its target."""
    try:
        for each in staged:
            if resolve_destination(each.given) != each.target:
                raise DestinationError(None, _("it was replaced by a link while being written"), str(each.given))
    except OSError:
        _discard(staged)
        raise
    for done, each in enumerate(staged):
        try:
            os.replace(each.partial, each.target)
        except OSError as error:
            _discard(staged[done:])
            raise _naming(error, each.given) from error
    for folder in dict.fromkeys(each.target.parent for each in staged):
        _sync_folder(folder)


def _write_partial(given: Path, target: Path, data: bytes) -> Path:
    """Write `data` to a fresh partial file beside `target` and flush it to disk."""
    # O_EXCL with a random name instead of tempfile.mkstemp: mkstemp creates the file 0600,
    # while this lets the usual umask decide a new file's permissions.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    while True:
        partial = partial_path(target)
        try:
            fd = os.open(partial, flags, 0o666)
            break
        except FileExistsError:
            continue
        except OSError as error:
            raise _naming(error, given) from error
    try:
        with os.fdopen(fd, "wb") as handle:
            _keep_mode_of(target, handle.fileno())
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException as error:
        _remove_quietly(partial)
        if isinstance(error, OSError):
            raise _naming(error, given) from error
        raise
    return partial


def _keep_mode_of(target: Path, fd: int) -> None:
    """Give the new file the permission bits (and, for root, the owner) of the file it replaces."""
    try:
        old = os.stat(target)
    except OSError:
        return  # a new file: the umask decides
    if not stat.S_ISREG(old.st_mode):
        return
    if not posix.available():
        return
    os.fchmod(fd, stat.S_IMODE(old.st_mode) & 0o777)
    if os.geteuid() == 0:
        with contextlib.suppress(OSError):
            os.fchown(fd, old.st_uid, old.st_gid)


def _discard(staged: list[_Staged]) -> None:
    for each in staged:
        _remove_quietly(each.partial)


def _naming(error: OSError, target: Path) -> OSError:
    """Rebuild `error` so that it names the file that could not be written.

    ``OSError(errno, ...)`` picks the matching subclass (FileNotFoundError, PermissionError).
    """
    if isinstance(error, DestinationError):
        return error
    if error.errno is None:
        return OSError(_("cannot write {file}: {why}").format(file=target, why=error))
    return OSError(error.errno, error.strerror or os.strerror(error.errno), str(target))


def _remove_quietly(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable where the platform allows it (POSIX)."""
    if not posix.available():
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
