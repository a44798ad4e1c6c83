"""The zh_CN glossary names the window's controls as the translated window shows them.

"控制面板 ▸ 主机内存 ▸ 页锁定" must lead a learner to a group called 主机内存 and a button called
页锁定: each name after the panel's is a word the window's catalogue (or the program's) shows.
"""

import gettext
import re
import xml.etree.ElementTree as ElementTree

from overlapviz._qt.translation import ts_path, without_mnemonic
from overlapviz.core.i18n.language import CONTENT_DOMAIN, DOMAIN, LOCALE_DIR

PATH = re.compile(r"(?:控制面板|指标面板)((?: ▸ [^；，。▸（、和]+)+)")  # a name ends at punctuation or 和 (and)


def window_words() -> set[str]:
    """Every translation the window can show: its own catalogue's and the program's."""
    words = set()
    for message in ElementTree.parse(ts_path("zh_CN")).getroot().iter("message"):
        translation = message.find("translation")
        texts = [form.text for form in translation.iter("numerusform")] or [translation.text]
        words |= {without_mnemonic(text).rstrip("\u2026") for text in texts if text}
    program = gettext.translation(DOMAIN, LOCALE_DIR, languages=["zh_CN"])
    words |= {text for text in program._catalog.values() if isinstance(text, str)}  # type: ignore[attr-defined]
    return words


def glossary_paths() -> list[list[str]]:
    """The names of every "panel ▸ name ▸ name" the zh_CN teaching content gives."""
    content = gettext.translation(CONTENT_DOMAIN, LOCALE_DIR, languages=["zh_CN"])
    found = []
    for text in content._catalog.values():  # type: ignore[attr-defined]
        if isinstance(text, str):
            found += [[name.strip() for name in match.split(" ▸ ") if name.strip()] for match in PATH.findall(text)]
    return found


def test_the_glossary_names_only_what_the_window_shows():
    paths = glossary_paths()
    assert len(paths) > 15  # the glossary's "where" lines and the lessons' pointers
    words = window_words()
    unknown = sorted({name for path in paths for name in path if name not in words})
    assert unknown == [], f"named in the zh_CN content but shown nowhere in the window: {unknown}"
