"""Whether a text the window shows is Chinese."""

import re

HAN = re.compile(r"[\u4e00-\u9fff]")  # the CJK ideographs: a text with none is not Chinese


def chinese(text: str) -> bool:
    """Whether `text` is written (at least partly) in Chinese characters."""
    return HAN.search(text) is not None
