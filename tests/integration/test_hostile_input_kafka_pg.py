"""The hostile-input property on the real Kafka broker and PostgreSQL server (issue 11 §1): the same random
envelopes as the embedded test (tests/hostile_records.py), fewer of them, put on a Kafka topic after a
competition in progress and judged from it into PostgreSQL. Every record is judged (accepted or a stored
rejection), the projector projects everything into the PostgreSQL read models, every chain verifies, and no GET
route answers 5xx.

One topic and one database for all examples: each example's records come after the earlier ones', as on a live
service. ``POKERAUDIT_HOSTILE_EXAMPLES_PG`` sets how many lists of records are tried (default 12)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from fastapi.testclient import TestClient
from hostile_records import hostile_record, ids_of, scenario
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pipeline_under_fire import assert_judged, assert_projected, assert_reads_answer, assert_verified

from api.app import create_app
from api.bootstrap import open_projector
from api.settings import Settings
from ingest.kafka_log import KafkaLog
from ingest.referee import Referee, Verdict
from ingest.store import Store, store_env

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = pytest.mark.integration

SECRET = "test-secret-of-at-least-thirty-two-bytes"
SCENARIO = scenario()
EXAMPLES = int(os.environ.get("POKERAUDIT_HOSTILE_EXAMPLES_PG", "12"))


def test_no_record_stops_the_referee_or_the_projector_on_kafka_and_postgres(
    kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase
) -> None:
    topic = topic_factory(partitions=1)  # one partition: judged in the order appended
    service = Settings(
        KAFKA_BOOTSTRAP_SERVERS=kafka_bootstrap, DATABASE_URL=pg_database.url, POKERAUDIT_TOPIC=topic,
        POKERAUDIT_REJECTIONS_TOPIC=topic_factory(partitions=1), POKERAUDIT_PARTITIONS=1,
        POKERAUDIT_JWT_SECRET=SECRET, POKERAUDIT_PUBLIC_READ=True,
    )
    log = KafkaLog(kafka_bootstrap, topic, partitions=1)
    store = Store(env=store_env(pg_database.url))
    referee = Referee(store, topic)
    projector = open_projector(service)

    def judged(records: list[tuple[bytes, bytes]]) -> list[Verdict]:
        log.append(records)
        verdicts: list[Verdict] = []
        while len(verdicts) < len(records):
            batch = log.read(0, referee.resume_offset(0), 1000)
            assert batch, "the records appended are on the topic"
            assert all(r.received_at is not None for r in batch)  # the broker's append time (LogAppendTime)
            verdicts += referee.judge(0, batch)
        return verdicts

    try:
        assert {v.outcome for v in judged(SCENARIO)} == {"accepted"}
        with TestClient(create_app(service, workers=False), raise_server_exceptions=False) as client:

            @settings(
                max_examples=EXAMPLES,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
            )
            @given(records=st.lists(hostile_record(ids_of(SCENARIO)), min_size=1, max_size=8))
            def no_record_stops_them(records: list[tuple[bytes, bytes]]) -> None:
                before = store.outcome_counts()
                assert_judged(judged(records), records, before, store)
                assert_verified(store)
                assert_projected(projector)
                assert_reads_answer(client, SECRET)

            no_record_stops_them()
    finally:
        projector.close()
        store.close()
        log.close()
