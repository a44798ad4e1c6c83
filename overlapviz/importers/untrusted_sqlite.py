"""An SQLite database from outside, read as if it were hostile: in memory, read-only, checked first.

A file someone opens may be damaged, or made to mislead. `UntrustedDatabase` never writes
to disk (the bytes are loaded with `sqlite3.Connection.deserialize`), refuses every change
(``PRAGMA query_only``), lets no SQL stored in the file run with side effects
(``PRAGMA trusted_schema = OFF``), and reads only ordinary tables: a view, a virtual table or
a computed column would run the file's own SQL. SQLite keeps any type of value in any
column, so the storage class of every value is checked, in SQL, before a number is taken
from it; integers then fit int64 by construction. Every failure, a damaged file included,
is a `DatabaseProblem` whose text says what is wrong in one line.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import numpy as np
import numpy.typing as npt

from overlapviz.core.i18n import N_, _, ngettext
from overlapviz.core.trace.checks import short_repr

SQLITE_MAGIC = b"SQLite format 3\x00"
_FETCH_ROWS = 65_536  # rows turned into numpy at a time: bounded memory for Python's row tuples
_LOOKUP_BATCH = 500  # keys per ``IN (...)``, well under SQLite's smallest limit on parameters
_SHOWN_VALUE = 40  # characters of an offending value quoted in a message
# Bytes 18 and 19 of the header say the file was last written in write-ahead-log mode, which
# an in-memory database cannot open; as rollback-journal mode the same pages read the same.
_WAL_HEADER = slice(18, 20)
# SQLite's storage classes, as a message names a value of each (said with `_` where shown)
_CLASS_WORDS = {
    "integer": N_("a whole number"),
    "real": N_("a real number"),
    "text": N_("text"),
    "blob": N_("binary data"),
    "null": "NULL",
}


class DatabaseProblem(ValueError):
    """The database cannot be read as asked; the text says why, in one line."""


@dataclass(frozen=True)
class Column:
    """A column to read: its storage class and what a NULL or a missing column means.

    Attributes
    ----------
    name
        The column's name in the table.
    storage
        The one SQLite storage class its values must have: ``"integer"`` or ``"text"``.
    required
        Whether the column must exist and hold no NULL; otherwise both read as `default`.
    default
        The value of a NULL, or of every row when the column is missing.
    """

    name: str
    storage: str = "integer"
    required: bool = True
    default: int | None = -1


class UntrustedDatabase:
    """A read-only, in-memory copy of an SQLite file; use it as a context manager."""

    def __init__(self, raw: bytes) -> None:
        if not raw.startswith(SQLITE_MAGIC):
            raise DatabaseProblem(_("not an SQLite database (it does not start with the SQLite header)"))
        if raw[_WAL_HEADER] == b"\x02\x02":
            raw = raw[: _WAL_HEADER.start] + b"\x01\x01" + raw[_WAL_HEADER.stop :]
        self._connection = sqlite3.connect(":memory:")
        self._columns: dict[str, dict[str, bool]] = {}
        try:
            self._connection.deserialize(raw)
            self._connection.execute("PRAGMA query_only = ON")
            self._connection.execute("PRAGMA trusted_schema = OFF")
            self._connection.text_factory = _lenient_text
            self.tables, self._without_rowid = self._ordinary_tables()
        except (sqlite3.Error, OverflowError, MemoryError) as error:
            self.close()
            raise _damaged(error) from None

    def __enter__(self) -> UntrustedDatabase:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Free the copy of the database."""
        self._connection.close()

    def count(self, table: str) -> int:
        """The number of rows in `table`."""
        return int(self._one(f"SELECT count(*) FROM {_quoted(table)}")[0])

    def columns(self, table: str) -> dict[str, bool]:
        """The columns of `table`, each with whether it is stored (False: computed from other columns)."""
        if table not in self._columns:
            rows = self._all("SELECT name, hidden FROM pragma_table_xinfo(?)", (table,))
            self._columns[table] = {str(name): hidden in (0, 1) for name, hidden in rows}
        return self._columns[table]

    def check(self, table: str, columns: Sequence[Column], where: str = "", params: Sequence[int] = ()) -> None:
        """Check `columns` of `table`'s rows (those `where` selects) as `integers` would, reading nothing."""
        self._checked(table, columns, where, params)

    def integers(
        self, table: str, columns: Sequence[Column], where: str = "", params: Sequence[int] = ()
    ) -> npt.NDArray[np.int64]:
        """Integer columns of `table`'s rows (those `where` selects), in storage order.

        Parameters
        ----------
        table
            An ordinary table of the database.
        columns
            The columns to read, each of storage class ``"integer"``.
        where
            An SQL condition on the rows, written by the caller (never from the file), with
            ``?`` for each of `params`.
        params
            The values of the condition's placeholders.

        Returns
        -------
        numpy.ndarray
            One row per selected row, one column per `columns`, NULLs and missing optional
            columns as their defaults.

        Raises
        ------
        DatabaseProblem
            A required column is missing or computed, a value is NULL where it may not be or
            of another storage class, or the database is damaged.
        """
        selected = self._checked(table, columns, where, params)
        query = f"SELECT {', '.join(selected)} FROM {_quoted(table)}{_where(where)} ORDER BY rowid"
        parts = [np.empty((0, len(columns)), dtype=np.int64)]
        try:
            cursor = self._connection.execute(query, tuple(params))
            while chunk := cursor.fetchmany(_FETCH_ROWS):
                parts.append(np.array(chunk, dtype=np.int64).reshape(len(chunk), len(columns)))
        except sqlite3.Error as error:
            raise _damaged(error) from None
        return np.concatenate(parts)

    def texts(self, table: str, column: Column, where: str = "", params: Sequence[int] = ()) -> list[str | None]:
        """A text column of `table`'s rows (those `where` selects), in storage order; NULL is None."""
        selected = self._checked(table, [column], where, params)
        query = f"SELECT {selected[0]} FROM {_quoted(table)}{_where(where)} ORDER BY rowid"
        return [value for (value,) in self._all(query, tuple(params))]

    def rows(self, table: str, columns: Sequence[Column]) -> list[tuple[Any, ...]]:
        """Every row of a small table, each column checked for its storage class."""
        selected = self._checked(table, columns, "", ())
        return self._all(f"SELECT {', '.join(selected)} FROM {_quoted(table)} ORDER BY rowid")

    def lookup(self, table: str, key: str, value: str, keys: Iterable[int]) -> dict[int, str]:
        """The text `value` of the rows of `table` whose integer `key` is one of `keys`.

        Rows whose key is not an integer or whose value is not text are not found.
        """
        for name in (key, value):
            self._stored(table, name)
        wanted = sorted(set(keys))
        found: dict[int, str] = {}
        for first in range(0, len(wanted), _LOOKUP_BATCH):
            batch = wanted[first : first + _LOOKUP_BATCH]
            key_sql, value_sql = _quoted(key), _quoted(value)
            query = (
                f"SELECT {key_sql}, {value_sql} FROM {_quoted(table)} WHERE typeof({key_sql}) = 'integer'"
                f" AND typeof({value_sql}) = 'text' AND {key_sql} IN ({', '.join('?' * len(batch))})"
            )
            found.update(self._all(query, tuple(batch)))
        return found

    def _ordinary_tables(self) -> tuple[frozenset[str], frozenset[str]]:
        """The ordinary tables (no view, no virtual table), and those of them without a rowid."""
        rows = self._all("SELECT name, upper(sql) FROM sqlite_master WHERE type = 'table'")
        sql_of = {str(name): sql if isinstance(sql, str) else "" for name, sql in rows}
        ordinary = frozenset(name for name, sql in sql_of.items() if not sql.lstrip().startswith("CREATE VIRTUAL"))
        return ordinary, frozenset(name for name in ordinary if "WITHOUT ROWID" in sql_of[name])

    def _stored(self, table: str, column: str) -> bool:
        """Whether `table` has `column` as a stored column; a computed one is refused."""
        if table not in self.tables:
            raise DatabaseProblem(_("it has no table {table}").format(table=table))
        if table in self._without_rowid:
            raise DatabaseProblem(_("{table} is a table WITHOUT ROWID, which no export writes").format(table=table))
        stored = self.columns(table).get(column)
        if stored is False:
            message = _("{table}.{column} is computed by SQL in the file, not stored")
            raise DatabaseProblem(message.format(table=table, column=column))
        return stored is True

    def _checked(self, table: str, columns: Sequence[Column], where: str, params: Sequence[int]) -> list[str]:
        """Check `columns` of the selected rows; return the expression that reads each."""
        present = [column for column in columns if self._stored(table, column.name)]
        for column in columns:
            if column.required and column not in present:
                raise DatabaseProblem(_("{table} has no column {column}").format(table=table, column=column.name))
        if present:
            tests = [f"sum(typeof({_quoted(c.name)}) NOT IN ({_allowed(c)}))" for c in present]
            bad = self._one(f"SELECT {', '.join(tests)} FROM {_quoted(table)}{_where(where)}", tuple(params))
            for column, count in zip(present, bad, strict=True):
                if count:
                    raise self._wrong_values(table, column, int(count), where, params)
        return [_reader(column, column in present) for column in columns]

    def _wrong_values(
        self, table: str, column: Column, count: int, where: str, params: Sequence[int]
    ) -> DatabaseProblem:
        name = _quoted(column.name)
        condition = f"typeof({name}) NOT IN ({_allowed(column)})" + (f" AND ({where})" if where else "")
        cut = f"CASE WHEN typeof({name}) IN ('text', 'blob') THEN substr({name}, 1, {_SHOWN_VALUE}) ELSE {name} END"
        storage, value = self._one(
            f"SELECT typeof({name}), {cut} FROM {_quoted(table)} WHERE {condition} LIMIT 1",
            tuple(params),
        )
        shown = short_repr(value, _SHOWN_VALUE)  # escaped: the file's text never reaches a terminal as it is
        if storage == "null":
            message = ngettext("{table}.{column} is empty (NULL) in {count} row",
                               "{table}.{column} is empty (NULL) in {count} rows", count)  # fmt: skip
            return DatabaseProblem(message.format(table=table, column=column.name, count=count))
        message = ngettext(
            "{table}.{column} holds {found} ({value}) where {wanted} belongs, in {count} row",
            "{table}.{column} holds {found} ({value}) where {wanted} belongs, in {count} rows",
            count,
        )
        found = _(_CLASS_WORDS[str(storage)]) if str(storage) in _CLASS_WORDS else str(storage)
        wanted = _(_CLASS_WORDS[column.storage])
        return DatabaseProblem(
            message.format(table=table, column=column.name, found=found, value=shown, wanted=wanted, count=count)
        )

    def _one(self, query: str, params: tuple[Any, ...] = ()) -> tuple[Any, ...]:
        rows = self._all(query, params)
        return tuple(rows[0])

    def _all(self, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return list(self._connection.execute(query, params).fetchall())
        except (sqlite3.Error, UnicodeDecodeError) as error:  # a damaged schema's text is no UTF-8 either
            raise _damaged(error) from None


def _lenient_text(data: bytes) -> str:
    """Text as the file holds it; bytes that are not UTF-8 become U+FFFD rather than failing."""
    return data.decode("utf-8", "replace")


def _quoted(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


def _where(condition: str) -> str:
    return f" WHERE {condition}" if condition else ""


def _allowed(column: Column) -> str:
    classes = [column.storage] if column.required else [column.storage, "null"]
    return ", ".join(f"'{storage}'" for storage in classes)


def _reader(column: Column, present: bool) -> str:
    """The SQL that reads `column`: the value, its default for NULL, or the default alone."""
    default = "NULL" if column.default is None else str(int(column.default))
    if not present:
        return default
    if column.required or column.default is None:
        return _quoted(column.name)
    return f"IFNULL({_quoted(column.name)}, {default})"


def _damaged(error: BaseException) -> DatabaseProblem:
    if isinstance(error, MemoryError):
        return DatabaseProblem(_("the database is too large to load into memory"))
    return DatabaseProblem(_("damaged or not an SQLite database ({error})").format(error=error))
