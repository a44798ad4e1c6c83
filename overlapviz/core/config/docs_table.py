"""The rows of docs/presets.md's table of pipeline keys, written from the settings' declarations."""

from __future__ import annotations

from enum import StrEnum

from overlapviz.core.config.setting import Setting
from overlapviz.core.config.settings import SETTINGS
from overlapviz.core.config.values import format_size

HEADER = ("| key | values | default |", "|---|---|---|")


def setting_rows() -> list[str]:
    """One row per setting, in the declarations' order: its preset key, its values, its default."""
    return [table_row(f"`{s.preset_key}`", doc_text(s), doc_default(s)) for s in SETTINGS]


def table_row(*cells: str) -> str:
    """A markdown table row of `cells`."""
    return "| " + " | ".join(cells) + " |"


def doc_text(setting: Setting[object]) -> str:
    """What values `setting` takes, as the docs say it: its range and choices filled in."""
    choices = ", ".join(f"`{value}`" for value in setting.choices()) if issubclass(setting.kind, StrEnum) else ""
    return setting.doc.format(range=f"{setting.low} to {setting.high}", choices=choices)


def doc_default(setting: Setting[object]) -> str:
    """The default as a preset writes it: a size as text, a choice or switch in TOML's words."""
    default = setting.default
    if isinstance(default, bool):
        return f"`{str(default).lower()}`"
    if isinstance(default, StrEnum):
        return f"`{default.value}`"
    if setting.is_size:
        return '`"' + format_size(default).replace(" ", "") + '"`'
    return str(default)
