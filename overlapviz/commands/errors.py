"""How a command fails: the exit codes, the one error a command raises, and the one line it prints."""

from __future__ import annotations

import sys

from overlapviz.core.i18n import _

PROG = "overlapviz"
EXIT_FAILED = 1  # the input was fine, the run was not
EXIT_USAGE = 2  # the input was wrong


class UsageError(Exception):
    """The command line is wrong; the message says how."""


def fail(message: str, code: int) -> int:
    """Print ``overlapviz: error: MESSAGE`` as one line on stderr; returns `code`, the exit code."""
    line = _("{program}: error: {message}").format(program=PROG, message=" ".join(message.split()))
    print(line, file=sys.stderr)
    return code
