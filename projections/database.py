"""The read models' database: SQLite in the embedded mode, PostgreSQL in production, one interface.

Statements come from :mod:`projections.schema` with ``?`` placeholders; the PostgreSQL adapter turns them
into psycopg's. A write happens inside :meth:`ReadDatabase.transaction`, so the projector's rows and its
position commit together or not at all. Reads that must agree with each other (one API request's) happen in a
snapshot — :meth:`ReadDatabase.snapshot` for the current thread, :meth:`ReadDatabase.reader` for whichever
thread holds it — one read-only transaction that sees the read models as they were at its first read, even
if a rebuild swaps them meanwhile.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
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


class Reader(Protocol):
    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...


class Snapshot(ABC):
    """Reads in one read-only transaction, begun at the first read and ended by :meth:`close`: each read sees
    the read models as the first one did. Used by one thread at a time (any thread: a request's reads may
    move between an API's worker threads), never by two at once."""

    @abstractmethod
    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = self.query(sql, params)
        return rows[0] if rows else None

    @abstractmethod
    def close(self) -> None:
        """End the transaction (if a read began it) and give its connection back."""

    @property
    def holding(self) -> bool:
        """Whether a read began a transaction that :meth:`close` has not ended yet."""
        return getattr(self, "_conn", None) is not None


class ReadDatabase(ABC):
    dialect: str
    #: a server answers it (each statement, a snapshot's COMMIT included, is a round trip), not this process
    served: bool
    #: taken first in the transaction that creates the tables, so that processes starting together make them one at
    #: a time (None where only this process writes)
    schema_lock: str | None = None

    def __init__(self) -> None:
        self._held = threading.local()

    @abstractmethod
    def transaction(self) -> Any:
        """A context manager yielding a :class:`Writer`; it commits on exit, rolls back on an exception."""

    @abstractmethod
    def _snapshot(self) -> Snapshot: ...

    @abstractmethod
    def _query(self, sql: str, params: Sequence[Any]) -> list[Row]: ...

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def read_alone(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One statement's rows, read in no transaction of ours (autocommit): the statement sees one state by
        itself, so a read that is one statement needs no snapshot, and on a server it is one round trip where a
        snapshot's BEGIN and COMMIT make three (issue 17). It waits for a rebuild's swap as a snapshot's first
        read does: the swap holds every read model's table until it commits."""

    @contextmanager
    def reader(self) -> Iterator[Snapshot]:
        """A :class:`Snapshot` for the block, bound to no thread: what reads through it see is one state."""
        snapshot = self._snapshot()
        try:
            yield snapshot
        finally:
            snapshot.close()

    @contextmanager
    def snapshot(self) -> Iterator[Snapshot]:
        """Every :meth:`query` and :meth:`one` of the current thread in the block runs in one read-only
        transaction (other threads read as before); inside another snapshot of this thread, that one."""
        held: Snapshot | None = getattr(self._held, "snapshot", None)
        if held is not None:
            yield held
            return
        with self.reader() as snapshot:
            self._held.snapshot = snapshot
            try:
                yield snapshot
            finally:
                self._held.snapshot = None

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        held: Snapshot | None = getattr(self._held, "snapshot", None)
        if held is not None:
            return held.query(sql, params)
        return self._query(sql, params)

    def create(self) -> None:
        with self.transaction() as w:
            if self.schema_lock is not None:
                w.execute(self.schema_lock)
            for statement in schema.CREATE:
                w.execute(statement)
            for table, column, kind in schema.ADDED_COLUMNS:
                present = w.one(schema.COLUMN_PRESENT[self.dialect], (table, column))
                if present is None or not present[0]:
                    w.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
            w.execute(schema.SEED_POSITION, (schema.POSITION_NAME,))

    def prepare_rebuild(self) -> None:
        """Empty fresh tables for a rebuild to fill, beside the ones readers use."""
        with self.transaction() as w:
            for statement in schema.REBUILD:
                w.execute(statement)

    def swap_in(self, position: int) -> None:
        """The rebuilt tables in place of the ones in use, and the position they were projected to, in one
        transaction."""
        keyed = self.key_fresh()
        with self.transaction() as w:
            for statement in schema.swap(self.dialect, keyed=keyed):
                w.execute(statement)
            w.execute(schema.SAVE_POSITION, (schema.POSITION_NAME, position))

    def key_fresh(self) -> bool:
        """Make the keys of a rebuild's fresh tables that were filled without one and their secondary indexes
        (:data:`schema.AHEAD`) before the swap, if this database can; whether it did (else the swap makes them)."""
        return False

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = self.query(sql, params)
        return rows[0] if rows else None

    def take_turns(self, lock: Any) -> None:  # noqa: B027 (most databases let writers in together)
        """Write only holding ``lock`` (a lock shared with other processes filling the same fresh tables),
        where the database lets one writer at a time in."""

    def check_connections(self) -> None:  # noqa: B027 (a file has no connections to lose)
        """Drop the idle connections a server restart broke, so the next reads open new ones."""

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


class _SqliteSnapshot(Snapshot):
    def __init__(self, database: SqliteReadDatabase) -> None:
        self._database = database
        self._conn: sqlite3.Connection | None = None

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        if self._conn is None:
            self._conn = self._database._idle_reader()
            # deferred: the read takes its mark in the write-ahead log at the first SELECT and keeps it to the
            # COMMIT, whatever other connections commit meanwhile
            self._conn.execute("BEGIN")
        return self._conn.execute(sql, tuple(params)).fetchall()

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            conn.execute("COMMIT")
        except BaseException:
            conn.close()
            raise
        self._database._give_back(conn)


class SqliteReadDatabase(ReadDatabase):
    """Writes and plain reads on one connection shared by the threads, behind a lock; a snapshot (an API
    request's reads) on a read-only connection of its own, kept for the next. WAL lets another process (the
    projector) write while these read, and a snapshot keep the state of its first read while it does."""

    dialect = "sqlite"
    served = False

    def __init__(self, path: Path) -> None:
        super().__init__()
        path.parent.mkdir(parents=True, exist_ok=True)
        self._path = path
        self._conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=30)
        self._conn.execute("PRAGMA journal_mode=WAL")
        # a read model can be rebuilt from the store: the last commits before a power cut may be redone
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._lock = threading.RLock()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
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

    def _query(self, sql: str, params: Sequence[Any]) -> list[Row]:
        with self._lock:
            return self._conn.execute(sql, tuple(params)).fetchall()

    def _snapshot(self) -> Snapshot:
        return _SqliteSnapshot(self)

    def read_alone(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        # a reader's connection, not the shared one: that one waits behind the projector's writes in this process
        conn = self._idle_reader()
        try:
            rows = conn.execute(sql, tuple(params)).fetchall()
        except BaseException:
            conn.close()
            raise
        self._give_back(conn)
        return rows

    def _idle_reader(self) -> sqlite3.Connection:
        with self._readers_lock:
            if self._readers:
                return self._readers.pop()
        conn = sqlite3.connect(str(self._path), check_same_thread=False, isolation_level=None, timeout=30)
        conn.execute("PRAGMA query_only=ON")
        return conn

    def _give_back(self, conn: sqlite3.Connection) -> None:
        with self._readers_lock:
            self._readers.append(conn)

    def close(self) -> None:
        with self._readers_lock:
            readers, self._readers = self._readers, []
        for conn in readers:
            conn.close()
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


#: a snapshot's first round trip: the transaction, and a share of every read model's table held to its end. The
#: snapshot alone would not do: a table is found by its name in the catalog as it is now, so a read after a
#: swap had committed would find the new table under the old name (and see its rows with the old position);
#: holding the tables makes a swap wait for the snapshot to end, or the snapshot for the swap to commit.
_BEGIN_SNAPSHOT = (
    "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;"
    f" LOCK TABLE {', '.join(schema.TABLES)} IN ACCESS SHARE MODE"
)


class _PgSnapshot(Snapshot):
    def __init__(self, pool: Any) -> None:
        self._pool = pool
        self._conn: Any = None

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        if self._conn is None:
            conn = self._pool.getconn()
            try:
                # BEGIN and the locks sent as one statement, not after a BEGIN of psycopg's own
                conn.autocommit = True
                conn.execute(_BEGIN_SNAPSHOT)
            except BaseException:
                self._pool.putconn(conn)
                raise
            self._conn = conn
        with self._conn.cursor() as cursor:
            cursor.execute(_pg(sql), tuple(params))
            return list(cursor.fetchall())

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            # a failed read's transaction is rolled back by its COMMIT
            conn.execute("COMMIT")
        finally:
            self._pool.putconn(conn)


def _writable(conn: Any) -> None:
    """Back in the pool, a connection a snapshot made autocommit is a writer's again."""
    conn.autocommit = False


#: how long a read or a write waits for a connection from the pool (the server down: then it fails)
POOL_WAIT_SECONDS = 3.0
#: connections a PostgreSQL read database keeps at most; the API's fast reads run on as many threads
#: (api/fast_reads.py), so a read waits its turn for a thread, never for a connection
READ_POOL_SIZE = 4


class PostgresReadDatabase(ReadDatabase):
    dialect = "postgresql"
    served = True
    # CREATE ... IF NOT EXISTS races in PostgreSQL: two referees' summaries at once raised "duplicate key value
    # violates unique constraint pg_type_typname_nsp_index"
    schema_lock = "SELECT pg_advisory_xact_lock(hashtext('pokeraudit.read_models'))"

    def __init__(self, url: str, pool_size: int = READ_POOL_SIZE) -> None:
        from psycopg_pool import ConnectionPool

        super().__init__()
        # a read waits this long for a connection while the server is down, then fails (the API answers 503)
        self._pool = ConnectionPool(
            url, min_size=1, max_size=pool_size, open=True, reset=_writable, timeout=POOL_WAIT_SECONDS
        )
        self._url, self._pool_size = url, pool_size
        self._alone: Any = None
        self._opening = threading.Lock()
        self._fresh = False
        self.create()

    def filling(self, fresh: bool) -> None:
        self._fresh = fresh

    def key_fresh(self) -> bool:
        # the keys (and the secondary indexes) in groups on connections of their own, at once: the server sorts
        # each table in a process of its own (the history's and the stack changes' keys one after the other in
        # the swap took 0.7-1.0 s of a two-worker rebuild of 230,600 events, one core idle, and the readers of the tables in
        # use waited behind the swap's locks for them). Never more at once than the pool holds connections: a
        # group waiting for one longer than POOL_WAIT_SECONDS would fail. A key that cannot be made (a duplicate)
        # fails the rebuild here, the tables in use untouched
        with ThreadPoolExecutor(min(len(schema.AHEAD), self._pool_size)) as keying:
            made = [keying.submit(self._key, group) for group in schema.AHEAD]
            for key in made:
                key.result()
        return True

    def _key(self, statements: tuple[str, ...]) -> None:
        with self.transaction() as w:
            for statement in statements:
                w.execute(statement)

    def check_connections(self) -> None:
        self._pool.check()
        if self._alone is not None:
            self._alone.check()

    @contextmanager
    def transaction(self) -> Iterator[Writer]:
        with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cursor:
            if self._fresh:
                # the commit returns before the server has flushed its log: only the fresh tables are at stake
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
            yield _PgWriter(cursor)

    def _query(self, sql: str, params: Sequence[Any]) -> list[Row]:
        with self._pool.connection() as conn, conn.cursor() as cursor:
            cursor.execute(_pg(sql), tuple(params))
            return list(cursor.fetchall())

    def _snapshot(self) -> Snapshot:
        return _PgSnapshot(self._pool)

    def read_alone(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        # no BEGIN of psycopg's own, and so no COMMIT: the statement alone
        with self._alone_pool().connection() as conn, conn.cursor() as cursor:
            cursor.execute(_pg(sql), tuple(params))
            return list(cursor.fetchall())

    def _alone_pool(self) -> Any:
        """Autocommit connections of their own for :meth:`read_alone`, opened at its first use (the projector and
        the referee never read alone). Not the writers' pool: a connection given back to a pool with a reset goes
        through one of the pool's worker threads before it is free again — a hand-off between threads on every
        read, which cost the API's hot reads more CPU than the statement itself (issue 17)."""
        pool = self._alone
        if pool is None:
            from psycopg_pool import ConnectionPool

            with self._opening:
                if self._alone is None:
                    self._alone = ConnectionPool(
                        self._url, min_size=0, max_size=self._pool_size, open=True, kwargs={"autocommit": True},
                        timeout=POOL_WAIT_SECONDS,
                    )
                pool = self._alone
        return pool

    def close(self) -> None:
        self._pool.close()
        if self._alone is not None:
            self._alone.close()


_PG_SQL: dict[str, str] = {}


def _pg(sql: str) -> str:
    converted = _PG_SQL.get(sql)
    if converted is None:
        converted = _PG_SQL[sql] = sql.replace("?", "%s")
    return converted
