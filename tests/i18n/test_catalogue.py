"""The zh_CN catalogue: every marked sentence translated, every placeholder kept, the .mo its .po's."""

import ast
import gettext
import re
import string
from io import BytesIO
from pathlib import Path

import pytest

from overlapviz.core.i18n.language import DOMAIN, LOCALE_DIR

PACKAGE = Path(__file__).resolve().parents[2] / "overlapviz"
MARKS = {"_": 1, "N_": 1, "ngettext": 2, "ncount": 2, "pgettext": 2}  # name -> how many leading arguments are text
QT_PLACEHOLDER = re.compile(r"%\d")


def marked_sentences() -> set[tuple[str | None, str]]:
    """(context, msgid) of every marked sentence of the Qt-free package (a plural one by its singular)."""
    found: set[tuple[str | None, str]] = set()
    for path in PACKAGE.rglob("*.py"):
        if "_qt" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            texts = [getattr(arg, "value", None) for arg in node.args[: MARKS.get(name or "", 0)]]
            if texts and all(isinstance(text, str) for text in texts):
                context = texts.pop(0) if name == "pgettext" else None
                found.add((context, texts[0]))  # a plural entry is keyed by its singular
    return found


def zh_cn() -> gettext.GNUTranslations:
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=["zh_CN"])


def catalogue_entries() -> dict[tuple[str | None, str], list[str]]:
    """(context, msgid) -> its translations (one per plural form), from the compiled zh_CN catalogue."""
    entries: dict[tuple[str | None, str], list[str]] = {}
    for key, text in zh_cn()._catalog.items():  # type: ignore[attr-defined]
        msgid = key[0] if isinstance(key, tuple) else key
        if not msgid:
            continue  # the header
        context, _eot, plain = msgid.rpartition("\x04")
        entries.setdefault((context or None, plain), []).append(text)
    return entries


def fields(text: str) -> set[str]:
    named = {field for _literal, field, _spec, _conv in string.Formatter().parse(text) if field is not None}
    return named | set(QT_PLACEHOLDER.findall(text))


def test_the_source_finds_marked_sentences_to_check():
    sentences = marked_sentences()
    assert ("number symbol", ",") in sentences
    assert any("device ops" in text for _context, text in sentences)


def test_every_marked_sentence_has_a_zh_cn_translation():
    entries = catalogue_entries()
    missing = sorted(text for context, text in marked_sentences() if not any(entries.get((context, text), [])))
    assert missing == [], f"no zh_CN translation (run `make translations`, then translate): {missing[:5]}"


def test_no_translation_loses_or_adds_a_placeholder():
    wrong = [
        (msgid, text)
        for (_context, msgid), texts in catalogue_entries().items()
        for text in texts
        if fields(text) != fields(msgid)
    ]
    assert wrong == []


def test_every_placeholder_is_named():
    positional = [msgid for _context, msgid in catalogue_entries() if "" in fields(msgid)]
    assert positional == []


def test_the_compiled_catalogue_is_what_its_source_compiles_to():
    babel = pytest.importorskip("babel.messages.mofile")
    from babel.messages.pofile import read_po

    po = LOCALE_DIR / "zh_CN" / "LC_MESSAGES" / f"{DOMAIN}.po"
    with po.open("rb") as source:
        catalogue = read_po(source)
    compiled = BytesIO()
    babel.write_mo(compiled, catalogue)
    assert compiled.getvalue() == po.with_suffix(".mo").read_bytes(), "run `make translations` to compile the .po"


def template_sentences() -> set[tuple[str | None, str]]:
    """(context, msgid) of every entry of ``overlapviz.pot``, as Babel extracted them (a plural one by its singular)."""
    pofile = pytest.importorskip("babel.messages.pofile")
    with (LOCALE_DIR / f"{DOMAIN}.pot").open("rb") as source:
        template = pofile.read_po(source)
    return {(entry.context, entry.id[0] if isinstance(entry.id, tuple) else entry.id) for entry in template if entry.id}


def test_every_sentence_of_the_template_has_a_zh_cn_translation():
    entries = catalogue_entries()
    missing = sorted(text for context, text in template_sentences() if not any(entries.get((context, text), [])))
    assert missing == [], f"no zh_CN translation (translate the .po, then `make translations`): {missing[:5]}"


def test_the_template_holds_every_marked_sentence():
    stale = sorted(text for _context, text in marked_sentences() - template_sentences())
    assert stale == [], f"`make translations` was not run after these were marked: {stale[:5]}"
