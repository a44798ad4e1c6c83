"""docs/gallery.md: a picture of every lesson, in order, each a PNG of a slide's width."""

import re
import struct
from pathlib import Path

from overlapviz.presets import lessons

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGE = DOCS / "gallery.md"
IMAGE = re.compile(r"!\[[^\]]*\]\((gallery/[^)]+\.png)\)")
MAX_TOTAL_BYTES = 6 * 1024 * 1024


def _png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", header[16:24])


def test_every_lesson_has_its_picture_in_order():
    text = PAGE.read_text(encoding="utf-8")
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings == [f"## {p.lesson}. {p.title} (`{p.name}`)" for p in lessons()]
    pictures = IMAGE.findall(text)
    assert len(pictures) == len(headings)
    for picture, preset in zip(pictures, lessons(), strict=True):
        assert preset.name in picture


def test_the_pictures_are_slide_wide_pngs_and_small_enough_to_commit():
    pictures = [DOCS / name for name in IMAGE.findall(PAGE.read_text(encoding="utf-8"))]
    for path in pictures:
        width, height = _png_size(path)
        assert 1600 <= width <= 1920 and height > 600, path
    assert sum(path.stat().st_size for path in pictures) < MAX_TOTAL_BYTES
