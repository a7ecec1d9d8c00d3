"""The PostgreSQL plumbing is real: eventsourcing on psycopg stores, reloads, and tracks atomically."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError, ProcessRecorder, Tracking

pytestmark = pytest.mark.integration

#: How a referee names the Kafka position it has consumed: one tracking row per topic partition.
POSITION = "pokeraudit.events:3"


class Table(Aggregate):
    @event("Opened")
    def __init__(self, competition: str, seats: int) -> None:
        self.competition = competition
        self.seats = seats
        self.players: list[str] = []

    @event("PlayerSeated")
    def seat(self, player: str) -> None:
        self.players.append(player)


class Referee(Application[Any]):
    """An application whose recorder also keeps tracking records, in the same transaction as events."""

    def construct_recorder(self) -> ProcessRecorder:
        return self.factory.process_recorder()

    @property
    def process_recorder(self) -> ProcessRecorder:
        assert isinstance(self.recorder, ProcessRecorder)
        return self.recorder


def test_aggregate_saved_and_reloaded_through_postgres(pg_database: Any) -> None:
    app = Referee(env=pg_database.eventsourcing_env)
    try:
        table = Table(competition="bfsp-2026-minsk", seats=9)
        table.seat("Alice")
        table.seat("Boris")
        app.save(table)
    finally:
        app.close()

    # A second application instance reads the same database: nothing came from memory.
    reopened = Referee(env=pg_database.eventsourcing_env)
    try:
        copy = reopened.repository.get(table.id)
        assert (copy.competition, copy.seats, copy.players, copy.version) == (
            "bfsp-2026-minsk",
            9,
            ["Alice", "Boris"],
            3,
        )
    finally:
        reopened.close()

    with psycopg.connect(pg_database.url) as conn:
        (count,) = conn.execute("SELECT count(*) FROM referee_events").fetchone() or (0,)
    assert count == 3


def test_tracking_record_commits_with_the_events_or_not_at_all(pg_database: Any) -> None:
    app = Referee(env=pg_database.eventsourcing_env)
    try:
        recorder = app.process_recorder
        assert recorder.max_tracking_id(POSITION) is None

        table = Table(competition="bfsp-2026-minsk", seats=9)
        app.events.put(
            table.collect_events(), tracking=Tracking(application_name=POSITION, notification_id=41)
        )
        assert recorder.max_tracking_id(POSITION) == 41

        # A redelivered offset is refused, and the events that came with it are not stored either.
        table.seat("Alice")
        with pytest.raises(IntegrityError):
            app.events.put(
                table.collect_events(), tracking=Tracking(application_name=POSITION, notification_id=41)
            )
        assert app.repository.get(table.id).players == []
        assert recorder.max_tracking_id(POSITION) == 41

        # The next offset goes through, events and position together.
        table = app.repository.get(table.id)
        table.seat("Alice")
        app.events.put(
            table.collect_events(), tracking=Tracking(application_name=POSITION, notification_id=42)
        )
        assert app.repository.get(table.id).players == ["Alice"]
        assert recorder.max_tracking_id(POSITION) == 42
        assert recorder.has_tracking_id(POSITION, 42)
        assert not recorder.has_tracking_id(POSITION, 43)
    finally:
        app.close()

    # Read back from the database by a fresh connection, as a restarted referee would before seeking.
    with psycopg.connect(pg_database.url) as conn:
        rows = conn.execute(
            "SELECT application_name, notification_id FROM referee_tracking ORDER BY 1"
        ).fetchall()
    assert (POSITION, 42) in rows
