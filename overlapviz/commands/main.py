"""``overlapviz``: the parser of every subcommand, and `main`, which runs the one asked for.

The console script and ``python -m overlapviz`` both call `main`; it turns every failure
into one line and an exit code (`overlapviz.commands.errors`), never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from overlapviz import __version__
from overlapviz.commands.analyze import add_analyze
from overlapviz.commands.app import app_command, file_to_open, open_in_app
from overlapviz.commands.bandwidth import add_bandwidth
from overlapviz.commands.calibrate import add_calibrate
from overlapviz.commands.devices import add_devices
from overlapviz.commands.errors import EXIT_FAILED, EXIT_USAGE, PROG, UsageError, fail
from overlapviz.commands.exercises import add_exercises
from overlapviz.commands.presets import add_presets
from overlapviz.commands.profile import add_profile
from overlapviz.commands.render import add_render
from overlapviz.commands.run import add_run
from overlapviz.commands.serve import add_serve
from overlapviz.commands.worker import add_worker
from overlapviz.core.config import ConfigError
from overlapviz.core.i18n import UnknownLanguageError, _, available_languages, set_language
from overlapviz.core.run_errors import BackendError
from overlapviz.desktop_entry import install_desktop_entry
from overlapviz.presets import PresetError
from overlapviz.run_report import labelled
from overlapviz.session import UnknownDeviceError

Command = Callable[[argparse.Namespace], int]
SUBCOMMANDS = (
    add_run, add_analyze, add_profile, add_render, add_bandwidth, add_devices, add_presets, add_calibrate,
    add_exercises, add_serve, add_worker,
)  # fmt: skip


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (argparse prints the usage too)."""

    def error(self, message: str) -> NoReturn:
        """Raise instead of printing usage and exiting."""
        raise UsageError(message)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code.

    Parameters
    ----------
    argv
        The arguments after the program name; None for ``sys.argv[1:]``.

    Returns
    -------
    int
        0 on success, 1 when a run failed, 2 for bad arguments.
    """
    never_fail_to_print()
    set_language()  # the environment's, until --lang says otherwise
    _early_language(sys.argv[1:] if argv is None else argv)
    try:
        args = _parse(argv)
        if getattr(args, "lang", None):
            set_language(args.lang)
        command: Command = args.command
        return command(args)
    except SystemExit as done:  # --help and --version
        return done.code if isinstance(done.code, int) else 0
    except (UsageError, ConfigError, PresetError, UnknownDeviceError, UnknownLanguageError) as error:
        return fail(str(error), EXIT_USAGE)
    except BackendError as error:
        return fail(str(error), EXIT_FAILED)
    except KeyboardInterrupt:
        return fail(_("interrupted"), 130)
    except BrokenPipeError:  # the reader went away (`overlapviz run | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILED


def _early_language(argv: Sequence[str]) -> None:
    """Speak --lang's language before parsing: --help prints the options' help while the parser reads them."""
    argv = list(argv[: list(argv).index("--")] if "--" in argv else argv)  # a script's own arguments are not ours
    for flag, value in zip(argv, [*argv[1:], ""], strict=False):  # the last flag's value: ""
        code = value if flag == "--lang" else flag.removeprefix("--lang=") if flag.startswith("--lang=") else None
        if code:
            with contextlib.suppress(UnknownLanguageError):  # parsing names it, in the environment's language
                set_language(code)


def never_fail_to_print() -> None:
    r"""Write what the terminal's encoding cannot hold escaped (``\ud800``), never stopping on it.

    Text from a file (a device, kernel or file name) may hold a lone surrogate, which no
    encoding writes, and any name may hold letters that an ASCII terminal (``LANG=C``) lacks.
    """
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


class _InstallDesktop(argparse.Action):
    """``--install-desktop``: write the desktop entry (`desktop_entry`), say where, and stop, as --version does."""

    def __call__(self, parser: argparse.ArgumentParser, *_values: object) -> NoReturn:
        try:
            path = install_desktop_entry()
        except OSError as error:
            raise UsageError(_("--install-desktop: {error}").format(error=error)) from None
        print(labelled(_("wrote"), "{path}", path=str(path)))
        raise SystemExit(0)


def build_parser() -> argparse.ArgumentParser:
    """Build the parser with every subcommand."""
    parser = _Parser(
        prog=PROG,
        description=_(
            "See where asynchronous GPU copies and kernels overlap. With no command, start the app; with a file"
            " (overlapviz FILE), start it on that file."
        ),
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.add_argument("--install-desktop", action=_InstallDesktop, nargs=0,
                        help=_("add the app to the desktop's menu and to its 'Open with' for traces, then exit"))
    parser.set_defaults(command=app_command)
    add_lang(parser)
    commands = parser.add_subparsers(title=_("commands"), metavar="COMMAND")
    for add in SUBCOMMANDS:
        add(commands)
    for subparser in _every_subparser(commands):
        add_lang(subparser)
    return parser


def _every_subparser(commands: argparse._SubParsersAction[Any]) -> list[argparse.ArgumentParser]:
    """Each command's parser and those of its own commands (``exercise show``), to the bottom."""
    found = []
    for parser in commands.choices.values():
        found.append(parser)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                found.extend(_every_subparser(action))
    return found


def add_lang(parser: argparse.ArgumentParser) -> None:
    """``--lang LANG``, before or after the command; a subcommand's absent --lang leaves the main one's."""
    languages = ", ".join(available_languages())
    parser.add_argument("--lang", metavar="LANG", default=argparse.SUPPRESS,
                        help=_("the language of the findings and summaries ({languages}); default: LC_ALL,"
                               " LC_MESSAGES or LANG, else en").format(languages=languages))


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The arguments; ``overlapviz FILE``, as a desktop launcher gives it, is the app opening FILE."""
    try:
        return build_parser().parse_args(argv)
    except UsageError:
        path = file_to_open(sys.argv[1:] if argv is None else argv)
        if path is None:
            raise
        refused = _("{path} cannot be opened").format(path=path)
        return argparse.Namespace(command=lambda _args: open_in_app(path, refused))
