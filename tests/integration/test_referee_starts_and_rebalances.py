"""The referee's runner on the real broker and server: started while PostgreSQL is down (and the projector and the
API with it), two referees joining one group, and the rule that nothing is polled until a failed batch's
partitions are back at the store's tracked offsets.

Each test ends the same way: every published record has exactly one stored outcome.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import UUID

import httpx
import psycopg
import pytest
from api_server import SECRET, free_port
from prometheus_client import REGISTRY
from psycopg import sql
from test_faults import (
    KAFKA_SCRIPT,
    OWN_SERVICES,
    POSTGRES_SCRIPT,
    Chunk,
    pluribus,
    rejection_payloads,
    stored_outcomes,
    stored_state,
    wait_until,
)
from test_outages import PersistentService, follow, projected, stored_head

from api.bootstrap import bootstrap
from api.settings import Settings
from ingest.kafka_log import KafkaLog
from ingest.runners import KafkaRefereeRunner

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def stored_ids(url: str) -> list[UUID]:
    with psycopg.connect(url) as db:
        return [row[0] for row in db.execute("SELECT event_id FROM referee_event_ids").fetchall()]


def json_lines(log: Path) -> list[dict[str, Any]]:
    """The log lines of a command's output (its stdout's one JSON object, the counts, left out)."""
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    return [line for line in lines if "level" in line]


def stop_all(*processes: subprocess.Popen[bytes]) -> None:
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        process.wait(timeout=60)


@pytest.fixture
def postgres() -> Iterator[PersistentService]:
    """A cluster of this test's own (the deploy script's persistent mode), so it can be stopped and started."""
    folder = OWN_SERVICES / f"start-{uuid.uuid4().hex[:8]}"
    service = PersistentService(POSTGRES_SCRIPT, "POSTGRES_DATA_DIR", folder / "postgres")
    try:
        yield service
    finally:
        subprocess.run(["bash", str(service.script), "stop"], env=service.env, capture_output=True, timeout=120,
                       check=False)
        shutil.rmtree(folder, ignore_errors=True)


def test_the_referee_the_projector_and_the_api_started_while_postgres_is_down_wait_for_it(
    postgres: PersistentService, kafka_bootstrap: str, topic_factory: Callable[..., str], tmp_path: Path
) -> None:
    server = postgres.start()
    with psycopg.connect(server, autocommit=True) as db:
        db.execute("CREATE DATABASE started")
    url = server.rsplit("/", 1)[0] + "/started"
    postgres.stop()
    topic = topic_factory(partitions=3)
    env = {
        **os.environ, "KAFKA_BOOTSTRAP_SERVERS": kafka_bootstrap, "DATABASE_URL": url, "POKERAUDIT_PARTITIONS": "3",
        "POKERAUDIT_TOPIC": topic, "POKERAUDIT_REJECTIONS_TOPIC": topic_factory(partitions=3),
        "POKERAUDIT_CHECKPOINTS_TOPIC": topic_factory(partitions=1), "POKERAUDIT_JWT_SECRET": SECRET,
    }
    chunk = Chunk(pluribus(0, 2), competition="started")
    chunk.publish_to_log(kafka_bootstrap, topic)
    api_port = free_port()
    referee = follow(env, tmp_path / "referee.log", "referee")
    projector = follow(env, tmp_path / "projector.log", "projections", "run", "--follow")
    api = follow(env, tmp_path / "api.log", "serve", "--host", "127.0.0.1", "--port", str(api_port))
    logs = {name: tmp_path / f"{name}.log" for name in ("referee", "projector", "api")}
    try:
        # each waits, logging its retries as JSON lines naming PostgreSQL
        def retried(name: str) -> bool:
            return sum(1 for line in json_lines(logs[name])
                       if line["level"] == "warning" and line.get("service") == "postgresql") >= 2

        wait_until(lambda: all(retried(name) for name in logs), 90, "every process to log two retries")
        assert referee.poll() is None and projector.poll() is None and api.poll() is None, {
            name: log.read_text()[-3000:] for name, log in logs.items()}
        assert stored_outcomes(url) is None

        postgres.start()  # the same cluster, the same port
        wait_until(lambda: (stored_outcomes(url) or 0) >= len(chunk.ids), 120, "the records to be judged")
        wait_until(lambda: projected(url) == stored_head(url) > 0, 120, "the projector to catch up")
        wait_until(lambda: _ready(api_port), 60, "the API to answer /ready 200")
        assert referee.poll() is None and projector.poll() is None and api.poll() is None
    finally:
        stop_all(referee, projector, api)
    # uvicorn ends by raising the SIGTERM it caught again, once it has shut down cleanly
    assert (referee.returncode, projector.returncode, api.returncode) in ((0, 0, 0), (0, 0, -signal.SIGTERM)), {
        name: log.read_text()[-3000:] for name, log in logs.items()}
    stored = stored_ids(url)
    assert len(stored) == len(set(stored)) and set(stored) == chunk.ids
    stored_state(url)
    assert any(line["message"] == "partitions assigned" for line in json_lines(logs["referee"]))


def _ready(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/ready", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def test_two_referees_joining_one_group_rebalance_without_a_listener_error(
    kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase, tmp_path: Path
) -> None:
    topic = topic_factory(partitions=3)
    env = {
        **os.environ, "KAFKA_BOOTSTRAP_SERVERS": kafka_bootstrap, "DATABASE_URL": pg_database.url,
        "POKERAUDIT_PARTITIONS": "3", "POKERAUDIT_TOPIC": topic,
        "POKERAUDIT_REJECTIONS_TOPIC": topic_factory(partitions=3),
        "POKERAUDIT_CHECKPOINTS_TOPIC": topic_factory(partitions=1),
    }
    first, second = Chunk(pluribus(0, 2), competition="first"), Chunk(pluribus(2, 2), competition="second")
    first.publish_to_log(kafka_bootstrap, topic)
    one = follow(env, tmp_path / "one.log", "referee", "--log-level", "debug")
    two: subprocess.Popen[bytes] | None = None
    try:
        wait_until(lambda: (stored_outcomes(pg_database.url) or 0) >= len(first.ids), 120, "the first referee")
        two = follow(env, tmp_path / "two.log", "referee", "--log-level", "debug")
        # the group shares the partitions: the second referee is given some, the first gives them up
        wait_until(lambda: _assigned(tmp_path / "two.log"), 60, "the second referee to be assigned partitions")
        second.publish_to_log(kafka_bootstrap, topic)
        wait_until(lambda: (stored_outcomes(pg_database.url) or 0) >= len(first.ids | second.ids), 120,
                   "every record to be judged")
    finally:
        stop_all(one, *([two] if two is not None else []))
    lines = {name: json_lines(tmp_path / f"{name}.log") for name in ("one", "two")}
    assert one.returncode == 0 and two is not None and two.returncode == 0
    for name, logged in lines.items():
        # the listener's failure was logged by kafka.coordinator ("User provided rebalance listener ... failed") and
        # raised from the poll ("User rebalance callback throws an error"), which the runner logged as a failure
        errors = [line for line in logged
                  if line["level"] in ("error", "critical") and str(line["logger"]).startswith(("pokeraudit", "kafka.coord"))
                  or "rebalance" in str(line["message"]).lower() and "fail" in str(line["message"]).lower()
                  or "callback" in str(line["message"]).lower()]
        # kafka-python's join can go silent (issue 19's note): after 30 s without partitions the runner closes that
        # consumer and joins with a new one, and the silent member's LeaveGroup is answered "UnknownMemberId" (the
        # group no longer knows it), which kafka.coordinator logs as an error — the way out, not a listener's failure
        rejoined = [i for i, line in enumerate(logged) if "joining the group again" in str(line["message"])]
        errors = [line for line in errors
                  if not (rejoined and logged.index(line) > rejoined[0] and "LeaveGroup" in str(line["message"])
                          and "UnknownMemberId" in str(line["message"]))]
        assert not errors, (name, errors)
        assert not [line for line in logged if str(line["message"]).startswith("infrastructure failure")], name
    revoked = [line for line in lines["one"] if line["message"] == "partitions revoked" and line["partitions"]]
    assert revoked, "the first referee gave up partitions to the second"
    stored = stored_ids(pg_database.url)
    assert len(stored) == len(set(stored)) and set(stored) == first.ids | second.ids


def _assigned(log: Path) -> bool:
    return any(line["message"] == "partitions assigned" and line["partitions"] for line in json_lines(log))


def _refuse_connections(db: PgDatabase, admin_url: str, refuse: bool) -> None:
    """The test's database refuses every connection (its open ones cut) — an outage of the store, on the real server."""
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS {}").format(
            sql.Identifier(db.dbname), sql.SQL("false" if refuse else "true")))
        if refuse:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                          (db.dbname,))


def _outage_played_out(records: list[logging.LogRecord]) -> bool:
    """The store has been away long enough: the runner failed to seek back at least twice, and then either kept
    failing (five times: it is waiting for the store) or fell silent for 14 s — a runner that polls on while it
    cannot seek back falls silent once it has read to the log's end (a failing one logs at least every 13 s)."""
    warnings = [r for r in records if r.name == "pokeraudit.referee" and r.levelno == logging.WARNING]
    seek_failures = [r for r in warnings if "cannot read tracked offsets" in r.getMessage()]
    if len(seek_failures) < 2:
        return False
    return len(seek_failures) >= 5 or time.time() - warnings[-1].created >= 14


def test_nothing_is_polled_until_a_failed_batch_is_back_at_the_tracked_offsets(
    kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase, database_url: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The store goes away while records arrive: the batch fails, and so does the seek back to the tracked
    offsets. A runner that polled on regardless reached the log's end during the outage, and its first commit
    after it tracked an offset past records it never judged (fix bc8cd55): they were lost with lag 0."""
    topic = topic_factory(partitions=3)
    settings = Settings(kafka_bootstrap_servers=kafka_bootstrap, database_url=pg_database.url, topic=topic,
                        partitions=3, rejections_topic=topic_factory(partitions=3),
                        checkpoints_topic=topic_factory(partitions=1))
    before, during, after = (Chunk(pluribus(start, 2), competition=name)
                             for start, name in ((0, "before"), (2, "during"), (4, "after")))
    before.publish_to_log(kafka_bootstrap, topic)
    pipeline = bootstrap(settings)
    # batches large enough that one poll can bring a partition's every new record: a runner that polls on
    # while it cannot seek back reaches the log's end within the outage, and then has nothing left to fail on
    runner = KafkaRefereeRunner(kafka_bootstrap, topic, pipeline.referee, batch_max=5000, batch_ms=100)
    stop = threading.Event()
    judged: list[int] = []
    thread = threading.Thread(target=lambda: judged.append(runner.run(stop)), name="runner", daemon=True)
    thread.start()
    try:
        wait_until(lambda: (stored_outcomes(pg_database.url) or 0) >= len(before.ids), 120, "the first chunk")
        with caplog.at_level(logging.WARNING, logger="pokeraudit.referee"):
            _refuse_connections(pg_database, database_url, refuse=True)
            try:
                during.publish_to_log(kafka_bootstrap, topic)
                wait_until(lambda: _outage_played_out(caplog.records), 180,
                           "the runner to fail on the chunk and to fail to seek back")
            finally:
                _refuse_connections(pg_database, database_url, refuse=False)
        after.publish_to_log(kafka_bootstrap, topic)
        wait_until(lambda: (stored_outcomes(pg_database.url) or 0) >= len(before.ids | during.ids | after.ids), 90,
                   "every record to be judged, those published while the store was away included")
    finally:
        stop.set()
        thread.join(timeout=60)
        pipeline.close()
    assert judged and not thread.is_alive()
    stored = stored_ids(pg_database.url)
    assert len(stored) == len(set(stored)) and set(stored) == before.ids | during.ids | after.ids
    stored_state(pg_database.url)


def _competitions_on_every_partition(prefix: str, partitions: int = 3) -> list[str]:
    """Competition names whose records land one on each partition (the key is the competition)."""
    from ingest.log import partition_for

    chosen: dict[int, str] = {}
    for n in range(1000):
        name = f"{prefix}-{n}"
        chosen.setdefault(partition_for(name.encode(), partitions), name)
        if len(chosen) == partitions:
            return [chosen[p] for p in range(partitions)]
    raise AssertionError("no names cover every partition")


def _run_in_thread(runner: KafkaRefereeRunner, stop: threading.Event, judged: list[int]) -> threading.Thread:
    thread = threading.Thread(target=lambda: judged.append(runner.run(stop)), name="runner", daemon=True)
    thread.start()
    return thread


@contextlib.contextmanager
def _role_that_can_be_cut(database_url: str, db: PgDatabase) -> Iterator[tuple[str, Callable[[bool], None]]]:
    """A login of its own on ``db`` (its URL) and ``cut(True/False)``: its connections refused and cut, or allowed
    again — the store unreachable for one referee only, as a network partition between it and PostgreSQL would."""
    role = f"cut_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(database_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE ROLE {} LOGIN SUPERUSER").format(sql.Identifier(role)))

    def cut(refuse: bool) -> None:
        with psycopg.connect(database_url, autocommit=True) as admin:
            admin.execute(sql.SQL("ALTER ROLE {} {}").format(sql.Identifier(role),
                                                              sql.SQL("NOLOGIN" if refuse else "LOGIN")))
            if refuse:
                admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", (role,))

    try:
        yield db.url.replace(f"//{db.user}@", f"//{role}@", 1), cut
    finally:
        with psycopg.connect(database_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", (role,))
            admin.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))


def test_a_referee_waiting_for_its_store_does_not_hold_up_the_group(
    kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase, database_url: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The stall found in a fresh-clone run: a member of the group that stopped polling (here a referee whose store
    is unreachable, waiting to seek back) held the group's next rebalance open, and the referee that joined sat
    unassigned, judging nothing, until the waiting one's max_poll_interval (300 s) ran out. A waiting referee
    polls, all paused, so the group rebalances at once: the one that joined judges its partitions meanwhile."""
    topic = topic_factory(partitions=3)
    settings: dict[str, Any] = dict(kafka_bootstrap_servers=kafka_bootstrap, topic=topic, partitions=3,
                    rejections_topic=topic_factory(partitions=3), checkpoints_topic=topic_factory(partitions=1))
    group = f"held-{uuid.uuid4().hex[:8]}"
    first = Chunk(pluribus(0, 1), competition="first")
    during = [Chunk(pluribus(1 + n, 1), competition=name)
              for n, name in enumerate(_competitions_on_every_partition("during"))]
    first.publish_to_log(kafka_bootstrap, topic)
    healthy = bootstrap(Settings(database_url=pg_database.url, **settings))
    _ = healthy.store  # the tables made by the database's owner, before the other login opens them
    stop = threading.Event()
    judged_a: list[int] = []
    judged_b: list[int] = []
    with _role_that_can_be_cut(database_url, pg_database) as (cut_url, cut):
        cut_off = bootstrap(Settings(database_url=cut_url, **settings))
        a = KafkaRefereeRunner(kafka_bootstrap, topic, cut_off.referee, batch_ms=100, group_id=group)
        b = KafkaRefereeRunner(kafka_bootstrap, topic, healthy.referee, batch_ms=100, group_id=group)
        thread_a = _run_in_thread(a, stop, judged_a)
        thread_b: threading.Thread | None = None
        try:
            wait_until(lambda: (stored_outcomes(pg_database.url) or 0) >= len(first.ids), 120, "the first chunk")
            with caplog.at_level(logging.WARNING, logger="pokeraudit.referee"):
                cut(True)
                for chunk in during:
                    chunk.publish_to_log(kafka_bootstrap, topic)
                wait_until(lambda: sum("cannot read tracked offsets" in r.getMessage() for r in caplog.records) >= 2,
                           120, "the first referee to wait for its store")
                thread_b = _run_in_thread(b, stop, judged_b)
                # every partition holds records of the chunk: whichever the second referee is given, it judges some
                wait_until(lambda: b.judged > 0, 60, "the referee that joined to judge while the other waits")
                assert a.judged == len(first.ids), "the waiting referee judged nothing while its store was away"
            cut(False)
            everything = first.ids.union(*(chunk.ids for chunk in during))
            wait_until(lambda: (stored_outcomes(pg_database.url) or 0) >= len(everything), 120,
                       "every record to be judged once the store is back")
        finally:
            stop.set()
            thread_a.join(timeout=60)
            if thread_b is not None:
                thread_b.join(timeout=60)
            cut_off.close()
            healthy.close()
    assert judged_a and judged_b and not thread_a.is_alive()
    stored = stored_ids(pg_database.url)
    assert len(stored) == len(set(stored)) and set(stored) == everything
    stored_state(pg_database.url)


def _rejected_by_kind_and_rule() -> dict[tuple[str, str], float]:
    """This process's ``pokeraudit_referee_records_rejected_total`` samples, by their (kind, rule) labels."""
    return {(sample.labels["kind"], sample.labels["rule"]): sample.value
            for family in REGISTRY.collect() if family.name == "pokeraudit_referee_records_rejected"
            for sample in family.samples if sample.name == "pokeraudit_referee_records_rejected_total"}


def _acted_after_the_end(chunk: Chunk) -> tuple[bytes, bytes]:
    """The last act of the chunk's first hand again, under a new id, after the hand's end: illegal, by a rule."""
    from api.operations import phh_records

    records = [(key, json.loads(value)) for key, value in phh_records(chunk.paths, chunk.competition, chunk.repeat)]
    hand = [(key, record) for key, record in records if record["hand_id"] == records[0][1]["hand_id"]]
    key, record = next((key, record) for key, record in reversed(hand) if record["type"] == "PlayerActed")
    record = {**record, "event_id": str(uuid.uuid4()), "seq": len(hand)}
    return key, json.dumps(record).encode()


def test_members_joining_and_leaving_right_after_each_assignment_leave_nothing_paused_or_unjudged(
    kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase,
) -> None:
    """Revokes and assigns in quick succession: each time the referee is given its partitions (paused until it
    places them), another member joins the group and leaves it again at once. Records arrive throughout; at the
    end the referee holds every partition, none paused, and every record is judged once."""
    from kafka import KafkaConsumer

    topic = topic_factory(partitions=3)
    group = f"churn-{uuid.uuid4().hex[:8]}"
    pipeline = bootstrap(Settings(kafka_bootstrap_servers=kafka_bootstrap, database_url=pg_database.url, topic=topic,
                                  partitions=3, rejections_topic=topic_factory(partitions=3),
                                  checkpoints_topic=topic_factory(partitions=1)))
    chunks = [Chunk(pluribus(n, 1), competition=f"churn-{n}") for n in range(7)]
    batches_before = REGISTRY.get_sample_value("pokeraudit_referee_batch_seconds_count") or 0.0
    rejected_before = _rejected_by_kind_and_rule()
    chunks[0].publish_to_log(kafka_bootstrap, topic)
    runner = KafkaRefereeRunner(kafka_bootstrap, topic, pipeline.referee, batch_ms=100, group_id=group)
    stop = threading.Event()
    judged: list[int] = []
    thread = _run_in_thread(runner, stop, judged)
    try:
        seen = 0
        for chunk in chunks[1:6]:
            wait_until(lambda seen=seen: runner.assignments > seen, 60,  # type: ignore[misc]
                       "the referee to be given its partitions")
            seen = runner.assignments
            # at once: the referee has its partitions paused and not yet placed
            intruder = KafkaConsumer(topic, bootstrap_servers=kafka_bootstrap, group_id=group,
                                     enable_auto_commit=False, session_timeout_ms=10_000, heartbeat_interval_ms=1_000)
            try:
                deadline = time.monotonic() + 60
                while not intruder.assignment():
                    assert time.monotonic() < deadline, "the intruder was never given a partition"
                    intruder.poll(timeout_ms=100, max_records=1)  # it reads no further than one record
                chunk.publish_to_log(kafka_bootstrap, topic)
            finally:
                intruder.close()  # leaves the group: the referee is given every partition again
        chunks[6].publish_to_log(kafka_bootstrap, topic)
        # and one known rejection (an act after its hand's end, illegal by a rule of the book), for the metric of
        # rejections by kind and rule
        again = _acted_after_the_end(chunks[6])
        log = KafkaLog(kafka_bootstrap, topic, partitions=3, create=False)
        try:
            log.append([again])
        finally:
            log.close()
        everything = set().union(*(chunk.ids for chunk in chunks)) | {UUID(json.loads(again[1])["event_id"])}
        wait_until(lambda: (stored_outcomes(pg_database.url) or 0) >= len(everything), 120,
                   "every record to be judged after the churn")
        wait_until(lambda: len(runner.consumer.assignment()) == 3 and not runner.consumer.paused(), 60,
                   "the referee to hold every partition, none paused")
        # the metrics of the batches: their latency observed, and each busy partition's lag read after its last
        # batch (from the consumer's own position, without a wait on the coordinator) as nothing left to judge
        assert (REGISTRY.get_sample_value("pokeraudit_referee_batch_seconds_count") or 0.0) > batches_before
        from ingest.log import partition_for

        for partition in {partition_for(f"churn-{n}".encode(), 3) for n in range(7)}:
            assert REGISTRY.get_sample_value("pokeraudit_referee_lag_records", {"partition": str(partition)}) == 0
        # the rejection counted once, under the kind and rule it was stored with
        (refused,) = rejection_payloads(pg_database.url, "churn-6")
        assert refused["kind"] == "illegal" and refused["rule"], refused
        assert _rejected_by_kind_and_rule() == {
            **rejected_before, (refused["kind"], refused["rule"]): rejected_before.get((refused["kind"], refused["rule"]), 0) + 1
        }
    finally:
        stop.set()
        thread.join(timeout=60)
        pipeline.close()
    assert judged and not thread.is_alive()
    stored = stored_ids(pg_database.url)
    assert len(stored) == len(set(stored)) and set(stored) == everything
    stored_state(pg_database.url)


@pytest.fixture
def broker() -> Iterator[PersistentService]:
    """A broker of this test's own (the deploy script's persistent mode: same port, same data after a restart)."""
    folder = OWN_SERVICES / f"broker-{uuid.uuid4().hex[:8]}"
    service = PersistentService(KAFKA_SCRIPT, "KAFKA_DATA_DIR", folder / "kafka")
    try:
        yield service
    finally:
        subprocess.run(["bash", str(service.script), "stop"], env=service.env, capture_output=True, timeout=120,
                       check=False)
        shutil.rmtree(folder, ignore_errors=True)


def test_a_referee_joining_an_empty_group_is_given_its_partitions_once(
    kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase
) -> None:
    """Started again and again on a group the last one left: each is given every partition by its first join, and
    keeps them. On kafka-python 3.0.12 a leader that assigned before the topic's metadata came joined a second time
    at once (1 start in 3), and a poll timing out in that join left the referee unassigned for 30 s: a restarted
    referee stored nothing for that long (tests/integration/test_faults.py's kills)."""
    topic = topic_factory(partitions=3)
    group = f"starts-{uuid.uuid4().hex[:8]}"
    pipeline = bootstrap(Settings(kafka_bootstrap_servers=kafka_bootstrap, database_url=pg_database.url, topic=topic,
                                  partitions=3, rejections_topic=topic_factory(partitions=3),
                                  checkpoints_topic=topic_factory(partitions=1)))
    for start in range(8):
        runner = KafkaRefereeRunner(kafka_bootstrap, topic, pipeline.referee, batch_ms=100, group_id=group)
        stop = threading.Event()
        thread = _run_in_thread(runner, stop, [])
        try:
            wait_until(lambda runner=runner: runner.assignments > 0, 30,  # type: ignore[misc]
                       "the referee to be given its partitions")
            time.sleep(1.0)  # a second join comes within a few hundred milliseconds of the first
            assert runner.assignments == 1, f"start {start}: joined {runner.assignments} times"
            assert {tp.partition for tp in runner.consumer.assignment()} == {0, 1, 2}
        finally:
            stop.set()  # the runner closes its consumer: the group is left empty for the next start
            thread.join(timeout=60)


def test_a_referee_with_an_idle_exit_waits_out_a_rebalance_that_revoked_its_partitions(
    kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase
) -> None:
    """``--idle-exit`` counts quiet time only while the referee holds its partitions: revoked by a rebalance that
    waits for a slow member, they are still listed as assigned (unpaused) until it ends, and a referee that idled out
    then left their records unjudged (bench/pipeline.py: 98,256 of 100,224 judged)."""
    from kafka import KafkaConsumer

    topic = topic_factory(partitions=3)
    group = f"idle-{uuid.uuid4().hex[:8]}"
    pipeline = bootstrap(Settings(kafka_bootstrap_servers=kafka_bootstrap, database_url=pg_database.url, topic=topic,
                                  partitions=3, rejections_topic=topic_factory(partitions=3),
                                  checkpoints_topic=topic_factory(partitions=1)))

    def member(**config: Any) -> KafkaConsumer:
        return KafkaConsumer(topic, bootstrap_servers=kafka_bootstrap, group_id=group, enable_auto_commit=False,
                             session_timeout_ms=10_000, heartbeat_interval_ms=1_000, **config)

    runner = KafkaRefereeRunner(kafka_bootstrap, topic, pipeline.referee, batch_ms=100, group_id=group)
    stop = threading.Event()
    judged: list[int] = []
    thread = threading.Thread(target=lambda: judged.append(runner.run(stop, idle_exit_s=4.0)), daemon=True)
    thread.start()
    # a member that stops polling once it has partitions: the next rebalance waits for it up to its own
    # max_poll_interval_ms (its rebalance timeout), 9 s, far longer than the referee's idle exit
    slow = member(max_poll_interval_ms=9_000)
    joining = member()
    try:
        wait_until(lambda: runner.assignments > 0 and runner.unassigned_since is None, 30,
                   "the referee to be given its partitions")
        before = runner.assignments
        deadline = time.monotonic() + 30
        while not slow.assignment():
            assert time.monotonic() < deadline, "the slow member was never given a partition"
            slow.poll(timeout_ms=100, max_records=1)
        wait_until(lambda: runner.assignments > before and runner.unassigned_since is None, 30,
                   "the referee to be given its share again")
        rebalances = runner.assignments  # the slow member polls no more from here
        # another member joins: the referee's partitions are revoked until the slow member is dropped
        deadline = time.monotonic() + 40
        while not joining.assignment():
            assert time.monotonic() < deadline, "the joining member was never given a partition"
            assert thread.is_alive(), f"the referee idled out in the rebalance, judged {judged}"
            joining.poll(timeout_ms=100, max_records=1)
        wait_until(lambda: not thread.is_alive() or (runner.assignments > rebalances and runner.unassigned_since is None),
                   30, "the referee to be given its share after the rebalance")
        assert thread.is_alive(), f"the referee idled out while its partitions were revoked (judged {judged})"
    finally:
        stop.set()
        thread.join(timeout=60)
        joining.close()
        slow.close()


def test_a_referee_started_while_the_broker_is_down_logs_its_retries_then_judges_every_record_once(
    broker: PersistentService, pg_database: PgDatabase, tmp_path: Path
) -> None:
    bootstrap_servers = broker.start()
    topic = "down.events"
    env = {
        **os.environ, "KAFKA_BOOTSTRAP_SERVERS": bootstrap_servers, "DATABASE_URL": pg_database.url,
        "POKERAUDIT_PARTITIONS": "3", "POKERAUDIT_TOPIC": topic, "POKERAUDIT_REJECTIONS_TOPIC": "down.rejections",
        "POKERAUDIT_CHECKPOINTS_TOPIC": "down.checkpoints",
    }
    before, after = Chunk(pluribus(0, 2), competition="before"), Chunk(pluribus(2, 2), competition="after")
    before.publish_to_log(bootstrap_servers, topic)
    broker.stop()
    log = tmp_path / "referee.log"
    referee = follow(env, log, "referee", "--log-level", "info")
    try:
        def retried() -> bool:
            return sum(1 for line in json_lines(log)
                       if line["level"] == "warning" and line.get("service") == "kafka") >= 2

        try:
            wait_until(retried, 90, "the referee to log two retries naming Kafka")
        except BaseException:
            print(log.read_text()[-6000:])
            raise
        assert referee.poll() is None, log.read_text()[-3000:]
        assert stored_outcomes(pg_database.url) in (None, 0)

        assert broker.start() == bootstrap_servers  # the same broker, the same port
        wait_until(lambda: (stored_outcomes(pg_database.url) or 0) >= len(before.ids), 120,
                   "the records on the log before the start to be judged")
        after.publish_to_log(bootstrap_servers, topic)
        wait_until(lambda: (stored_outcomes(pg_database.url) or 0) >= len(before.ids | after.ids), 120,
                   "the records published after the broker came back to be judged")
        assert referee.poll() is None
    finally:
        stop_all(referee)
    assert referee.returncode == 0, log.read_text()[-3000:]
    stored = stored_ids(pg_database.url)
    assert len(stored) == len(set(stored)) and set(stored) == before.ids | after.ids
    stored_state(pg_database.url)
    logged = json_lines(log)
    assert any(line["message"] == "partitions assigned" and line["partitions"] for line in logged)
    # the retries are warnings; nothing of the referee's own an error (kafka-python logs each refused connection
    # as one, under kafka.*)
    ours = [line for line in logged if str(line["logger"]).startswith("pokeraudit")]
    assert not [line for line in ours if line["level"] in ("error", "critical")], ours
    assert any("reaching the log" in str(line["message"]) for line in ours if line["level"] == "warning")


def test_serve_started_while_the_broker_is_down_answers_reads_and_refuses_submits_until_it_is_back(
    broker: PersistentService, pg_database: PgDatabase, tmp_path: Path
) -> None:
    """`pokeraudit serve` started with the broker down: it serves; /ready says 503 naming Kafka, reads (PostgreSQL
    only) answer, a submit answers 503 naming the log within its timeout; once the broker is up /ready says 200
    and a submit is judged (by a referee started beside it, as an operator runs them)."""
    from shared_hands import WSOP_HAND, as_reported
    from test_outages import SLACK_S, bearer, timed

    bootstrap_servers = broker.start()  # its port, fixed for the folder; then down before anything starts
    broker.stop()
    port = free_port()
    env = {
        **os.environ, "KAFKA_BOOTSTRAP_SERVERS": bootstrap_servers, "DATABASE_URL": pg_database.url,
        "POKERAUDIT_PARTITIONS": "3", "POKERAUDIT_TOPIC": "served.events",
        "POKERAUDIT_REJECTIONS_TOPIC": "served.rejections", "POKERAUDIT_CHECKPOINTS_TOPIC": "served.checkpoints",
        "POKERAUDIT_JWT_SECRET": SECRET, "POKERAUDIT_CLOCK_SKEW_S": "0",
    }
    serve_log, referee_log = tmp_path / "serve.log", tmp_path / "referee.log"
    server = follow(env, serve_log, "serve", "--port", str(port), "--log-level", "info")
    referee = follow(env, referee_log, "referee", "--log-level", "info")
    projector = follow(env, tmp_path / "projector.log", "projections", "run", "--follow")  # where verdicts are read
    logs = lambda: {"serve": serve_log.read_text()[-4000:], "referee": referee_log.read_text()[-3000:]}  # noqa: E731
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as api:
            def listening() -> bool:
                assert server.poll() is None, logs()
                with contextlib.suppress(httpx.TransportError):
                    return api.get("/health").status_code == 200
                return False

            wait_until(listening, 120, "serve to listen with the broker down")
            ready = api.get("/ready")
            assert ready.status_code == 503, ready.text
            assert "Kafka at 127.0.0.1:" in ready.json()["error"]["message"], ready.text
            assert api.get("/v1/competitions", headers=bearer("viewer")).status_code == 200
            refused = as_reported([WSOP_HAND], "served-down")
            answer, took = timed(api, "POST", "/v1/events/batch", params={"wait": "true", "timeout": 5},
                                 json=refused, headers=bearer("judge"))
            assert answer.status_code == 503 and took < 5 + SLACK_S, (answer.status_code, took, answer.text)
            error = answer.json()["error"]
            assert error["code"] == "log_unavailable" and refused[0]["event_id"] in error["message"], error

            assert broker.start() == bootstrap_servers
            wait_until(lambda: api.get("/ready").status_code == 200, 120, "/ready to answer 200 with the broker up")
            judged = as_reported([WSOP_HAND], "served-up")
            for _ in range(4):  # a 504 (the referee still joining its group) is answered by submitting again
                answer = api.post("/v1/events/batch", params={"wait": "true", "timeout": 30}, json=judged,
                                  headers=bearer("judge"))
                if answer.status_code != 504:
                    break
            assert answer.status_code == 200, (answer.text, logs())
            assert [v["event_id"] for v in answer.json()["verdicts"]] == [e["event_id"] for e in judged], answer.text
            assert server.poll() is None and referee.poll() is None and projector.poll() is None, logs()
    finally:
        stop_all(server, referee, projector)
    # uvicorn ends by the signal it was stopped with (as the test of the start while PostgreSQL is down allows)
    assert (referee.returncode, projector.returncode, server.returncode) in ((0, 0, 0), (0, 0, -signal.SIGTERM)), logs()
    stored = stored_ids(pg_database.url)
    assert {UUID(e["event_id"]) for e in judged} <= set(stored) and len(stored) == len(set(stored))


def test_a_rebalance_that_leaves_the_referee_unassigned_too_long_is_joined_again_with_a_new_consumer(
    kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The group's rebalance held open (here by a member that joined and stopped polling, until its 40-s poll
    interval runs out): past ``rebalance_stall_s`` the referee joins again with a new consumer, and again, and judges
    every record once when the group settles. The same path ends a join stuck in the Kafka client."""
    from kafka import KafkaConsumer

    topic = topic_factory(partitions=3)
    group = f"stalled-{uuid.uuid4().hex[:8]}"
    pipeline = bootstrap(Settings(kafka_bootstrap_servers=kafka_bootstrap, database_url=pg_database.url, topic=topic,
                                  partitions=3, rejections_topic=topic_factory(partitions=3),
                                  checkpoints_topic=topic_factory(partitions=1)))
    chunk = Chunk(pluribus(0, 2), competition="stalled")
    chunk.publish_to_log(kafka_bootstrap, topic)
    holder = KafkaConsumer(topic, bootstrap_servers=kafka_bootstrap, group_id=group, enable_auto_commit=False,
                           session_timeout_ms=10_000, heartbeat_interval_ms=1_000, max_poll_interval_ms=40_000)
    stop = threading.Event()
    judged: list[int] = []
    thread: threading.Thread | None = None
    try:
        deadline = time.monotonic() + 60
        while not holder.assignment():
            assert time.monotonic() < deadline, "the holder was never given a partition"
            holder.poll(timeout_ms=100, max_records=1)
        # the holder polls no more: its heartbeats keep it in the group, and the next rebalance waits for it
        runner = KafkaRefereeRunner(kafka_bootstrap, topic, pipeline.referee, batch_ms=100, group_id=group,
                                    rebalance_stall_s=8)
        with caplog.at_level(logging.WARNING, logger="pokeraudit.referee"):
            thread = _run_in_thread(runner, stop, judged)
            wait_until(lambda: any("joining the group again" in r.getMessage() for r in caplog.records), 60,
                       "the referee to join again with a new consumer")
            wait_until(lambda: (stored_outcomes(pg_database.url) or 0) >= len(chunk.ids), 150,
                       "every record to be judged once the group settles")
        wait_until(lambda: len(runner.consumer.assignment()) == 3 and not runner.consumer.paused(), 60,
                   "the referee to hold every partition, none paused")
    finally:
        stop.set()
        if thread is not None:
            thread.join(timeout=60)
        holder.close()
        pipeline.close()
    assert judged and thread is not None and not thread.is_alive()
    stored = stored_ids(pg_database.url)
    assert len(stored) == len(set(stored)) and set(stored) == chunk.ids
