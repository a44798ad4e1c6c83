"""What the file system says about a path, in words fit for a one-line message.

Readers and writers of user files refuse anything but a regular file; `kind_of` names what
was found instead, and `name_limit` tells how long a name one folder accepts.
"""

from __future__ import annotations

import os
import stat

from overlapviz.core.i18n import N_, _

DEFAULT_NAME_LIMIT = 255  # NAME_MAX on Linux, macOS and the BSDs, in bytes
# The words of a file's problem, said with `_` where a message is made of them
REGULAR_ONLY = N_("overlapviz reads and writes regular files only")
NUL_IN_NAME = N_("the name holds a NUL character, which no file name can")

_KINDS = (
    (stat.S_ISREG, N_("a regular file")),
    (stat.S_ISDIR, N_("a folder")),
    (stat.S_ISLNK, N_("a symbolic link")),
    (stat.S_ISFIFO, N_("a named pipe (FIFO)")),
    (stat.S_ISCHR, N_("a character device")),
    (stat.S_ISBLK, N_("a block device")),
    (stat.S_ISSOCK, N_("a socket")),
)
_SPECIAL_FILE = N_("a special file")  # a kind this platform has beyond those


def kind_of(mode: int) -> str:
    """Name the kind of file `mode` (an ``st_mode``) describes, with its article, in the active language.

    Parameters
    ----------
    mode
        ``os.stat_result.st_mode``.

    Returns
    -------
    str
        ``"a regular file"``, ``"a folder"``, ``"a named pipe (FIFO)"``, ``"a character
        device"``, ... or ``"a special file"`` for kinds this platform has beyond those.
    """
    return _(next((words for test, words in _KINDS if test(mode)), _SPECIAL_FILE))


def name_limit(folder: str | os.PathLike[str]) -> int:
    """Return the longest file name, in bytes, that `folder`'s file system accepts.

    Parameters
    ----------
    folder
        An existing folder; for one that does not exist (or a platform that cannot say),
        the common limit of 255 bytes.

    Returns
    -------
    int
        The limit on one path component (``NAME_MAX``), not on the whole path.
    """
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):  # no such folder; no pathconf (Windows)
        return DEFAULT_NAME_LIMIT


def name_length(name: str) -> int:
    """Return the length of `name` as the file system counts it: bytes, not characters."""
    return len(os.fsencode(name))
