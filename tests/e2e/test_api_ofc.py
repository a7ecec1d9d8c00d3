"""An OFC event through the API in the embedded mode: each round's rows, fouls, royalties and points, the
standings by points over the event, and the sealing of discards, unset cards and fantasy hands."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.auth import issue_token
from api.bootstrap import bootstrap, open_read_models
from api.operations import publish, referee_once
from api.settings import Settings
from ingest.simulator.ofc import OfcSimulation, simulate_ofc, simulate_ofc_competition
from projections.runner import Projector

pytestmark = pytest.mark.e2e

SECRET = "test-secret-of-at-least-thirty-two-bytes"
COMPETITION = "ofc-cup"


@pytest.fixture(scope="module")
def simulation() -> OfcSimulation:
    # seed 9: round 3 is played in fantasy, and its first fantasy deal is miscounted
    return simulate_ofc(9, tables=1, seats=2, rounds=6, competition_id=COMPETITION, miscount=0.5)


@pytest.fixture
def client(tmp_path: Path, simulation: OfcSimulation) -> Iterator[TestClient]:
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET)  # type: ignore[call-arg]
    pipeline = bootstrap(settings)
    records = list(simulation.records())
    # rounds 1 and 2 whole; round 3 (in fantasy) until the fantasy hand is set and the other player's first five
    # cards are dealt (its first act a miscounted fantasy deal, redealt)
    before = sum(len(r.played.events) for r in simulation.rounds[:2])
    third = simulation.rounds[2].played
    assert third.started.fantasy and third.redeals
    cut = before + 1 + 3 + 1  # the start, the miscount, the 14 cards and their setting, the first five
    publish(pipeline, records[:cut], progress=False)
    assert referee_once(pipeline) == {"accepted": cut}
    read_models = open_read_models(settings)
    Projector(pipeline.store, read_models.database).catch_up()  # the OFC rounds are read models
    with TestClient(create_app(settings, pipeline, read_models)) as served:
        yield served
    read_models.close()
    pipeline.close()


def as_(role: str, **claims: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(SECRET, f'a-{role}', role, **claims)}"}


def event(client: TestClient, role: str, **claims: str) -> dict[str, Any]:
    response = client.get(f"/v1/competitions/{COMPETITION}/ofc", headers=as_(role, **claims))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_every_round_is_shown_with_its_points_and_the_standings_add_them_up(
    client: TestClient, simulation: OfcSimulation
) -> None:
    body = event(client, "integrity")
    assert body["variant"] == "OFC"
    rounds = body["rounds"]
    assert [r["round_number"] for r in rounds] == [1, 2, 3]
    assert [r["status"] for r in rounds] == ["scored", "scored", "in_progress"]
    assert rounds[2]["redeals"] == 1
    for view, played in zip(rounds[:2], simulation.rounds, strict=False):
        scored = played.played.scored
        assert [s["points"] for s in view["seats"]] == [h.points for h in scored.hands]
        assert [s["fouled"] for s in view["seats"]] == [h.fouled for h in scored.hands]
        assert [s["royalties"] for s in view["seats"]] == [list(h.royalties) for h in scored.hands]
        assert sum(s["points"] for s in view["seats"]) == 0
    totals: dict[str, int] = {}
    for played in simulation.rounds[:2]:
        for hand in played.played.scored.hands:
            totals[hand.player] = totals.get(hand.player, 0) + hand.points
    standings = body["standings"]
    assert {s["player"]: s["points"] for s in standings} == totals
    assert [s["points"] for s in standings] == sorted(totals.values(), reverse=True)
    assert standings[0]["place"] == 1 and all(len(s["per_round"]) == 2 for s in standings)


def test_a_viewer_sees_no_discard_no_unset_card_and_no_fantasy_hand_until_the_round_is_over(
    client: TestClient,
) -> None:
    viewer = event(client, "viewer")
    judge = event(client, "judge")
    for sealed, full in zip(viewer["rounds"], judge["rounds"], strict=True):
        for seat, whole in zip(sealed["seats"], full["seats"], strict=True):
            assert set(seat["discarded"]) <= {"??"} and len(seat["discarded"]) == len(whole["discarded"])
            assert set(seat["unset"]) <= {"??"}
            if sealed["status"] == "scored" or not seat["fantasy"]:
                assert seat["rows"] == whole["rows"]
            else:
                assert set(sum(seat["rows"].values(), [])) <= {"??"}
    live = judge["rounds"][-1]
    fantasy = next(s for s in live["seats"] if s["fantasy"])
    other = next(s for s in live["seats"] if not s["fantasy"])
    assert len(sum(fantasy["rows"].values(), [])) == 13 and len(fantasy["discarded"]) == 1
    assert len(other["unset"]) == 5 and "??" not in other["unset"]
    sealed = next(s for s in viewer["rounds"][-1]["seats"] if s["fantasy"])
    assert sealed["rows"] == {"bottom": ["??"] * 5, "middle": ["??"] * 5, "top": ["??"] * 3}
    # the dealer of the table sees his table's cards; a dealer of another table does not
    assert event(client, "dealer", competition=COMPETITION, table="T1")["rounds"][-1] == live
    assert event(client, "dealer", competition=COMPETITION, table="T9")["rounds"][-1] != live


def test_a_competition_without_ofc_rounds_is_not_found(client: TestClient) -> None:
    response = client.get("/v1/competitions/nothing/ofc", headers=as_("viewer"))
    assert response.status_code == 404


def test_the_competitions_and_tables_reads_list_the_rounds_and_a_table_shows_points_not_chips(
    client: TestClient, simulation: OfcSimulation
) -> None:
    viewer = as_("viewer")
    (listed,) = [
        c for c in client.get("/v1/competitions", headers=viewer).json()["items"] if c["competition_id"] == COMPETITION
    ]
    assert (listed["tables"], listed["hands"], listed["ofc_rounds"], listed["ofc_rounds_in_progress"]) == (1, 0, 3, 1)
    tables = client.get(f"/v1/competitions/{COMPETITION}/tables", headers=viewer).json()["items"]
    assert tables == [{"table_id": "T1", "hands": 0, "last_hand_number": None, "ofc_rounds": 3, "last_ofc_round": 3}]
    table = client.get(f"/v1/competitions/{COMPETITION}/tables/T1", headers=viewer).json()
    assert table["variant"] == "OFC" and table["last_round_number"] == 3 and "stack" not in table["seats"][0]
    totals: dict[str, int] = {}
    for played in simulation.rounds[:2]:
        for hand in played.played.scored.hands:
            totals[hand.player] = totals.get(hand.player, 0) + hand.points
    assert {s["player"]: s["points"] for s in table["seats"]} == totals
    assert client.get(f"/v1/competitions/{COMPETITION}/ofc/tables/T1", headers=viewer).json() == table
    standings = client.get(f"/v1/competitions/{COMPETITION}/ofc/standings", headers=viewer).json()
    assert standings == event(client, "viewer")["standings"]
    rounds = client.get(f"/v1/competitions/{COMPETITION}/ofc/tables/T1/rounds?offset=1&limit=5", headers=viewer).json()
    assert rounds["total"] == 3 and [r["round_number"] for r in rounds["items"]] == [2, 3]
    assert rounds["items"] == event(client, "viewer")["rounds"][1:]
    live = client.get(f"/v1/competitions/{COMPETITION}/ofc/tables/T1/rounds/3", headers=viewer).json()
    fantasy = next(s for s in live["seats"] if s["fantasy"])
    assert fantasy["rows"] == {"bottom": ["??"] * 5, "middle": ["??"] * 5, "top": ["??"] * 3}
    judged = client.get(f"/v1/competitions/{COMPETITION}/ofc/tables/T1/rounds/3", headers=as_("judge")).json()
    assert "??" not in sum(next(s for s in judged["seats"] if s["fantasy"])["rows"].values(), [])
    missing = client.get(f"/v1/competitions/{COMPETITION}/ofc/tables/T1/rounds/4", headers=viewer)
    assert missing.status_code == 404


@pytest.fixture
def competition_client(tmp_path: Path) -> Iterator[tuple[TestClient, OfcSimulation]]:
    """A whole OFC competition run by its Regulations (draw, rounds counted, places by points), judged and
    projected."""
    simulation = simulate_ofc_competition(5, players=6, seats=3, rounds=2, competition_id="ofc-league")
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET)  # type: ignore[call-arg]
    pipeline = bootstrap(settings)
    publish(pipeline, list(simulation.records()), progress=False)
    assert referee_once(pipeline).get("rejected", 0) == 0
    read_models = open_read_models(settings)
    Projector(pipeline.store, read_models.database).catch_up()
    with TestClient(create_app(settings, pipeline, read_models)) as served:
        yield served, simulation
    read_models.close()
    pipeline.close()


def test_the_federations_views_and_pages_of_an_ofc_competition_speak_points_not_chips(
    competition_client: tuple[TestClient, OfcSimulation],
) -> None:
    client, simulation = competition_client
    base = "/v1/competitions/ofc-league"
    viewer = as_("viewer")
    standings = client.get(f"{base}/standings", headers=viewer).json()
    assert (standings["variant"], standings["unit"]) == ("OFC", "points")
    assert {p["participant"]: p["points"] for p in standings["remaining"]} == simulation.points()
    assert all(p["chips"] is None for p in standings["remaining"]) and standings["remaining"][0]["place"] == 1
    assert client.get(f"{base}/ofc/standings", headers=viewer).json()[0]["points"] == max(simulation.points().values())
    balance = client.get(f"{base}/balance", headers=viewer).json()
    assert (balance["variant"], balance["judged_by_the_floor"], balance["next_move"]) == ("OFC", False, None)
    clock = client.get(f"{base}/clock", headers=viewer).json()
    assert clock["ofc_rounds"] == {"per_table": 2, "played": {"1": 2, "2": 2}}
    overview = client.get("/web/competitions/ofc-league", headers=viewer)
    assert overview.status_code == 200 and "OFC round #2" in overview.text and 'data-points="' in overview.text
    tables_csv = client.get("/web/competitions/ofc-league?format=csv", headers=viewer).text
    assert tables_csv.splitlines()[0].split(",") == ["table", "round", "status", "seat", "player", "points"]
    fragment = client.get("/web/competitions/ofc-league/fragments/standings", headers=viewer)
    assert fragment.status_code == 200 and " points</span>" in fragment.text and "OFC: 2 rounds a table" in fragment.text
    csv = client.get("/web/competitions/ofc-league?format=csv&table=standings", headers=viewer).text
    assert csv.splitlines()[0].split(",") == ["place", "participant", "points", "table", "seat"]
    table = client.get("/web/competitions/ofc-league/tables/T1", headers=viewer)
    assert table.status_code == 200 and "OFC round #2" in table.text and "OFC rounds at table T1" in table.text
