"""Past one broker: three KRaft brokers on loopback (deploy/kafka/kafka.sh with KAFKA_NODES=3), the log of record
replicated three times with `min.insync.replicas` 2, the producer's acks=all. A stream of competitions is published
while two referees (`pokeraudit referee`, one consumer group) judge it; one broker is killed with SIGKILL mid-stream
and started again later by the script. Then: every record published has exactly one stored outcome and no other
record has one (nothing lost, nothing judged twice), every one is accepted (a lost or repeated act would be refused
out of sequence), every stream's versions are dense (nothing appended twice), `pokeraudit verify` passes, the lag
is 0 and the restarted broker is back in every partition's in-sync replicas.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import UUID

import pytest
from test_faults import (
    KAFKA_SCRIPT,
    OWN_SERVICES,
    base_env,
    check_store,
    pluribus,
    start_referee,
    stored_outcomes,
    wait_until,
)

from api.operations import phh_records
from ingest.kafka_log import KafkaLog, producer

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = [pytest.mark.integration, pytest.mark.slow]

NODES = 3
PARTITIONS = 6
TOPIC = "three.events"
#: the brokers with C1 only: they start in half the CPU time, and this test is about failover, not throughput
FAST_START = "-XX:TieredStopAtLevel=1"


@dataclass
class Competition:
    """One competition's hands as log records, read once (what `check_store` is given: ``ids``, ``razz``)."""

    name: str
    folders: list[Path]
    records: list[tuple[bytes, bytes]] = field(init=False)
    ids: set[UUID] = field(init=False)
    razz: int = 0  # no hand with a refused act among the Pluribus hands

    def __post_init__(self) -> None:
        import json

        self.records = list(phh_records(self.folders, self.name))
        self.ids = {UUID(json.loads(value)["event_id"]) for _, value in self.records}


class Cluster:
    """The deploy script's cluster mode in a folder of this test's own."""

    def __init__(self, run: Path) -> None:
        self.run = run
        self.env = {**os.environ, "KAFKA_RUN_DIR": str(run), "KAFKA_NODES": str(NODES), "KAFKA_JAVA_OPTS": FAST_START}

    def start(self) -> str:
        done = subprocess.run(["bash", str(KAFKA_SCRIPT), "start"], env=self.env, capture_output=True, text=True,
                              timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip().splitlines()[-1]

    def pid(self, node: int) -> int:
        return int((self.run / f"node-{node}" / "kafka.pid").read_text())

    def stop(self) -> None:
        subprocess.run(["bash", str(KAFKA_SCRIPT), "stop"], env=self.env, capture_output=True, timeout=120,
                       check=False)


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    run = OWN_SERVICES / f"cluster-{uuid.uuid4().hex[:8]}"
    brokers = Cluster(run)
    try:
        yield brokers
    finally:
        brokers.stop()
        shutil.rmtree(run, ignore_errors=True)


def describe(bootstrap: str, topic: str) -> tuple[dict[int, dict[str, Any]], dict[str, str]]:
    """Each partition of ``topic`` (leader, replicas, isr) and the topic's effective configuration."""
    from kafka.admin import ConfigResource, ConfigResourceType, KafkaAdminClient

    admin = KafkaAdminClient(bootstrap_servers=bootstrap, client_id="pokeraudit-tests")
    try:
        (described,) = admin.describe_topics([topic])
        partitions = {p["partition_index"]: p for p in described["partitions"]}
        # "all": the values the topic inherits from the brokers' configuration too
        answer = admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, topic)], config_filter="all")
    finally:
        admin.close()
    return partitions, {name: entry["value"] for name, entry in answer["topic"][topic].items()}


def in_sync_everywhere(bootstrap: str, topic: str) -> bool:
    try:
        partitions, _ = describe(bootstrap, topic)
    except Exception:  # noqa: BLE001 - metadata still moving after the restart
        return False
    return len(partitions) == PARTITIONS and all(len(p["isr_nodes"]) == NODES for p in partitions.values())


def test_three_brokers_lose_one_mid_stream_and_nothing_is_lost_or_judged_twice(
    cluster: Cluster, pg_database: PgDatabase, tmp_path: Path
) -> None:
    bootstrap = cluster.start()
    assert len(bootstrap.split(",")) == NODES
    env = {**base_env(bootstrap, pg_database.url, TOPIC, "three.rejections"),
           "POKERAUDIT_PARTITIONS": str(PARTITIONS)}
    # The log of record as the service makes it: replicas and min.insync.replicas are the cluster's defaults.
    log = KafkaLog(bootstrap, TOPIC, partitions=PARTITIONS)
    partitions, configs = describe(bootstrap, TOPIC)
    assert len(partitions) == PARTITIONS
    assert all(len(p["replica_nodes"]) == NODES for p in partitions.values()), partitions
    assert configs["min.insync.replicas"] == "2", configs
    made = producer(bootstrap)
    assert made.config["acks"] == -1 and made.config["enable_idempotence"], "the log of record: acks=all"
    made.close()

    chunks = [Competition(f"three-{i}", pluribus(2 * i, 2)) for i in range(6)]
    total = sum(len(c.ids) for c in chunks)
    assert total > 4_000
    ready_to_kill, killed, ready_to_restart, restarted = (threading.Event() for _ in range(4))
    published: list[int] = []
    failures: list[BaseException] = []

    def publish_stream() -> None:
        try:
            for n, chunk in enumerate(chunks):
                log.append(chunk.records)
                published.append(len(chunk.ids))
                if n == 1:
                    ready_to_kill.set()
                    assert killed.wait(120)
                elif n == 3:  # competitions 2 and 3 go out with one broker down
                    ready_to_restart.set()
                    assert restarted.wait(120)
                else:
                    time.sleep(0.5)
        except BaseException as err:  # noqa: BLE001 - reported by the test's thread
            failures.append(err)
            ready_to_kill.set()
            ready_to_restart.set()

    referees = [start_referee(env, tmp_path / f"referee-{n}.log") for n in (1, 2)]
    publisher = threading.Thread(target=publish_stream, name="publisher")
    publisher.start()
    try:
        assert ready_to_kill.wait(120) and not failures, failures
        wait_until(lambda: (stored_outcomes(pg_database.url) or 0) > 0, 120, "the referees to store something")
        # The leader of partition 0: its records must move to another broker's copy.
        victim = describe(bootstrap, TOPIC)[0][0]["leader_id"]
        os.kill(cluster.pid(victim), signal.SIGKILL)
        at_kill = stored_outcomes(pg_database.url) or 0
        assert at_kill < total and sum(published) < total, "the broker was killed after the stream"
        killed.set()

        assert ready_to_restart.wait(180) and not failures, failures
        # Judging goes on with one broker of three down (two copies still in sync: acks=all is met).
        wait_until(lambda: (stored_outcomes(pg_database.url) or 0) > at_kill, 120,
                   "the referees to store records published while a broker was down")
        assert all(r.poll() is None for r in referees), "a referee died with the broker"
        assert cluster.start() == bootstrap  # the killed node only, on its storage and ports
        restarted.set()
        publisher.join(timeout=180)
        assert not publisher.is_alive() and not failures, failures
        assert sum(published) == total

        wait_until(lambda: stored_outcomes(pg_database.url) == total, 180, "every record to be judged")
        assert all(r.poll() is None for r in referees), [p.read_text()[-2000:] for p in tmp_path.glob("*.log")]
        wait_until(lambda: in_sync_everywhere(bootstrap, TOPIC), 120, "the restarted broker to be back in sync")
    finally:
        killed.set()
        restarted.set()
        publisher.join(timeout=60)
        log.close()
        for referee in referees:
            referee.kill()
            referee.wait()

    # one outcome per record and none for anything else, all accepted, dense versions, lag 0, verify passes
    check_store(pg_database.url, env, chunks)  # type: ignore[arg-type]
