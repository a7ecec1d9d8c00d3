"""Issue 6's acceptance: a simulated American competition of 45 players, published to the real Kafka broker,
judged by the KafkaRefereeRunner into the real PostgreSQL server to its winner, gives a protocol whose
placings, penalties and protests are the simulation's, and whose snapshots — the one forwarded with the
protest to the federation, and one taken at the end — verify against the store."""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

import pytest

from api.cli_simulate import CompetitionPublisher, until_judged
from domain.competition.floor_events import CATALOG as FLOOR_CATALOG
from domain.roles import Role
from ingest.envelope import RecordedBy
from ingest.kafka_log import KafkaLog
from ingest.protocol_acts import snapshot_request
from ingest.referee import Referee
from ingest.runners import KafkaRefereeRunner
from ingest.simulator import simulate_competition
from ingest.simulator.book import Reported
from ingest.store import Store, store_env
from projections.protocol import compile_snapshot, protocol, snapshots, verify_snapshot

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = pytest.mark.integration


def test_a_simulated_american_competition_of_45_on_kafka_and_postgres_yields_its_protocol(
    kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase
) -> None:
    topic = topic_factory(partitions=3)
    simulation = simulate_competition(11, players=45, format="american")
    referee_store, reader = Store(env=store_env(pg_database.url)), Store(env=store_env(pg_database.url))
    runner = KafkaRefereeRunner(
        kafka_bootstrap, topic, Referee(referee_store, topic, protocols=compile_snapshot), group_id=f"sim-{uuid.uuid4()}"
    )
    stop = threading.Event()
    judging = threading.Thread(target=runner.run, args=(stop,), name="referee", daemon=True)
    judging.start()
    log = KafkaLog(kafka_bootstrap, topic, partitions=3)
    try:
        caught_up: Callable[[], None] = lambda: until_judged(log, reader, topic, timeout_s=120)  # noqa: E731
        published = CompetitionPublisher(log, lambda: reader, caught_up, batch=1000).publish(simulation)
        last = simulation.entries[-1]
        assert isinstance(last, Reported)
        # the Secretary's snapshot of the final protocol: an act on the log, after every record before it
        secretary = RecordedBy(person=f"{simulation.competition_id}-secretary", role=Role.SECRETARY)
        log.append([snapshot_request(simulation.competition_id, secretary, last.at + timedelta(hours=1))])
        caught_up()
    finally:
        stop.set()
        judging.join(timeout=60)
        log.close()
    try:
        taken = snapshots(reader, simulation.competition_id)
        # published: the simulation's records and the Chief Judge's snapshot before each forwarding; one more: the
        # Secretary's final snapshot
        assert reader.outcome_counts() == {"accepted": published + 1} and len(taken) >= 2

        document = protocol(reader, simulation.competition_id)
        assert document["competition"]["winner"] == simulation.winner
        assert [(p["place"], p["participant"]) for p in document["placings"]] == [
            (1, simulation.winner),
            *((p.place, p.participant) for p in simulation.placings),
        ]
        assert [(p["participant"], p["kind"], p["imposed_by"]) for p in document["penalties"]] == [
            (p.participant, p.kind.value, p.imposed_by.value) for p in simulation.penalties
        ]
        assert [
            (p["protest"], p["tier"], p["filer"], p["decision"]["decision"]) for p in document["protests"]
        ] == [(p.protest, p.tier.value, p.filer, p.decision.value) for p in simulation.protests]
        assert len(document["hands"]) == len(simulation.hands)
        floor = Counter(
            type(a.event).__name__ for a in simulation.acts if type(a.event).__name__ in FLOOR_CATALOG
        )
        assert Counter(m["type"] for m in document["moves"]) == floor and floor["TableBroken"] >= 1

        forwarded = snapshots(reader, simulation.competition_id)[0]
        assert document["protests"][1]["forwarded"]["snapshot"] == forwarded.name
        assert document["protests"][1]["forwarded"]["chain_head"] == forwarded.chain_head
        assert verify_snapshot(reader, forwarded).ok
        final = taken[-1]
        assert final.taken_by == secretary.person and verify_snapshot(reader, final).ok
        assert final.protocol["placings"] == document["placings"]
    finally:
        referee_store.close()
        reader.close()
