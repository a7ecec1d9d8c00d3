"""A hand reported through the API while a page watches: Ann, Bob and Cy (tests/three_handed.py) at a table of
their own, dealt known cards, its records submitted a few at a time by a judge."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from three_handed import three_handed

from domain.cards import parse_cards
from domain.hand.events import ActionKind, HoleCardsDealt, PlayerActed, ReportedEvent
from domain.roles import Role
from ingest.envelope import RecordedBy
from ingest.publish import hand_records

#: the hole cards each seat is dealt: the viewer must never see them while the hand is played
HOLE_CARDS = {2: "AsKs", 4: "QhJh", 6: "7c2d"}


def live_hand(competition: str, table: str, person: str, number: int = 1) -> list[dict[str, Any]]:
    """The hand's records, in order: the start and blinds, the deal, then Cy raises, Ann calls, Bob folds."""
    dealt: list[ReportedEvent] = [
        HoleCardsDealt(seat, parse_cards(cards), (False, False)) for seat, cards in HOLE_CARDS.items()
    ]
    acts: list[ReportedEvent] = [
        PlayerActed(6, ActionKind.RAISE, 60), PlayerActed(2, ActionKind.CALL), PlayerActed(4, ActionKind.FOLD),
    ]
    events = three_handed(*dealt, *acts)
    records = hand_records(
        events, competition, RecordedBy(person=person, role=Role.JUDGE), datetime.now(UTC),
        table_id=table, hand_number=number, step=timedelta(milliseconds=1),
    )
    return [json.loads(value) for _, value in records]


def submit(api: httpx.Client, records: list[dict[str, Any]]) -> None:
    answer = api.post("/v1/events/batch", params={"wait": "true", "timeout": 20}, json=records)
    assert answer.status_code == 200, answer.text
    verdicts = answer.json()["verdicts"]
    assert all(v["outcome"] == "accepted" for v in verdicts), verdicts
