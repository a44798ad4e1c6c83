"""The lab GPU, rank and file parts of the window in zh_CN; English again after each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from overlapviz._qt.translation import install_translators, qm_path
from overlapviz.core.i18n import set_language


@pytest.fixture
def zh_cn(qapp: QApplication) -> Iterator[None]:
    """The window's words and gettext's in zh_CN for the test, English after it."""
    if not qm_path("zh_CN").is_file():
        pytest.skip(
            f"{qm_path('zh_CN').name} is not built yet: `make translations` compiles it once every part's "
            "translations are in the catalogue"
        )
    set_language("zh_CN")
    install_translators("zh_CN")
    yield
    set_language("en")
    install_translators("en")
