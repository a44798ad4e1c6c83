"""The content catalogue: every lesson's, exercise's and glossary entry's words extracted and translated."""

import gettext
import importlib.util
import re
from functools import cache
from io import BytesIO
from pathlib import Path
from types import ModuleType

import pytest

from overlapviz.core.i18n.language import CONTENT_DOMAIN, LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]

PLACEHOLDER = re.compile(r"\{\w*\}|%\(\w+\)[sd]")
# What a translation keeps as the English writes it: numbers (a measured figure), CUDA names, finding codes.
KEPT = re.compile(r"\d+(?:\.\d+)?|\bcuda\w+|\b[a-z]+(?:-[a-z]+){2,}\b")


def extractor() -> ModuleType:
    """tools/content_messages.py, imported by its path (tools/ is no package)."""
    spec = importlib.util.spec_from_file_location("content_messages", ROOT / "tools" / "content_messages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def extracted() -> dict[str, list[str]]:
    """Every content message the extractor finds -> the places (file and key) it comes from."""
    found: dict[str, list[str]] = {}
    for _lineno, _function, text, comments in extractor().content_messages():
        found.setdefault(text, []).extend(comments)
    return found


def zh_cn() -> dict[str, str]:
    """msgid -> msgstr of the compiled zh_CN content catalogue."""
    translations = gettext.translation(CONTENT_DOMAIN, LOCALE_DIR, languages=["zh_CN"])
    catalogue: dict[str, str] = translations._catalog  # type: ignore[attr-defined]
    return {msgid: text for msgid, text in catalogue.items() if msgid}


def po_path() -> Path:
    return LOCALE_DIR / "zh_CN" / "LC_MESSAGES" / f"{CONTENT_DOMAIN}.po"


def test_the_extractor_finds_every_kind_of_content():
    places = " ".join(place for comments in extracted().values() for place in comments)
    for where in ("assets/presets/default.toml: title", "a.label", "assets/exercises/", "hints[0]",
                  "choices[1].text", "glossary, “Pinned memory”: what it means"):  # fmt: skip
        assert where in places


def test_every_content_message_has_a_zh_cn_translation():
    translated = zh_cn()
    missing = sorted(text for text in extracted() if not translated.get(text))
    assert missing == [], f"no zh_CN translation (run `make translations`, then translate): {missing[:3]}"


def test_the_template_holds_what_the_extractor_finds():
    babel = pytest.importorskip("babel.messages.pofile")
    with (LOCALE_DIR / f"{CONTENT_DOMAIN}.pot").open("rb") as source:
        template = {message.id for message in babel.read_po(source) if message.id}
    assert template == set(extracted()), "run `make translations`: the content changed since the last extraction"


def test_no_translation_loses_a_placeholder_a_number_or_a_cuda_name():
    wrong = [
        (msgid, sorted(set(KEPT.findall(msgid)) - set(KEPT.findall(text))))
        for msgid, text in zh_cn().items()
        if sorted(PLACEHOLDER.findall(msgid)) != sorted(PLACEHOLDER.findall(text))
        or not set(KEPT.findall(msgid)) <= set(KEPT.findall(text))
    ]
    assert wrong == []


def test_the_compiled_catalogue_is_what_its_source_compiles_to():
    babel = pytest.importorskip("babel.messages.mofile")
    from babel.messages.pofile import read_po

    with po_path().open("rb") as source:
        catalogue = read_po(source)
    compiled = BytesIO()
    babel.write_mo(compiled, catalogue)
    assert compiled.getvalue() == po_path().with_suffix(".mo").read_bytes(), "run `make translations` to compile"
