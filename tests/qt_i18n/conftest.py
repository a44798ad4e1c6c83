"""The window in Simplified Chinese: Qt's catalogue and gettext's switched together for a test, English after it.

The language is process-wide (Qt's installed translators, gettext's active catalogue), so every
fixture that starts Chinese ends in English for the tests after. A test is skipped, saying why,
where the compiled catalogue is not built (``make translations``), and, where it measures
text, where no font has Chinese glyphs (``fonts-noto-cjk``).
"""

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QApplication

from overlapviz._qt.translation import install_translators, qm_path
from overlapviz.core.i18n import DEFAULT_LANGUAGE, set_language
from tests.qt_settings import settings_in_tmp  # noqa: F401 (a fixture: Qt's settings under tmp)

CHINESE = "zh_CN"


@pytest.fixture
def zh_cn(qapp: QApplication) -> Iterator[None]:
    """The window's words and gettext's in zh_CN for the test, English after it."""
    if not qm_path(CHINESE).is_file():
        pytest.skip(f"the window's zh_CN catalogue {qm_path(CHINESE).name} is not compiled (make translations)")
    set_language(CHINESE)
    install_translators(CHINESE)
    try:
        yield
    finally:
        set_language(DEFAULT_LANGUAGE)
        install_translators(DEFAULT_LANGUAGE)


@pytest.fixture
def zh_cn_font(zh_cn: None) -> None:
    """`zh_cn`, where a font draws Chinese: text is measured as a Chinese user sees it."""
    if not QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese):
        pytest.skip("no font with Chinese glyphs is installed (fonts-noto-cjk): Chinese text cannot be measured")
