"""Babel extraction methods for the teaching content: the lessons, the exercises, the glossary.

Their words are not marked in code: they are the TOML files of ``assets/presets`` and
``assets/exercises`` and the glossary's table of entries. Each method here has Babel's
signature (``fileobj, keywords, comment_tags, options``) and yields ``(lineno, funcname,
message, comments)``, a message being the English text exactly as the program reads it (a text
wrapped over lines as one paragraph), its comment the file and key it came from, so a
translator sees where a sentence is shown. ``tools/translations.py`` writes them into the
catalogue of domain ``overlapviz-content``; ``tests/i18n`` checks each is translated.
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
# The keys a learner reads, as dotted paths; a list on the way (hints, [[choices]]) is walked item by item.
PRESET_KEYS = ("title", "text", "a.label", "b.label", "config.label")
EXERCISE_KEYS = ("title", "question", "explanation", "hints", "choices.text")
# Where each kind of content lives, and which of its keys are words: the one list the tools and tests read.
CONTENT_FOLDERS = {"assets/presets": PRESET_KEYS, "assets/exercises": EXERCISE_KEYS}
GLOSSARY_SOURCE = "overlapviz/app/glossary.py"

Message = tuple[int, str | None, str, list[str]]


def paragraph(text: str) -> str:
    """`text` as the presets and exercises read it: a text wrapped over lines is one paragraph."""
    return " ".join(text.split())


def toml_strings(data: Mapping[str, Any], keys: Sequence[str]) -> Iterator[tuple[str, str]]:
    """(``hints[1]``, text) for every string of `data` under the dotted `keys`."""
    for key in keys:
        yield from _walk(data, key.split("."), "")


def _walk(value: object, steps: list[str], where: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, steps, f"{where}[{index}]")
    elif not steps:
        if isinstance(value, str) and value.strip():
            yield where, paragraph(value)
    elif isinstance(value, dict) and steps[0] in value:
        yield from _walk(value[steps[0]], steps[1:], f"{where}.{steps[0]}" if where else steps[0])


def extract_toml(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: Mapping[str, Any]
) -> Iterator[Message]:
    """Babel extraction method: the words of a lesson's or an exercise's TOML file.

    ``options["keys"]`` names the keys to read (`PRESET_KEYS` or `EXERCISE_KEYS`),
    ``options["source"]`` the file's path as the comment gives it.
    """
    data = tomllib.loads(fileobj.read().decode("utf-8-sig"))
    source = options.get("source", getattr(fileobj, "name", ""))
    for key, text in toml_strings(data, options["keys"]):
        yield 0, None, text, [f"{source}: {key}"]


def extract_glossary(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: Mapping[str, Any]
) -> Iterator[Message]:
    """Babel extraction method: every glossary entry's term, meaning and where the app shows it.

    The entries are composed when the module is imported (the figures' meanings come from the
    metrics' definitions), so the method imports it rather than parsing `fileobj`. A finding's
    term is its code, which stays untranslated, and is left out.
    """
    if str(ROOT) not in sys.path[:1]:
        sys.path.insert(0, str(ROOT))  # this checkout's package, whatever one is installed
    from overlapviz.app.glossary import GLOSSARY
    from overlapviz.core.findings.registry import RULES

    codes = {rule.code for rule in RULES}
    for entry in GLOSSARY:
        where = f"glossary, \u201c{entry.term}\u201d:"  # short: Babel wraps a comment over 76 columns
        if entry.term not in codes:
            yield 0, None, entry.term, [f"{where} its term"]
        yield 0, None, entry.meaning, [f"{where} what it means"]
        yield 0, None, entry.where, [f"{where} where the app shows it"]


def content_files() -> Iterator[tuple[Path, Sequence[str]]]:
    """Every lesson's and exercise's file, with the keys of it that are words."""
    for folder, keys in CONTENT_FOLDERS.items():
        for path in sorted((ROOT / folder).glob("*.toml")):
            yield path, keys


def content_messages() -> Iterator[Message]:
    """Every message of the teaching content, as the extraction methods yield them."""
    for path, keys in content_files():
        with path.open("rb") as source:
            options = {"keys": keys, "source": path.relative_to(ROOT).as_posix()}
            yield from extract_toml(source, (), (), options)
    with (ROOT / GLOSSARY_SOURCE).open("rb") as source:
        yield from extract_glossary(source, (), (), {})
