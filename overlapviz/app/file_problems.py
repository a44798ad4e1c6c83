"""Why a file could not be opened or written, in words that do not name the file again.

The errors of `core` name the file they are about (``cannot read session /tmp/x.json: it is a
folder``), which suits the command line. The window already says which file in its own words
(``Could not open x.json: ...``), so here the reason is taken on its own. Pure: no Qt here.
"""

from __future__ import annotations

import os


def problem_of(error: BaseException, path: str | os.PathLike[str]) -> str:
    """The reason in `error`, without the path of the file it is about.

    An `OSError` that knows its file gives its reason alone; any other message loses what
    comes before the path and the path itself (``cannot write /x/y.png: ...``, ``/x/y.json:
    ...``).
    """
    if isinstance(error, OSError) and error.strerror and error.filename is not None:
        return str(error.strerror)
    text = str(error)
    marker = f"{os.fspath(path)}: "
    if marker in text:
        text = text.split(marker, 1)[1]
    return text or type(error).__name__
