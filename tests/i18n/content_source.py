"""The teaching content's extractor (tools/content_messages.py) and its zh_CN catalogue, for the content tests."""

import gettext
import importlib.util
from pathlib import Path
from types import ModuleType

from overlapviz.core.i18n.language import CONTENT_DOMAIN, LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]


def extractor() -> ModuleType:
    """tools/content_messages.py, imported by its path (tools/ is no package)."""
    spec = importlib.util.spec_from_file_location("content_messages", ROOT / "tools" / "content_messages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
