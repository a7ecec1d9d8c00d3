"""The sealing policy's other outputs (api/sealing.py): a verdict is returned only for the record submitted (no
event id is a key to another table's verdict and cards), and the public feeds' delay holds a hand's hole cards
back from viewers for the configured minutes after its end, by the service's clock."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.auth import issue_token
from api.settings import Settings
from domain.cards import parse_cards
from domain.hand.aggregate import hand_id
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    ForcedBetKind,
    ForcedBetPosted,
    HandShown,
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

pytestmark = pytest.mark.e2e

SECRET = "sealing-secret-of-at-least-thirty-two-bytes"
AT = datetime.fromisoformat("2026-11-29T12:00:00+00:00")


def bearer(role: str, person: str, **claims: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(SECRET, person, role, **claims)}"}


def heads_up(table: str) -> list[ReportedEvent]:
    return [
        HandStarted(table, 1, "NT", (SeatEntry(1, "Ann", 1000), SeatEntry(2, "Bob", 1000)), 2,
                    Stakes(blinds=((2, 50), (1, 100)), min_bet=100), burns_recorded=False),
        ForcedBetPosted(2, ForcedBetKind.SMALL_BLIND, 50),
        ForcedBetPosted(1, ForcedBetKind.BIG_BLIND, 100),
        HoleCardsDealt(1, parse_cards("AsKd")),
        HoleCardsDealt(2, parse_cards("QsQd")),
        PlayerActed(2, ActionKind.CALL),
        PlayerActed(1, ActionKind.CHECK),
    ]


def submissions(events: list[ReportedEvent], table: str, dealer: str) -> list[dict[str, Any]]:
    records = hand_records(events, "open", RecordedBy(person=dealer, role="dealer"), AT)  # type: ignore[arg-type]
    return [json.loads(value) for _, value in records]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(  # type: ignore[call-arg]
        POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET, POKERAUDIT_PUBLIC_READ=True,
        POKERAUDIT_PUBLIC_DELAY_MINUTES=30,
    )
    with TestClient(create_app(settings, workers=True)) as c:
        yield c


def judged(client: TestClient, records: list[dict[str, Any]], headers: dict[str, str]) -> list[dict[str, Any]]:
    answer = client.post("/v1/events/batch?wait=true&timeout=20", json=records, headers=headers)
    assert answer.status_code == 200, answer.text
    verdicts: list[dict[str, Any]] = answer.json()["verdicts"]
    return verdicts


def test_another_tables_event_id_is_no_key_to_its_verdict(client: TestClient) -> None:
    dealer_a = bearer("dealer", "dealer-a", table="a", competition="open")
    hand = submissions([*heads_up("a"), BoardDealt(parse_cards("AsTc4d"))], "a", "dealer-a")
    *dealt, refused = judged(client, hand, dealer_a)
    assert {v["outcome"] for v in dealt} == {"accepted"}
    # the table's own dealer reads his refusal whole: the card is his table's
    assert refused["outcome"] == "rejected" and "As" in refused["reason"] and refused["rule"]
    assert judged(client, [hand[-1]], dealer_a) == [refused]  # his retry: the verdict it first got

    # table b's dealer reports a record of his own table under the id of table a's refused board
    stolen = submissions([*heads_up("b"), BoardDealt(parse_cards("Jh9c4d"))], "b", "dealer-b")[-1]
    stolen["event_id"] = hand[-1]["event_id"]
    (answer,) = judged(client, [stolen], bearer("dealer", "dealer-b", table="b", competition="open"))
    assert (answer["outcome"], answer["kind"], answer["field"], answer["rule"]) == (
        "rejected", "duplicate", "event_id", ""
    )
    assert "As" not in answer["reason"] and refused["reason"] not in answer["reason"]
    # a judge copying the record whole is another recorder: no verdict of the dealer's either
    copy = {**hand[-1], "recorded_by": None}
    (answer,) = judged(client, [copy], bearer("judge", "j-1"))
    assert answer["kind"] == "duplicate" and "As" not in answer["reason"]


def test_a_refusal_quoting_a_live_card_is_sealed_for_whoever_sees_the_hand_sealed(client: TestClient) -> None:
    hand = submissions([*heads_up("a"), BoardDealt(parse_cards("AsTc4d"))], "a", "dealer-a")
    judged(client, hand, bearer("dealer", "dealer-a", table="a", competition="open"))
    deadline = datetime.now().timestamp() + 20
    while client.get("/v1/projections/lag", headers=bearer("judge", "j")).json()["lag"]:
        assert datetime.now().timestamp() < deadline
        time.sleep(0.05)
    url = "/v1/competitions/open/rejections"
    (whole,) = client.get(url, headers=bearer("judge", "j")).json()["items"]
    assert "includes As, which was already dealt" in whole["reason"]
    for role in ("secretary", "integrity", "federation"):
        (sealed,) = client.get(url, headers=bearer(role, "x")).json()["items"]
        assert "includes ??, which was already dealt" in sealed["reason"], role
        assert sealed["rule"] == whole["rule"]


def test_a_viewer_sees_a_hands_cards_only_the_delay_after_it_ends(client: TestClient) -> None:
    x = ActionKind.CHECK
    ended = [*heads_up("t2"), BoardDealt(parse_cards("Ah9c4d")), PlayerActed(1, x), PlayerActed(2, x),
             BoardDealt(parse_cards("Tc")), PlayerActed(1, x), PlayerActed(2, x),
             BoardDealt(parse_cards("3h")), PlayerActed(1, x), PlayerActed(2, x),
             HandShown(1, parse_cards("AsKd")), HandShown(2, parse_cards("QsQd"))]
    judged(client, submissions(ended, "t2", "dealer-2"), bearer("dealer", "dealer-2", table="t2", competition="open"))
    hand = str(hand_id("t2", 1, "open"))
    deadline = datetime.now().timestamp() + 20
    while client.get(f"/v1/hands/{hand}", headers=bearer("judge", "j")).status_code != 200 or client.get(
        f"/v1/hands/{hand}", headers=bearer("judge", "j")
    ).json()["status"] != "ended":
        assert datetime.now().timestamp() < deadline
        time.sleep(0.05)
    ended_at = datetime.fromisoformat(client.get(f"/v1/hands/{hand}", headers=bearer("judge", "j")).json()["ended_at"])
    policy = client.app.state.sealing  # type: ignore[attr-defined]

    def read(minutes_after: float, headers: dict[str, str]) -> tuple[list[str], list[Any], str, str]:
        client.app.state.sealing = replace(  # type: ignore[attr-defined]
            policy, clock=lambda: ended_at + timedelta(minutes=minutes_after)
        )
        seats = client.get(f"/v1/hands/{hand}", headers=headers).json()["seats"]
        shown = client.get(f"/v1/hands/{hand}/showdown", headers=headers).json()["shown"]
        history = client.get(f"/v1/hands/{hand}/history?limit=500", headers=headers).json()["items"]
        tabled = [card for e in history if e["type"] == "HandShown" for card in e["payload"]["cards"]]
        awarded = next(e for e in history if e["type"] == "PotAwarded")["payload"]["winning_hand"]
        (pot,) = client.get(f"/v1/hands/{hand}/pots", headers=headers).json()
        assert pot["winning_hand"] == awarded
        return seats[0]["hole_cards"] + seats[1]["hole_cards"], [s["cards"] for s in shown], " ".join(tabled), awarded

    won = read(0, bearer("judge", "j"))[3]
    assert won
    for headers in (bearer("viewer", "v"), {}):
        assert read(29, headers) == (["??"] * 4, [["??", "??"], ["??", "??"]], "?? ?? ?? ??", "")
        assert read(30, headers) == (["As", "Kd", "Qs", "Qd"], [["As", "Kd"], ["Qs", "Qd"]], "As Kd Qs Qd", won)
    # the officials are no public feed
    assert read(1, bearer("integrity", "i"))[0] == ["As", "Kd", "Qs", "Qd"]
    assert read(1, bearer("secretary", "s"))[0] == ["As", "Kd", "Qs", "Qd"]


def test_a_voided_hand_opens_to_viewers_the_delay_after_it_was_voided(client: TestClient) -> None:
    from domain.hand.events import HandVoided

    dealt = submissions(heads_up("t3"), "t3", "dealer-3")
    judged(client, dealt, bearer("dealer", "dealer-3", table="t3", competition="open"))
    void = submissions([*heads_up("t3"), HandVoided("the deck was found one card short", "6.1.1")], "t3", "j")[-1]
    void["recorded_by"] = None
    assert [v["outcome"] for v in judged(client, [void], bearer("judge", "j"))] == ["accepted"]
    hand = str(hand_id("t3", 1, "open"))
    deadline = datetime.now().timestamp() + 20
    while (r := client.get(f"/v1/hands/{hand}", headers=bearer("judge", "j"))).status_code != 200 or r.json()[
        "status"
    ] != "voided":
        assert datetime.now().timestamp() < deadline
        time.sleep(0.05)
    voided_at = r.json()["ended_at"]
    assert voided_at is not None  # a voided hand ends at its void: the public delay runs from it
    # a voided hand shows nobody's cards (none was tabled); what the delay governs is the sight of it
    from api.auth import Principal
    from api.sealing import Sight

    policy = client.app.state.sealing  # type: ignore[attr-defined]
    viewer = Principal(person="v", role=Role.VIEWER)
    for minutes, sight in ((29, Sight.NOTHING), (30, Sight.SHOWN)):
        at = replace(policy, clock=lambda m=minutes: datetime.fromisoformat(voided_at) + timedelta(minutes=m))
        assert at.sight(viewer, "open", "t3", True, voided_at) is sight, minutes
    seats = client.get(f"/v1/hands/{hand}", headers=bearer("viewer", "v")).json()["seats"]
    assert seats[0]["hole_cards"] + seats[1]["hole_cards"] == ["??"] * 4
