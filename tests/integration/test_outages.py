"""Outages of PostgreSQL and of the broker while the referee and the projector follow a stream, each as an
operator runs them (`pokeraudit referee`, `pokeraudit projections run --follow`) beside the API.

Both services are started by the deploy/ scripts in their persistent mode (a data folder of their own), stopped
with `stop` and started again with `start`: the data kept, the same ports. During each outage: the API's reads
and writes answer promptly, with 503 naming the service (or 504 with the records' ids), `status` answers at once
that the service is unreachable; after it: reads answer 200, and every record is stored and projected exactly once.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from uuid import UUID

import httpx
import psycopg
import pytest
from api_server import SECRET, free_port, serving
from shared_hands import WSOP_HAND, as_reported
from test_faults import (
    KAFKA_SCRIPT,
    OWN_SERVICES,
    POSTGRES_SCRIPT,
    WSOP,
    Chunk,
    pluribus,
    pokeraudit,
    stored_outcomes,
    stored_state,
    wait_until,
)

from api.app import create_app
from api.auth import issue_token
from api.settings import Settings
from projections import schema

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = [pytest.mark.integration, pytest.mark.slow]

#: a request answers within its timeout and this much more (a busy machine's scheduling, the HTTP round trip)
SLACK_S = 3.0


class PersistentService:
    """A service run by its deploy/ script in the persistent mode: ``stop`` keeps the data, ``start`` reuses it."""

    def __init__(self, script: Path, data_var: str, folder: Path) -> None:
        self.script = script
        self.env = {**os.environ, data_var: str(folder)}
        self.folder = folder

    def start(self) -> str:
        done = subprocess.run(["bash", str(self.script), "start"], env=self.env, capture_output=True, text=True,
                              timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip().splitlines()[-1]

    def stop(self) -> None:
        done = subprocess.run(["bash", str(self.script), "stop"], env=self.env, capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        assert "kept" in done.stderr, done.stderr


@pytest.fixture
def services() -> Iterator[tuple[PersistentService, PersistentService]]:
    folder = OWN_SERVICES / f"outages-{uuid.uuid4().hex[:8]}"
    kafka = PersistentService(KAFKA_SCRIPT, "KAFKA_DATA_DIR", folder / "kafka")
    postgres = PersistentService(POSTGRES_SCRIPT, "POSTGRES_DATA_DIR", folder / "postgres")
    try:
        yield kafka, postgres
    finally:
        for service in (kafka, postgres):
            subprocess.run(["bash", str(service.script), "stop"], env=service.env, capture_output=True, timeout=120,
                           check=False)
        shutil.rmtree(folder, ignore_errors=True)


def metric(port: int, name: str) -> float:
    """The value of one sample on a follower's /metrics."""
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"{name} is not among the metrics on port {port}")


def bearer(role: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(SECRET, 'outage', role)}"}


def follow(env: dict[str, str], log: Path, *command: str) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen([str(Path(sys.executable).parent / "pokeraudit"), *command], env=env,
                                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


def projected(url: str) -> int:
    """The projector's position (0 while the read models cannot be read)."""
    try:
        with psycopg.connect(url, connect_timeout=2) as db:
            row = db.execute(schema.POSITION_OF.replace("?", "%s"),
                             (schema.POSITION_NAME,)).fetchone()
    except psycopg.Error:
        return 0
    return int(row[0]) if row else 0


def stored_head(url: str) -> int:
    with psycopg.connect(url) as db:
        row = db.execute("SELECT max(notification_id) FROM pokeraudit_events").fetchone()
    return int(row[0] or 0) if row else 0


def read_model_counts(url: str) -> dict[str, int]:
    with psycopg.connect(url) as db:
        return {t: int(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]) for t in schema.MODELS}  # type: ignore[index]


def _children_cpu() -> float:
    """CPU seconds (user and system) of this process's finished children so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(request: httpx.Client, method: str, path: str, **kwargs: object) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    answer = request.request(method, path, **kwargs)  # type: ignore[arg-type]
    return answer, time.monotonic() - started


def test_the_service_rides_out_a_postgres_restart_and_a_broker_restart(
    services: tuple[PersistentService, PersistentService], tmp_path: Path
) -> None:
    kafka, postgres = services
    bootstrap, server = kafka.start(), postgres.start()
    with psycopg.connect(server, autocommit=True) as db:
        db.execute("CREATE DATABASE outages")
    url = server.rsplit("/", 1)[0] + "/outages"
    env = {
        **os.environ, "KAFKA_BOOTSTRAP_SERVERS": bootstrap, "DATABASE_URL": url, "POKERAUDIT_PARTITIONS": "3",
        "POKERAUDIT_TOPIC": "outages.events", "POKERAUDIT_REJECTIONS_TOPIC": "outages.rejections",
        "POKERAUDIT_JWT_SECRET": SECRET,
        "POKERAUDIT_CLOCK_SKEW_S": "0",  # the shared hands are dated in the past (production: 300 s)
    }
    settings = Settings(**{k: v for k, v in env.items() if k.startswith(("KAFKA_", "DATABASE_", "POKERAUDIT_"))})
    first, during_pg, during_kafka = Chunk([WSOP], repeat=2), Chunk(pluribus(0, 3)), Chunk(pluribus(3, 3))
    first.publish(env)
    referee_port, projector_port = free_port(), free_port()
    referee = follow(env, tmp_path / "referee.log", "referee", "--log-level", "info", "--metrics-port", str(referee_port))
    projector = follow(env, tmp_path / "projector.log", "projections", "run", "--follow", "--log-level", "info",
                       "--metrics-port", str(projector_port))
    submitted: set[UUID] = set()
    try:
        with serving(create_app(settings)) as base, httpx.Client(base_url=base, timeout=60) as api:
            wait_until(lambda: (stored_outcomes(url) or 0) > 0 and projected(url) > 0, 120,
                       "the referee and the projector to start")
            assert api.get("/v1/competitions", headers=bearer("viewer")).status_code == 200

            # --- PostgreSQL down
            postgres.stop()
            answer, took = timed(api, "GET", "/v1/competitions", headers=bearer("viewer"))
            assert answer.status_code == 503, answer.text
            error = answer.json()["error"]
            assert error["code"] == "service_unavailable" and "PostgreSQL at 127.0.0.1:" in error["message"]
            assert took < 5 + SLACK_S and answer.headers["Retry-After"]
            ready = api.get("/ready").json()["error"]
            assert "PostgreSQL at 127.0.0.1:" in ready["message"] and "not reachable" in ready["message"]
            started, cpu_before = time.monotonic(), _children_cpu()
            status = pokeraudit(env, "status")
            assert status.returncode == 3 and "PostgreSQL at 127.0.0.1:" in status.stderr, status.stderr
            lag = pokeraudit(env, "projections", "lag")
            assert lag.returncode == 3 and "not reachable" in lag.stderr, lag.stderr
            # Promptly: no client library's own timeout (30 s and more before the probes). The wall time follows
            # the machine's load (2.2 CPU-s took 13-24 s at load 12-16); the CPU does not: the two commands took
            # 4.3 CPU-s importing the whole command line, and take about 0.6 now that an outage is answered by
            # the entry point with the settings and the probes alone (api/console.py, api/cli_entry.py).
            cpu = _children_cpu() - cpu_before
            assert cpu < 1.5, f"status and projections lag took {cpu:.2f} CPU-s: they import more than they need"
            assert time.monotonic() - started < 20, "status and projections lag must answer promptly"
            # a submit with wait=true: on the log, and 504 with its ids at its timeout (the store cannot judge)
            hand = as_reported([WSOP_HAND], "outage-submit")
            answer, took = timed(api, "POST", "/v1/events/batch", params={"wait": "true", "timeout": 5}, json=hand,
                                 headers=bearer("judge"))
            assert answer.status_code == 504 and took < 5 + SLACK_S, (answer.status_code, took, answer.text)
            assert hand[0]["event_id"] in answer.json()["error"]["message"]
            submitted |= {UUID(e["event_id"]) for e in hand}
            during_pg.publish_to_log(bootstrap, env["POKERAUDIT_TOPIC"])
            time.sleep(5.0)
            postgres.start()  # the same cluster, the same port, its data kept
            restarted = time.monotonic()
            wait_until(lambda: api.get("/v1/competitions", headers=bearer("viewer")).status_code == 200, 30,
                       "reads to answer 200 after the restart")
            assert time.monotonic() - restarted < 30
            assert referee.poll() is None and projector.poll() is None, "a follower died with PostgreSQL"

            # --- the broker down
            kafka.stop()
            refused = as_reported([WSOP_HAND], "outage-kafka")
            answer, took = timed(api, "POST", "/v1/events/batch", params={"wait": "true", "timeout": 5},
                                 json=refused, headers=bearer("judge"))
            assert answer.status_code == 503 and took < 5 + SLACK_S, (answer.status_code, took, answer.text)
            error = answer.json()["error"]
            assert error["code"] == "log_unavailable" and refused[0]["event_id"] in error["message"]
            ready = api.get("/ready").json()["error"]
            assert "Kafka at 127.0.0.1:" in ready["message"]
            # reads need only PostgreSQL: they go on answering
            assert api.get("/v1/competitions", headers=bearer("viewer")).status_code == 200
            time.sleep(3.0)
            kafka.start()
            assert referee.poll() is None and projector.poll() is None, "a follower died with the broker"
            during_kafka.publish(env)
            # what the 503 told the client to do: submit again (the producer may also deliver its buffered copy)
            again = api.post("/v1/events/batch", params={"wait": "true", "timeout": 30}, json=refused,
                             headers=bearer("judge"))
            assert again.status_code == 200, again.text
            submitted |= {UUID(e["event_id"]) for e in refused}
            answer = api.post("/v1/events/batch", params={"wait": "true", "timeout": 30},
                              json=as_reported([WSOP_HAND], "outage-after"), headers=bearer("judge"))
            assert answer.status_code == 200, answer.text
            submitted |= {UUID(e["event_id"]) for e in as_reported([WSOP_HAND], "outage-after")}

            expected = first.ids | during_pg.ids | during_kafka.ids | submitted
            wait_until(lambda: (stored_outcomes(url) or 0) >= len(expected), 180,
                       f"every record to be judged ({len(expected)})")
            wait_until(lambda: projected(url) == stored_head(url), 120, "the projector to catch up")
            assert api.get("/ready").status_code == 200
            # what the outages left in the followers' metrics
            judged = metric(referee_port, "pokeraudit_referee_records_judged_total")
            assert judged >= len(expected) - len(first.ids) and metric(referee_port, "pokeraudit_referee_records_accepted_total") > 0
            assert metric(projector_port, 'pokeraudit_projector_retries_total{service="postgresql"}') >= 1
            assert metric(projector_port, "pokeraudit_projector_lag_events") == 0
            assert metric(projector_port, "pokeraudit_projector_events_projected_total") > 0
    finally:
        for process in (referee, projector):
            process.terminate()
            process.wait(timeout=60)
    logs = {name: (tmp_path / f"{name}.log").read_text() for name in ("referee", "projector")}
    assert referee.returncode == 0 and projector.returncode == 0, logs
    retried = [json.loads(line) for line in logs["projector"].splitlines() if line.startswith("{")]
    assert any(line["level"] == "warning" and line.get("service") == "postgresql" for line in retried), logs

    # nothing lost, nothing doubled: every id once, dense versions, the chains hold, the read models equal a rebuild
    with psycopg.connect(url) as db:
        stored = [row[0] for row in db.execute("SELECT event_id FROM referee_event_ids").fetchall()]
    assert len(stored) == len(set(stored)) and set(stored) == expected
    stored_state(url)
    assert pokeraudit(env, "verify").returncode == 0
    followed = read_model_counts(url)
    rebuilt = pokeraudit(env, "projections", "rebuild")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert read_model_counts(url) == followed and followed[schema.HISTORY] > 0
    status = json.loads(pokeraudit(env, "status", "--json").stdout)
    assert status["lag"] == 0 and not status["log_behind_store"]
    # the schema was created once: the processes opening the store after it left no ERROR in the server's log
    server_log = (postgres.folder / "postgres.log").read_text()
    assert "already exists" not in server_log, [line for line in server_log.splitlines() if "ERROR" in line]


def test_a_log_behind_the_store_is_refused_by_the_referee_and_said_by_status_and_ready(
    kafka_bootstrap: str, pg_database: PgDatabase, tmp_path: Path
) -> None:
    from kafka.admin import KafkaAdminClient

    topic = f"outages.behind.{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ, "KAFKA_BOOTSTRAP_SERVERS": kafka_bootstrap, "DATABASE_URL": pg_database.url,
        "POKERAUDIT_PARTITIONS": "3", "POKERAUDIT_TOPIC": topic, "POKERAUDIT_REJECTIONS_TOPIC": f"{topic}.rejections",
        "POKERAUDIT_JWT_SECRET": SECRET,
        "POKERAUDIT_CLOCK_SKEW_S": "0",  # the shared hands are dated in the past (production: 300 s)
    }
    chunk = Chunk(pluribus(0, 2))
    chunk.publish(env)
    judged = pokeraudit(env, "referee", "--idle-exit", "2")
    assert judged.returncode == 0, judged.stderr
    # the broker's data lost: the topic of record is empty again, the store remembers what it judged
    admin = KafkaAdminClient(bootstrap_servers=kafka_bootstrap, client_id="pokeraudit-tests")
    try:
        admin.delete_topics([topic])
        wait_until(lambda: topic not in admin.list_topics(), 60, "the topic to be deleted")
    finally:
        admin.close()
    wait_until(lambda: _recreated(kafka_bootstrap, topic), 60, "the topic to be made again")

    refused = pokeraudit(env, "referee", "--idle-exit", "2")
    assert refused.returncode == 3, refused.stderr
    assert "behind the event store" in refused.stderr and "docs/OPERATIONS.md" in refused.stderr
    status = pokeraudit(env, "status")
    assert status.returncode == 4 and "BEHIND THE STORE" in status.stdout, status.stdout
    settings = Settings(**{k: v for k, v in env.items() if k.startswith(("KAFKA_", "DATABASE_", "POKERAUDIT_"))})
    with serving(create_app(settings)) as base, httpx.Client(base_url=base, timeout=60) as api:
        ready = api.get("/ready")
    assert ready.status_code == 503 and ready.json()["error"]["code"] == "log_behind_store", ready.text


def _recreated(bootstrap: str, topic: str) -> bool:
    from kafka.errors import KafkaError

    from ingest.kafka_log import ensure_topic

    try:
        ensure_topic(bootstrap, topic, 3)
    except KafkaError:
        return False
    return True


def test_more_partitions_configured_than_the_topic_has_is_warned(
    kafka_bootstrap: str, topic_factory: Callable[..., str], caplog: pytest.LogCaptureFixture
) -> None:
    from ingest.kafka_log import ensure_topic

    topic = topic_factory(partitions=3)
    with caplog.at_level("WARNING", logger="pokeraudit.log"):
        ensure_topic(kafka_bootstrap, topic, 12)
    warned = [r for r in caplog.records if r.name == "pokeraudit.log"]
    assert len(warned) == 1 and "has 3 partitions, not the 12 configured" in warned[0].getMessage()
    caplog.clear()
    ensure_topic(kafka_bootstrap, topic, 3)
    assert not [r for r in caplog.records if r.name == "pokeraudit.log"]
