"""Typed reads of a TOML table's values, each wrong one named by its key in one line."""

from __future__ import annotations

from typing import Any


class ExerciseError(ValueError):
    """An exercise file is wrong, or no exercise has the asked-for name; the message says which."""


class UnknownExerciseError(ExerciseError, KeyError):
    """No exercise has that name; the message lists the names there are."""

    def __str__(self) -> str:
        # KeyError would print the message in quotes
        return str(self.args[0])


def check_keys(table: dict[str, Any], allowed: set[str], where: str) -> None:
    """Refuse a key of `table` that is not in `allowed`, naming it and those allowed."""
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ExerciseError(f"{where}{unknown[0]}: unknown key; allowed: {', '.join(sorted(allowed))}")


def text(table: dict[str, Any], key: str, where: str = "") -> str:
    """A required non-empty string, a text wrapped over lines read as one paragraph."""
    value = optional_text(table, key, where)
    if value is None:
        raise ExerciseError(f"{where}{key}: missing; give a non-empty string")
    return value


def optional_text(table: dict[str, Any], key: str, where: str = "") -> str | None:
    """A non-empty string, or None where the key is absent."""
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ExerciseError(f"{where}{key}: must be a non-empty string, not {value!r}")
    return " ".join(value.split())


def texts(table: dict[str, Any], key: str, where: str = "") -> tuple[str, ...]:
    """A list of non-empty strings; empty where the key is absent."""
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
        raise ExerciseError(f"{where}{key}: must be a list of non-empty strings")
    return tuple(" ".join(item.split()) for item in value)


def number(table: dict[str, Any], key: str, where: str = "") -> float:
    """A required number (whole or not)."""
    value = optional_number(table, key, where)
    if value is None:
        raise ExerciseError(f"{where}{key}: missing; give a number")
    return value


def optional_number(table: dict[str, Any], key: str, where: str = "") -> float | None:
    """A number, or None where the key is absent."""
    value = table.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ExerciseError(f"{where}{key}: must be a number, not {value!r}")
    return float(value)


def table(data: dict[str, Any], key: str, where: str = "") -> dict[str, Any] | None:
    """A sub-table, or None where the key is absent."""
    value = data.get(key)
    if value is not None and not isinstance(value, dict):
        raise ExerciseError(f"{where}{key}: must be a table, written [{key}]")
    return value


def tables(data: dict[str, Any], key: str, where: str = "") -> list[dict[str, Any]]:
    """An array of tables (``[[goals]]``); empty where the key is absent."""
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise ExerciseError(f"{where}{key}: must be an array of tables, written [[{key}]]")
    return value


def one_of(value: str, allowed: tuple[str, ...], where: str) -> str:
    """`value` if it is one of `allowed`, else an error listing them."""
    if value not in allowed:
        raise ExerciseError(f"{where}: {value!r} is not one of: {', '.join(allowed)}")
    return value
