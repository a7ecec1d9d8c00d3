"""The event store: accepted events, rejections, seen event ids and log positions, in one transaction.

An eventsourcing :class:`Application` on PostgreSQL (or SQLite in the embedded mode) whose recorder is a
process recorder: :meth:`Store.commit` writes the aggregates' new events, the tracking record of the log
position they came from (``topic:partition`` → offset) and the ids of the records they answer, atomically
(DESIGN decision 2). A crash before the commit leaves none of it; a redelivery after it is recognised by
its tracked offset or its event id.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any
from urllib.parse import unquote, urlparse
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import (
    InterfaceError,
    JSONTranscoder,
    Mapper,
    MapperDeserialisationError,
    OperationalError,
    ProcessRecorder,
    StoredEvent,
    Tracking,
    find_id_convertor,
)
from eventsourcing.postgres import PostgresProcessRecorder
from eventsourcing.sqlite import SQLiteProcessRecorder
from eventsourcing.utils import get_topic, resolve_topic, retry
from psycopg.sql import SQL, Identifier

from domain.chained import ChainedAggregate

#: (event id, the stream it went to, what became of it: "accepted" / "rejected")
SeenId = tuple[UUID, UUID, str]

_PG_SEEN_TABLE = "referee_event_ids"
#: how a chained event kept with its canonical body begins (:class:`ChainMapper`)
_BODY_FIRST = b'{"body":'
#: the event's fields the canonical body holds (the stream and version are the stored event's own columns)
_IN_BODY = ("originator_id", "originator_version", "timestamp", "payload", "meta")
_LINKS_ONLY = {"prev_link", "link"}
#: the advisory lock the store's tables are created under (one per database: schemas share it, harmlessly)
_CREATE_LOCK = "pokeraudit: create the store's tables"


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
        return StoredEvent(
            originator_id=event.originator_id,
            originator_version=event.originator_version,
            topic=topic,
            state=b"".join((_BODY_FIRST, body, b',"chain":', chain, b"}")),
        )

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


def _chained_class(cls: type) -> tuple[str, bool]:
    """An event class's topic, and whether its events hold nothing beyond the body but the two links."""
    found = _CHAINED_CLASSES.get(cls)
    if found is None:
        fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
        links_only = fields - set(_IN_BODY) == _LINKS_ONLY and getattr(cls, "class_version", 1) == 1
        found = _CHAINED_CLASSES[cls] = (get_topic(cls), links_only)
    return found


class PostgresStoreRecorder(PostgresProcessRecorder):
    def __init__(self, datastore: Any, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.seen_table = Identifier(datastore.schema or "public", _PG_SEEN_TABLE)
        self.sql_create_statements.append(
            SQL(
                "CREATE TABLE IF NOT EXISTS {t} (event_id uuid PRIMARY KEY, stream_id uuid NOT NULL,"
                " outcome text NOT NULL)"
            ).format(t=self.seen_table)
        )
        events = Identifier(datastore.schema or "public", self.events_table_name)
        # COPY in binary, not INSERT: psycopg's C extension writes each row, where an INSERT of one array per
        # column (or eventsourcing's array of a composite type, dumped as text and escaped by regular
        # expressions) is built value by value in Python: about a seventh of the referee's time.
        self.copy_events_statement = SQL(
            "COPY {t} (originator_id, originator_version, topic, state) FROM STDIN (FORMAT BINARY)"
        ).format(t=events)
        self.copy_seen_statement = SQL(
            "COPY {t} (event_id, stream_id, outcome) FROM STDIN (FORMAT BINARY)"
        ).format(t=self.seen_table)
        self.streams_statement = SQL(
            "SELECT originator_id FROM {t} WHERE originator_id = ANY(%b) AND originator_version = 1"
        ).format(t=events)

    def create_table(self) -> None:
        # Referees starting together on an empty database would race on eventsourcing's CREATE TYPE and
        # CREATE TABLE (a unique violation in the catalog): one creates while the others wait, then find it done.
        with self.datastore.get_connection() as conn:
            conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (_CREATE_LOCK,))
            try:
                super().create_table()
            finally:
                conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (_CREATE_LOCK,))

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """One transaction: the tracking record, the answered event ids, the events (after eventsourcing's
        table lock, so notification ids are committed in their order). Returns no notification ids: COPY
        gives none back, and nothing here reads them (readers follow the notification log)."""
        tracking: Tracking | None = kwargs.get("tracking")
        seen: Sequence[SeenId] = kwargs.get("seen_ids") or ()
        with self.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:
            if tracking is not None:
                self._insert_tracking(curs, tracking=tracking)
            if seen:
                with curs.copy(self.copy_seen_statement) as copy:
                    copy.set_types(["uuid", "uuid", "text"])
                    for row in seen:
                        copy.write_row(row)
            if stored_events:
                self._lock_table(curs)
                self._notify_channel(curs)
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

    def seen(self, ids: Iterable[UUID]) -> set[UUID]:
        wanted = list(ids)
        if not wanted:
            return set()
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(
                SQL("SELECT event_id FROM {t} WHERE event_id = ANY(%b)").format(t=self.seen_table), (wanted,)
            )
            return {row["event_id"] for row in curs.fetchall()}

    def count_seen(self) -> dict[str, int]:
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(SQL("SELECT outcome, count(*) AS n FROM {t} GROUP BY outcome").format(t=self.seen_table))
            return {row["outcome"]: row["n"] for row in curs.fetchall()}


class SQLiteStoreRecorder(SQLiteProcessRecorder):
    def construct_create_table_statements(self) -> list[str]:
        return [
            *super().construct_create_table_statements(),
            f"CREATE TABLE IF NOT EXISTS {_PG_SEEN_TABLE} (event_id TEXT PRIMARY KEY, stream_id TEXT NOT NULL,"
            " outcome TEXT NOT NULL) WITHOUT ROWID",
        ]

    def _insert_events(self, c: Any, stored_events: Sequence[Any], **kwargs: Any) -> Sequence[int] | None:
        seen: Sequence[SeenId] = kwargs.get("seen_ids") or ()
        if seen:
            c.executemany(
                f"INSERT INTO {_PG_SEEN_TABLE} VALUES (?, ?, ?)", [(e.hex, s.hex, o) for e, s, o in seen]
            )
        return super()._insert_events(c, stored_events, **kwargs)

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
        self, aggregates: Iterable[Aggregate], position: Tracking | None, seen_ids: Sequence[SeenId]
    ) -> None:
        """One transaction: every pending event of ``aggregates``, the log position, the answered ids."""
        mapper = self.chain_mapper
        stored: list[StoredEvent] = []
        for agg in aggregates:
            if isinstance(agg, ChainedAggregate):
                stored += (
                    mapper.to_stored_event(e) if body is None else mapper.stored_chained(e, body)
                    for e, body in agg.collect_chained()
                )
            else:
                stored += map(mapper.to_stored_event, agg.collect_events())
        self.recorder.insert_events(stored, tracking=position, seen_ids=seen_ids)

    def notifications(self, topics: Sequence[str] = (), page: int = 1000) -> Iterator[Any]:
        """Every stored event (or only those of ``topics``) in the order it was stored, read page by page."""
        start = 1
        while batch := self.recorder.select_notifications(start, page, topics=topics):
            yield from batch
            start = batch[-1].id + 1

    def tracked_offset(self, topic: str, partition: int) -> int | None:
        """The last log offset of ``topic:partition`` whose outcome is stored, or None."""
        found = self.recorder.max_tracking_id(position_name(topic, partition))  # type: ignore[attr-defined]
        return None if found is None else int(found)

    def seen(self, ids: Iterable[UUID]) -> set[UUID]:
        return self._store_recorder.seen(ids)

    def existing(self, streams: Iterable[UUID]) -> set[UUID]:
        """Which of ``streams`` have stored events (one query for a batch, not one per stream)."""
        return self._store_recorder.existing(streams)

    def outcome_counts(self) -> dict[str, int]:
        return self._store_recorder.count_seen()


def position_name(topic: str, partition: int) -> str:
    return f"{topic}:{partition}"


def position(topic: str, partition: int, offset: int) -> Tracking:
    return Tracking(application_name=position_name(topic, partition), notification_id=offset)
