"""The read models' database: SQLite in the embedded mode, PostgreSQL in production, one interface.

Statements come from :mod:`projections.schema` with ``?`` placeholders; the PostgreSQL adapter turns them
into psycopg's. A write happens inside :meth:`ReadDatabase.transaction`, so the projector's rows and its
position commit together or not at all.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from projections import schema

Row = tuple[Any, ...]


class ReadSettings(Protocol):
    """What the read side needs of :class:`api.settings.Settings`."""

    @property
    def database_url(self) -> str | None: ...

    @property
    def data_dir(self) -> Path: ...


class Writer(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any: ...

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> Any: ...

    def insert(self, statement: schema.Insert, rows: Sequence[Sequence[Any]]) -> None: ...

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...


class ReadDatabase(ABC):
    dialect: str

    @abstractmethod
    def transaction(self) -> Any:
        """A context manager yielding a :class:`Writer`; it commits on exit, rolls back on an exception."""

    @abstractmethod
    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    @abstractmethod
    def close(self) -> None: ...

    def create(self) -> None:
        with self.transaction() as w:
            for statement in schema.CREATE:
                w.execute(statement)
            w.execute(schema.SEED_POSITION, (schema.POSITION_NAME,))

    def prepare_rebuild(self) -> None:
        """Empty fresh tables for a rebuild to fill, beside the ones readers use."""
        with self.transaction() as w:
            for statement in schema.REBUILD:
                w.execute(statement)

    def swap_in(self, position: int) -> None:
        """The rebuilt tables in place of the ones in use, and the position they were projected to, in one
        transaction."""
        with self.transaction() as w:
            for statement in schema.swap(self.dialect):
                w.execute(statement)
            w.execute(schema.SAVE_POSITION, (schema.POSITION_NAME, position))

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = self.query(sql, params)
        return rows[0] if rows else None

    def take_turns(self, lock: Any) -> None:  # noqa: B027 (most databases let writers in together)
        """Write only holding ``lock`` (a lock shared with other processes filling the same fresh tables),
        where the database lets one writer at a time in."""

    @abstractmethod
    def filling(self, fresh: bool) -> None:
        """``True`` while a rebuild fills its fresh tables: their commits need not wait for the disk (a
        crash meanwhile loses only the fresh tables, which the next rebuild makes again; the swap commits
        as any other write); ``False`` after."""


class _SqliteWriter:
    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._cursor.execute(sql, tuple(params))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> Any:
        return self._cursor.executemany(sql, rows)

    def insert(self, statement: schema.Insert, rows: Sequence[Sequence[Any]]) -> None:
        self._cursor.executemany(statement.sql, rows)

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row: Row | None = self._cursor.execute(sql, tuple(params)).fetchone()
        return row


class SqliteReadDatabase(ReadDatabase):
    """One connection shared by the API's worker threads, behind a lock; WAL lets another process (the
    projector) write while this one reads."""

    dialect = "sqlite"

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=30)
        self._conn.execute("PRAGMA journal_mode=WAL")
        # a read model can be rebuilt from the store: the last commits before a power cut may be redone
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._lock = threading.RLock()
        self._turns: Any = contextlib.nullcontext()
        self.create()

    def take_turns(self, lock: Any) -> None:
        # a writer kept out by another sleeps in SQLite's busy handler, up to 100 ms at a time, long after
        # the other has committed: waiting on a lock between processes wakes at once
        self._turns = lock

    def filling(self, fresh: bool) -> None:
        # the fsyncs of the write-ahead log's checkpoints were a fifth of a rebuild's time
        with self._lock:
            self._conn.execute(f"PRAGMA synchronous={'OFF' if fresh else 'NORMAL'}")

    @contextmanager
    def transaction(self) -> Iterator[Writer]:
        with self._lock, self._turns:
            cursor = self._conn.cursor()
            cursor.execute("BEGIN IMMEDIATE")
            try:
                yield _SqliteWriter(cursor)
            except BaseException:
                cursor.execute("ROLLBACK")
                raise
            cursor.execute("COMMIT")

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with self._lock:
            return self._conn.execute(sql, tuple(params)).fetchall()

    def close(self) -> None:
        self._conn.close()


class _PgWriter:
    def __init__(self, cursor: Any) -> None:
        self._cursor = cursor

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._cursor.execute(_pg(sql), tuple(params))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> Any:
        if rows:
            self._cursor.executemany(_pg(sql), rows)

    def insert(self, statement: schema.Insert, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            with self._cursor.copy(statement.copy) as copy:
                for row in rows:
                    copy.write_row(row)

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        self._cursor.execute(_pg(sql), tuple(params))
        row: Row | None = self._cursor.fetchone()
        return row


class PostgresReadDatabase(ReadDatabase):
    dialect = "postgresql"

    def __init__(self, url: str, pool_size: int = 4) -> None:
        from psycopg_pool import ConnectionPool

        self._pool = ConnectionPool(url, min_size=1, max_size=pool_size, open=True)
        self._fresh = False
        self.create()

    def filling(self, fresh: bool) -> None:
        self._fresh = fresh

    @contextmanager
    def transaction(self) -> Iterator[Writer]:
        with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cursor:
            if self._fresh:
                # the commit returns before the server has flushed its log: only the fresh tables are at stake
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
            yield _PgWriter(cursor)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with self._pool.connection() as conn, conn.cursor() as cursor:
            cursor.execute(_pg(sql), tuple(params))
            return list(cursor.fetchall())

    def close(self) -> None:
        self._pool.close()


_PG_SQL: dict[str, str] = {}


def _pg(sql: str) -> str:
    converted = _PG_SQL.get(sql)
    if converted is None:
        converted = _PG_SQL[sql] = sql.replace("?", "%s")
    return converted
