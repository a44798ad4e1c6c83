"""The values the flags take, read as the configuration reads them: counts and sizes."""

from __future__ import annotations

import argparse

from overlapviz.core.config import ConfigError, parse_count, parse_size


def count(text: str) -> int:
    """A whole number in ASCII digits (argparse's int() also takes other scripts' digits)."""
    try:
        return parse_count(text, "value")
    except ConfigError as error:
        raise argparse.ArgumentTypeError(reason(error)) from None


def size(text: str) -> int:
    """A size in bytes: ``256MiB``, ``1GiB`` or a plain byte count."""
    try:
        return parse_size(text)
    except ConfigError as error:
        raise argparse.ArgumentTypeError(reason(error)) from None


def reason(error: ConfigError) -> str:
    """The message without the field name it starts with."""
    return str(error).removeprefix(f"{error.field}: ")
