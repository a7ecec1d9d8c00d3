"""An incorrect bet, and a misdeal the deal shows, through the whole write and read path (log, referee, store, projector, read models): the act
as made, the engine's note of the rule it breaks, then its correction moving every matching bet, or the amount
standing once the next card is out — each in the hand's history, and the stacks as the table saw them."""

from __future__ import annotations

from pathlib import Path

import pytest
from projection_setup import Pipeline

from domain.cards import parse_cards
from domain.hand.aggregate import hand_id
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    ForcedBetKind,
    ForcedBetPosted,
    HandStarted,
    HoleCardsDealt,
    IncorrectBetAccepted,
    IncorrectBetCorrected,
    PlayerActed,
    ReportedEvent,
    SeatEntry,
    Stakes,
)
from projections.database import SqliteReadDatabase
from projections.read_models import ReadModels
from projections.runner import Projector

pytestmark = pytest.mark.unit

C, X, B = ActionKind.CALL, ActionKind.CHECK, ActionKind.BET


def flop_under_raised(number: int) -> list[ReportedEvent]:
    """NLHE 50-100 under TDA 2022, three players limp; on the flop seat 1 bets 300 and seat 2's raise to 500 (the
    minimum is 600) is accepted; seats 3 and 1 call."""
    seats = tuple(SeatEntry(s, name, 5000) for s, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")))
    return [
        HandStarted("t1", number, "NT", seats, 3, Stakes(blinds=((1, 50), (2, 100)), min_bet=100),
                    rulebook="tda-2022", burns_recorded=False),
        ForcedBetPosted(1, ForcedBetKind.SMALL_BLIND, 50),
        ForcedBetPosted(2, ForcedBetKind.BIG_BLIND, 100),
        HoleCardsDealt(1, parse_cards("AsKd")),
        HoleCardsDealt(2, parse_cards("QsQd")),
        HoleCardsDealt(3, parse_cards("7c7d")),
        PlayerActed(3, C), PlayerActed(1, C), PlayerActed(2, X),
        BoardDealt(parse_cards("Ah9c4d")),
        PlayerActed(1, B, 300),
        IncorrectBetAccepted(2, ActionKind.RAISE, 500),
        PlayerActed(3, C), PlayerActed(1, C),
    ]  # fmt: skip


def project(pipeline: Pipeline, folder: Path) -> ReadModels:
    Projector(pipeline.store, SqliteReadDatabase(folder / "read.sqlite")).catch_up()
    return ReadModels(SqliteReadDatabase(folder / "read.sqlite"))


def test_a_correction_in_time_and_an_error_that_stood_are_both_in_the_history(tmp_path: Path) -> None:
    pipeline = Pipeline(tmp_path)
    try:
        corrected = [*flop_under_raised(1), IncorrectBetCorrected(2), BoardDealt(parse_cards("Tc"))]
        stood = [*flop_under_raised(2), BoardDealt(parse_cards("Tc"))]
        assert pipeline.hand(corrected) == {"accepted": len(corrected)}
        assert pipeline.hand(stood) == {"accepted": len(stood)}
        models = project(pipeline, tmp_path)
    finally:
        pipeline.close()

    first = str(hand_id("t1", 1, "open"))
    history = models.history(first, 0, 100)
    types = [h.type for h in history]
    at = types.index("IncorrectBetAccepted")
    assert types[at : at + 2] == ["IncorrectBetAccepted", "IncorrectBetNoted"]
    noted = history[at + 1]
    assert noted.payload["rule"] == "tda-2022 43-A" and noted.payload["due"] == 600
    fixed = types.index("IncorrectBetCorrected")
    assert types[fixed + 1 : fixed + 4] == ["BetCorrected"] * 3
    assert {h.payload["rule"] for h in history[fixed + 1 : fixed + 4]} == {"tda-2022 52-A"}
    hand = models.hand(first)
    assert hand is not None and [(s.stack, s.committed) for s in hand.seats] == [(4300, 700)] * 3

    second = str(hand_id("t1", 2, "open"))
    history = models.history(second, 0, 100)
    types = [h.type for h in history]
    assert types[-2:] == ["BoardDealt", "IncorrectBetStood"]
    assert history[-1].payload["amount"] == 500 and history[-1].payload["rule"] == "tda-2022 52-A"
    hand = models.hand(second)
    assert hand is not None and [(s.stack, s.committed) for s in hand.seats] == [(4400, 600)] * 3


def test_a_deal_begun_at_the_wrong_seat_ends_the_hand_voided_with_the_reason_in_its_history(tmp_path: Path) -> None:
    seats = tuple(SeatEntry(s, name, 5000) for s, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")))
    events: list[ReportedEvent] = [
        HandStarted("t1", 3, "NT", seats, 3, Stakes(blinds=((1, 50), (2, 100)), min_bet=100), rulebook="tda-2022"),
        ForcedBetPosted(1, ForcedBetKind.SMALL_BLIND, 50),
        ForcedBetPosted(2, ForcedBetKind.BIG_BLIND, 100),
        HoleCardsDealt(2, parse_cards("QsQd")),  # the first card goes to seat 1, left of the button
    ]
    pipeline = Pipeline(tmp_path)
    try:
        assert pipeline.hand(events) == {"accepted": 4}
        models = project(pipeline, tmp_path)
    finally:
        pipeline.close()
    third = str(hand_id("t1", 3, "open"))
    history = models.history(third, 0, 100)
    assert [h.type for h in history][-2:] == ["MisdealRecognised", "HandEnded"]
    assert history[-2].payload["rule"] == "tda-2022 35-A"
    hand = models.hand(third)
    assert hand is not None and hand.status == "voided"
    assert [(s.stack, s.committed) for s in hand.seats] == [(5000, 0)] * 3


def test_the_protocol_lists_a_misdeal_the_deal_showed_with_its_reason_and_rule() -> None:
    from datetime import UTC, datetime

    from domain.hand.aggregate import Hand
    from projections.protocol import build

    at = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    seats = tuple(SeatEntry(s, name, 5000) for s, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")))
    hand = Hand.start(
        HandStarted("t1", 4, "NT", seats, 3, Stakes(blinds=((1, 50), (2, 100)), min_bet=100), rulebook="tda-2022"),
        at,
    )
    for event in (
        ForcedBetPosted(1, ForcedBetKind.SMALL_BLIND, 50),
        ForcedBetPosted(2, ForcedBetKind.BIG_BLIND, 100),
        HoleCardsDealt(3, parse_cards("QsQd")),
    ):
        hand.record(event, at, {"recorded_by": {"person": "dealer-3", "role": "dealer"}})
    document = build("open", {hand.id: list(hand.collect_events())})
    (misdeal,) = document["misdeals_and_voids"]
    assert misdeal["type"] == "MisdealRecognised" and misdeal["rule"] == "tda-2022 35-A"
    assert "the deal began at seat 3" in misdeal["reason"]


def test_the_protocol_lists_each_incorrect_bet_with_the_rule_it_broke_and_what_became_of_it() -> None:
    """The issue's "shows in the protocol": a section of its own, one row per accepted error — corrected in time
    (with every bet it moved and the rule), or stood once the next card was out (with the rule that lets it)."""
    from datetime import UTC, datetime, timedelta

    from domain.hand.aggregate import Hand
    from projections.protocol import build
    from projections.protocol_render import sections

    at = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    dealer = {"recorded_by": {"person": "dealer-3", "role": "dealer"}}
    corrected = [*flop_under_raised(5), IncorrectBetCorrected(2), BoardDealt(parse_cards("Tc"))]
    stood = [*flop_under_raised(6), BoardDealt(parse_cards("Tc"))]
    streams = {}
    for reported in (corrected, stood):
        first = reported[0]
        assert isinstance(first, HandStarted)
        hand = Hand.start(first, at)
        for n, event in enumerate(reported[1:], 1):
            hand.record(event, at + timedelta(seconds=n), dealer)
        streams[hand.id] = list(hand.collect_events())
    document = build("open", streams)
    fixed, kept = document["incorrect_bets"]
    assert (fixed["number"], fixed["seat"], fixed["player"], fixed["action"], fixed["made"]) == (5, 2, "Bob", "raise", 500)
    assert (fixed["rule"], fixed["due"], fixed["outcome"], fixed["outcome_rule"]) == ("tda-2022 43-A", 600, "corrected", "tda-2022 52-A")
    assert [(m["seat"], m["was"], m["to"]) for m in fixed["moved"]] == [(1, 500, 600), (2, 500, 600), (3, 500, 600)]
    assert fixed["outcome_by"]["role"] == "dealer"
    assert (kept["number"], kept["outcome"], kept["outcome_rule"], kept["moved"]) == (6, "stood", "tda-2022 52-A", [])
    assert "next card" in kept["closes"] and kept["outcome_at"] is not None
    (printed,) = [s for s in sections(document) if s.title == "Incorrect bets"]
    outcome = printed.header.index("outcome")
    assert [row[outcome].text for row in printed.rows] == ["corrected", "stood"]
