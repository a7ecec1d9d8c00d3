"""Schemathesis over the API's own OpenAPI schema, served on the real broker and server with the referee and
the projector running and a few real hands already recorded: no generated request, valid or not, gets a 5xx.

Bounded to a few dozen examples per operation, so the module runs in well under two minutes.
"""

from __future__ import annotations

import json
import os
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import schemathesis
from api_server import SECRET, serving
from hypothesis import HealthCheck, given, settings
from psycopg import sql
from schemathesis.checks import not_a_server_error

from api.app import create_app
from api.auth import issue_token
from api.operations import phh_records
from api.settings import Settings
from ingest.kafka_log import ensure_topic

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT / ".." / "shared" / "data" / "phh"))
WSOP = PHH_DIR / "data" / "wsop" / "2023" / "43" / "5"
HANDS = [WSOP / "00-02-07.phh", WSOP / "03-50-24.phh"]
JUDGE = {"Authorization": f"Bearer {issue_token(SECRET, 'fuzzer', 'judge')}"}
EXAMPLES = 40


@pytest.fixture(scope="module")
def served(kafka_bootstrap: str, database_url: str) -> Iterator[str]:
    """The app on fresh topics and a fresh database (for the whole module: one server, every operation)."""
    suffix = uuid.uuid4().hex[:12]
    topics = (f"test.schemathesis.{suffix}", f"test.schemathesis.rejections.{suffix}")
    for topic in topics:
        ensure_topic(kafka_bootstrap, topic, 3)
    dbname = f"t_schemathesis_{suffix}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(dbname)))
    settings_ = Settings(
        KAFKA_BOOTSTRAP_SERVERS=kafka_bootstrap,
        DATABASE_URL=database_url.rsplit("/", 1)[0] + f"/{dbname}",
        POKERAUDIT_TOPIC=topics[0],
        POKERAUDIT_REJECTIONS_TOPIC=topics[1],
        POKERAUDIT_CHECKPOINTS_TOPIC=f"{topics[0]}.checkpoints",
        POKERAUDIT_PARTITIONS=3,
        POKERAUDIT_JWT_SECRET=SECRET,
        POKERAUDIT_REFEREE_BATCH_MS=50,
        POKERAUDIT_CLOCK_SKEW_S=0,  # the shared hands are dated in the past (production: 300 s)
    )
    try:
        with serving(create_app(settings_, workers=True)) as url:
            record_hands(url)
            yield url
    finally:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(dbname)))
        from kafka.admin import KafkaAdminClient

        admin = KafkaAdminClient(bootstrap_servers=kafka_bootstrap, client_id="pokeraudit-tests")
        admin.delete_topics(list(topics))
        admin.close()


def record_hands(url: str) -> None:
    """Two real hands (one with a refused raise), judged: the read operations then have something to read."""
    reported: list[dict[str, Any]] = []
    for _, value in phh_records(HANDS, "fuzzed"):
        body = json.loads(value)
        del body["recorded_by"]
        reported.append(body)
    answer = httpx.post(f"{url}/v1/events/batch", params={"wait": "true", "timeout": 30}, json=reported,
                        headers=JUDGE, timeout=60)
    assert answer.status_code == 200, answer.text


@pytest.fixture(scope="module")
def operations(served: str) -> list[Any]:
    """Every operation of the served schema (schemathesis' pytest loader does not run under pytest 9, so the
    operations are driven here, each by its own Hypothesis run)."""
    schema = schemathesis.openapi.from_url(f"{served}/openapi.json")
    return [result.ok() for result in schema.get_all_operations()]


def not_a_server_error_nor_a_wait_run_out(ctx: Any, response: Any, case: Any) -> bool | None:
    """schemathesis' check, but for the one 5xx the API answers by design: 504 ``verdict_timeout``, when the caller's
    own ``timeout`` for a verdict ran out before the referee judged (the records are on the log and will be judged;
    a fuzzed ``timeout=0.5`` on a busy machine meets it). Any other 5xx, a 504 of another code included, fails."""
    if response.status_code == 504 and case.query and "timeout" in case.query:
        try:
            code = response.json()["error"]["code"]
        except (ValueError, KeyError, TypeError):
            code = None
        if code == "verdict_timeout":
            return None
    return not_a_server_error(ctx, response, case)


def fuzz(operation: Any, base_url: str, headers: dict[str, str] | None) -> Counter[int]:
    """Run ``operation``'s generated cases against the server; the statuses it answered, counted."""
    statuses: Counter[int] = Counter()

    @given(case=operation.as_strategy())
    @settings(max_examples=EXAMPLES, suppress_health_check=list(HealthCheck), deadline=None, database=None)
    def call(case: Any) -> None:
        response = case.call_and_validate(base_url=base_url, headers=headers, checks=[not_a_server_error_nor_a_wait_run_out])
        statuses[response.status_code] += 1

    call()
    return statuses


def test_the_schema_documents_every_route(operations: list[Any]) -> None:
    labels = {op.label for op in operations}
    assert {"POST /v1/events", "POST /v1/events/batch", "GET /health", "GET /ready", "GET /v1/hands/{hand_id}"} <= labels


def test_no_generated_request_with_a_judges_token_gets_a_server_error(operations: list[Any], served: str) -> None:
    statuses: Counter[int] = Counter()
    for operation in operations:
        statuses += fuzz(operation, served, JUDGE)
    # Requests were made, and some got past validation and authentication to an answer.
    assert sum(statuses.values()) >= len(operations) * 5, statuses
    assert statuses[200] + statuses[202] > 0, statuses


def test_no_generated_request_without_a_valid_token_gets_a_server_error(operations: list[Any], served: str) -> None:
    # As generated: the Authorization header is whatever schemathesis makes of it, or absent.
    statuses: Counter[int] = Counter()
    for operation in operations:
        statuses += fuzz(operation, served, None)
    assert statuses[401] > 0, statuses
