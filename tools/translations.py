"""Extract, update and compile overlapviz's gettext catalogues (``make translations``).

Babel, a development dependency, does the work: it reads every marked sentence of the
Qt-free code (the Qt side has its own .ts files) into ``overlapviz.pot``, merges that into
each language's ``.po`` and compiles the ``.mo`` files that ship with the package. The
compiled files are committed; ``tests/i18n`` checks they match their sources.

    python tools/translations.py                 extract, update every .po, compile
    python tools/translations.py --init fr       start a catalogue for French
    python tools/translations.py --compile-only  compile the .po files as they are
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "overlapviz" / "core" / "i18n" / "locale"
TEMPLATE = LOCALE / "overlapviz.pot"
DOMAIN = "overlapviz"
# The marking functions of overlapviz.core.i18n beside Babel's defaults (_, N_, ngettext, pgettext).
KEYWORDS = ("ncount:1,2",)
# Qt's widgets speak through Qt's own translations (tr(), .ts): their files are not extracted here.
IGNORED = ("overlapviz/_qt/*",)


def pybabel(*arguments: str) -> None:
    """Run one ``pybabel`` command in this process."""
    CommandLineInterface().run(["pybabel", "-q", *arguments])


def extract() -> None:
    """Write every marked sentence of the package into the template."""
    keywords = [argument for keyword in KEYWORDS for argument in ("-k", keyword)]
    ignored = [argument for pattern in IGNORED for argument in ("--ignore-dirs", pattern.split("/")[1])]
    pybabel(
        "extract", *keywords, *ignored, "--no-location", "--sort-output", "--add-comments", "Translators:",
        "--project", "overlapviz", "--omit-header", "-o", str(TEMPLATE), str(ROOT / "overlapviz"),
    )


def main(argv: list[str] | None = None) -> int:
    """Run the steps the arguments ask for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--init", metavar="LANG", help="start the catalogue of LANG (e.g. fr, pt_BR) from the template")
    parser.add_argument("--compile-only", action="store_true", help="only compile the .po files into .mo files")
    args = parser.parse_args(argv)
    if not args.compile_only:
        extract()
        if args.init:
            pybabel("init", "-D", DOMAIN, "-i", str(TEMPLATE), "-d", str(LOCALE), "-l", args.init)
        pybabel("update", "-D", DOMAIN, "-i", str(TEMPLATE), "-d", str(LOCALE), "--no-wrap", "--ignore-obsolete")
    pybabel("compile", "-D", DOMAIN, "-d", str(LOCALE), "--statistics")
    return 0


if __name__ == "__main__":
    sys.exit(main())
