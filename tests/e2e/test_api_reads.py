"""Reading through the API in the embedded mode (TestClient on ``create_app``): competitions, tables with '/'
and '#' in their names, hands, history, stacks, pots, showdown, rejections and lag; hole cards sealed per
role; pagination; and 401/403/404/422 in the one error shape."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from served_app import SECRET, app_on, embedded, projected, publish_judged

from api.auth import issue_token
from api.bootstrap import Pipeline, bootstrap, open_read_models
from api.operations import publish, referee_once
from api.settings import Settings
from domain.cards import parse_cards
from domain.hand.aggregate import hand_id
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    ForcedBetKind,
    ForcedBetPosted,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    ReportedEvent,
    SeatEntry,
    Stakes,
)
from ingest.envelope import RecordedBy
from ingest.publish import hand_records
from projections.runner import Projector

pytestmark = pytest.mark.e2e

AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
DEALER = RecordedBy(person="dealer-3", role="dealer")
LIVE_TABLE = "hall-a/7#1"  # a table id with the characters PHH paths bring
ENDED_TABLE = "t2"
LIVE = str(hand_id(LIVE_TABLE, 1, "open"))
ENDED = str(hand_id(ENDED_TABLE, 1, "open"))


def heads_up(table: str) -> list[ReportedEvent]:
    return [
        HandStarted(
            table, 1, "NT", (SeatEntry(1, "Ann", 1000), SeatEntry(2, "Bob", 1000)), 2,
            Stakes(blinds=((2, 50), (1, 100)), min_bet=100), burns_recorded=False,
        ),
        ForcedBetPosted(2, ForcedBetKind.SMALL_BLIND, 50),
        ForcedBetPosted(1, ForcedBetKind.BIG_BLIND, 100),
        HoleCardsDealt(1, parse_cards("AsKd")),
        HoleCardsDealt(2, parse_cards("QsQd")),
    ]


def checked_down(table: str) -> list[ReportedEvent]:
    """Ann shows first (no bet on the river, bfsp 5.9.2) and wins; Bob mucks unshown."""
    x = ActionKind.CHECK
    return [
        *heads_up(table), PlayerActed(2, ActionKind.CALL), PlayerActed(1, x),
        BoardDealt(parse_cards("Ah9c4d")), PlayerActed(1, x), PlayerActed(2, x),
        BoardDealt(parse_cards("Tc")), PlayerActed(1, x), PlayerActed(2, x),
        BoardDealt(parse_cards("3h")), PlayerActed(1, x), PlayerActed(2, x),
        HandShown(1, parse_cards("AsKd")), HandMucked(2),
    ]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, Pipeline, Projector]]:
    with embedded(tmp_path) as (settings, pipeline):
        events = [
            *hand_records([*heads_up(LIVE_TABLE), PlayerActed(2, ActionKind.RAISE, 300)], "open", DEALER, AT),
            *hand_records(checked_down(ENDED_TABLE), "open", DEALER, AT),
            *hand_records([*heads_up("t3"), PlayerActed(2, ActionKind.RAISE, 120)], "open", DEALER, AT),
        ]
        assert publish_judged(pipeline, events) == {"accepted": 29, "rejected": 1}
        with projected(settings, pipeline) as projector, app_on(settings, pipeline) as client:
            yield client, pipeline, projector


def as_(role: str, **claims: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(SECRET, f'a-{role}', role, **claims)}"}  # type: ignore[arg-type]


VIEWER = as_("viewer")


def error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"]["status"] == status and body["error"]["code"] == code
    assert body["error"]["message"]
    detail: dict[str, Any] = body["error"]
    return detail


def table_url(table: str) -> str:
    return f"/v1/competitions/open/tables/{quote(table, safe='')}"


def holes(client: TestClient, hand: str, headers: dict[str, str]) -> dict[int, list[str]]:
    body = client.get(f"/v1/hands/{hand}", headers=headers).json()
    return {s["seat"]: s["hole_cards"] for s in body["seats"]}


def test_competitions_tables_and_a_table_named_like_a_phh_path(served: Any) -> None:
    client, _, _ = served
    (competition,) = client.get("/v1/competitions", headers=VIEWER).json()["items"]
    assert competition == {
        "competition_id": "open", "tables": 3, "hands": 3, "hands_in_progress": 2, "rejections": 1,
        "ofc_rounds": 0, "ofc_rounds_in_progress": 0,
    }
    tables = client.get("/v1/competitions/open/tables", headers=VIEWER).json()
    assert [t["table_id"] for t in tables["items"]] == [LIVE_TABLE, "t2", "t3"] and tables["total"] == 3
    state = client.get(table_url(LIVE_TABLE), headers=VIEWER).json()
    assert state["last_hand_id"] == LIVE and state["last_hand_status"] == "in_progress"
    assert [(s["player"], s["stack"]) for s in state["seats"]] == [("Ann", 1000), ("Bob", 1000)]
    hands = client.get(f"{table_url(LIVE_TABLE)}/hands", headers=VIEWER).json()
    assert [h["hand_id"] for h in hands["items"]] == [LIVE]
    ended = client.get(table_url(ENDED_TABLE), headers=VIEWER).json()
    assert [(s["player"], s["stack"]) for s in ended["seats"]] == [("Ann", 1100), ("Bob", 900)]


def test_live_hole_cards_are_sealed_but_for_judges_and_the_tables_own_dealer(served: Any) -> None:
    client, _, _ = served
    sealed = {1: ["??", "??"], 2: ["??", "??"]}
    seen = {1: ["As", "Kd"], 2: ["Qs", "Qd"]}
    assert holes(client, LIVE, VIEWER) == sealed
    assert holes(client, LIVE, as_("integrity")) == sealed
    assert holes(client, LIVE, as_("dealer", table="t2", competition="open")) == sealed
    assert holes(client, LIVE, as_("judge")) == seen
    assert holes(client, LIVE, as_("chief_judge")) == seen
    assert holes(client, LIVE, as_("dealer", table=LIVE_TABLE, competition="open")) == seen
    dealt = [e for e in client.get(f"/v1/hands/{LIVE}/history", headers=VIEWER).json()["items"]
             if e["type"] == "HoleCardsDealt"]
    assert [e["payload"]["cards"] for e in dealt] == [["??", "??"], ["??", "??"]]


def test_after_the_end_a_viewer_sees_the_shown_hand_never_the_mucked_one(served: Any) -> None:
    client, _, _ = served
    assert holes(client, ENDED, VIEWER) == {1: ["As", "Kd"], 2: ["??", "??"]}
    assert holes(client, ENDED, as_("secretary")) == {1: ["As", "Kd"], 2: ["??", "??"]}
    for official in ("integrity", "federation", "judge", "chief_judge"):
        assert holes(client, ENDED, as_(official)) == {1: ["As", "Kd"], 2: ["Qs", "Qd"]}
    showdown = client.get(f"/v1/hands/{ENDED}/showdown", headers=VIEWER).json()
    assert showdown["order"] == [1, 2] and showdown["shown"] == [{"seat": 1, "cards": ["As", "Kd"]}]
    assert showdown["mucked_unshown"] == [{"seat": 2, "must_not_reveal": True, "cards": None}]
    assert client.get(f"/v1/hands/{ENDED}/rulings", headers=VIEWER).json() == []
    official = client.get(f"/v1/hands/{ENDED}/showdown", headers=as_("integrity")).json()
    assert official["mucked_unshown"][0]["cards"] == ["Qs", "Qd"]
    history = client.get(f"/v1/hands/{ENDED}/history", headers=VIEWER, params={"limit": 500}).json()["items"]
    assert [e["payload"]["cards"] for e in history if e["type"] == "HoleCardsDealt"] == [["As", "Kd"], ["??", "??"]]


def test_stacks_pots_and_the_history_page_by_page(served: Any) -> None:
    client, _, _ = served
    pots = client.get(f"/v1/hands/{LIVE}/pots", headers=VIEWER).json()
    assert [(p["name"], p["amount"], p["eligible"], p["uncalled"]) for p in pots] == [
        ("main pot", 200, [1, 2], False), ("side pot 1", 200, [2], True),
    ]
    (won,) = client.get(f"/v1/hands/{ENDED}/pots", headers=VIEWER).json()
    assert won["awarded"] and won["shares"] == [{"seat": 1, "amount": 200}]
    final = client.get(f"/v1/hands/{ENDED}/stacks/final", headers=VIEWER).json()
    assert final == [{"seat": 1, "player": "Ann", "stack": 1100}, {"seat": 2, "player": "Bob", "stack": 900}]
    per_event = client.get(f"/v1/hands/{LIVE}/stacks", headers=VIEWER).json()
    assert [e["type"] for e in per_event][-1] == "PlayerActed"
    assert per_event[-1]["seats"] == [{"seat": 1, "stack": 900, "committed": 100}, {"seat": 2, "stack": 700, "committed": 300}]
    first = client.get(f"/v1/hands/{ENDED}/history", headers=VIEWER, params={"limit": 4}).json()
    assert [e["version"] for e in first["items"]] == [1, 2, 3, 4] and first["next_offset"] == 4
    last = client.get(f"/v1/hands/{ENDED}/history", headers=VIEWER, params={"offset": first["total"] - 2}).json()
    assert [e["type"] for e in last["items"]] == ["PotAwarded", "HandEnded"] and last["next_offset"] is None


def test_rejections_are_for_officials_and_filter_by_kind(served: Any) -> None:
    client, _, _ = served
    page = client.get("/v1/competitions/open/rejections", headers=as_("judge")).json()
    (refused,) = page["items"]
    assert refused["kind"] == "illegal" and refused["rule"].startswith("bfsp") and refused["table_id"] == "t3"
    assert client.get(
        "/v1/competitions/open/rejections", headers=as_("judge"), params={"kind": "malformed"}
    ).json()["total"] == 0
    error(client.get("/v1/competitions/open/rejections", headers=VIEWER), 403, "forbidden")
    detail = error(client.get("/v1/competitions/open/rejections", params={"kind": "odd"}, headers=as_("judge")), 422, "validation_error")
    assert detail["field"] == "kind"


def test_errors_come_in_the_one_shape(served: Any) -> None:
    client, _, _ = served
    error(client.get("/v1/competitions"), 401, "not_authenticated")
    error(client.get(f"/v1/hands/{LIVE}", headers={"Authorization": "Bearer nonsense"}), 401, "invalid_token")
    error(client.get(f"/v1/hands/{LIVE}", headers=as_("judge", competition="elsewhere")), 403, "forbidden")
    error(client.get("/v1/competitions/nowhere/tables", headers=VIEWER), 404, "not_found")
    error(client.get(table_url("no-such-table"), headers=VIEWER), 404, "not_found")
    error(client.get(f"{table_url('no-such-table')}/hands", headers=VIEWER), 404, "not_found")
    for tail in ("", "/history", "/stacks", "/stacks/final", "/pots", "/showdown", "/rulings"):
        error(client.get(f"/v1/hands/{hand_id('t9', 1, 'open')}{tail}", headers=VIEWER), 404, "not_found")
    assert error(client.get(f"/v1/hands/{LIVE}/history", headers=VIEWER, params={"limit": 0}), 422, "validation_error")["field"] == "limit"


def test_the_lag_counts_stored_events_not_yet_projected(served: Any) -> None:
    client, pipeline, projector = served
    assert client.get("/v1/projections/lag", headers=VIEWER).json()["lag"] == 0
    publish(pipeline, hand_records(heads_up("t4"), "open", DEALER, AT), progress=False)
    referee_once(pipeline)
    lag = client.get("/v1/projections/lag", headers=VIEWER).json()
    # the hand's 5 events and the checkpoint that anchored them (one per referee transaction; its chain is open)
    assert lag["lag"] == 6 and lag["head"] == lag["position"] + 6
    projector.catch_up()
    assert client.get("/v1/projections/lag", headers=VIEWER).json()["lag"] == 0
    assert client.get(table_url("t4"), headers=VIEWER).status_code == 200


def test_the_projections_commands_run_rebuild_and_report_the_lag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from api.cli import main

    monkeypatch.setenv("POKERAUDIT_DATA_DIR", str(tmp_path))
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path)  # type: ignore[call-arg]
    pipeline = bootstrap(settings)
    try:
        publish(pipeline, hand_records(checked_down("t2"), "open", DEALER, AT), progress=False)  # 18 acts, 2 derived
        referee_once(pipeline)
    finally:
        pipeline.close()

    def run(*argv: str) -> dict[str, int]:
        assert main(list(argv)) == 0
        out: dict[str, int] = json.loads(capsys.readouterr().out)
        return out

    # 20 stored hand events, and the referee's checkpoint chain: its opening and the transaction's checkpoint
    assert run("projections", "lag", "--json") == {"position": 0, "lag": 22}
    assert run("projections", "run") == {"projected": 22}
    assert run("projections", "lag", "--json") == {"position": 22, "lag": 0}
    rebuilt = run("projections", "rebuild", "--workers", "2")
    assert rebuilt["projected"] == 22 and rebuilt["events_per_second"] > 0
    assert run("projections", "rebuild")["projected"] == 22  # the default: one process per core with SQLite
    models = open_read_models(settings)
    try:
        hand = models.hand(ENDED)
        assert hand is not None and hand.status == "ended"
    finally:
        models.close()


def test_a_rebuild_uses_both_cores_with_sqlite_and_one_process_with_postgresql() -> None:
    from api.cli_projections import rebuild_workers

    assert rebuild_workers(None, None, 2) == 2
    assert rebuild_workers(None, None, 8) == 2  # two is what was measured; SQLite takes one writer at a time
    assert rebuild_workers(None, None, None) == 1
    assert rebuild_workers(None, "postgresql://db/x", 8) == 1
    assert rebuild_workers(3, "postgresql://db/x", 2) == 3


def test_a_hand_is_read_by_each_of_its_three_names(served: Any) -> None:
    """Issue 13: the envelope's (table and number "1"), the payloads' ("TABLE/NUMBER") and the read models'
    UUID name the same hand, sealed alike; a name that is not one is refused with the form expected."""
    client, _, _ = served
    by_uuid = client.get(f"/v1/hands/{LIVE}", headers=VIEWER).json()
    by_envelope = client.get(f"{table_url(LIVE_TABLE)}/hands/1", headers=VIEWER)
    by_payload = client.get(f"/v1/competitions/open/hands/{quote(LIVE_TABLE + '/1', safe='')}", headers=VIEWER)
    assert by_envelope.status_code == 200 and by_payload.status_code == 200, (by_envelope.text, by_payload.text)
    assert by_envelope.json() == by_uuid == by_payload.json() and by_uuid["hand_id"] == LIVE
    error(client.get(f"{table_url(LIVE_TABLE)}/hands/2", headers=VIEWER), 404, "not_found")
    detail = error(client.get("/v1/competitions/open/hands/t3", headers=VIEWER), 422, "invalid_hand")
    assert detail["field"] == "table_hand" and "TABLE/NUMBER" in detail["message"]
    # a token for another competition reads none of them
    other = as_("viewer", competition="elsewhere")
    assert client.get(f"{table_url(LIVE_TABLE)}/hands/1", headers=other).status_code == 403
