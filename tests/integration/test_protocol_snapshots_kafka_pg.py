"""Snapshots and signatures of the protocol as acts on the log (DESIGN decision 10), on the real broker and server:
the Secretary asks for a snapshot, the referee keeps it in PostgreSQL, the Secretary and the Chief Judge sign it
through the log; then the whole topic replayed by a new referee into an empty store gives the same snapshots,
byte for byte, and the same signatures — what a snapshot covers is fixed by the log, not by when it was judged."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import psycopg
import pytest
from federation_records import CHIEF, COMPETITION, JUDGE, SECRETARY, Records, at, opening, play_to_the_end

from domain.protocol import archive_id, signatures_id
from ingest.kafka_log import KafkaLog
from ingest.protocol_acts import signature, snapshot_request
from ingest.referee import Referee
from ingest.runners import KafkaRefereeRunner
from ingest.store import Store, store_env
from projections.protocol import compile_snapshot, signatures, snapshots, verify_snapshot

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = pytest.mark.integration


def judge_all(kafka_bootstrap: str, topic: str, store: Store, group: str, expected: int) -> int:
    """The records a referee judges into ``store`` until ``expected`` are judged (or two minutes pass).

    Each runner idles out after 3 s, which can come before its group has settled (a join revoked at once, and
    the runner's own rejoin after a silent join waits 30 s: ingest/runners.py); another runner is started then,
    which resumes from the offsets the store tracks — a replay is judged once whatever the runs."""
    judged, deadline = 0, time.monotonic() + 120
    while judged < expected and time.monotonic() < deadline:
        referee = Referee(store, topic, protocols=compile_snapshot)
        judged += KafkaRefereeRunner(kafka_bootstrap, topic, referee, group_id=group).run(idle_exit_s=3.0)
    return judged


def append(kafka_bootstrap: str, topic: str, records: list[tuple[bytes, bytes]]) -> None:
    log = KafkaLog(kafka_bootstrap, topic, partitions=3)
    try:
        log.append(records)
    finally:
        log.close()


def stored(store: Store, stream: uuid.UUID) -> list[tuple[int, str, str, Any]]:
    """A stream as stored: each event's version, type, chain link and payload."""
    return [(e.originator_version, type(e).__name__, e.link, e.payload) for e in store.events.get(stream)]


def test_a_snapshot_taken_and_signed_through_the_log_is_rebuilt_identically_by_replaying_the_log(
    kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase
) -> None:
    topic = topic_factory(partitions=3)
    records = Records()
    competition = [*opening(records), *play_to_the_end(records)]
    append(kafka_bootstrap, topic, [*competition, snapshot_request(COMPETITION, SECRETARY, at(30))])
    store = Store(env=store_env(pg_database.url))
    with psycopg.connect(pg_database.url, autocommit=True) as db:
        db.execute("CREATE SCHEMA replayed")
    replayed = Store(env=store_env(pg_database.url, schema="replayed"))
    try:
        group = f"snapshots-{uuid.uuid4()}"
        assert judge_all(kafka_bootstrap, topic, store, group, len(competition) + 1) == len(competition) + 1
        [taken] = snapshots(store, COMPETITION)
        # taken when the log received the request (DESIGN 9), not when the request says
        assert (taken.version, taken.taken_by) == (1, SECRETARY.person) and taken.taken_at > at(30)
        assert taken.protocol["competition"]["winner"] == "p01" and verify_snapshot(store, taken).ok

        # signed through the log: a judge's attempt refused with its rule, the keepers' accepted; then a second
        # snapshot, which covers the signatures on the first
        append(kafka_bootstrap, topic, [
            signature(COMPETITION, 1, taken.sha256, JUDGE, at(31)),
            signature(COMPETITION, 1, taken.sha256, SECRETARY, at(31)),
            signature(COMPETITION, 1, taken.sha256, CHIEF, at(32)),
            snapshot_request(COMPETITION, CHIEF, at(33)),
        ])
        assert judge_all(kafka_bootstrap, topic, store, group, 4) == 4
        assert [(s["person"], s["role"], s["version"]) for s in signatures(store, COMPETITION)] == [
            (SECRETARY.person, "secretary", 1), (CHIEF.person, "chief_judge", 1),
        ]
        first, second = snapshots(store, COMPETITION)
        assert first == taken
        assert [(s["person"], s["version"]) for s in second.protocol["signatures"]] == [
            (SECRETARY.person, 1), (CHIEF.person, 1),
        ]
        [refusal] = [r for r in second.protocol["rejections"] if r["event_type"] == "ProtocolSigned"]
        assert refusal["rule"] == "bfsp 2.1.4" and refusal["recorded_by"]["person"] == JUDGE.person

        # the whole topic replayed by a new referee into an empty store
        replay = f"replay-{uuid.uuid4()}"
        assert judge_all(kafka_bootstrap, topic, replayed, replay, len(competition) + 5) == len(competition) + 5
        assert snapshots(replayed, COMPETITION) == [first, second]
        assert signatures(replayed, COMPETITION) == signatures(store, COMPETITION)
        for stream in (archive_id(COMPETITION), signatures_id(COMPETITION)):
            assert stored(replayed, stream) == stored(store, stream)
        assert all(verify_snapshot(replayed, s).ok for s in (first, second))
    finally:
        store.close()
        replayed.close()
