"""The command line's pipeline flags, written from the settings' declarations.

A whole number is a count in ASCII digits, a byte count a size (``256MiB``), a choice its
names, a switch ``--x``/``--no-x``; every flag's default is None, so that a flag not given
leaves the preset's value (or the default) in place.
"""

from __future__ import annotations

import argparse
from enum import StrEnum
from typing import Any

from overlapviz.core.config.setting import Setting
from overlapviz.core.config.settings import SETTINGS
from overlapviz.core.config.values import ConfigError, parse_count, parse_size
from overlapviz.core.i18n import N_, _

PIPELINE_GROUP = N_("the pipeline (default: the preset's value, else the default)")
# the argparse destination of each flag (--kernel-iters: kernel_iters) -> the setting it sets
FLAG_FIELDS: dict[str, str] = {setting.flag.replace("-", "_"): setting.name for setting in SETTINGS}


def add_pipeline_flags(parser: argparse.ArgumentParser) -> None:
    """Add the group of pipeline flags to `parser`, one per setting, in the declarations' order."""
    group = parser.add_argument_group(_(PIPELINE_GROUP))
    for setting in SETTINGS:
        group.add_argument(f"--{setting.flag}", **flag_options(setting))


def flag_options(setting: Setting[object]) -> dict[str, Any]:
    """The keyword arguments of `add_argument` for `setting`'s flag."""
    options: dict[str, Any] = {"help": _(setting.help).format(default=setting.default_text())}
    if setting.kind is bool:
        options["action"] = argparse.BooleanOptionalAction
    elif issubclass(setting.kind, StrEnum):
        options["choices"] = [choice.value for choice in setting.kind]
    else:
        options["type"] = size_argument if setting.is_size else count_argument
        options["metavar"] = "SIZE" if setting.is_size else "N"
    return options


def count_argument(text: str) -> int:
    """A whole number in ASCII digits (argparse's int() also takes other scripts' digits)."""
    try:
        return parse_count(text, "value")
    except ConfigError as error:
        raise argparse.ArgumentTypeError(reason(error)) from None


def size_argument(text: str) -> int:
    """A size as `parse_size` reads it."""
    try:
        return parse_size(text)
    except ConfigError as error:
        raise argparse.ArgumentTypeError(reason(error)) from None


def reason(error: ConfigError) -> str:
    """The message without the field name it starts with."""
    return str(error).removeprefix(f"{error.field}: ")
