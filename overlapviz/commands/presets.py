"""``overlapviz presets``: the presets, or the lessons in their order, one per line."""

from __future__ import annotations

import argparse
from typing import Any

from overlapviz.core.i18n import _
from overlapviz.core.i18n.text_width import display_width, ljust
from overlapviz.presets import lessons, load_presets


def add_presets(commands: Any) -> None:
    """Add ``overlapviz presets``."""
    presets = commands.add_parser("presets", help=_("list the presets, one per line: name, then title"))
    presets.set_defaults(command=presets_command)
    presets.add_argument("--lessons", action="store_true",
                         help=_("list only the lessons, in their order: number, name, title"))


def presets_command(args: argparse.Namespace) -> int:
    """Print one preset per line: its name, then its title (or the lessons, numbered, in order)."""
    if args.lessons:
        ordered = lessons()
        width = max((display_width(preset.name) for preset in ordered), default=0)
        for preset in ordered:
            print(f"{preset.lesson:>2}  {ljust(preset.name, width)}  {preset.title}")
        return 0
    presets = load_presets()
    width = max((display_width(name) for name in presets), default=0)
    for name, preset in presets.items():
        print(f"{ljust(name, width)}  {preset.title}")
    return 0
