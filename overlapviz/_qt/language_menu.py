"""View ▸ Language: the language the window speaks from its next start, remembered in the settings.

The menu offers the system's language (the locale's, as at first start) and every language
overlapviz ships, each named in its own words, so that a user who cannot read the window's
present language still finds theirs. The choice applies at the next start (every widget reads
its words once, when it is built, `translation`); the status bar says so in the chosen
language, read from that language's own catalogue, since the translator installed now speaks
the old one.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QLocale, QObject, QSettings, QTranslator
from PySide6.QtGui import QAction, QActionGroup

from overlapviz._qt.translation import SYSTEM_LANGUAGE, choose_language, chosen_language, qm_path
from overlapviz.app.main_view import MainView
from overlapviz.core.i18n import DEFAULT_LANGUAGE, language_from_environment

# Each language named in its own words: the same in every language the window speaks
NATIVE_NAMES = {"en": "English", "zh_CN": "简体中文"}
NEXT_START = str(QT_TRANSLATE_NOOP("LanguageMenu", "The window speaks {language} from its next start."))


def native_name(code: str) -> str:
    """Language `code` in its own words (``简体中文``); Qt's name for it where the table has none."""
    return NATIVE_NAMES.get(code) or QLocale(code).nativeLanguageName() or code


def in_language(code: str, context: str, text: str) -> str:
    """`text` in language `code`, read from its catalogue whatever the window speaks now (English: `text`)."""
    if code == DEFAULT_LANGUAGE:
        return text
    catalogue = QTranslator()
    if not catalogue.load(str(qm_path(code))):
        return text
    return catalogue.translate(context, text) or text


def next_start_note(code: str) -> str:
    """What the status bar says once `code` (`SYSTEM_LANGUAGE`: the locale's) is chosen, in that language."""
    language = language_from_environment() if code == SYSTEM_LANGUAGE else code
    return in_language(language, "LanguageMenu", NEXT_START).format(language=native_name(language))


class LanguageMenu(QObject):
    """Shows the remembered language checked in `actions` (code -> action) and remembers the one chosen."""

    def __init__(
        self, actions: dict[str, QAction], settings: QSettings, view: MainView, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._actions, self._settings, self._view = actions, settings, view
        group = QActionGroup(self)
        for code, action in actions.items():
            action.setCheckable(True)
            group.addAction(action)
            action.triggered.connect(lambda _checked, c=code: self.choose(c))
        self._show(chosen_language(settings))

    def choose(self, code: str) -> None:
        """Remember `code` (`SYSTEM_LANGUAGE`: the locale's) for the next start, and say so."""
        choose_language(self._settings, code)
        self._show(code)
        self._view.show_notice(next_start_note(code))

    def forget(self) -> None:
        """Follow the system's language again (Edit ▸ Reset to defaults); said where a language was chosen."""
        if chosen_language(self._settings) != SYSTEM_LANGUAGE:
            self.choose(SYSTEM_LANGUAGE)

    def _show(self, code: str) -> None:
        self._actions[code if code in self._actions else SYSTEM_LANGUAGE].setChecked(True)
