"""Test tiers and the real services behind the integration tests.

Tiers come from the folder: tests/unit → ``unit``, tests/integration → ``integration``, tests/e2e → ``e2e``
(a module may also say ``pytestmark = pytest.mark.<tier>``; a tier that contradicts its folder is an error).

Services (session-scoped, started only when a selected test needs them):

- ``kafka_bootstrap`` → ``"127.0.0.1:PORT"``: $KAFKA_BOOTSTRAP_SERVERS if set, else a broker started by
  deploy/kafka/kafka.sh and stopped when the session ends.
- ``database_url`` → ``"postgresql://postgres@127.0.0.1:PORT/postgres"``: $DATABASE_URL if set, else a cluster
  started by deploy/postgres/postgres.sh and stopped when the session ends.

Per-test isolation:

- ``topic_name``: a fresh topic (3 partitions) that exists for the test and is deleted after it;
  ``topic_factory(partitions=..., configs=...)`` makes more.
- ``pg_database``: a fresh, empty database for the test, dropped after it (``PgDatabase``: ``url``,
  ``dbname``, ``host``, ``port``, ``user``, ``password`` and ``eventsourcing_env`` for
  ``Application(env=...)``).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# The machine is shared and noisy: a property test's examples are judged by what they assert, never by how
# fast the machine happened to generate them. (No deadline, no "too slow" health check; everything else stays.)
settings.register_profile(
    "pokeraudit", deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.load_profile("pokeraudit")

ROOT = Path(__file__).resolve().parent.parent
KAFKA_SCRIPT = ROOT / "deploy" / "kafka" / "kafka.sh"
POSTGRES_SCRIPT = ROOT / "deploy" / "postgres" / "postgres.sh"
# One folder per pytest process, so concurrent sessions in the same tree never share (or stop) a service.
SESSIONS_DIR = ROOT / "deploy" / ".cache" / "sessions"

TIERS = ("unit", "integration", "e2e")
SERVICE_FIXTURES = ("kafka_bootstrap", "database_url", "topic_name", "topic_factory", "pg_database")


# ---------------------------------------------------------------------------------------------- tiers


def _folder_tier(path: Path) -> str | None:
    try:
        parts = path.resolve().relative_to(ROOT / "tests").parts
    except ValueError:
        return None
    return parts[0] if parts and parts[0] in TIERS else None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    problems: list[str] = []
    for item in items:
        folder = _folder_tier(Path(str(item.path)))
        marked = {tier for tier in TIERS if item.get_closest_marker(tier) is not None}
        if folder is None:
            if not marked:
                problems.append(f"{item.nodeid}: no tier; mark it with one of {', '.join(TIERS)}")
            continue
        if marked - {folder}:
            problems.append(f"{item.nodeid}: marked {sorted(marked)} but lives in tests/{folder}")
            continue
        if not marked:
            item.add_marker(getattr(pytest.mark, folder))
        if folder == "unit" and set(getattr(item, "fixturenames", ())) & set(SERVICE_FIXTURES):
            problems.append(f"{item.nodeid}: unit tests use no services; move it to tests/integration")
    if problems:
        raise pytest.UsageError("test tiers:\n  " + "\n  ".join(problems))


# ------------------------------------------------------------------------------------------- services


class ScriptService:
    """A service started by one of the deploy/ scripts for this pytest process, at most once.

    ``prestart()`` begins starting it in a thread (so Kafka's JVM warms up while other tests run);
    ``address()`` waits for it; ``stop()`` is idempotent and safe when it never started.
    """

    def __init__(self, name: str, script: Path, run_env: str, from_env: str) -> None:
        self.name = name
        self.script = script
        self.run_env = run_env
        self.from_env = from_env
        self.run_dir = SESSIONS_DIR / str(os.getpid()) / name
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._address: str | None = None
        self._error: str | None = None
        self._started = False

    def external(self) -> str | None:
        value = os.environ.get(self.from_env, "").strip()
        return value or None

    def _env(self) -> dict[str, str]:
        return {**os.environ, self.run_env: str(self.run_dir)}

    def _start(self) -> None:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self._started = True
        try:
            proc = subprocess.run(
                ["bash", str(self.script), "start"],
                env=self._env(),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            self._error = f"{self.script.relative_to(ROOT)} start: {exc}"
            return
        if proc.returncode != 0:
            self._error = f"{self.script.relative_to(ROOT)} start failed (exit {proc.returncode}):\n{proc.stderr.strip()}"
            return
        lines = proc.stdout.strip().splitlines()
        self._address = lines[-1] if lines else None
        if not self._address:
            self._error = f"{self.script.relative_to(ROOT)} start printed no address"

    def prestart(self) -> None:
        with self._lock:
            if self.external() is None and self._thread is None and self._address is None:
                self._thread = threading.Thread(target=self._start, name=f"start-{self.name}", daemon=True)
                self._thread.start()

    def address(self) -> str:
        external = self.external()
        if external is not None:
            return external
        self.prestart()
        assert self._thread is not None
        self._thread.join()
        if self._error is not None:
            pytest.fail(self._error, pytrace=False)
        assert self._address is not None
        return self._address

    def stop(self) -> None:
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            thread.join()
        if not self._started:
            return
        self._started = False
        self._address = self._error = None
        proc = subprocess.run(
            ["bash", str(self.script), "stop"],
            env=self._env(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"{self.script.relative_to(ROOT)} stop failed: {proc.stderr.strip()}")
        shutil.rmtree(self.run_dir, ignore_errors=True)
        with contextlib.suppress(OSError):
            self.run_dir.parent.rmdir()


KAFKA = ScriptService("kafka", KAFKA_SCRIPT, "KAFKA_RUN_DIR", "KAFKA_BOOTSTRAP_SERVERS")
POSTGRES = ScriptService("postgres", POSTGRES_SCRIPT, "POSTGRES_RUN_DIR", "DATABASE_URL")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _sweep_abandoned_sessions() -> None:
    """Stop services left behind by a pytest process that was killed before it could stop them."""
    if not SESSIONS_DIR.is_dir():
        return
    for session in SESSIONS_DIR.iterdir():
        if not session.name.isdigit() or _pid_alive(int(session.name)):
            continue
        for script, run_env, sub in (
            (KAFKA_SCRIPT, "KAFKA_RUN_DIR", "kafka"),
            (POSTGRES_SCRIPT, "POSTGRES_RUN_DIR", "postgres"),
        ):
            if (session / sub).is_dir():
                subprocess.run(
                    ["bash", str(script), "stop"],
                    env={**os.environ, run_env: str(session / sub)},
                    stdin=subprocess.DEVNULL,
                    capture_output=True,
                    timeout=120,
                    check=False,
                )
        shutil.rmtree(session, ignore_errors=True)


def pytest_collection_finish(session: pytest.Session) -> None:
    if session.config.option.collectonly:
        return
    needed: set[str] = set()
    for item in session.items:
        needed |= set(getattr(item, "fixturenames", ())) & set(SERVICE_FIXTURES)
    if not needed:
        return
    _sweep_abandoned_sessions()
    if needed & {"kafka_bootstrap", "topic_name", "topic_factory"}:
        KAFKA.prestart()
    if needed & {"database_url", "pg_database"}:
        POSTGRES.prestart()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # The fixtures' finalizers stop what they used; this also catches a service pre-started for a test that
    # was then skipped or never reached (e.g. after -x).
    for service in (KAFKA, POSTGRES):
        service.stop()


@pytest.fixture(scope="session")
def kafka_bootstrap(request: pytest.FixtureRequest) -> str:
    """Bootstrap address of a real Kafka 4 broker (KRaft); topics are never auto-created."""
    request.addfinalizer(KAFKA.stop)
    return KAFKA.address()


@pytest.fixture(scope="session")
def database_url(request: pytest.FixtureRequest) -> str:
    """URL of a real PostgreSQL server; tests should not write to its default database (use pg_database)."""
    request.addfinalizer(POSTGRES.stop)
    return POSTGRES.address()


# ----------------------------------------------------------------------------------- per-test isolation


def _safe(text: str, limit: int) -> str:
    return re.sub(r"[^a-zA-Z0-9]+", "_", text).strip("_").lower()[:limit] or "t"


@pytest.fixture
def topic_factory(kafka_bootstrap: str, request: pytest.FixtureRequest) -> Iterator[Callable[..., str]]:
    """``make(partitions=3, configs=None) -> name``: creates a uniquely named topic, deleted after the test."""
    from kafka.admin import KafkaAdminClient

    admin = KafkaAdminClient(bootstrap_servers=kafka_bootstrap, client_id="pokeraudit-tests")
    created: list[str] = []

    def make(partitions: int = 3, configs: Mapping[str, str] | None = None) -> str:
        name = f"test.{_safe(request.node.name, 80)}.{uuid.uuid4().hex[:12]}"
        admin.create_topics(
            {
                name: {
                    "num_partitions": partitions,
                    "replication_factor": 1,
                    "configs": dict(configs or {}),
                }
            }
        )
        created.append(name)
        admin.wait_for_topics([name], timeout_ms=30_000)
        return name

    try:
        yield make
    finally:
        try:
            if created:
                admin.delete_topics(created)
        finally:
            admin.close()


@pytest.fixture
def topic_name(topic_factory: Callable[..., str]) -> str:
    """A fresh 3-partition topic for this test only."""
    return topic_factory()


@dataclass(frozen=True)
class PgDatabase:
    url: str
    dbname: str
    host: str
    port: int
    user: str
    password: str

    @property
    def eventsourcing_env(self) -> dict[str, str]:
        """Environment for ``eventsourcing`` Applications persisting in this database.

        POSTGRES_ENABLE_DB_FUNCTIONS is deliberately absent: with eventsourcing 9.5.6 it drops tracking records.
        """
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": self.dbname,
            "POSTGRES_HOST": self.host,
            "POSTGRES_PORT": str(self.port),
            "POSTGRES_USER": self.user,
            "POSTGRES_PASSWORD": self.password,
        }


@pytest.fixture
def pg_database(database_url: str, request: pytest.FixtureRequest) -> Iterator[PgDatabase]:
    """A fresh, empty database on the test server, dropped (with its connections) after the test."""
    import psycopg
    from psycopg import sql
    from psycopg.conninfo import conninfo_to_dict

    server: dict[str, Any] = conninfo_to_dict(database_url)
    dbname = f"t_{_safe(request.node.name, 40)}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(dbname)))
    try:
        yield PgDatabase(
            url=_as_url(server, dbname),
            dbname=dbname,
            host=str(server.get("host", "127.0.0.1")),
            port=int(server.get("port", 5432)),
            user=str(server.get("user", "postgres")),
            password=str(server.get("password", "")),
        )
    finally:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(dbname)))


def _as_url(server: Mapping[str, Any], dbname: str) -> str:
    from urllib.parse import quote

    user = quote(str(server.get("user", "postgres")), safe="")
    password = server.get("password")
    auth = f"{user}:{quote(str(password), safe='')}" if password else user
    host = server.get("host", "127.0.0.1")
    port = server.get("port", 5432)
    return f"postgresql://{auth}@{host}:{port}/{dbname}"
