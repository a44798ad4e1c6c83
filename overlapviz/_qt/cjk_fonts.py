"""Whether the window can draw its language's characters: Chinese, Japanese and Korean need a font of their own.

Qt draws a character no installed font holds as an empty box, so a window in Chinese on a
system without a CJK font is a window of boxes. Where the language needs one and Qt's font
database holds none that writes its script, the window says which package to install: that
sentence is shown in English first, since the language's own words are the boxes.
``tools/cjk_font_check.py`` says the same before ``make run`` starts the window.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtGui import QFontDatabase

from overlapviz._qt.font_packages import DEBIAN_PACKAGE, FEDORA_PACKAGE, needs_cjk_font
from overlapviz._qt.translation import translate

WritingSystem = QFontDatabase.WritingSystem
FontLookup = Callable[[WritingSystem], Sequence[str]]

# a language's region picks the script where it has two (Chinese); else the language alone does
SCRIPTS = {
    "zh_TW": WritingSystem.TraditionalChinese,
    "zh_HK": WritingSystem.TraditionalChinese,
    "zh": WritingSystem.SimplifiedChinese,
    "ja": WritingSystem.Japanese,
    "ko": WritingSystem.Korean,
}
NO_CJK_FONT = str(
    QT_TRANSLATE_NOOP(
        "CjkFonts",
        "No Chinese, Japanese or Korean font is installed, so this language's characters show as boxes."
        " Install {debian} (Debian, Ubuntu) or {fedora} (Fedora), then start overlapviz again.",
    )
)


def script_of(code: str) -> WritingSystem | None:
    """The script language `code` (``zh_CN``, ``ja``) is written in, where it needs a CJK font; else None."""
    if not needs_cjk_font(code):
        return None
    return SCRIPTS.get(code) or SCRIPTS.get(code.split("_", 1)[0].lower())


def font_families(script: WritingSystem) -> list[str]:
    """The installed font families that write `script` (Qt's font database; needs the application)."""
    return QFontDatabase.families(script)


def missing_font_note(code: str, families: FontLookup | None = None) -> str | None:
    """What to install so that language `code` can be drawn; None when it needs no CJK font or one is there.

    `families` looks up the fonts of a script (`font_families` when None: the system's).
    """
    script = script_of(code)
    if script is None or (families or font_families)(script):
        return None
    packages = {"debian": DEBIAN_PACKAGE, "fedora": FEDORA_PACKAGE}
    english = NO_CJK_FONT.format(**packages)
    local = translate("CjkFonts", NO_CJK_FONT).format(**packages)
    return english if local == english else f"{english}\n{local}"
