"""The event store on the real server: referees that start together on an empty database all open it; the
index of a competition's streams is written in the events' transaction, and a store that held events before
it is indexed once, by whichever of the referees starting together opens it first."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import get_topic
from stores_together import open_together

from domain.rejections import Rejection, RejectionKind, RejectionLog, rejection_log_id
from ingest.store import Store, position, store_env

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = pytest.mark.integration

REFEREES = 6
ROUNDS = 4
AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def test_referees_starting_together_on_an_empty_database_all_open_the_store(pg_database: PgDatabase) -> None:
    for round_ in range(ROUNDS):
        schema = f"referees_{round_}"
        with psycopg.connect(pg_database.url, autocommit=True) as db:
            db.execute(f"CREATE SCHEMA {schema}")
        assert open_together(store_env(pg_database.url, schema=schema), REFEREES) == []
        with psycopg.connect(pg_database.url, autocommit=True) as db:
            tables = {
                row[0]
                for row in db.execute(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", (schema,)
                )
            }
        assert {"pokeraudit_events", "pokeraudit_tracking", "referee_event_ids", "referee_streams"} <= tables


def rejected(competition_id: str, *, logged_under: str | None = None) -> RejectionLog:
    """A rejection log with one rejection whose meta names ``competition_id``."""
    log = RejectionLog.open(logged_under or competition_id, AT)
    rejection = Rejection(RejectionKind.ILLEGAL, "a raise below the minimum", rule="bfsp 4.7.3", seq=1, record="{}")
    log.reject(rejection, AT, {"log": {"topic": "t", "partition": 0, "offset": 1}, "competition_id": competition_id})
    return log


def index_rows(url: str, schema: str = "public") -> set[tuple[str, UUID]]:
    with psycopg.connect(url, autocommit=True) as db:
        return {(row[0], row[1]) for row in db.execute(f"SELECT competition_id, stream_id FROM {schema}.referee_streams")}


def test_a_failed_commit_leaves_no_index_row_and_the_next_one_writes_it(pg_database: PgDatabase) -> None:
    store = Store(env=store_env(pg_database.url))
    try:
        store.commit([rejected("cup-a")], position("t", 0, 1), [])
        assert index_rows(pg_database.url) == {("cup-a", rejection_log_id("cup-a"))}
        with pytest.raises(IntegrityError):  # cup-a's log is opened again: its first event is already stored
            store.commit([rejected("cup-b"), rejected("cup-a")], position("t", 0, 2), [])
        assert index_rows(pg_database.url) == {("cup-a", rejection_log_id("cup-a"))}
        assert store.tracked_offset("t", 0) == 1
        store.commit([rejected("cup-b")], position("t", 0, 2), [])
        assert store.streams_of("cup-b") == {rejection_log_id("cup-b")}
    finally:
        store.close()


def test_a_store_filled_before_the_index_is_indexed_once_by_the_referees_opening_it(pg_database: PgDatabase) -> None:
    schema = "season"
    with psycopg.connect(pg_database.url, autocommit=True) as db:
        db.execute(f"CREATE SCHEMA {schema}")
    store = Store(env=store_env(pg_database.url, schema=schema))
    try:
        shared = rejected("cup-a", logged_under="shared")
        store.commit([rejected("cup-a"), rejected("cup-b"), shared], position("t", 0, 1), [])
        shared.reject(Rejection(RejectionKind.ILLEGAL, "out of turn", rule="bfsp 4.2.1", seq=2, record="{}"), AT,
                      {"log": {}, "competition_id": "cup-b"})
        store.commit([shared], position("t", 0, 2), [])
        store.commit([RejectionLog.open("cup-c", AT)], position("t", 0, 3), [])  # names no competition in its meta
    finally:
        store.close()
    indexed = index_rows(pg_database.url, schema)
    assert indexed == {
        ("cup-a", rejection_log_id("cup-a")), ("cup-b", rejection_log_id("cup-b")),
        ("cup-a", rejection_log_id("shared")), ("cup-b", rejection_log_id("shared")),
    }
    with psycopg.connect(pg_database.url, autocommit=True) as db:
        db.execute(f"DROP TABLE {schema}.referee_streams")

    assert open_together(store_env(pg_database.url, schema=schema), REFEREES) == []
    assert index_rows(pg_database.url, schema) == indexed
    reopened = Store(env=store_env(pg_database.url, schema=schema))
    try:
        assert reopened.streams_of("cup-b") == {rejection_log_id("cup-b"), rejection_log_id("shared")}
    finally:
        reopened.close()


def test_the_streams_opened_by_an_event_type_are_read_from_the_index(pg_database: PgDatabase) -> None:
    store = Store(env=store_env(pg_database.url))
    try:
        store.commit([rejected("cup-a"), rejected("cup-a", logged_under="other")], position("t", 0, 1), [])
        opened: Any = RejectionLog.Opened  # type: ignore[attr-defined]
        assert store.streams_of("cup-a", opened_by=get_topic(opened)) == {
            rejection_log_id("cup-a"), rejection_log_id("other")
        }
        assert store.streams_of("cup-a", opened_by="no.such:Event") == set()
    finally:
        store.close()
