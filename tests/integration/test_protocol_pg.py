"""The federation's records through the real broker and server: a competition published to Kafka, judged by
the KafkaRefereeRunner into PostgreSQL (the desk's acts beside the hands, each stream indexed under the
competition its events name), its protocol read, a snapshot
taken and verified, a federation record refused with its rule, and a single changed byte in a stored event
named by the snapshot's verification."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING

import psycopg
import pytest
from federation_records import COMPETITION, DEALER, SECRETARY, Records, at, opening, play_to_the_end

from domain.competition.events import ParticipantRegistered
from domain.rejections import rejection_log_id
from ingest.kafka_log import KafkaLog
from ingest.protocol_acts import snapshot_request
from ingest.referee import Referee
from ingest.runners import KafkaRefereeRunner
from ingest.store import Store, store_env
from projections.protocol import compile_snapshot, protocol, snapshots, verify_snapshot

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = pytest.mark.integration


def test_a_competition_judged_on_kafka_and_postgres_gives_a_protocol_whose_snapshot_verifies(
    kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase
) -> None:
    topic = topic_factory(partitions=3)
    records = Records()
    refused = ParticipantRegistered("p09", "person-p09", date(1990, 1, 1))
    published = [
        *opening(records), records.record(refused, DEALER, at(1)), *play_to_the_end(records),
        snapshot_request(COMPETITION, SECRETARY, at(40)),
    ]
    log = KafkaLog(kafka_bootstrap, topic, partitions=3)
    try:
        log.append(published)
    finally:
        log.close()
    store = Store(env=store_env(pg_database.url))
    try:
        referee = Referee(store, topic, protocols=compile_snapshot)
        runner = KafkaRefereeRunner(kafka_bootstrap, topic, referee, group_id=f"protocol-{uuid.uuid4()}")
        assert runner.run(idle_exit_s=3.0) == len(published)

        with psycopg.connect(pg_database.url, autocommit=True) as db:
            naming = {
                row[0] for row in db.execute(
                    "SELECT DISTINCT originator_id FROM pokeraudit_events"
                    " WHERE convert_from(state, 'UTF8') LIKE %s", (f'%"competition_id":"{COMPETITION}"%',)
                )
            }
        assert naming and store.streams_of(COMPETITION) == naming  # indexed as the referee stored them

        [snapshot] = snapshots(store, COMPETITION)  # taken through the log, after everything before it
        document = protocol(store, COMPETITION)
        assert document["competition"]["winner"] == "p01"
        assert [(p["place"], p["participant"]) for p in document["placings"]] == [(1, "p01"), (2, "p03"), (3, "p02")]
        assert [(h["number"], h["winners"]) for h in document["hands"]] == [(1, ["p01"]), (2, ["p01"])]
        assert [(r["event_type"], r["rule"]) for r in document["rejections"]] == [("ParticipantRegistered", "bfsp 2.3.1")]
        assert document["draws"][0]["seats_match_seed"] is True

        assert snapshot.protocol == document and verify_snapshot(store, snapshot).ok
        assert str(rejection_log_id(COMPETITION)) in snapshot.heads

        with psycopg.connect(pg_database.url, autocommit=True) as db:
            rows = db.execute(
                "SELECT notification_id, originator_version, state FROM pokeraudit_events ORDER BY notification_id"
            ).fetchall()
            notification_id, version, state = next(r for r in rows if b'"code":"7.1.2"' in bytes(r[2]))
            db.execute(
                "UPDATE pokeraudit_events SET state = %s WHERE notification_id = %s",
                (bytes(state).replace(b'"code":"7.1.2"', b'"code":"7.1.3"'), notification_id),
            )
        broken = verify_snapshot(store, snapshot)
        assert not broken.ok
        assert f"version {version} (ViolationRecorded)" in broken.difference
    finally:
        store.close()
