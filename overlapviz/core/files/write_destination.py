"""Where a write may go: a regular file, or nothing yet, reached through any symbolic links.

A write replaces its destination by renaming a finished file over it, and a rename replaces
whatever entry is there: a named pipe, a device node, a socket, a symbolic link. So before
writing, `resolve_destination` follows symbolic links to the file they name (a link is written
through, as ``cp`` does, and stays a link) and refuses anything there that is not a regular
file. `check_destination` adds what a command line wants to know before a long run: that the
folder exists and may be written in.

A link that is not yours, in a shared folder with the sticky bit (``/tmp``), is not followed:
the kernel refuses to follow those too (``fs.protected_symlinks``), and renaming through one
would otherwise let another user aim our output at any file we may write.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from overlapviz.core.files import posix
from overlapviz.core.files.file_system import NUL_IN_NAME, REGULAR_ONLY, kind_of, name_length, name_limit
from overlapviz.core.i18n import _

MAX_LINK_HOPS = 40  # the kernel's own limit before it answers ELOOP


class DestinationError(OSError):
    """A path cannot be written; ``str()`` is ``cannot write PATH: why``.

    Built like `OSError`: ``DestinationError(errno or None, why, path)``; ``strerror`` is the
    reason alone, ``filename`` the path as given.
    """

    def __str__(self) -> str:
        return _("cannot write {file}: {why}").format(file=self.filename, why=self.strerror)


def resolve_destination(path: str | os.PathLike[str]) -> Path:
    """Return the file a write to `path` must replace: `path`, or the end of its links.

    Parameters
    ----------
    path
        Where the caller was asked to write.

    Returns
    -------
    Path
        A regular file, or a path where nothing is yet (its folder may be missing: creating
        the file then fails with the system's own error).

    Raises
    ------
    DestinationError
        There is a folder, named pipe, device, socket or other special file at `path` (or at
        the end of its links); a link points nowhere, loops, or may not be followed; a name
        is longer than its file system allows.
    """
    given = Path(path)
    current = given
    for _hop in range(MAX_LINK_HOPS + 1):
        _check_name_length(given, current)
        info = _lstat(given, current)
        if info is None:
            if current != given:
                why = _("it is a symbolic link to {target}, which does not exist").format(target=current)
                raise DestinationError(None, why, str(given))
            return current
        if stat.S_ISREG(info.st_mode):
            return current
        if not stat.S_ISLNK(info.st_mode):
            raise DestinationError(None, _not_regular(given, current, info.st_mode), str(given))
        _check_link_may_be_followed(given, current, info)
        current = current.parent / _read_link(given, current)
    why = _("it is a chain of more than {count} symbolic links, or a loop of them").format(count=MAX_LINK_HOPS)
    raise DestinationError(errno.ELOOP, why, str(given))


def check_destination(path: str | os.PathLike[str]) -> Path:
    """Check, before any work, that `path` can be written; return the file to replace.

    Parameters
    ----------
    path
        Where the caller was asked to write.

    Returns
    -------
    Path
        As `resolve_destination`.

    Raises
    ------
    DestinationError
        As `resolve_destination`, and when the folder is missing or may not be written in.
    """
    target = resolve_destination(path)
    folder = target.parent
    if not os.path.isdir(folder):
        why = _("{folder} is not a folder") if os.path.lexists(folder) else _("the folder {folder} does not exist")
        raise DestinationError(errno.ENOENT, why.format(folder=folder), str(path))
    if not os.access(folder, os.W_OK):
        raise DestinationError(errno.EACCES, _("no permission to write in {folder}").format(folder=folder), str(path))
    return target


def _lstat(given: Path, current: Path) -> os.stat_result | None:
    """The entry at `current` itself (not what it links to); None when there is none."""
    try:
        return os.lstat(current)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        raise DestinationError(error.errno, error.strerror or str(error), str(given)) from None
    except ValueError:  # the system cannot even be asked about such a name
        raise DestinationError(errno.EINVAL, _(NUL_IN_NAME), str(given)) from None


def _read_link(given: Path, link: Path) -> str:
    try:
        return os.readlink(link)
    except OSError as error:  # removed or replaced since the lstat
        raise DestinationError(error.errno, error.strerror or str(error), str(given)) from None


def _check_name_length(given: Path, current: Path) -> None:
    length, limit = name_length(current.name), name_limit(current.parent)
    if length > limit:
        if current == given:
            why = _("the name is {length} bytes long; this file system allows at most {limit}")
        else:
            why = _(
                "the name of its link target {target} is {length} bytes long; this file system allows at most {limit}"
            )
        raise DestinationError(errno.ENAMETOOLONG, why.format(target=current, length=length, limit=limit), str(given))


def _not_regular(given: Path, current: Path, mode: int) -> str:
    kind, rule = kind_of(mode), _(REGULAR_ONLY)
    if current != given:
        return _("it is a symbolic link to {target}, which is {kind}; {rule}").format(
            target=current, kind=kind, rule=rule
        )
    return _("it is a folder") if stat.S_ISDIR(mode) else _("it is {kind}; {rule}").format(kind=kind, rule=rule)


def _check_link_may_be_followed(given: Path, link: Path, info: os.stat_result) -> None:
    """Refuse a link that someone else planted in a shared sticky folder such as /tmp."""
    if not posix.available():
        return
    try:
        folder = os.stat(link.parent)
    except OSError:
        return
    shared = folder.st_mode & stat.S_ISVTX and folder.st_mode & stat.S_IWOTH
    if shared and info.st_uid not in (os.geteuid(), folder.st_uid):
        raise DestinationError(
            errno.EACCES,
            _(
                "it is a symbolic link in the shared folder {folder} that belongs to someone else; overlapviz does"
                " not write through such links"
            ).format(folder=link.parent),
            str(given),
        )
