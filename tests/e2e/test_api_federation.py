"""The federation's views through the API in the embedded mode (TestClient on ``create_app``): each endpoint for
every role that reads it, what a viewer is refused or not shown, a protest flagged overdue once the federation's
30 days have passed at the time of the request, 404s for what is not recorded, and pages of long lists."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from federation_records import CHIEF, COMPETITION, JUDGE, SECRETARY, Records, at
from federation_views_scenario import FORWARDED_AT, GOMEL, GROUNDS, forwarded, gomel_cup, minsk_open
from served_app import served_projected

from api.auth import issue_token
from api.bootstrap import bootstrap
from api.operations import publish, referee_once
from api.routes import federation as routes
from api.settings import Settings
from domain.competition.events import OfficialAppointed
from domain.roles import Role
from ingest.protocol_acts import snapshot_request
from ingest.simulator.clock import simulation_clock
from projections.protocol import snapshots

pytestmark = pytest.mark.e2e

SECRET = "test-secret-of-at-least-thirty-two-bytes"
OFFICIALS = ("integrity", "judge", "chief_judge", "secretary", "federation")
VIEWS = ("penalties", "protests", "protests/protest-1", "balance", "clock", "standings", "rulings")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET)  # type: ignore[call-arg]
    pipeline = bootstrap(settings)
    # the scenario is dated: its deadlines are driven by the log's clock, which receives each record at its time
    pipeline.log.clock = simulation_clock  # type: ignore[union-attr]
    records = Records()
    publish(pipeline, [*minsk_open(records), *gomel_cup(Records(GOMEL))], progress=False)
    assert referee_once(pipeline).get("rejected", 0) == 0
    publish(pipeline, [snapshot_request(COMPETITION, SECRETARY, at(30))], progress=False)
    assert referee_once(pipeline) == {"accepted": 1}
    [snapshot] = snapshots(pipeline.store, COMPETITION)
    publish(pipeline, [forwarded(records, snapshot.name, snapshot.chain_head)], progress=False)
    assert referee_once(pipeline) == {"accepted": 1}
    with served_projected(settings, pipeline) as served:
        yield served
    pipeline.close()


#: the persons the scenario's competitions appointed: an official reads in the offices the records gave him
APPOINTED = {"judge": JUDGE.person, "chief_judge": CHIEF.person, "secretary": SECRETARY.person}


def as_(role: str, person: str | None = None, **claims: str) -> dict[str, str]:
    who = person or APPOINTED.get(role, f"a-{role}")
    return {"Authorization": f"Bearer {issue_token(SECRET, who, role, **claims)}"}


@pytest.mark.parametrize("role", ["judge", "chief_judge", "secretary"])
def test_an_official_no_competition_appointed_reads_no_officials_words(client: TestClient, role: str) -> None:
    stranger = as_(role, person=f"{role}-of-another-competition")
    ruled = client.get(url("rulings"), headers=stranger)
    assert ruled.status_code == 403 and ruled.json()["error"]["rule"] == "bfsp 2.1.1", ruled.text
    assert "is not appointed" in ruled.json()["error"]["message"]
    protest = client.get(url("protests/protest-1"), headers=stranger).json()
    assert protest["grounds"] is None
    assert GROUNDS not in client.get(url("protests"), headers=stranger).text
    assert client.get(url("protests/protest-1"), headers=as_(role)).json()["grounds"] == GROUNDS


def url(view: str, competition: str = COMPETITION) -> str:
    return f"/v1/competitions/{competition}/{view}"


def error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"]["status"] == status and body["error"]["code"] == code
    detail: dict[str, Any] = body["error"]
    assert detail["message"]
    return detail


def at_time(monkeypatch: pytest.MonkeyPatch, moment: datetime) -> None:
    monkeypatch.setattr(routes, "now", lambda: moment)


@pytest.mark.parametrize("role", OFFICIALS)
def test_every_official_reads_every_view_with_its_grounds(client: TestClient, role: str) -> None:
    for view in VIEWS:
        response = client.get(url(view), headers=as_(role))
        assert response.status_code == 200, (view, response.text)
    penalties = client.get(url("penalties"), headers=as_(role)).json()
    assert penalties["items"][0]["violations"][0]["description"] == "kept his cards after announcing a fold"
    assert client.get(url("protests/protest-1"), headers=as_(role)).json()["grounds"] == GROUNDS


@pytest.mark.parametrize("headers", [as_("viewer"), as_("dealer", table="1", competition=COMPETITION)], ids=["viewer", "dealer"])
def test_a_viewer_reads_the_public_views_without_grounds_and_is_refused_the_rulings(
    client: TestClient, headers: dict[str, str]
) -> None:
    for view in ("standings", "clock", "balance"):
        assert client.get(url(view), headers=headers).status_code == 200, view
    penalties = client.get(url("penalties"), headers=headers).json()
    [warned] = penalties["items"][0]["violations"]
    assert (warned["code"], warned["description"], warned["hand"]) == ("7.1.2", None, None)
    protests = {p["protest"]: p for p in client.get(url("protests"), headers=headers).json()["items"]}
    assert protests["protest-2"]["grounds"] == "the flop came off the bottom", "a decided protest is published"
    assert protests["protest-1"]["grounds"] is None and protests["protest-1"]["state"] == "forwarded"
    assert client.get(url("protests/protest-1"), headers=headers).json()["grounds"] is None
    refused = error(client.get(url("rulings"), headers=headers), 403, "forbidden")
    assert "the rulings are for" in refused["message"]


def test_a_token_for_another_competition_is_refused_and_no_token_is_unauthenticated(client: TestClient) -> None:
    other = as_("chief_judge", competition=GOMEL)
    for view in VIEWS:
        detail = error(client.get(url(view), headers=other), 403, "forbidden")
        assert GOMEL in detail["message"]
    error(client.get(url("standings")), 401, "not_authenticated")


def test_what_is_not_recorded_is_not_found(client: TestClient) -> None:
    judge = as_("judge")
    for view in VIEWS:
        error(client.get(url(view, "no-such-cup"), headers=judge), 404, "not_found")
    detail = error(client.get(url("protests/protest-9"), headers=judge), 404, "not_found")
    assert "protest-9" in detail["message"]


def test_the_forwarded_protest_is_flagged_overdue_once_the_federations_30_days_have_passed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    federation = as_("federation")
    deadline = FORWARDED_AT + timedelta(days=30)
    at_time(monkeypatch, deadline - timedelta(hours=1))
    waiting = client.get(url("protests/protest-1"), headers=federation).json()
    assert (waiting["deadline"], waiting["overdue"], waiting["decision"]) == (deadline.isoformat(), False, None)
    at_time(monkeypatch, deadline + timedelta(minutes=1))
    late = client.get(url("protests/protest-1"), headers=federation).json()
    assert late["overdue"] is True
    listed = {p["protest"]: p["overdue"] for p in client.get(url("protests"), headers=federation).json()["items"]}
    assert listed == {"protest-1": True, "protest-2": False}


def test_the_views_content(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    judge = as_("judge")
    at_time(monkeypatch, at(10))
    clock = client.get(url("clock"), headers=judge).json()
    assert (clock["level"]["number"], clock["seconds_remaining"], clock["next_level"]["number"]) == (1, 1200, 2)
    standings = client.get(url("standings"), headers=judge).json()
    assert standings["winner"] == "p01" and [e["participant"] for e in standings["eliminations"]] == ["p02", "p03"]
    balance = client.get(url("balance", GOMEL), headers=judge).json()
    assert balance["balanced"] is False and balance["next_move"]["participant"]
    assert sorted(t["players"] for t in balance["tables"]) == [2, 4]
    [ruling] = client.get(url("rulings"), headers=judge).json()["items"]
    assert ruling["ruling"] == "r-1" and ruling["pots"][0]["discretionary"] is False
    windows = client.get(url("protests"), headers=judge).json()["challenge_windows"]
    assert [(w["hand_number"], w["open"]) for w in windows] == [(2, True)]


def test_long_lists_come_a_page_at_a_time(client: TestClient) -> None:
    secretary = as_("secretary")
    first = client.get(url("penalties"), headers=secretary, params={"limit": 1}).json()
    assert (first["total"], first["next_offset"], [p["participant"] for p in first["items"]]) == (2, 1, ["p01"])
    second = client.get(url("penalties"), headers=secretary, params={"limit": 1, "offset": 1}).json()
    assert (second["next_offset"], [p["participant"] for p in second["items"]]) == (None, ["p03"])
    protests = client.get(url("protests"), headers=secretary, params={"limit": 1, "offset": 1}).json()
    assert (protests["total"], [p["protest"] for p in protests["items"]]) == (2, ["protest-1"])
    error(client.get(url("protests"), headers=secretary, params={"limit": 0}), 422, "validation_error")


def test_an_appointment_counts_on_the_read_after_it_is_stored_and_a_stranger_stays_refused(tmp_path: Path) -> None:
    """The API keeps the appointments in memory (api/appointments.py); a judge it does not know as appointed is
    asked about in the store, so the read right after his appointment was judged is answered."""
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET)  # type: ignore[call-arg]
    pipeline = bootstrap(settings)
    pipeline.log.clock = simulation_clock  # type: ignore[union-attr]
    records = Records()
    publish(pipeline, list(minsk_open(records)), progress=False)
    assert referee_once(pipeline).get("rejected", 0) == 0
    newcomer, stranger = as_("judge", person="judge-newcomer"), as_("judge", person="judge-of-nowhere")
    with served_projected(settings, pipeline) as served:
        assert served.get(url("rulings"), headers=as_("judge")).status_code == 200
        for who in (newcomer, stranger):
            error(served.get(url("rulings"), headers=who), 403, "forbidden")
        publish(pipeline, [records.record(OfficialAppointed("judge-newcomer", Role.JUDGE), CHIEF, at(40))],
                progress=False)
        assert referee_once(pipeline) == {"accepted": 1}
        assert served.get(url("rulings"), headers=newcomer).status_code == 200
        error(served.get(url("rulings"), headers=stranger), 403, "forbidden")
    pipeline.close()
