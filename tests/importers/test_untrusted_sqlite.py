"""The reader of untrusted SQLite databases, on tables larger than the pieces it works in."""

import sqlite3

import numpy as np
import pytest

from overlapviz.importers.untrusted_sqlite import Column, DatabaseProblem, UntrustedDatabase


def database(*statements, rows=()):
    connection = sqlite3.connect(":memory:")
    for statement in statements:
        connection.execute(statement)
    for query, values in rows:
        connection.executemany(query, values)
    connection.commit()
    return connection.serialize()


def test_integers_read_every_row_in_order_across_the_pieces_fetched():
    n = 150_000  # more than two pieces of 65,536 rows
    raw = database("CREATE TABLE t (a INTEGER, b INTEGER)",
                   rows=[("INSERT INTO t VALUES (?, ?)", ((i, None if i % 7 else -i) for i in range(n)))])  # fmt: skip
    with UntrustedDatabase(raw) as db:
        values = db.integers("t", [Column("a"), Column("b", required=False, default=-1), Column("c", required=False)])
    assert values.shape == (n, 3)
    assert (values[:, 0] == np.arange(n)).all()
    assert (values[:, 1] == np.where(np.arange(n) % 7, -1, -np.arange(n))).all()
    assert (values[:, 2] == -1).all()


def test_lookups_of_more_keys_than_one_query_takes_find_them_all():
    raw = database("CREATE TABLE s (id INTEGER PRIMARY KEY, value TEXT)",
                   rows=[("INSERT INTO s VALUES (?, ?)", ((i, f"name {i}") for i in range(3000)))])  # fmt: skip
    with UntrustedDatabase(raw) as db:
        found = db.lookup("s", "id", "value", range(0, 3000, 2))
    assert found == {i: f"name {i}" for i in range(0, 3000, 2)}


def test_a_condition_limits_the_rows_read_and_checked():
    raw = database("CREATE TABLE t (kind INTEGER, v)",
                   rows=[("INSERT INTO t VALUES (?, ?)", [(1, 10), (2, "text"), (1, 11)])])  # fmt: skip
    with UntrustedDatabase(raw) as db:
        assert db.integers("t", [Column("v")], '"kind" = ?', [1]).tolist() == [[10], [11]]
        with pytest.raises(DatabaseProblem, match=r"t\.v holds text \('text'\) where a whole number belongs, in 1 row"):
            db.integers("t", [Column("v")])


def test_the_database_cannot_be_changed_through_the_reader():
    raw = database("CREATE TABLE t (a INTEGER)")
    with UntrustedDatabase(raw) as db, pytest.raises(sqlite3.OperationalError, match="readonly"):
        db._connection.execute("INSERT INTO t VALUES (1)")


def test_views_and_virtual_tables_are_not_among_the_tables():
    try:
        raw = database("CREATE TABLE t (a INTEGER)", "CREATE VIEW v AS SELECT a FROM t",
                       "CREATE VIRTUAL TABLE words USING fts5(text)")  # fmt: skip
    except sqlite3.OperationalError as error:  # an SQLite built without FTS5
        pytest.skip(str(error))
    with UntrustedDatabase(raw) as db:
        assert "t" in db.tables and "v" not in db.tables and "words" not in db.tables
        with pytest.raises(DatabaseProblem, match="it has no table words"):
            db.integers("words", [Column("text")])
