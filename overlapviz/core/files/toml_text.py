"""TOML from a file, read so that no document, however deeply nested, crashes its reader.

`tomllib` descends once per level of ``[[[...`` or ``{a={a=...`` and raises `RecursionError`
on a document nested a few thousand levels deep; that is a document no reader of ours can use,
so it is refused like any other TOML that does not read: one `TomlError`, with its reason.
"""

from __future__ import annotations

import tomllib
from typing import Any

from overlapviz.core.i18n import N_, _

NESTED_TOO_DEEPLY = N_("it nests arrays or tables too deeply")


class TomlError(ValueError):
    """The text is not TOML that can be read; ``str()`` says why in one line."""


def parse_toml(text: str | bytes) -> dict[str, Any]:
    """Parse `text` (bytes as UTF-8) as TOML.

    Raises
    ------
    TomlError
        The text is not valid TOML, or nests too deeply to be read.
    UnicodeDecodeError
        `text` is bytes that are not UTF-8.
    """
    try:
        return tomllib.loads(text.decode("utf-8") if isinstance(text, bytes) else text)
    except tomllib.TOMLDecodeError as error:
        raise TomlError(str(error)) from None
    except RecursionError:
        raise TomlError(_(NESTED_TOO_DEEPLY)) from None
