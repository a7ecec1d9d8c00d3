"""The season's rating list through the API in the embedded mode (TestClient on ``create_app``): two competitions of
2026 played to their winners, an athlete disqualified for the season, the federation's rating rules — every
record through the log and the referee, the list read from the projector's read model by every role."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from federation_records import CHIEF, FEDERATION, JUDGE, Records, at, opening, play_to_the_end
from served_app import served_projected

from api.auth import issue_token
from api.bootstrap import bootstrap
from api.cli import main
from api.operations import publish, referee_once
from api.settings import Settings
from domain.discipline.events import (
    SeasonDisqualificationDecided,
    ViolationEnteredInProtocol,
    ViolationRecorded,
)
from domain.rating import RatingRulesAdopted
from ingest.simulator.clock import simulation_clock

pytestmark = pytest.mark.e2e

SECRET = "test-secret-of-at-least-thirty-two-bytes"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET)  # type: ignore[call-arg]
    pipeline = bootstrap(settings)
    pipeline.log.clock = simulation_clock  # type: ignore[union-attr]
    open_, cup = Records(), Records("minsk-cup-2026")
    publish(pipeline, [
        *opening(open_), *play_to_the_end(open_),
        open_.record(ViolationRecorded("p02", "7.1.11", "", True, 1, "insulted the dealer"), JUDGE, at(11)),
        open_.record(ViolationEnteredInProtocol("p02", 1), CHIEF, at(11.5)),
        *opening(cup), *play_to_the_end(cup),
        open_.record(SeasonDisqualificationDecided("person-p02", "2026", "minsk-open-2026", 1, "7.1.11", at(30)),
                     FEDERATION, at(30)),
        open_.record(RatingRulesAdopted("2026", (10, 6, 3), competitions=("minsk-open-2026", "minsk-cup-2026")),
                     FEDERATION, at(31)),
    ], progress=False)
    assert referee_once(pipeline).get("rejected", 0) == 0
    with served_projected(settings, pipeline) as served:
        yield served
    pipeline.close()


def as_(role: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(SECRET, f'a-{role}', role)}"}


@pytest.mark.parametrize("role", ["federation", "secretary", "integrity", "viewer"])
def test_every_role_reads_the_seasons_rating_list(client: TestClient, role: str) -> None:
    response = client.get("/v1/seasons/2026/rating", headers=as_(role))
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["rules"]["points"] == [10, 6, 3] and body["rules"]["adopted_by"] == FEDERATION.person
    assert [(c["competition"], c["counted"], c["over"]) for c in body["competitions"]] == [
        ("minsk-cup-2026", True, True), ("minsk-open-2026", True, True),
    ]
    assert [(a["athlete"], a["rank"], a["total"]) for a in body["athletes"]] == [
        ("person-p01", 1, 20.0), ("person-p03", 2, 12.0), ("person-p02", None, 6.0),
    ]
    barred = body["athletes"][-1]["season_disqualified"]
    assert (barred["competition"], barred["code"]) == ("minsk-open-2026", "7.1.11")
    first = body["athletes"][0]["results"]
    assert [(r["competition"], r["participant"], r["place"], r["points"], r["counts"]) for r in first] == [
        ("minsk-cup-2026", "p01", 1, 10.0, True), ("minsk-open-2026", "p01", 1, 10.0, True),
    ]


def test_a_season_without_rules_is_not_found_and_a_season_is_a_year(client: TestClient) -> None:
    missing = client.get("/v1/seasons/2027/rating", headers=as_("federation"))
    assert missing.status_code == 404 and "rating rules for season 2027" in missing.json()["error"]["message"]
    assert client.get("/v1/seasons/26/rating", headers=as_("federation")).status_code == 422


def test_the_cli_prints_the_list_the_api_serves(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("POKERAUDIT_DATA_DIR", str(tmp_path))
    assert main(["rating", "2026", "--format", "json"]) == 0
    served = client.get("/v1/seasons/2026/rating", headers=as_("viewer")).json()
    assert json.loads(capsys.readouterr().out) == served
    assert main(["rating", "2026"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[1] == "points by place: 10, 6, 3; every result counts"
    assert printed[5].split() == ["1", "person-p01", "20", "minsk-cup-2026", "1", "10;", "minsk-open-2026", "1", "10"]
    assert printed[-1].split()[:3] == ["DQ", "person-p02", "6"]
    assert "[disqualified for the season: minsk-open-2026, 7.1.11]" in printed[-1]
    assert main(["rating", "2027"]) == 2
    assert "no rating rules for season 2027" in capsys.readouterr().err
