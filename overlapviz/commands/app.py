"""The desktop app from the command line: ``overlapviz``, ``overlapviz FILE`` and ``profile --open``.

The app is imported only here, and only when it is started, so that nothing else on the
command line loads Qt. A ``--lang`` given on the command line is the window's language too.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from overlapviz.commands.errors import EXIT_FAILED, EXIT_USAGE, PROG, fail
from overlapviz.core.i18n import _

OPENED_SUFFIXES = (".json", ".gz", ".ovz", ".npz", ".sqlite", ".db")  # the files the app's File > Open offers


def file_to_open(argv: Sequence[str]) -> Path | None:
    """The file of ``overlapviz FILE``: one argument, no command's name, an existing file or a trace's name."""
    if len(argv) != 1 or argv[0].startswith("-"):
        return None
    path = Path(argv[0])
    return path if os.path.isfile(path) or path.name.lower().endswith(OPENED_SUFFIXES) else None


def open_in_app(path: Path, otherwise: str | None = None, language: str | None = None) -> int:
    """The app on `path` until its window closes (``profile --open``); 2 where no window can be shown.

    `otherwise` says what became of `path` when there is no app; `language` is the one ``--lang`` asked for.
    """
    try:
        from overlapviz._qt.app import main as app_main
    except ImportError as error:
        if otherwise:
            why = _("the desktop app is not available in this build ({error}); {otherwise}")
        else:
            why = _("--open: the desktop app is not available in this build ({error}); {path} is written")
        return fail(why.format(error=error, otherwise=otherwise, path=path), EXIT_USAGE)
    return int((app_main(path) if language is None else app_main(path, language=language)) or 0)


def app_command(args: argparse.Namespace) -> int:
    """Start the desktop app (imported only here, so nothing else on the command line loads Qt)."""
    try:
        from overlapviz._qt.app import main as app_main
    except ImportError as error:
        missing = _(
            "{program}: the desktop app is not available in this build ({error}); 'overlapviz run' works without it"
        )
        print(missing.format(program=PROG, error=error), file=sys.stderr)
        return EXIT_FAILED
    language = getattr(args, "lang", None)  # none asked for: the app's own choice, else the locale's
    return int((app_main() if language is None else app_main(language=language)) or 0)
