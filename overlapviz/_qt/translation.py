"""The window's words in the user's language: Qt's translator for the widgets, gettext's language for the rest.

Every user-visible string of the Qt code is written ``translate("Context", "text")``; the
name is the one ``pyside6-lupdate`` looks for, so ``make translations`` extracts each into
``i18n/overlapviz_<language>.ts`` and compiles the ``.qm`` that ships beside it. The text the
window shows from the Qt-free code (findings, figures, lessons) speaks through gettext, so
both are switched together, here, before the window is built.

Which language: one asked for on the command line (``overlapviz --lang zh_CN``), else the one
chosen in View ▸ Language (kept in the settings), else the system's locale. A choice made in
the menu applies at the next start: every widget reads its words once, when it is built.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QSettings, QTranslator

from overlapviz.core.i18n import DEFAULT_LANGUAGE, available_languages, set_language
from overlapviz.resources import ui_path

LANGUAGE_KEY = "view/language"
SYSTEM_LANGUAGE = ""  # the settings' value for "follow the system's locale"
QM_DIR = Path(__file__).resolve().parent / "i18n"
QM_PREFIX = "overlapviz_"
# Qt's own words (the buttons of its file and message dialogs) come with PySide6
QT_CATALOGUE = "qtbase_"
# a menu entry's keyboard mnemonic: "&Open" in English, "打开(&O)" in Chinese ("&&" is a plain "&")
MNEMONIC = re.compile(r"\(&[^&\s]\)|&(?=[^&])")


def translate(context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """`text` in the window's language; `context` is the part of the window it belongs to.

    ``n`` picks the plural form of a ``%n`` in `text` (Qt's numerus forms).
    """
    return QCoreApplication.translate(context, text, disambiguation, n)


def without_mnemonic(text: str) -> str:
    """A menu entry's text as a sentence or a tooltip names it: "&Replay" is "Replay", "重放(&R)" is "重放"."""
    return MNEMONIC.sub("", text).replace("&&", "&")


def chosen_language(settings: QSettings) -> str:
    """The language chosen in View ▸ Language, or `SYSTEM_LANGUAGE` when none (or one no longer shipped)."""
    value = settings.value(LANGUAGE_KEY, SYSTEM_LANGUAGE)
    code = value if isinstance(value, str) else SYSTEM_LANGUAGE
    return code if code in available_languages() else SYSTEM_LANGUAGE


def choose_language(settings: QSettings, code: str) -> None:
    """Remember `code` (or `SYSTEM_LANGUAGE`) for the next start."""
    settings.setValue(LANGUAGE_KEY, code)


def start_language(settings: QSettings, asked: str | None = None) -> str:
    """Make the window's language the active one, Qt's and gettext's alike; returns its code.

    `asked` is a language named on the command line; it outranks the remembered choice.
    """
    chosen = chosen_language(settings)
    if asked:
        code = set_language(asked)  # an unknown one raises UnknownLanguageError, naming those there are
    elif chosen != SYSTEM_LANGUAGE:
        code = set_language(chosen)
    else:
        code = set_language()
    install_translators(code)
    return code


_INSTALLED: list[QTranslator] = []  # kept alive while installed: Qt does not own them


def install_translators(code: str) -> None:
    """Load `code`'s catalogues into the running application (English: none, the sources' own words)."""
    app = QCoreApplication.instance()
    if app is None:
        raise RuntimeError("install_translators needs a running QApplication")
    while _INSTALLED:
        app.removeTranslator(_INSTALLED.pop())
    QLocale.setDefault(QLocale(code))
    if code == DEFAULT_LANGUAGE:
        return
    ours = QTranslator()
    if not ours.load(str(qm_path(code))):
        raise FileNotFoundError(f"the window's catalogue for {code} is missing: {qm_path(code)}")
    app.installTranslator(ours)
    _INSTALLED.append(ours)
    qt_own = QTranslator()
    # Qt's own buttons stay English where PySide6 lacks them: no error of the user's
    if qt_own.load(QT_CATALOGUE + code, QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt_own)
        _INSTALLED.append(qt_own)


def qm_path(code: str) -> Path:
    """The compiled catalogue of the window's words in `code`."""
    return QM_DIR / f"{QM_PREFIX}{code}.qm"


def translated_sources() -> list[Path]:
    """Where the window's words are written: the Qt code, and the Designer forms that `QUiLoader` translates.

    A form's strings are looked up in the context of its top widget's class (``ExportDialog``).
    """
    return sorted([*Path(__file__).resolve().parent.rglob("*.py"), *ui_path("").glob("*.ui")])


def ts_path(code: str) -> Path:
    """The translators' source of `code`'s catalogue, which ``make translations`` compiles."""
    return QM_DIR / f"{QM_PREFIX}{code}.ts"
