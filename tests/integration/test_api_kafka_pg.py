"""The API on the real broker and server, over HTTP: records reported through it go onto the Kafka topic,
the referee (in the served process) judges them into PostgreSQL, and the verdicts and readiness read back."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from api_server import SECRET, kafka_pg_settings, serving
from shared_hands import PHH_DIR, WSOP_HAND, WSOP_RAZZ_HAND, as_reported

from api.app import create_app
from api.auth import issue_token
from api.routes.submit import MAX_BATCH
from api.settings import Settings
from domain.hand.aggregate import hand_id
from domain.rulebooks import get_rulebook
from ingest.phh import load_hands
from ingest.phh_tables import seat_hands
from ingest.phh_validate import validate_hand
from projections.database import SqliteReadDatabase
from projections.read_models import ReadModels

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = pytest.mark.integration

LEGAL = WSOP_HAND
RAZZ = WSOP_RAZZ_HAND


def bearer(role: str, person: str = "p1", **claims: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(SECRET, person, role, **claims)}"}


@pytest.fixture
def settings(kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase) -> Settings:
    return kafka_pg_settings(kafka_bootstrap, topic_factory, pg_database.url)


@pytest.fixture
def api(settings: Settings) -> Iterator[httpx.Client]:
    with serving(create_app(settings, workers=True)) as url, httpx.Client(base_url=url, timeout=60) as client:
        yield client


def test_reported_hands_are_judged_on_kafka_and_postgres_and_read_back(api: httpx.Client) -> None:
    legal = as_reported([LEGAL], "wsop-43")
    answer = api.post("/v1/events/batch", params={"wait": "true", "timeout": 30}, json=legal, headers=bearer("judge"))
    assert answer.status_code == 200, answer.text
    assert [v["outcome"] for v in answer.json()["verdicts"]] == ["accepted"] * len(legal)

    wait_projected(api, bearer("judge"))
    read = api.get(f"/v1/hands/{hand_id(legal[0]['table_id'], 1, 'wsop-43')}", headers=bearer("viewer"))
    assert read.status_code == 200, read.text
    assert read.json()["status"] == "ended"
    starting = sum(seat["stack"] for seat in legal[0]["payload"]["seats"])
    assert sum(seat["stack"] for seat in read.json()["seats"]) == starting
    missing = api.get(f"/v1/hands/{hand_id(legal[0]['table_id'], 2, 'wsop-43')}", headers=bearer("viewer"))
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "not_found")

    razz = as_reported([RAZZ], "wsop-43")
    answer = api.post("/v1/events/batch", params={"wait": "true", "timeout": 30}, json=razz, headers=bearer("judge"))
    assert answer.status_code == 200, answer.text
    last = answer.json()["verdicts"][-1]
    assert (last["outcome"], last["kind"], last["rule"]) == ("rejected", "illegal", "bfsp 4.7.3")


def test_a_dealer_reports_one_event_at_his_table_and_gets_202(api: httpx.Client) -> None:
    start = as_reported([LEGAL], "wsop-43")[0]
    answer = api.post("/v1/events", json=start, headers=bearer("dealer", table=start["table_id"], competition=start["competition_id"]))
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


def chips(amount: float, scale: int) -> int:
    """A report's amount (in the file's units, e.g. 72.85 dollars) in chips, without float rounding."""
    return int(Decimal(str(amount)) * scale)


def table_ids_in_order(reported: list[dict[str, Any]]) -> list[str]:
    """The table each hand was put at, in the order of the hands (a hand's records start at seq 0)."""
    return [r["table_id"] for r in reported if r["seq"] == 0]


def post_all(api: httpx.Client, reported: list[dict[str, Any]], headers: dict[str, str]) -> None:
    """Every record in batches of MAX_BATCH; the last batch waits, so everything before it is judged too (one
    competition is one partition, judged in log order)."""
    chunks = [reported[i : i + MAX_BATCH] for i in range(0, len(reported), MAX_BATCH)]
    for chunk in chunks[:-1]:
        answer = api.post("/v1/events/batch", json=chunk, headers=headers, timeout=120)
        assert answer.status_code == 202, answer.text
    # On a loaded machine the referee may need more than one wait: asking again with the same ids is harmless.
    for _ in range(10):
        answer = api.post("/v1/events/batch", params={"wait": "true", "timeout": 30}, json=chunks[-1],
                          headers=headers, timeout=120)
        if answer.status_code != 504:
            break
    assert answer.status_code == 200, answer.text


def wait_projected(api: httpx.Client, headers: dict[str, str], timeout: float = 300.0) -> None:
    deadline = time.monotonic() + timeout
    while (lag := api.get("/v1/projections/lag", headers=headers).json()["lag"]) != 0:
        assert time.monotonic() < deadline, f"the projector is still {lag} events behind after {timeout} s"
        time.sleep(0.2)


@pytest.mark.slow
def test_every_shared_hand_imported_through_the_api_reads_back_with_validates_stacks_and_pots(
    api: httpx.Client,
) -> None:
    competition = "shared-phh"
    judge = bearer("judge")
    reported = as_reported([PHH_DIR], competition)
    post_all(api, reported, judge)
    wait_projected(api, judge)

    rulebook = get_rulebook("bfsp")
    # each hand at the table and number the importer gave it (hands of one table share it: ingest/phh_tables.py)
    seated = seat_hands(list(load_hands([PHH_DIR])))
    assert len(seated) == len(table_ids_in_order(reported)) == 2149
    for place in seated:
        hand, table = place.hand, place.table_id
        report = validate_hand(hand, rulebook)
        where = f"{hand.file} hand {hand.index} (table {table}, hand {place.hand_number})"
        found = api.get(f"/v1/hands/{hand_id(table, place.hand_number, competition)}", headers=judge)
        assert found.status_code == 200, f"{where}: {found.text}"
        body = found.json()
        names = dict(zip(hand.seats, hand.players, strict=True))
        stacks = {s["seat"]: s["stack"] for s in body["seats"]}
        for player, (seat, expected) in enumerate(zip(hand.seats, report.finishing_stacks, strict=True), start=1):
            if player not in hand.unknown_stacks:
                assert stacks[seat] == chips(expected, hand.scale), f"{where}: {names[seat]}'s final stack"
        assert body["status"] == ("ended" if report.complete else "in_progress"), where
        pots = [p for p in api.get(f"/v1/hands/{body['hand_id']}/pots", headers=judge).json() if p["awarded"]]
        assert [p["amount"] for p in pots] == [chips(p.amount, hand.scale) for p in report.pots], where
        assert [[names[s] for s in p["eligible"]] for p in pots] == [p.eligible for p in report.pots], where
        assert [[(names[s["seat"]], s["amount"]) for s in p["shares"]] for p in pots] == [
            [(w.player, chips(w.amount, hand.scale)) for w in p.winners] for p in report.pots
        ], where
