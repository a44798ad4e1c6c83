"""One entry of the Help menu's glossary."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Term:
    """One glossary entry."""

    term: str
    meaning: str
    where: str  # where the app shows it
