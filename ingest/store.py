"""The event store: accepted events, rejections, seen event ids and log positions, in one transaction.

An eventsourcing :class:`Application` on PostgreSQL (or SQLite in the embedded mode) whose recorder is a
process recorder: :meth:`Store.commit` writes the aggregates' new events, the tracking record of the log
position they came from (``topic:partition`` → offset) and the ids of the records they answer, atomically
(DESIGN decision 2). A crash before the commit leaves none of it; a redelivery after it is recognised by
its tracked offset or its event id.

The same transaction keeps the index of a competition's streams (``referee_streams``: competition, stream),
so that one competition's protocol or federation view reads its own streams (:meth:`Store.streams_of`), not
a season's notification log.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote, urlparse
from uuid import UUID

from eventsourcing.application import Application, ProcessingEvent
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import (
    InterfaceError,
    JSONTranscoder,
    Mapper,
    MapperDeserialisationError,
    OperationalError,
    ProcessRecorder,
    Recording,
    StoredEvent,
    Tracking,
    find_id_convertor,
)
from eventsourcing.postgres import PostgresProcessRecorder
from eventsourcing.sqlite import SQLiteProcessRecorder
from eventsourcing.utils import get_topic, resolve_topic, retry
from psycopg.sql import SQL, Identifier

from domain.chained import ChainedAggregate
from domain.checkpoints import CheckpointChain, Head, checkpoint_chain_id

#: (event id, the stream it went to, what became of it: "accepted" / "rejected"), and optionally the digest of the
#: record answered (:func:`ingest.referee.record_digest`): a later record with the id and another digest conflicts
SeenId = tuple[UUID, UUID, str] | tuple[UUID, UUID, str, str]

_PG_SEEN_TABLE = "referee_event_ids"
#: which competitions' events each stream holds (a season record's may come from several competitions)
_STREAMS_TABLE = "referee_streams"
#: each stream's head as the referee last left it (version, link): what a reader of a few streams (a protocol)
#: checks them against, where ``pokeraudit verify`` reads the checkpoints of the whole store
_HEADS_TABLE = "referee_heads"
#: (stream, version, link): a stream's head after a transaction
HeadRow = tuple[UUID, int, str]
#: how many (competition, stream) pairs a Store remembers as indexed before it starts afresh: a table's hand
#: in play is met again batch after batch, an old one seldom; forgetting costs a row the database ignores
_INDEX_MEMORY = 50_000
#: how a chained event kept with its canonical body begins (:class:`ChainMapper`)
_BODY_FIRST = b'{"body":'
#: the event's fields the canonical body holds (the stream and version are the stored event's own columns)
_IN_BODY = ("originator_id", "originator_version", "timestamp", "payload", "meta")
_LINKS_ONLY = {"prev_link", "link"}
#: the advisory lock the store's tables are created under (one per database: schemas share it, harmlessly)
_CREATE_LOCK = "pokeraudit: create the store's tables"
#: (competition id, stream id): a row of the index of a competition's streams
StreamRow = tuple[str, UUID]
#: the competitions a stored event names (the store's mapper reads it): how the index is filled the first time
CompetitionsIn = Callable[[StoredEvent], Iterable[str]]


class ChainMapper(Mapper[UUID]):
    """Stores a hash-chained event as the very bytes its link was computed over, instead of encoding it again.

    ``{"body": <canonical body>, "chain": {"prev_link": …, "link": …, and the creation event's other
    fields}}``: the canonical body (stream, version, type, time, payload, meta; :mod:`domain.chained`) was
    already made to compute the link, so it is not made twice. Events given without their body (saved through
    the application, or of aggregates whose values are not plain JSON) are stored the usual way, and both
    read back as the same domain events: ``payload``, ``meta``, ``timestamp``, ``prev_link``, ``link``.
    """

    def stored_chained(self, event: Any, body: bytes) -> StoredEvent:
        fields = vars(event)
        cls = type(event)
        topic, links_only = _chained_class(cls)
        if links_only:
            # Most events: two hexadecimal digests, written as the JSON encoder would (nothing to escape).
            chain = b'{"prev_link":"%s","link":"%s"}' % (fields["prev_link"].encode(), fields["link"].encode())
        else:
            rest = {k: v for k, v in fields.items() if k not in _IN_BODY}
            class_version = getattr(cls, "class_version", 1)
            if class_version > 1:
                rest["class_version"] = class_version
            chain = self.transcoder.encode(rest)
        state = {
            "originator_id": fields["originator_id"],
            "originator_version": fields["originator_version"],
            "topic": topic,
            "state": b"".join((_BODY_FIRST, body, b',"chain":', chain, b"}")),
        }
        if not _STORED_EVENT_PLAIN:
            return StoredEvent(**state)
        # A frozen dataclass's __init__ sets each field through object.__setattr__: made for every stored event,
        # its fields are given at once instead (the same StoredEvent: equal, hashed and shown alike).
        stored = object.__new__(StoredEvent)
        object.__setattr__(stored, "__dict__", state)
        return stored

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        if not stored_event.state.startswith(_BODY_FIRST):
            return super().to_domain_event(stored_event)
        cls = resolve_topic(stored_event.topic)
        try:
            stored = self.transcoder.decode(stored_event.state)
            body = stored["body"]
            event_state: dict[str, Any] = {
                "timestamp": datetime.fromisoformat(body["at"]),
                "payload": body["payload"],
                "meta": body["meta"],
                **stored["chain"],
            }
        except Exception as e:
            msg = (
                f"Failed to deserialise state of stored event with topic '{stored_event.topic}', originator_id"
                f" '{stored_event.originator_id}' and originator_version {stored_event.originator_version}: {e}"
            )
            raise MapperDeserialisationError(msg) from e
        event_state["originator_id"] = find_id_convertor(cls, UUID)(stored_event.originator_id)
        event_state["originator_version"] = stored_event.originator_version
        from_version = event_state.pop("class_version", 1)
        while from_version < getattr(cls, "class_version", 1):
            getattr(cls, f"upcast_v{from_version}_v{from_version + 1}")(event_state)
            from_version += 1
        domain_event = object.__new__(cls)
        object.__setattr__(domain_event, "__dict__", event_state)
        return domain_event


_CHAINED_CLASSES: dict[type, tuple[str, bool]] = {}
#: eventsourcing's StoredEvent is a frozen dataclass of these four fields, kept in its instance's __dict__: then one
#: can be made by giving it that dict (:meth:`ChainMapper.stored_chained`)
_STORED_EVENT_PLAIN = (
    "__slots__" not in vars(StoredEvent)
    and tuple(f.name for f in dataclasses.fields(StoredEvent)) == ("originator_id", "originator_version", "topic", "state")
    and not hasattr(StoredEvent, "__post_init__")
)


def _chained_class(cls: type) -> tuple[str, bool]:
    """An event class's topic, and whether its events hold nothing beyond the body but the two links."""
    found = _CHAINED_CLASSES.get(cls)
    if found is None:
        fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
        links_only = fields - set(_IN_BODY) == _LINKS_ONLY and getattr(cls, "class_version", 1) == 1
        found = _CHAINED_CLASSES[cls] = (get_topic(cls), links_only)
    return found


#: how a read of the store is retried (eventsourcing's own decorator, fewer attempts: PostgresStoreRecorder)
_READS_RETRIED = retry((InterfaceError, OperationalError), max_attempts=2, wait=0.2)


class PostgresStoreRecorder(PostgresProcessRecorder):
    def __init__(self, datastore: Any, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.seen_table = Identifier(datastore.schema or "public", _PG_SEEN_TABLE)
        self.sql_create_statements.append(
            SQL(
                "CREATE TABLE IF NOT EXISTS {t} (event_id uuid PRIMARY KEY, stream_id uuid NOT NULL,"
                " outcome text NOT NULL, digest text)"
            ).format(t=self.seen_table)
        )
        # a store made before answered ids kept the record's digest: its ids have none (never a conflict)
        self.sql_create_statements.append(
            SQL("ALTER TABLE {t} ADD COLUMN IF NOT EXISTS digest text").format(t=self.seen_table)
        )
        events = Identifier(datastore.schema or "public", self.events_table_name)
        # COPY in binary, not INSERT: psycopg's C extension writes each row, where an INSERT of one array per
        # column (or eventsourcing's array of a composite type, dumped as text and escaped by regular
        # expressions) is built value by value in Python: about a seventh of the referee's time.
        self.copy_events_statement = SQL(
            "COPY {t} (originator_id, originator_version, topic, state) FROM STDIN (FORMAT BINARY)"
        ).format(t=events)
        self.copy_seen_statement = SQL(
            "COPY {t} (event_id, stream_id, outcome, digest) FROM STDIN (FORMAT BINARY)"
        ).format(t=self.seen_table)
        self.streams_statement = SQL(
            "SELECT originator_id FROM {t} WHERE originator_id = ANY(%b) AND originator_version = 1"
        ).format(t=events)
        self.heads_table = Identifier(datastore.schema or "public", _HEADS_TABLE)
        self.sql_create_statements.append(
            SQL("CREATE TABLE IF NOT EXISTS {t} (stream_id uuid PRIMARY KEY, version bigint NOT NULL,"
                " link text NOT NULL)").format(t=self.heads_table)
        )
        self.upsert_heads_statement = SQL(
            "INSERT INTO {t} (stream_id, version, link) SELECT * FROM unnest(%b::uuid[], %b::int8[], %b::text[])"
            " ON CONFLICT (stream_id) DO UPDATE SET version = EXCLUDED.version, link = EXCLUDED.link"
        ).format(t=self.heads_table)
        self.events_table = events
        self.index_schema = datastore.schema or "public"
        self.index_table = Identifier(self.index_schema, _STREAMS_TABLE)
        self.insert_index_statement = SQL(
            "INSERT INTO {t} (competition_id, stream_id) SELECT * FROM unnest(%b::text[], %b::uuid[])"
            " ON CONFLICT DO NOTHING"
        ).format(t=self.index_table)

    # Reads give up after two attempts, not eventsourcing's ten (each waiting out the pool's connect timeout while
    # the server is down: half a minute): the referee and the projector retry in their own loops, and the API
    # answers 503 while PostgreSQL is down instead of holding the request.
    select_events = _READS_RETRIED(PostgresProcessRecorder.select_events.__wrapped__)
    select_notifications = _READS_RETRIED(
        PostgresProcessRecorder.select_notifications.__wrapped__
    )
    max_notification_id = _READS_RETRIED(
        PostgresProcessRecorder.max_notification_id.__wrapped__
    )
    max_tracking_id = _READS_RETRIED(PostgresProcessRecorder.max_tracking_id.__wrapped__)

    def create_table(self) -> None:
        # Referees starting together on an empty database would race on eventsourcing's CREATE TYPE and
        # CREATE TABLE (a unique violation in the catalog): one creates while the others wait, then find it done.
        # eventsourcing creates its composite type with a CREATE TYPE that fails when the type exists (no IF NOT
        # EXISTS), an ERROR line in the server's log per process and start: skipped here when it exists.
        with self.datastore.get_connection() as conn:
            conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (_CREATE_LOCK,))
            try:
                if self._tables_made(conn):
                    # Nothing to create: no statement is run. Run again, they lock tables that exist all the same
                    # (CREATE UNIQUE INDEX IF NOT EXISTS: the events, SHARE; ALTER TABLE ADD COLUMN IF NOT EXISTS:
                    # the answered ids, ACCESS EXCLUSIVE) in the opposite order to a referee's commit (answered ids,
                    # then the events' table lock): a store opened while a referee committed deadlocked with it.
                    self._as_made()
                elif self._types_exist(conn):
                    every = self.sql_create_statements
                    self.sql_create_statements = [s for s in every if "CREATE TYPE" not in s.as_string()]
                    try:
                        super().create_table()
                    finally:
                        self.sql_create_statements = every
                else:
                    super().create_table()
            finally:
                conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (_CREATE_LOCK,))

    def _tables_made(self, conn: Any) -> bool:
        """Every object the tables' statements would create is there (read from the catalog: no lock on a table),
        and eventsourcing's tracking table is of the single-row kind (its migration done)."""
        known = ("CREATE TABLE IF NOT EXISTS", "CREATE UNIQUE INDEX IF NOT EXISTS", "CREATE TYPE",
                 "ALTER TABLE", "CREATE OR REPLACE FUNCTION")
        if not all(s.as_string().lstrip().startswith(known) for s in self.sql_create_statements):
            return False  # a statement of a kind not checked here (eventsourcing's functions): run them all
        schema = self.datastore.schema or "public"
        tables = [self.events_table_name, self.tracking_table_name, _PG_SEEN_TABLE, _HEADS_TABLE]
        found = conn.execute(
            "SELECT (SELECT count(*) FROM pg_tables WHERE schemaname = %s AND tablename = ANY(%s)) AS tables,"
            " (SELECT count(*) FROM pg_indexes WHERE schemaname = %s AND indexname = %s) AS indexes,"
            " (SELECT count(*) FROM information_schema.columns WHERE table_schema = %s AND table_name = %s"
            "  AND column_name = 'digest') AS columns,"
            " (SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
            "  WHERE n.nspname = %s AND p.proname = %s) AS functions",
            (schema, tables, schema, self.notification_id_index_name, schema, _PG_SEEN_TABLE,
             schema, self.pg_function_name_insert_events),
        ).fetchone()
        functions = sum("CREATE OR REPLACE FUNCTION" in s.as_string() for s in self.sql_create_statements)
        if (int(found["tables"]), int(found["indexes"]), int(found["columns"]), int(found["functions"]) >= functions) != (
            len(tables), 1, 1, True
        ):
            return False
        if not self._types_exist(conn):
            return False
        migrated = conn.execute(
            SQL("SELECT 1 FROM {t} WHERE application_name = %s").format(
                t=Identifier(schema, self.tracking_table_name)),
            (self.table_migration_identifier,),
        ).fetchone()
        return not self.datastore.single_row_tracking or migrated is not None

    def _as_made(self) -> None:
        """What eventsourcing's create_table leaves behind besides the tables: its tracking table's state and the
        composite types' adapters."""
        self.tracking_table_exists = True
        self.tracking_migration_current = self.tracking_migration_previous = self.max_tracking_id(
            self.table_migration_identifier
        )
        self.datastore.register_type_adapters()

    def _types_exist(self, conn: Any) -> bool:
        names = sorted(self.datastore.db_type_names)
        found = conn.execute(
            "SELECT count(*) AS n FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace"
            " WHERE n.nspname = %s AND t.typname = ANY(%s)",
            (self.datastore.schema, names),
        ).fetchone()
        return bool(names) and int(found["n"]) == len(names)

    def create_stream_index(self, competitions_in: CompetitionsIn) -> None:
        """Create the index of a competition's streams if it is not there, filled from the events already
        stored (a store older than the index), in one transaction under the tables' advisory lock: a crash
        leaves no half-filled index, and stores opening together fill it once."""
        with self.datastore.get_connection() as conn:
            conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (_CREATE_LOCK,))
            try:
                with conn.transaction():
                    found = conn.execute(
                        "SELECT 1 FROM pg_tables WHERE schemaname = %s AND tablename = %s", (self.index_schema, _STREAMS_TABLE)
                    ).fetchone()
                    if found is not None:
                        return
                    conn.execute(
                        SQL(
                            "CREATE TABLE {t} (competition_id text NOT NULL, stream_id uuid NOT NULL,"
                            " PRIMARY KEY (competition_id, stream_id))"
                        ).format(t=self.index_table)
                    )
                    rows: set[StreamRow] = set()
                    # A server-side cursor: a season's states are read page by page, not held at once.
                    with conn.cursor(name="pokeraudit_fill_stream_index") as stored:
                        stored.itersize = 2000
                        stored.execute(
                            SQL("SELECT originator_id, originator_version, topic, state FROM {t}").format(
                                t=self.events_table
                            )
                        )
                        for row in stored:
                            event = StoredEvent(row["originator_id"], row["originator_version"], row["topic"],
                                                bytes(row["state"]))
                            rows.update((c, row["originator_id"]) for c in competitions_in(event))
                    if rows:
                        with conn.cursor() as curs, curs.copy(
                            SQL("COPY {t} (competition_id, stream_id) FROM STDIN (FORMAT BINARY)").format(
                                t=self.index_table
                            )
                        ) as copy:
                            copy.set_types(["text", "uuid"])
                            for index_row in rows:
                                copy.write_row(index_row)
            finally:
                conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (_CREATE_LOCK,))

    def streams_of(self, competition_id: str, opened_by: str | None = None) -> set[UUID]:
        if opened_by is None:
            query = SQL("SELECT stream_id FROM {i} WHERE competition_id = %s").format(i=self.index_table)
            args: tuple[str, ...] = (competition_id,)
        else:
            query = SQL(
                "SELECT i.stream_id FROM {i} i JOIN {e} e ON e.originator_id = i.stream_id"
                " AND e.originator_version = 1 WHERE i.competition_id = %s AND e.topic = %s"
            ).format(i=self.index_table, e=self.events_table)
            args = (competition_id, opened_by)
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(query, args)
            return {row["stream_id"] for row in curs.fetchall()}

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """One transaction: the tracking record, the answered event ids, the events (after eventsourcing's
        table lock, so notification ids are committed in their order) and the streams they index. Returns no notification ids: COPY
        gives none back, and nothing here reads them (readers follow the notification log)."""
        tracking: Tracking | None = kwargs.get("tracking")
        seen: Sequence[SeenId] = kwargs.get("seen_ids") or ()
        index: Sequence[StreamRow] = kwargs.get("stream_index") or ()
        heads: Sequence[HeadRow] = kwargs.get("heads") or ()
        with self.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:
            if tracking is not None:
                self._insert_tracking(curs, tracking=tracking)
            if seen:
                with curs.copy(self.copy_seen_statement) as copy:
                    copy.set_types(["uuid", "uuid", "text", "text"])
                    for row in seen:
                        copy.write_row(row if len(row) == 4 else (*row, None))
            if stored_events:
                # The lock, the notification, the index and the heads sent together and answered together (one
                # round trip to the server, not five); a statement's error is raised when the block ends. COPY
                # cannot be pipelined: the events follow on their own.
                with conn.pipeline():
                    self._lock_table(curs)
                    self._notify_channel(curs)
                    if index:
                        # After the table lock: two referees indexing the same stream would otherwise each hold
                        # the other's row and wait for the other's lock.
                        curs.execute(self.insert_index_statement, ([c for c, _ in index], [s for _, s in index]))
                    if heads:
                        curs.execute(self.upsert_heads_statement,
                                     ([h[0] for h in heads], [h[1] for h in heads], [h[2] for h in heads]))
                with curs.copy(self.copy_events_statement) as copy:
                    copy.set_types(["uuid", "int8", "text", "bytea"])
                    for e in stored_events:
                        copy.write_row((e.originator_id, e.originator_version, e.topic, e.state))
        return None

    def existing(self, streams: Iterable[UUID]) -> set[UUID]:
        wanted = list(streams)
        if not wanted:
            return set()
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self.streams_statement, (wanted,))
            return {row["originator_id"] for row in curs.fetchall()}

    def heads_of(self, streams: Iterable[UUID]) -> dict[UUID, tuple[int, str]]:
        wanted = list(streams)
        if not wanted:
            return {}
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(SQL("SELECT stream_id, version, link FROM {t} WHERE stream_id = ANY(%b)").format(
                t=self.heads_table), (wanted,))
            return {row["stream_id"]: (int(row["version"]), row["link"]) for row in curs.fetchall()}

    def seen(self, ids: Iterable[UUID]) -> set[UUID]:
        wanted = list(ids)
        if not wanted:
            return set()
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(
                SQL("SELECT event_id FROM {t} WHERE event_id = ANY(%b)").format(t=self.seen_table), (wanted,)
            )
            return {row["event_id"] for row in curs.fetchall()}

    def answers(self, ids: Iterable[UUID]) -> dict[UUID, tuple[UUID, str]]:
        wanted = list(ids)
        if not wanted:
            return {}
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(
                SQL("SELECT event_id, stream_id, outcome FROM {t} WHERE event_id = ANY(%b)").format(t=self.seen_table),
                (wanted,),
            )
            return {row["event_id"]: (row["stream_id"], row["outcome"]) for row in curs.fetchall()}

    def seen_digests(self, ids: Iterable[UUID]) -> dict[UUID, str | None]:
        wanted = list(ids)
        if not wanted:
            return {}
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(
                SQL("SELECT event_id, digest FROM {t} WHERE event_id = ANY(%b)").format(t=self.seen_table), (wanted,)
            )
            return {row["event_id"]: row["digest"] for row in curs.fetchall()}

    def count_seen(self) -> dict[str, int]:
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(SQL("SELECT outcome, count(*) AS n FROM {t} GROUP BY outcome").format(t=self.seen_table))
            return {row["outcome"]: row["n"] for row in curs.fetchall()}


class SQLiteStoreRecorder(SQLiteProcessRecorder):
    def construct_create_table_statements(self) -> list[str]:
        return [
            *super().construct_create_table_statements(),
            f"CREATE TABLE IF NOT EXISTS {_PG_SEEN_TABLE} (event_id TEXT PRIMARY KEY, stream_id TEXT NOT NULL,"
            " outcome TEXT NOT NULL, digest TEXT) WITHOUT ROWID",
            f"CREATE TABLE IF NOT EXISTS {_HEADS_TABLE} (stream_id TEXT PRIMARY KEY, version INTEGER NOT NULL,"
            " link TEXT NOT NULL) WITHOUT ROWID",
        ]

    def create_table(self) -> None:
        super().create_table()
        with self.datastore.transaction(commit=True) as c:
            c.execute(f"PRAGMA table_info({_PG_SEEN_TABLE})")
            if "digest" not in {row[1] for row in c.fetchall()}:
                # a store made before answered ids kept the record's digest: its ids have none (never a conflict)
                c.execute(f"ALTER TABLE {_PG_SEEN_TABLE} ADD COLUMN digest TEXT")

    def create_stream_index(self, competitions_in: CompetitionsIn) -> None:
        """Create the index of a competition's streams if it is not there, filled from the events already
        stored, in one transaction."""
        if self._has_stream_index():
            return
        with self.datastore.transaction(commit=True) as c:
            # A write first, to hold SQLite's write lock from the start: processes opening the store together
            # then wait for each other here (a deferred transaction that read first could not write after
            # another's commit: "database is locked").
            c.execute(f"DELETE FROM {_PG_SEEN_TABLE} WHERE 0")
            c.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (_STREAMS_TABLE,))
            if c.fetchone() is not None:
                return
            c.execute(
                f"CREATE TABLE {_STREAMS_TABLE} (competition_id TEXT NOT NULL, stream_id TEXT NOT NULL,"
                " PRIMARY KEY (competition_id, stream_id)) WITHOUT ROWID"
            )
            c.execute(f"SELECT originator_id, originator_version, topic, state FROM {self.events_table_name}")
            rows = {
                (competition, stream)
                for stream, version, topic, state in c.fetchall()
                for competition in competitions_in(StoredEvent(UUID(stream), version, topic, state))
            }
            c.executemany(f"INSERT INTO {_STREAMS_TABLE} VALUES (?, ?)", sorted(rows))

    def _has_stream_index(self) -> bool:
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (_STREAMS_TABLE,))
            return c.fetchone() is not None

    def streams_of(self, competition_id: str, opened_by: str | None = None) -> set[UUID]:
        with self.datastore.transaction(commit=False) as c:
            if opened_by is None:
                c.execute(f"SELECT stream_id FROM {_STREAMS_TABLE} WHERE competition_id = ?", (competition_id,))
            else:
                c.execute(
                    f"SELECT i.stream_id FROM {_STREAMS_TABLE} i JOIN {self.events_table_name} e"
                    " ON e.originator_id = i.stream_id AND e.originator_version = 1"
                    " WHERE i.competition_id = ? AND e.topic = ?",
                    (competition_id, opened_by),
                )
            return {UUID(row[0]) for row in c.fetchall()}

    def _insert_events(self, c: Any, stored_events: Sequence[Any], **kwargs: Any) -> Sequence[int] | None:
        seen: Sequence[SeenId] = kwargs.get("seen_ids") or ()
        if seen:
            c.executemany(
                f"INSERT INTO {_PG_SEEN_TABLE} (event_id, stream_id, outcome, digest) VALUES (?, ?, ?, ?)",
                [(row[0].hex, row[1].hex, row[2], row[3] if len(row) == 4 else None) for row in seen],
            )
        index: Sequence[StreamRow] = kwargs.get("stream_index") or ()
        if index:
            c.executemany(f"INSERT OR IGNORE INTO {_STREAMS_TABLE} VALUES (?, ?)", [(k, s.hex) for k, s in index])
        heads: Sequence[HeadRow] = kwargs.get("heads") or ()
        if heads:
            c.executemany(
                f"INSERT INTO {_HEADS_TABLE} VALUES (?, ?, ?) ON CONFLICT (stream_id) DO UPDATE"
                " SET version = excluded.version, link = excluded.link",
                [(stream.hex, version, link) for stream, version, link in heads],
            )
        return super()._insert_events(c, stored_events, **kwargs)

    def heads_of(self, streams: Iterable[UUID]) -> dict[UUID, tuple[int, str]]:
        wanted = [i.hex for i in streams]
        if not wanted:
            return {}
        marks = ",".join("?" * len(wanted))
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT stream_id, version, link FROM {_HEADS_TABLE} WHERE stream_id IN ({marks})", wanted)
            return {UUID(row[0]): (int(row[1]), row[2]) for row in c.fetchall()}

    def existing(self, streams: Iterable[UUID]) -> set[UUID]:
        wanted = [i.hex for i in streams]
        if not wanted:
            return set()
        marks = ",".join("?" * len(wanted))
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT originator_id FROM {self.events_table_name} WHERE originator_id IN ({marks})"
                " AND originator_version = 1",
                wanted,
            )
            return {UUID(row[0]) for row in c.fetchall()}

    def seen(self, ids: Iterable[UUID]) -> set[UUID]:
        wanted = [i.hex for i in ids]
        if not wanted:
            return set()
        marks = ",".join("?" * len(wanted))
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT event_id FROM {_PG_SEEN_TABLE} WHERE event_id IN ({marks})", wanted)
            return {UUID(row[0]) for row in c.fetchall()}

    def answers(self, ids: Iterable[UUID]) -> dict[UUID, tuple[UUID, str]]:
        wanted = [i.hex for i in ids]
        if not wanted:
            return {}
        marks = ",".join("?" * len(wanted))
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT event_id, stream_id, outcome FROM {_PG_SEEN_TABLE} WHERE event_id IN ({marks})", wanted)
            return {UUID(row[0]): (UUID(row[1]), row[2]) for row in c.fetchall()}

    def seen_digests(self, ids: Iterable[UUID]) -> dict[UUID, str | None]:
        wanted = [i.hex for i in ids]
        if not wanted:
            return {}
        marks = ",".join("?" * len(wanted))
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT event_id, digest FROM {_PG_SEEN_TABLE} WHERE event_id IN ({marks})", wanted)
            return {UUID(row[0]): row[1] for row in c.fetchall()}

    def count_seen(self) -> dict[str, int]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT outcome, count(*) FROM {_PG_SEEN_TABLE} GROUP BY outcome")
            return {row[0]: row[1] for row in c.fetchall()}


def store_env(database_url: str | None, sqlite_path: str | None = None, schema: str = "") -> dict[str, str]:
    """eventsourcing's environment for PostgreSQL at ``database_url``, or SQLite at ``sqlite_path``.

    POSTGRES_ENABLE_DB_FUNCTIONS stays unset: with eventsourcing 9.5.6 it silently drops tracking records.
    """
    if database_url:
        url = urlparse(database_url)
        env = {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": url.path.lstrip("/") or "postgres",
            "POSTGRES_HOST": url.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(url.port or 5432),
            "POSTGRES_USER": unquote(url.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(url.password or ""),
            "PROCESS_RECORDER_TOPIC": f"{__name__}:PostgresStoreRecorder",
            "POSTGRES_POOL_SIZE": "4",
            # how long a statement waits for a connection while the server is down before it fails (and the
            # referee or the projector retries, the API answers 503); eventsourcing's default is 30 s
            "POSTGRES_CONNECT_TIMEOUT": "3",
        }
        if schema:
            env["POSTGRES_SCHEMA"] = schema
        return env
    if not sqlite_path:
        raise ValueError("the store needs DATABASE_URL or an embedded SQLite path")
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": sqlite_path,
        "PROCESS_RECORDER_TOPIC": f"{__name__}:SQLiteStoreRecorder",
    }


class Store(Application[UUID]):
    """The one door to persistence of what the referee judged."""

    name = "pokeraudit"

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        super().__init__(env)
        #: (competition, stream) pairs this Store has indexed: a batch writes only those it has not
        self._indexed: set[StreamRow] = set()
        self._store_recorder.create_stream_index(self._competitions_in)

    def construct_recorder(self) -> ProcessRecorder:
        return self.factory.process_recorder()

    def construct_mapper(self) -> Mapper[UUID]:
        transcoder = self.construct_transcoder()
        assert isinstance(transcoder, JSONTranscoder)
        return ChainMapper(transcoder=transcoder)

    @property
    def chain_mapper(self) -> ChainMapper:
        assert isinstance(self.mapper, ChainMapper)
        return self.mapper

    @property
    def _store_recorder(self) -> PostgresStoreRecorder | SQLiteStoreRecorder:
        recorder = self.recorder
        assert isinstance(recorder, PostgresStoreRecorder | SQLiteStoreRecorder)
        return recorder

    def commit(
        self,
        aggregates: Iterable[Aggregate],
        position: Tracking | None,
        seen_ids: Sequence[SeenId],
        checkpoint: CheckpointChain | None = None,
    ) -> list[Any]:
        """One transaction: every pending event of ``aggregates``, the log position, the answered ids, and
        with ``checkpoint`` the heads this transaction moved, anchored last (:mod:`domain.checkpoints`). Answers the
        checkpoint's events it stored (its opening and the checkpoint), for the log's copy."""
        mapper = self.chain_mapper
        stored: list[StoredEvent] = []
        named: set[tuple[str | None, UUID]] = set()
        heads: list[Head] = []
        for agg in aggregates:
            if isinstance(agg, ChainedAggregate):
                pending = agg.collect_chained()
                stored += (
                    mapper.to_stored_event(e) if body is None else mapper.stored_chained(e, body)
                    for e, body in pending
                )
                # One competition's string per record, hashed once: a set of them, then a pair per competition.
                named.update((c, agg.id) for c in {e.meta.get("competition_id") for e, _ in pending})
                if pending:
                    last = pending[-1][0]
                    heads.append((str(agg.id), last.originator_version, last.link, type(last).__name__,
                                  str(last.meta.get("event_id") or last.meta.get("follows") or "")))
            else:
                events = agg.collect_events()
                stored += map(mapper.to_stored_event, events)
                named.update((c, agg.id) for c in {_competition_of(e) for e in events})
                if events:
                    last = events[-1]
                    heads.append((str(agg.id), last.originator_version, str(getattr(last, "link", "")),
                                  type(last).__name__, ""))
        anchored: list[Any] = []
        if checkpoint is not None and heads:
            # After the events it anchors: in the notification log, a checkpoint follows every head it names.
            meta = {"log": {"position": position.application_name, "offset": position.notification_id}} if position else {}
            checkpoint.anchor(heads, datetime.now(UTC), meta)
            for e, body in checkpoint.collect_chained():
                stored.append(mapper.stored_chained(e, body) if body is not None else mapper.to_stored_event(e))
                anchored.append(e)
        index = self._unindexed(named)
        rows = [(UUID(h[0]), h[1], h[2]) for h in heads if h[2]]
        self.recorder.insert_events(stored, tracking=position, seen_ids=seen_ids, stream_index=index, heads=rows)
        self._remember(index)
        return anchored

    def _record(self, processing_event: ProcessingEvent[UUID]) -> list[Recording[UUID]]:
        """What is saved through the application (a protocol snapshot) indexes its streams as a commit does."""
        named: set[tuple[str | None, UUID]] = {(_competition_of(e), e.originator_id) for e in processing_event.events}
        index = self._unindexed(named)
        processing_event.saved_kwargs["stream_index"] = index
        recordings = super()._record(processing_event)
        self._remember(index)
        return recordings

    def _unindexed(self, named: set[tuple[str | None, UUID]]) -> list[StreamRow]:
        """The (competition, stream) pairs among ``named`` this Store has not indexed (none without a
        competition: a record too broken to name one)."""
        return [(c, s) for c, s in named if c is not None and (c, s) not in self._indexed]

    def _remember(self, index: list[StreamRow]) -> None:
        # Only once the transaction is committed: a failed commit's streams are indexed when judged again.
        if len(self._indexed) + len(index) > _INDEX_MEMORY:
            self._indexed.clear()
        self._indexed.update(index)

    def _competitions_in(self, stored: StoredEvent) -> Iterable[str]:
        """The competition a stored event's meta names, if any: how the index is first filled from a store
        that held events before it. A state that is searchable as bytes and never mentions a competition is
        not decoded."""
        if (
            self.mapper.compressor is None and self.mapper.cipher is None
            and b'"competition_id"' not in stored.state
        ):
            return ()
        competition = _competition_of(self.mapper.to_domain_event(stored))
        return (competition,) if isinstance(competition, str) else ()

    def streams_of(self, competition_id: str, opened_by: str | None = None) -> set[UUID]:
        """The streams holding events of ``competition_id`` (one query; with ``opened_by``, an event topic,
        only the streams whose first event is of that type)."""
        return self._store_recorder.streams_of(competition_id, opened_by)

    def notifications(self, topics: Sequence[str] = (), page: int = 1000) -> Iterator[Any]:
        """Every stored event (or only those of ``topics``) in the order it was stored, read page by page."""
        start = 1
        while batch := self.recorder.select_notifications(start, page, topics=topics):
            yield from batch
            start = batch[-1].id + 1

    def check_connections(self) -> None:
        """Drop the idle connections a PostgreSQL restart broke (SQLite has none to lose)."""
        datastore = getattr(self.recorder, "datastore", None)
        pool = getattr(datastore, "pool", None)
        if pool is not None and hasattr(pool, "check"):
            pool.check()

    def tracked_offset(self, topic: str, partition: int) -> int | None:
        """The last log offset of ``topic:partition`` whose outcome is stored, or None."""
        found = self.recorder.max_tracking_id(position_name(topic, partition))  # type: ignore[attr-defined]
        return None if found is None else int(found)

    def seen(self, ids: Iterable[UUID]) -> set[UUID]:
        return self._store_recorder.seen(ids)

    def answers(self, ids: Iterable[UUID]) -> dict[UUID, tuple[UUID, str]]:
        """For each of ``ids`` the store has answered: the stream its answer went to (the record's aggregate, or
        its competition's rejection log) and the outcome."""
        return self._store_recorder.answers(ids)

    def last_event(self, stream: UUID) -> Any | None:
        """The last stored event of ``stream`` (one indexed read, not a replay), or None."""
        found = self.recorder.select_events(stream, desc=True, limit=1)
        return self.mapper.to_domain_event(found[0]) if found else None

    def checkpoint_chain(self, chain: str) -> CheckpointChain:
        """The checkpoints of ``chain`` (``topic:partition``) as stored: resumed from its last one, or opened."""
        now = datetime.now(UTC)
        last = self.last_event(checkpoint_chain_id(chain))
        if last is None:
            return CheckpointChain.open(chain, now)
        return CheckpointChain.resume(chain, last.originator_version, last.link, last.timestamp)

    def heads_of(self, streams: Iterable[UUID]) -> dict[UUID, tuple[int, str]]:
        """The (version, link) the referee last left each of ``streams`` at (one query): a stream shorter than
        that was cut short."""
        return self._store_recorder.heads_of(streams)

    def seen_digests(self, ids: Iterable[UUID]) -> dict[UUID, str | None]:
        """Each answered id of ``ids`` → the digest of the record answered (None: answered before digests)."""
        return self._store_recorder.seen_digests(ids)

    def existing(self, streams: Iterable[UUID]) -> set[UUID]:
        """Which of ``streams`` have stored events (one query for a batch, not one per stream)."""
        return self._store_recorder.existing(streams)

    def outcome_counts(self) -> dict[str, int]:
        return self._store_recorder.count_seen()


def _competition_of(event: Any) -> str | None:
    meta = getattr(event, "meta", None)
    found = meta.get("competition_id") if isinstance(meta, dict) else None
    return found if isinstance(found, str) else None


def position_name(topic: str, partition: int) -> str:
    return f"{topic}:{partition}"


def position(topic: str, partition: int, offset: int) -> Tracking:
    return Tracking(application_name=position_name(topic, partition), notification_id=offset)
