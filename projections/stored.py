"""The event store as the competition's projections see it, and what a stored event says of its recording.

Projections import only the domain (DESIGN, "Ownership"), so the protocol and the federation's views name
what they read as Protocols here; ``ingest.store.Store`` has that shape, and mypy holds it to it where the API
hands the store to them (api/routes/federation.py, api/routes/protocol.py, api/cli_protocol.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.application import Repository
from eventsourcing.persistence import AggregateRecorder, EventStore, Mapper


class EventSource(Protocol):
    """Stored events: by stream (decoded, or as stored with their mapper), by notification, by competition, and
    aggregates."""

    @property
    def events(self) -> EventStore[UUID]: ...

    @property
    def mapper(self) -> Mapper[UUID]: ...

    @property
    def recorder(self) -> AggregateRecorder: ...

    @property
    def repository(self) -> Repository[UUID]: ...

    def notifications(self, topics: Sequence[str] = ..., page: int = ...) -> Iterator[Any]:
        """Every stored event (or those of ``topics``) in the order stored."""
        ...

    def streams_of(self, competition_id: str, opened_by: str | None = ...) -> set[UUID]:
        """The streams holding events of ``competition_id``, from the store's index, not by reading every
        stored event; with ``opened_by`` (an event topic), only those whose first event is of that type."""
        ...

    def heads_of(self, streams: Iterable[UUID]) -> dict[UUID, tuple[int, str]]:
        """The (version, link) the referee last left each of ``streams`` at."""
        ...


def replayed(events: Iterable[Any]) -> Any:
    """The aggregate a stream's stored events make, applied in version order (None for no events)."""
    aggregate: Any = None
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


def recorded_by(event: Any) -> dict[str, str]:
    """Who recorded a stored event, as the referee put it in its meta (blank where it did not)."""
    recorded = event.meta.get("recorded_by", {}) if isinstance(event.meta, dict) else {}
    return {"person": recorded.get("person", ""), "role": recorded.get("role", "")}


def iso(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()


#: a stored event's row as a rebuild reads it: (notification id, stream id as text, version, topic, state)
StoredRow = tuple[int, str, int, str, Any]

#: the stream id as text as :class:`uuid.UUID` writes it (eventsourcing's SQLite keeps its 32 hex digits)
_SQLITE_STREAM = (
    "substr(originator_id, 1, 8) || '-' || substr(originator_id, 9, 4) || '-' || substr(originator_id, 13, 4)"
    " || '-' || substr(originator_id, 17, 4) || '-' || substr(originator_id, 21)"
)


def stored_rows(
    recorder: Any, start: int, limit: int, stop: int = 2**63 - 1, part: tuple[int, int] | None = None
) -> list[StoredRow]:
    """The stored events from notification ``start`` to ``stop`` (the last stored), at most ``limit``, as
    plain rows read by one SELECT through the recorder's own connection: eventsourcing's
    ``select_notifications`` makes a Notification and a UUID of every row, about a sixth of a rebuild's
    time. With ``part`` (k, n), only the events of the streams of partition k of n (:func:`part_of`), chosen
    by the database, so that each of a rebuild's processes reads only its own. Recorders other than
    eventsourcing's SQLite and PostgreSQL ones are read through ``select_notifications``."""
    from eventsourcing.sqlite import SQLiteAggregateRecorder

    table = recorder.events_table_name
    k, n = part or (0, 1)
    if isinstance(recorder, SQLiteAggregateRecorder) and recorder.datastore.originator_id_type == "uuid":
        with recorder.datastore.transaction(commit=False) as cursor:
            raw = cursor.sqlite_cursor
            raw.row_factory = None
            raw.execute(
                f"SELECT rowid, {_SQLITE_STREAM}, originator_version, topic, state FROM {table}"
                " WHERE rowid >= ? AND rowid <= ? AND unicode(substr(originator_id, -1)) % ? = ?"
                " ORDER BY rowid LIMIT ?",
                (start, stop, n, k, limit),
            )
            rows: list[StoredRow] = raw.fetchall()
            return rows
    from eventsourcing.postgres import PostgresAggregateRecorder

    if isinstance(recorder, PostgresAggregateRecorder):
        from psycopg.rows import tuple_row

        statement = page_statement(recorder, n, k)
        with (
            recorder.datastore.get_connection() as conn,
            conn.transaction(force_rollback=True),
            conn.cursor(row_factory=tuple_row) as cursor,
        ):
            # a page is a short walk along the notification index; the partition's filter, which the planner
            # cannot estimate (it takes it for 0.5 % of the rows), made it plan otherwise: in parallel, two of the
            # server's worker processes started for every page (most of the server's time in a rebuild), or,
            # from the store's first event, every row read and sorted on disk for the page (3.4 s against 0.25 s
            # along the index for 10,000 rows of 230,600)
            cursor.execute(_ALONG_THE_INDEX)
            cursor.execute(statement, (start, stop, limit), prepare=True, binary=True)
            return list(cursor.fetchall())
    rows = []
    while len(rows) < limit and (page := recorder.select_notifications(start, limit, stop=stop)):
        for notification in page:
            stream = str(notification.originator_id)
            if part_of(stream, n) == k and len(rows) < limit:
                rows.append((notification.id, stream, notification.originator_version, notification.topic,
                             notification.state))
        start = page[-1].id + 1
    return rows


def page_statement(recorder: Any, parts: int, k: int) -> Any:
    """The SELECT of a page of a PostgreSQL store's rows (parameters: the first and last notification id, the
    most rows), of partition ``k`` of ``parts``."""
    from psycopg.sql import SQL, Identifier

    # one process reads every stream: no filter (which the planner cannot estimate: it took the page for
    # a long scan and planned it in parallel); one of several reads its partition along the notification
    # index, keeping its own rows (the reading transaction's settings keep the plan there). A partial index of
    # each partition would spare the server reading the others' rows (1.6 µs of its CPU a stored event for a
    # two-worker rebuild) but cost the store's writer 3.2-3.5 µs an event it stores: it does not pay unless
    # every event is rebuilt by several processes three times or more (docs/BENCHMARKS.md, fifth pass). n and k
    # are written in, so that an index made for them (an operator's choice) is used if there
    partition = f" AND {_PART_OF.format(n=parts, k=k)}".replace("%", "%%") if parts > 1 else ""
    return SQL(
        "SELECT notification_id, originator_id::text, originator_version, topic, state FROM {s}.{t}"
        " WHERE notification_id >= %s AND notification_id <= %s" + partition + " ORDER BY notification_id LIMIT %s"
    ).format(s=Identifier(recorder.datastore.schema), t=Identifier(recorder.events_table_name))


#: a stream's partition as PostgreSQL reads it (:func:`part_of`)
_PART_OF = "ascii(right(originator_id::text, 1)) % {n} = {k}"


#: for a page's reading transaction only: along the notification index, in one process
_ALONG_THE_INDEX = (
    "SET LOCAL max_parallel_workers_per_gather = 0; SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off"
)


def part_of(stream: str, parts: int) -> int:
    """Which of ``parts`` partitions a stream's events go to in a rebuild by several processes: by the last
    character of its id as :class:`uuid.UUID` writes it (a hex digit; eight of the sixteen are odd in
    ASCII), which both databases can read from the stored id."""
    return ord(stream[-1]) % parts


def served(recorder: Any) -> bool:
    """Whether the store is a database server's (PostgreSQL), which answers from a process of its own."""
    from eventsourcing.postgres import PostgresAggregateRecorder

    return isinstance(recorder, PostgresAggregateRecorder)


def stored_streams(recorder: Any, streams: Iterable[UUID]) -> dict[UUID, list[Any]]:
    """Each of ``streams``' stored events (eventsourcing's ``StoredEvent``, not decoded) in version order, read by
    one SELECT for them all where the recorder is eventsourcing's SQLite or PostgreSQL one (the protocol reads
    every stream of a competition: one query each was most of its time), else stream by stream. A stream
    without events is left out."""
    from eventsourcing.persistence import StoredEvent
    from eventsourcing.postgres import PostgresAggregateRecorder
    from eventsourcing.sqlite import SQLiteAggregateRecorder

    wanted = list(streams)
    out: dict[UUID, list[Any]] = {}
    if not wanted:
        return out
    table = getattr(recorder, "events_table_name", "")
    if isinstance(recorder, SQLiteAggregateRecorder) and recorder.datastore.originator_id_type == "uuid":
        by_hex = {s.hex: s for s in wanted}
        marks = ",".join("?" * len(by_hex))
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(
                f"SELECT originator_id, originator_version, topic, state FROM {table}"
                f" WHERE originator_id IN ({marks}) ORDER BY originator_id, originator_version",
                list(by_hex),
            )
            for row in cursor.fetchall():
                stream = by_hex[row["originator_id"]]
                out.setdefault(stream, []).append(
                    StoredEvent(originator_id=stream, originator_version=row["originator_version"], topic=row["topic"],
                                state=row["state"])
                )
        return out
    if isinstance(recorder, PostgresAggregateRecorder):
        from psycopg.rows import tuple_row
        from psycopg.sql import SQL, Identifier

        statement = SQL(
            "SELECT originator_id, originator_version, topic, state FROM {s}.{t}"
            " WHERE originator_id = ANY(%s) ORDER BY originator_id, originator_version"
        ).format(s=Identifier(recorder.datastore.schema), t=Identifier(table))
        with recorder.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as cursor:
            cursor.execute(statement, (wanted,))
            for stream, version, topic, state in cursor.fetchall():
                out.setdefault(stream, []).append(
                    StoredEvent(originator_id=stream, originator_version=version, topic=topic, state=bytes(state))
                )
        return out
    for stream in wanted:
        if found := list(recorder.select_events(stream)):
            out[stream] = found
    return out
