"""The API on the real broker and server, over HTTP: records reported through it go onto the Kafka topic,
the referee (in the served process) judges them into PostgreSQL, and the verdicts and readiness read back."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from api_server import SECRET, kafka_pg_settings, serving

from api.app import create_app
from api.auth import issue_token
from api.operations import phh_records
from api.settings import Settings
from projections.database import SqliteReadDatabase
from projections.read_models import ReadModels

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT / ".." / "shared" / "data" / "phh"))
WSOP = PHH_DIR / "data" / "wsop" / "2023" / "43" / "5"
LEGAL = WSOP / "00-02-07.phh"
RAZZ = WSOP / "03-50-24.phh"  # its 6th-street raise breaks the fixed-limit size (bfsp 4.7.3)


def records(paths: list[Path], competition: str) -> list[dict[str, Any]]:
    out = []
    for _, value in phh_records(paths, competition):
        body = json.loads(value)
        del body["recorded_by"]
        out.append(body)
    return out


def bearer(role: str, person: str = "p1", **claims: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(SECRET, person, role, **claims)}"}


@pytest.fixture
def settings(kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase) -> Settings:
    return kafka_pg_settings(kafka_bootstrap, topic_factory, pg_database.url)


@pytest.fixture
def api(settings: Settings) -> Iterator[httpx.Client]:
    with serving(create_app(settings, workers=True)) as url, httpx.Client(base_url=url, timeout=60) as client:
        yield client


def test_reported_hands_are_judged_on_kafka_and_postgres_and_the_verdicts_read_back(api: httpx.Client) -> None:
    legal = records([LEGAL], "wsop-43")
    answer = api.post("/v1/events/batch", params={"wait": "true", "timeout": 30}, json=legal, headers=bearer("judge"))
    assert answer.status_code == 200, answer.text
    assert [v["outcome"] for v in answer.json()["verdicts"]] == ["accepted"] * len(legal)

    razz = records([RAZZ], "wsop-43")
    answer = api.post("/v1/events/batch", params={"wait": "true", "timeout": 30}, json=razz, headers=bearer("judge"))
    assert answer.status_code == 200, answer.text
    last = answer.json()["verdicts"][-1]
    assert (last["outcome"], last["kind"], last["rule"]) == ("rejected", "illegal", "bfsp 4.7.3")


def test_a_dealer_reports_one_event_at_his_table_and_gets_202(api: httpx.Client) -> None:
    start = records([LEGAL], "wsop-43")[0]
    answer = api.post("/v1/events", json=start, headers=bearer("dealer", table=start["table_id"]))
    assert answer.status_code == 202, answer.text
    assert answer.json()["event_ids"] == [start["event_id"]]
    refused = api.post("/v1/events", json=start, headers=bearer("viewer")).json()["error"]
    assert (refused["status"], refused["code"]) == (403, "forbidden")


def test_ready_names_kafka_and_postgresql(api: httpx.Client, settings: Settings) -> None:
    ready = api.get("/ready")
    assert ready.status_code == 200, ready.text
    checked = " / ".join(ready.json()["checked"])
    assert f"Kafka at {settings.kafka_bootstrap_servers}" in checked
    assert "PostgreSQL at" in checked


def test_ready_is_503_naming_postgresql_when_the_server_is_not_there(
    kafka_bootstrap: str, topic_factory: Callable[..., str], tmp_path: Path
) -> None:
    settings = kafka_pg_settings(kafka_bootstrap, topic_factory, "postgresql://postgres@127.0.0.1:1/nowhere")
    # The read models cannot open on a server that is not there; the app is given others so it can start.
    read_models = ReadModels(SqliteReadDatabase(tmp_path / "read.sqlite"))
    with serving(create_app(settings, read_models=read_models)) as url:
        answer = httpx.get(f"{url}/ready", timeout=30)
    read_models.close()
    assert answer.status_code == 503, answer.text
    error = answer.json()["error"]
    assert error["code"] == "not_ready"
    assert error["message"].startswith("PostgreSQL at 127.0.0.1:1 is not reachable")
