"""Faults against the real broker and server, with the referee as a separate process (`pokeraudit referee`):
kill -9 mid-stream and restart, a broker restart, a PostgreSQL restart, duplicates, and every kind of
malformed record. Each time: every published event stored exactly once, in dense versions, the hash chains
verify, and the pipeline keeps going.

The broker and the PostgreSQL restarts use a broker and a cluster of their own (deploy/ scripts, own run
folders), stopped and started again in place with their data, so the session's services are never touched.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import UUID

import psycopg
import pytest
from psycopg import sql

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = [pytest.mark.integration, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT / ".." / "shared" / "data" / "phh"))
POKERAUDIT = Path(sys.executable).parent / "pokeraudit"
WSOP = PHH_DIR / "data" / "wsop" / "2023" / "43" / "5"
PLURIBUS = PHH_DIR / "data" / "pluribus"
KAFKA_SCRIPT = ROOT / "deploy" / "kafka" / "kafka.sh"
POSTGRES_SCRIPT = ROOT / "deploy" / "postgres" / "postgres.sh"
# Under the project (not /tmp/pytest-of-root, which the unprivileged postgres user cannot enter).
OWN_SERVICES = ROOT / "deploy" / ".cache" / "sessions" / str(os.getpid()) / "faults"
RAZZ_RULE = "bfsp 4.7.3"  # the WSOP razz hand's 6th-street raise, refused once per copy published


# --------------------------------------------------------------------------------------------- helpers



def _start_service(script: Path, env: dict[str, str]) -> str:
    """Start a dedicated service with a deploy/ script; answer the address it prints last."""
    out = subprocess.run(["bash", str(script), "start"], env=env, capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()[-1]

class Chunk:
    """One `pokeraudit publish` invocation: its paths, repeat count, competition and expected event ids."""

    def __init__(self, paths: Sequence[Path], repeat: int = 1, competition: str = "faults") -> None:
        from api.operations import phh_records

        self.paths, self.repeat, self.competition = list(paths), repeat, competition
        self.ids = {UUID(json.loads(v)["event_id"]) for _, v in phh_records(self.paths, competition, repeat)}
        self.razz = repeat if any(p == WSOP or p.is_relative_to(WSOP) for p in self.paths) else 0

    def publish(self, env: dict[str, str]) -> int:
        args: list[str | Path] = [
            "publish",
            "--quiet",
            "--competition",
            self.competition,
            "--repeat",
            str(self.repeat),
            *self.paths,
        ]
        done = pokeraudit(env, *args)
        assert done.returncode == 0, done.stderr
        published = int(re.search(r"published (\d+) events", done.stdout).group(1))  # type: ignore[union-attr]
        assert published == len(self.ids)
        return published

    def publish_to_log(self, bootstrap: str, topic: str) -> None:
        """Straight onto the log (`pokeraudit publish` opens the store too, and here the store is down)."""
        from api.operations import phh_records
        from ingest.kafka_log import KafkaLog

        log = KafkaLog(bootstrap, topic, partitions=3)
        try:
            log.append(list(phh_records(self.paths, self.competition, self.repeat)))
        finally:
            log.close()


def pluribus(start: int, count: int) -> list[Path]:
    """``count`` of the Pluribus folders (they hold 3–40 hands each), in name order from the ``start``-th."""
    folders = sorted(p for p in PLURIBUS.iterdir() if p.is_dir())
    return folders[start : start + count]


def pokeraudit(
    env: dict[str, str], *args: str | Path, timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(POKERAUDIT), *map(str, args)], capture_output=True, text=True, timeout=timeout, env=env
    )


def start_referee(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(
            [str(POKERAUDIT), "referee"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )


def drain(env: dict[str, str]) -> int:
    """Run a referee until the log has been quiet for 3 s; the number of records it judged."""
    done = pokeraudit(env, "referee", "--idle-exit", "3")
    assert done.returncode == 0, done.stderr
    judged: int = json.loads(done.stdout)["judged"]
    return judged


def stored_outcomes(url: str) -> int | None:
    """How many records have a stored outcome, or None while the store cannot answer."""
    try:
        with psycopg.connect(url, connect_timeout=2) as db:
            row = db.execute("SELECT count(*) FROM referee_event_ids").fetchone()
    except (psycopg.OperationalError, psycopg.errors.UndefinedTable):
        return None
    return int(row[0]) if row else 0


def wait_until(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:.0f}s waiting for {what}")
        time.sleep(0.1)


def stored_state(url: str) -> dict[tuple[UUID, int], tuple[str, bytes]]:
    """Every stored event by (stream, version); asserts each stream's versions are 1..n with no gap or repeat."""
    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT originator_id, originator_version, topic, state FROM pokeraudit_events"
            " ORDER BY originator_id, originator_version"
        ).fetchall()
    state: dict[tuple[UUID, int], tuple[str, bytes]] = {}
    versions: dict[UUID, list[int]] = {}
    for stream, version, topic, blob in rows:
        state[(stream, version)] = (topic, bytes(blob))
        versions.setdefault(stream, []).append(version)
    for stream, seen in versions.items():
        assert seen == list(range(1, len(seen) + 1)), f"stream {stream}: versions {seen[:10]}…"
    return state


def final_stacks(state: dict[tuple[UUID, int], tuple[str, bytes]]) -> dict[UUID, Any]:
    return {
        stream: stored_payload(blob)["final_stacks"]
        for (stream, _), (topic, blob) in state.items()
        if topic.endswith(".HandEnded")
    }


def stored_payload(blob: bytes) -> Any:
    """A stored event's payload: inside the canonical body the store keeps of a chained event
    (``ingest.store.ChainMapper``), or at the top of an event stored eventsourcing's usual way."""
    data = json.loads(blob)
    return data["body"]["payload"] if "body" in data else data["payload"]


def check_store(
    url: str, env: dict[str, str], chunks: Sequence[Chunk]
) -> dict[tuple[UUID, int], tuple[str, bytes]]:
    """Every published event has exactly one stored outcome, the only rejections are the razz hands' raise,
    versions are dense, and `pokeraudit verify` passes."""
    ids = set().union(*(c.ids for c in chunks))
    razz = sum(c.razz for c in chunks)
    with psycopg.connect(url) as db:
        stored = [row[0] for row in db.execute("SELECT event_id FROM referee_event_ids").fetchall()]
        outcomes: dict[str, int] = dict(
            db.execute("SELECT outcome, count(*) FROM referee_event_ids GROUP BY outcome").fetchall()
        )
    assert len(stored) == len(set(stored)) and set(stored) == ids
    assert outcomes == {"accepted": len(ids) - razz, **({"rejected": razz} if razz else {})}
    rejections = rejection_payloads(url, "faults")
    assert [r["kind"] for r in rejections] == ["illegal"] * razz
    assert all(str(r["rule"]).startswith(RAZZ_RULE) for r in rejections)
    state = stored_state(url)
    status = json.loads(pokeraudit({**env, "DATABASE_URL": url}, "status", "--json").stdout)
    assert status["lag"] == 0 and (status["accepted"], status["rejected"]) == (len(ids) - razz, razz)
    verified = pokeraudit({**env, "DATABASE_URL": url}, "verify")
    assert verified.returncode == 0, verified.stdout
    return state


def rejection_payloads(url: str, competition: str) -> list[dict[str, Any]]:
    from domain.rejections import rejection_log_id
    from ingest.store import Store, store_env

    store = Store(env=store_env(url))
    try:
        payloads = [getattr(e, "payload", None) for e in store.events.get(rejection_log_id(competition))]
        return [p for p in payloads if isinstance(p, dict) and "kind" in p]
    except Exception:  # noqa: BLE001 - no rejection log yet
        return []
    finally:
        store.close()


@contextlib.contextmanager
def extra_database(database_url: str) -> Iterator[str]:
    name = f"faults_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(database_url, autocommit=True) as db:
        db.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield database_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(database_url, autocommit=True) as db:
            db.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def base_env(bootstrap: str, database: str, topic: str, rejections: str) -> dict[str, str]:
    return {
        **os.environ,
        "KAFKA_BOOTSTRAP_SERVERS": bootstrap,
        "DATABASE_URL": database,
        "POKERAUDIT_TOPIC": topic,
        "POKERAUDIT_REJECTIONS_TOPIC": rejections,
        "POKERAUDIT_CHECKPOINTS_TOPIC": f"{topic}.checkpoints",  # one store, one copy of its checkpoints
        "POKERAUDIT_PARTITIONS": "3",
    }


# ---------------------------------------------------------------------------- a broker and a cluster of our own


class OwnKafka:
    """A broker started by deploy/kafka/kafka.sh in its own folder; restart() keeps its data and ports."""

    def __init__(self, run: Path) -> None:
        self.run = run
        self.env = {**os.environ, "KAFKA_RUN_DIR": str(run)}
        self.bootstrap = ""
        self._relaunched: list[subprocess.Popen[bytes]] = []

    def start(self) -> str:
        self.bootstrap = _start_service(KAFKA_SCRIPT, self.env)
        return self.bootstrap

    def restart(self, down_s: float) -> None:
        pidfile = self.run / "kafka.pid"
        pid = int(pidfile.read_text())
        command = Path(f"/proc/{pid}/cmdline").read_bytes().rstrip(b"\0").split(b"\0")
        os.kill(pid, signal.SIGTERM)
        wait_until(lambda: not _alive(pid), 60, "the broker to stop")
        time.sleep(down_s)
        with (self.run / "logs" / "restarted.log").open("ab") as out:
            proc = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self._relaunched.append(proc)
        pidfile.write_text(f"{proc.pid}\n")
        host, port = self.bootstrap.rsplit(":", 1)
        wait_until(lambda: _accepts(host, int(port)), 90, "the broker to listen again")

    def stop(self) -> None:
        subprocess.run(
            ["bash", str(KAFKA_SCRIPT), "stop"], env=self.env, capture_output=True, timeout=120, check=False
        )
        for proc in self._relaunched:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=30)


class OwnPostgres:
    """A cluster started by deploy/postgres/postgres.sh in its own folder; restart() keeps its data and port."""

    def __init__(self, run: Path) -> None:
        self.run = run
        self.env = {**os.environ, "POSTGRES_RUN_DIR": str(run)}
        self.url = ""

    def start(self) -> str:
        self.url = _start_service(POSTGRES_SCRIPT, self.env)
        return self.url

    def _pg_ctl(self, *args: str) -> None:
        bindir = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))[-1]
        owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        done = subprocess.run(
            [*owner, str(bindir / "pg_ctl"), *args, "-D", str(self.run / "data")],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr

    def stop_server(self) -> None:
        self._pg_ctl("stop", "-m", "fast", "-w")

    def start_server(self) -> None:
        port = (self.run / "port").read_text().strip()
        self._pg_ctl("start", "-w", "-l", str(self.run / "postgres.log"), "-o", f"-p {port}")

    def stop(self) -> None:
        subprocess.run(
            ["bash", str(POSTGRES_SCRIPT), "stop"],
            env=self.env,
            capture_output=True,
            timeout=120,
            check=False,
        )


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state not in ("Z", "X")


def _accepts(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=1).close()
    except OSError:
        return False
    return True


@pytest.fixture
def own_kafka() -> Iterator[OwnKafka]:
    run = OWN_SERVICES / f"kafka-{uuid.uuid4().hex[:8]}"
    broker = OwnKafka(run)
    try:
        broker.start()
        yield broker
    finally:
        broker.stop()
        shutil.rmtree(run, ignore_errors=True)


@pytest.fixture
def own_postgres() -> Iterator[OwnPostgres]:
    run = OWN_SERVICES / f"postgres-{uuid.uuid4().hex[:8]}"
    cluster = OwnPostgres(run)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(run, ignore_errors=True)


# ---------------------------------------------------------------------------------------------------- tests


def test_a_referee_killed_mid_stream_and_restarted_stores_every_event_once_as_an_uninterrupted_run_would(
    kafka_bootstrap: str,
    topic_factory: Callable[..., str],
    pg_database: PgDatabase,
    database_url: str,
    tmp_path: Path,
) -> None:
    env = base_env(kafka_bootstrap, pg_database.url, topic_factory(partitions=3), topic_factory(partitions=3))
    chunks = [Chunk([WSOP], repeat=3)] + [Chunk(pluribus(4 * i, 4)) for i in range(8)]
    rng = random.Random(int(os.environ.get("POKERAUDIT_FAULT_SEED", "0")) or None)

    kills = 6
    killed = threading.Semaphore(0)

    def publish_all() -> None:
        # The next chunk goes out only once the referee has been killed again, so the stream outlasts the kills
        # however fast the referee judges (a referee that caught up with a finished stream has nothing to store).
        for n, chunk in enumerate(chunks):
            chunk.publish(env)
            if n < kills:
                killed.acquire(timeout=180)
            else:
                time.sleep(rng.uniform(0.5, 2.0))

    publisher = threading.Thread(target=publish_all)
    publisher.start()
    kills_mid_stream = 0
    log = tmp_path / "referee.log"
    try:
        for _ in range(kills):
            referee = start_referee(env, log)
            before = stored_outcomes(pg_database.url) or 0
            wait_until(
                lambda before=before: (stored_outcomes(pg_database.url) or 0) > before,  # type: ignore[misc]
                60,
                "the restarted referee to store something",
            )
            time.sleep(rng.uniform(0.0, 0.8))
            referee.send_signal(signal.SIGKILL)
            referee.wait()
            at_kill = stored_outcomes(pg_database.url) or 0
            if at_kill < sum(len(c.ids) for c in chunks):
                kills_mid_stream += 1
            killed.release()
    finally:
        for _ in range(kills):
            killed.release()  # a failed wait above must not leave the publisher waiting for a kill
        publisher.join()
    drain(env)
    assert kills_mid_stream >= 5, f"only {kills_mid_stream} kills came before the end of the stream"
    interrupted = check_store(pg_database.url, env, chunks)

    with extra_database(database_url) as reference_url:
        # Its own store, so its own copy of the checkpoints on the log (one checkpoints topic per store)
        reference_env = {**env, "DATABASE_URL": reference_url,
                         "POKERAUDIT_CHECKPOINTS_TOPIC": env["POKERAUDIT_CHECKPOINTS_TOPIC"] + ".reference"}
        assert drain(reference_env) == sum(len(c.ids) for c in chunks)
        uninterrupted = check_store(reference_url, reference_env, chunks)
    stacks = final_stacks(interrupted)
    assert len(stacks) > 300 and stacks == final_stacks(uninterrupted)
    # The checkpoints record each run's own transactions (where a batch ended, when): all else is the same.
    assert judged(interrupted) == judged(uninterrupted), "the stored events differ from an uninterrupted run's"
    assert any(topic.startswith(CHECKPOINTS) for topic, _ in interrupted.values())


CHECKPOINTS = "domain.checkpoints:"


def judged(state: dict[tuple[UUID, int], tuple[str, bytes]]) -> dict[tuple[UUID, int], tuple[str, bytes]]:
    """The stored events but the referee's checkpoints."""
    return {key: value for key, value in state.items() if not value[0].startswith(CHECKPOINTS)}


def test_the_referee_keeps_going_through_a_broker_restart(
    own_kafka: OwnKafka, pg_database: PgDatabase, tmp_path: Path
) -> None:
    env = base_env(own_kafka.bootstrap, pg_database.url, "faults.broker", "faults.broker.rejections")
    before, after = Chunk([WSOP], repeat=3), Chunk(pluribus(0, 4))
    before.publish(env)
    referee = start_referee(env, tmp_path / "referee.log")
    try:
        wait_until(lambda: (stored_outcomes(pg_database.url) or 0) > 0, 60, "the referee to store something")
        own_kafka.restart(down_s=3.0)
        assert referee.poll() is None, "the referee died with the broker"
        after.publish(env)
        total = len(before.ids) + len(after.ids)
        wait_until(lambda: stored_outcomes(pg_database.url) == total, 120, "every record to be judged")
        assert referee.poll() is None, (tmp_path / "referee.log").read_text()
    finally:
        referee.kill()
        referee.wait()
    check_store(pg_database.url, env, [before, after])


def test_the_referee_retries_through_a_postgres_restart_and_never_reads_the_outage_as_a_rejection(
    kafka_bootstrap: str, topic_factory: Callable[..., str], own_postgres: OwnPostgres, tmp_path: Path
) -> None:
    with psycopg.connect(own_postgres.url, autocommit=True) as db:
        db.execute("CREATE DATABASE faults")
    url = own_postgres.url.rsplit("/", 1)[0] + "/faults"
    env = base_env(kafka_bootstrap, url, topic_factory(partitions=3), topic_factory(partitions=3))
    before, during = Chunk([WSOP], repeat=6), Chunk(pluribus(0, 4))
    before.publish(env)
    log = tmp_path / "referee.log"
    referee = start_referee(env, log)
    try:
        wait_until(lambda: (stored_outcomes(url) or 0) > 0, 60, "the referee to store something")
        own_postgres.stop_server()  # fast shutdown: the referee's open transaction is cut off
        assert (stored_outcomes(url) or 0) < len(before.ids), "the outage came after the stream"
        during.publish_to_log(kafka_bootstrap, env["POKERAUDIT_TOPIC"])  # the log takes records meanwhile
        time.sleep(12.0)  # longer than eventsourcing's own retries of one statement (about 9 s)
        own_postgres.start_server()
        total = len(before.ids) + len(during.ids)
        wait_until(lambda: stored_outcomes(url) == total, 120, "every record to be judged")
        assert referee.poll() is None, log.read_text()
    finally:
        referee.kill()
        referee.wait()
    # Whether the runner's own retry ran ("infrastructure failure, retrying" in the log) depends on whether
    # the shutdown cut an open transaction; otherwise eventsourcing's connection pool waited the outage out.
    # Either way the outage must leave no trace in the store:
    check_store(url, env, [before, during])


def test_records_published_twice_are_stored_once(
    kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase
) -> None:
    env = base_env(kafka_bootstrap, pg_database.url, topic_factory(partitions=3), topic_factory(partitions=3))
    chunk = Chunk([WSOP, *pluribus(0, 2)])
    chunk.publish(env)
    chunk.publish(env)
    assert drain(env) == 2 * len(chunk.ids)
    chunk.publish(env)  # and again after they were judged
    assert drain(env) == len(chunk.ids)
    check_store(pg_database.url, env, [chunk])


def test_every_kind_of_malformed_record_is_a_stored_rejection_and_the_pipeline_goes_on(
    kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase
) -> None:
    from api.operations import phh_records
    from ingest.kafka_log import KafkaLog

    env = base_env(kafka_bootstrap, pg_database.url, topic_factory(partitions=3), topic_factory(partitions=3))
    hand = list(phh_records([WSOP / "00-02-07.phh"], "faults"))
    key = hand[0][0]

    def altered(index: int, change: Callable[[dict[str, Any]], None]) -> tuple[bytes, bytes]:
        data = json.loads(hand[index][1])
        data["event_id"] = str(uuid.uuid4())
        change(data)
        return key, json.dumps(data).encode()

    malformed = [
        ((key, b'{"event_id": "not closed'), "malformed", ""),
        (altered(3, lambda d: d.update(type="HandTeleported")), "malformed", "type"),
        (altered(3, lambda d: d["payload"].update(seat="two")), "malformed", "payload.seat"),
        (altered(3, lambda d: d.update(occurred_at="2026-01-01T00:00:03")), "malformed", "occurred_at"),
        (altered(5, lambda d: None), "out_of_sequence", "seq"),  # seq 5 where the hand expects 3
        (altered(3, lambda d: d.update(hand_id="99")), "out_of_sequence", "hand_id"),  # no such hand
        (altered(0, lambda d: None), "out_of_sequence", "hand_id"),  # the hand has already started
    ]
    log = KafkaLog(kafka_bootstrap, env["POKERAUDIT_TOPIC"], partitions=3, create=False)
    try:
        log.append([*hand[:3], *(record for record, _, _ in malformed), *hand[3:]])
    finally:
        log.close()
    assert drain(env) == len(hand) + len(malformed)

    rejections = rejection_payloads(pg_database.url, "faults")
    assert [(r["kind"], r["field"]) for r in rejections] == [(kind, field) for _, kind, field in malformed]
    assert "not JSON" in rejections[0]["reason"]
    assert "timezone" in rejections[3]["reason"]
    status = json.loads(pokeraudit(env, "status", "--json").stdout)
    assert (status["accepted"], status["rejected"], status["lag"]) == (len(hand), len(malformed), 0)
    assert pokeraudit(env, "verify").returncode == 0
    stacks = final_stacks(stored_state(pg_database.url))
    assert len(stacks) == 1, "the hand after the malformed records was played to its end"

    # A late event for the finished hand (no longer hot: it is read back from the store) is refused too.
    last_act = max(i for i, (_, v) in enumerate(hand) if json.loads(v)["type"] == "PlayerActed")
    late = altered(last_act, lambda d: d.update(seq=len(hand)))  # an act after the hand's end
    log = KafkaLog(kafka_bootstrap, env["POKERAUDIT_TOPIC"], partitions=3, create=False)
    try:
        log.append([late])
    finally:
        log.close()
    assert drain(env) == 1
    refused = rejection_payloads(pg_database.url, "faults")[-1]
    assert refused["event_id"] == json.loads(late[1])["event_id"] and refused["kind"] == "illegal", refused
    status = json.loads(pokeraudit(env, "status", "--json").stdout)
    assert (status["accepted"], status["rejected"]) == (len(hand), len(malformed) + 1)
    assert final_stacks(stored_state(pg_database.url)) == stacks
