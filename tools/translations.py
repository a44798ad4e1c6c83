"""Extract, update and compile overlapviz's gettext catalogues (``make translations``).

Babel, a development dependency, does the work: it reads every marked sentence of the
Qt-free code (the Qt side has its own .ts files) into ``overlapviz.pot``, and the teaching
content (the lessons' and exercises' TOML files, the glossary; ``tools/content_messages.py``)
into ``overlapviz-content.pot``, merges each into every language's ``.po`` of its domain and
compiles the ``.mo`` files that ship with the package. The window's words are Qt's:
``pyside6-lupdate`` reads every ``translate(context, text)`` of ``overlapviz/_qt`` and every
text of the Designer forms in ``ui/`` into each
language's ``overlapviz/_qt/i18n/overlapviz_<lang>.ts`` (keeping what is translated already),
and ``pyside6-lrelease`` compiles it into the ``.qm`` the app loads. The compiled files are
committed; ``tests/i18n`` checks they match their sources.

    python tools/translations.py                 extract, update every .po, compile
    python tools/translations.py --init fr       start French's catalogues (those it lacks)
    python tools/translations.py --compile-only  compile the .po and .ts files as they are
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from content_messages import content_messages

from overlapviz._qt.translation import QM_DIR, translated_sources, ts_path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "overlapviz" / "core" / "i18n" / "locale"
TEMPLATE = LOCALE / "overlapviz.pot"
DOMAIN = "overlapviz"
CONTENT_DOMAIN = "overlapviz-content"
CONTENT_TEMPLATE = LOCALE / f"{CONTENT_DOMAIN}.pot"
TEMPLATES = {DOMAIN: TEMPLATE, CONTENT_DOMAIN: CONTENT_TEMPLATE}
# The marking functions of overlapviz.core.i18n beside Babel's defaults (_, N_, ngettext, pgettext).
KEYWORDS = ("ncount:1,2",)
# Qt's widgets speak through Qt's own translations (translate(), .ts): gettext does not extract them.
IGNORED = ("overlapviz/_qt/*",)
QT_TOOLS = Path(sys.executable).parent  # pyside6-lupdate and pyside6-lrelease come with PySide6


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


def extract_content() -> None:
    """Write the lessons', exercises' and glossary's words into the content template."""
    catalogue = Catalog(project="overlapviz")
    for _lineno, _function, text, comments in content_messages():
        # a text found in two places is one entry that names both
        catalogue.add(text, auto_comments=comments)
    with CONTENT_TEMPLATE.open("wb") as template:
        write_po(template, catalogue, omit_header=True, sort_output=True)


def compile_content() -> None:
    """Compile every language's content catalogue.

    Not with ``pybabel compile``: its python-format check reads the "75 % of" of a lesson's
    prose as a placeholder its translation lost, and the content is never %-formatted.
    """
    for po in sorted(LOCALE.glob(f"*/LC_MESSAGES/{CONTENT_DOMAIN}.po")):
        with po.open("rb") as source:
            catalogue = read_po(source)
        with po.with_suffix(".mo").open("wb") as compiled:
            write_mo(compiled, catalogue)
        done = sum(1 for message in catalogue if message.id and message.string)
        print(f"{po.relative_to(ROOT)}: {done} of {len(catalogue)} messages translated")


def start_missing_catalogues(language: str) -> None:
    """Start `language`'s catalogue of each domain it has none of yet, leaving those it has."""
    for domain, template in TEMPLATES.items():
        if not (LOCALE / language / "LC_MESSAGES" / f"{domain}.po").exists():
            pybabel("init", "-D", domain, "-i", str(template), "-d", str(LOCALE), "-l", language)


def update_qt(language: str | None = None) -> None:
    """Read every marked string of the window into each language's .ts (and start `language`'s)."""
    sources = [str(path) for path in translated_sources()]
    catalogues = sorted(QM_DIR.glob("overlapviz_*.ts"))
    if language and ts_path(language) not in catalogues:
        catalogues.append(ts_path(language))
    for catalogue in catalogues:
        code = catalogue.stem.removeprefix("overlapviz_")
        subprocess.run(
            [str(QT_TOOLS / "pyside6-lupdate"), "-silent", "-no-obsolete", "-locations", "none",
             "-target-language", code, *sources, "-ts", str(catalogue)],
            check=True,
        )  # fmt: skip


def compile_qt() -> None:
    """Compile each language's .ts into the .qm the app loads, saying how much is translated."""
    for catalogue in sorted(QM_DIR.glob("overlapviz_*.ts")):
        subprocess.run(
            [str(QT_TOOLS / "pyside6-lrelease"), "-silent", "-nounfinished", str(catalogue),
             "-qm", str(catalogue.with_suffix(".qm"))],
            check=True,
        )  # fmt: skip
        text = catalogue.read_text(encoding="utf-8")
        unfinished = text.count('type="unfinished"')
        print(f"{catalogue.relative_to(ROOT)}: {text.count('<message')} messages, {unfinished} unfinished")


def main(argv: list[str] | None = None) -> int:
    """Run the steps the arguments ask for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--init", metavar="LANG", help="start the catalogues LANG (e.g. fr) lacks")
    parser.add_argument("--compile-only", action="store_true", help="only compile the .po and .ts files")
    args = parser.parse_args(argv)
    if not args.compile_only:
        extract()
        extract_content()
        if args.init:
            start_missing_catalogues(args.init)
        for domain, template in TEMPLATES.items():
            pybabel("update", "-D", domain, "-i", str(template), "-d", str(LOCALE), "--no-wrap", "--ignore-obsolete")
        update_qt(args.init)
    pybabel("compile", "-D", DOMAIN, "-d", str(LOCALE), "--statistics")
    compile_content()
    compile_qt()
    return 0


if __name__ == "__main__":
    sys.exit(main())
