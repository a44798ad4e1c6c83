"""A table of marked sentences that says each in the active language when it is read.

A module-level table is made at import, before the language is chosen; its sentences are
marked with ``N_`` there and translated where they are read. Where many places read one table
(the figures' names and definitions: the metrics panel, the glossary, ``run --help``), the
table itself does the translating, so that no reader can forget it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from overlapviz.core.i18n.catalogue import _


class TranslatedTable(Mapping[str, str]):
    """``table[key]`` is the sentence of `key` in the active language; `source` gives it as written."""

    def __init__(self, sentences: Mapping[str, str]) -> None:
        self._sentences = dict(sentences)

    def __getitem__(self, key: str) -> str:
        return _(self._sentences[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._sentences)

    def __len__(self) -> int:
        return len(self._sentences)

    def source(self, key: str) -> str:
        """The sentence of `key` as the code writes it (English), for what keys text by its source."""
        return self._sentences[key]
