"""Why a file or a folder could not be read or written, in the window's words.

The reason itself mostly comes from the Qt-free code (`app.file_problems`, which speaks
through gettext); what only the window knows of (a child process that ended without an
answer, an error nobody expected) is worded here.
"""

from __future__ import annotations

from pathlib import Path

from overlapviz._qt.export.image_export import ExportError
from overlapviz._qt.files.child_process import ChildStoppedError
from overlapviz._qt.translation import translate
from overlapviz.app.file_problems import problem_of

FILE_ERRORS = (OSError, ValueError, ExportError)  # a bad file, a bad value in it, or a picture that failed


def problem_words(error: BaseException, path: Path | None) -> str:
    """The reason `error` gives, without the path of the file it is about (None: the message whole)."""
    if isinstance(error, ChildStoppedError):
        if error.exit_code is None:
            return translate("ProblemWords", "the process doing it stopped part way through")
        said = translate("ProblemWords", "the process doing it stopped without an answer (exit code {code})")
        return said.format(code=error.exit_code)
    if not isinstance(error, FILE_ERRORS):
        said = translate("ProblemWords", "unexpected {error_type}: {error}")
        return said.format(error_type=type(error).__name__, error=error)
    return str(error) if path is None else problem_of(error, path)
