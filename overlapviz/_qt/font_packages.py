"""The languages whose characters need a CJK font, and the packages that install one.

Shared by the window (`cjk_fonts`) and ``tools/cjk_font_check.py``, which runs before ``make
run`` and lists CI's packages before Qt's own libraries are installed: so the standard library
only, and nothing of Qt.
"""

from __future__ import annotations

# the Noto CJK fonts hold Chinese (both scripts), Japanese and Korean alike
DEBIAN_PACKAGE = "fonts-noto-cjk"
FEDORA_PACKAGE = "google-noto-sans-cjk-fonts"
CJK_LANGUAGES = ("zh", "ja", "ko")


def needs_cjk_font(code: str) -> bool:
    """Whether language `code` (``zh_CN``, ``ja``, ``en``) is written in Chinese, Japanese or Korean characters."""
    return code.split("_", 1)[0].lower() in CJK_LANGUAGES
