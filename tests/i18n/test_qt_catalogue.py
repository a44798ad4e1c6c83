"""The window's zh_CN catalogue: every marked string there and translated, every placeholder kept, the .qm its .ts's."""

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from overlapviz._qt.translation import qm_path, translated_sources, ts_path

QT_TOOLS = Path(sys.executable).parent
PLACEHOLDERS = re.compile(r"%(?:\d|n)|\{[A-Za-z_][A-Za-z0-9_]*\}")
MNEMONIC = re.compile(r"&[^&\s]")


def messages(catalogue: Path) -> dict[tuple[str, str], list[str]]:
    """(context, source) -> its translations (one per plural form; empty strings where none)."""
    found: dict[tuple[str, str], list[str]] = {}
    for context in ElementTree.parse(catalogue).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            assert translation is not None
            if translation.get("type") in {"vanished", "obsolete"}:
                continue
            forms = [form.text or "" for form in translation.iter("numerusform")] or [translation.text or ""]
            if translation.get("type") == "unfinished":
                forms = [""]
            found[(name, message.findtext("source") or "")] = forms
    return found


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDERS.findall(text))


@pytest.fixture(scope="module")
def zh_cn() -> dict[tuple[str, str], list[str]]:
    return messages(ts_path("zh_CN"))


def test_the_catalogue_holds_every_marked_string_of_the_window(tmp_path):
    fresh = tmp_path / "fresh.ts"
    shutil.copy(ts_path("zh_CN"), fresh)
    sources = [str(path) for path in translated_sources()]
    lupdate = [str(QT_TOOLS / "pyside6-lupdate"), "-silent", "-no-obsolete", "-locations", "none"]
    subprocess.run([*lupdate, *sources, "-ts", str(fresh)], check=True)
    assert set(messages(fresh)) == set(messages(ts_path("zh_CN"))), "run `make translations`, then translate"


def test_every_string_of_the_window_has_a_zh_cn_translation(zh_cn):
    assert len(zh_cn) > 300  # the window's menus, controls, docks and dialogs
    missing = sorted(f"{context}: {source}" for (context, source), forms in zh_cn.items() if not all(forms))
    assert missing == [], f"{len(missing)} untranslated in {ts_path('zh_CN').name}: {missing[:10]}"


def test_no_translation_loses_or_adds_a_placeholder(zh_cn):
    wrong = [
        (source, form)
        for (_context, source), forms in zh_cn.items()
        for form in forms
        if form and placeholders(form) != placeholders(source)
    ]
    assert wrong == []


def test_a_menu_entry_with_a_keyboard_mnemonic_keeps_one(zh_cn):
    lost = [
        (source, form)
        for (_context, source), forms in zh_cn.items()
        for form in forms
        if form and MNEMONIC.search(source) and not MNEMONIC.search(form)
    ]
    assert lost == []


def test_the_placeholder_check_sees_a_lost_one():
    assert placeholders("Open {path} (%1 of %n)") != placeholders("打开 (%1)")
    assert placeholders("Open {path} (%1 of %n)") == placeholders("打开 {path}（%n 中的 %1）")


def test_the_shipped_qm_is_the_compiled_ts(tmp_path):
    compiled = tmp_path / "zh_CN.qm"
    subprocess.run(
        [str(QT_TOOLS / "pyside6-lrelease"), "-silent", "-nounfinished", str(ts_path("zh_CN")), "-qm", str(compiled)],
        check=True,
    )
    assert compiled.read_bytes() == qm_path("zh_CN").read_bytes(), "run `make translations`"
