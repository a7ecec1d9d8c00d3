"""One API request reads one state of the read models (api/deps.py: read_models), in the embedded mode: a
rebuild swapped in while a route reads is in none of its reads (it is in a plain read's, and in the next
request's), whichever worker threads FastAPI runs the request's dependency and route on; a process without
the read models answers 503."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient
from served_app import SECRET, app_on, embedded, projected, publish_judged

from api.auth import issue_token
from api.bootstrap import Pipeline
from api.deps import CurrentReadModels
from domain.cards import parse_cards
from domain.hand.events import (
    ActionKind,
    ForcedBetKind,
    ForcedBetPosted,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    ReportedEvent,
    SeatEntry,
    Stakes,
)
from domain.roles import Role
from ingest.envelope import RecordedBy
from ingest.publish import hand_records
from projections.read_models import ReadModels
from projections.runner import Projector

pytestmark = pytest.mark.e2e

AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
DEALER = RecordedBy(person="dealer-3", role=Role.DEALER)
VIEWER = {"Authorization": f"Bearer {issue_token(SECRET, 'a-viewer', Role.VIEWER)}"}


def raised(table: str, competition: str) -> list[tuple[bytes, bytes]]:
    events: list[ReportedEvent] = [
        HandStarted(
            table, 1, "NT", (SeatEntry(1, "Ann", 1000), SeatEntry(2, "Bob", 1000)), 2,
            Stakes(blinds=((2, 50), (1, 100)), min_bet=100), burns_recorded=False,
        ),
        ForcedBetPosted(2, ForcedBetKind.SMALL_BLIND, 50),
        ForcedBetPosted(1, ForcedBetKind.BIG_BLIND, 100),
        HoleCardsDealt(1, parse_cards("AsKd")),
        HoleCardsDealt(2, parse_cards("QsQd")),
        PlayerActed(2, ActionKind.RAISE, 300),
    ]
    return list(hand_records(events, competition, DEALER, AT))


@dataclass
class Served:
    client: TestClient
    app: FastAPI
    pipeline: Pipeline
    #: the read models projected from the open's hand, and the cup's hand stored and not projected yet
    rebuild: Projector


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with embedded(tmp_path) as (settings, pipeline):
        publish_judged(pipeline, raised("t1", "open"))
        with projected(settings, pipeline) as projector:
            publish_judged(pipeline, raised("t1", "cup"))
            with app_on(settings, pipeline) as client:
                yield Served(client, client.app, pipeline, projector)  # type: ignore[arg-type]


def two_reads_around_a_rebuild(models: ReadModels, rebuild: Projector) -> dict[str, list[list[str]]]:
    first = [c.competition_id for c in models.competitions()]
    rebuild.rebuild()
    return {"reads": [first, [c.competition_id for c in models.competitions()]]}


def test_a_rebuild_swapped_in_during_a_request_is_in_none_of_its_reads(served: Served) -> None:
    @served.app.get("/test/in-one-request")
    def in_one_request(models: CurrentReadModels) -> dict[str, list[list[str]]]:
        return two_reads_around_a_rebuild(models, served.rebuild)

    response = served.client.get("/test/in-one-request")
    assert response.status_code == 200, response.text
    assert response.json()["reads"] == [["open"], ["open"]]
    competitions = served.client.get("/v1/competitions", headers=VIEWER).json()["items"]
    assert [c["competition_id"] for c in competitions] == ["cup", "open"], "the next request sees the rebuild"
    lag = served.client.get("/v1/projections/lag", headers=VIEWER).json()
    assert lag["lag"] == 0 and lag["position"] == served.pipeline.store.recorder.max_notification_id()


def test_plain_reads_of_the_read_models_see_the_rebuild_between_them(served: Served) -> None:
    @served.app.get("/test/plain")
    def plain(request: Request) -> dict[str, list[list[str]]]:
        return two_reads_around_a_rebuild(request.app.state.read_models, served.rebuild)

    assert served.client.get("/test/plain").json()["reads"] == [["open"], ["cup", "open"]]


def test_a_process_without_the_read_models_answers_503(served: Served) -> None:
    opened, served.app.state.read_models = served.app.state.read_models, None
    try:
        response = served.client.get("/v1/competitions", headers=VIEWER)
    finally:
        served.app.state.read_models = opened
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "read_models_unavailable"
