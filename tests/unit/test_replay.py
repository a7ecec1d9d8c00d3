"""Replaying reported events: what the engine derived, where it stopped and why."""

from __future__ import annotations

import pytest

from domain.cards import parse_cards
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
    UncalledBetReturned,
)
from domain.hand.replay import Replayer, replay
from domain.rulebooks import get_rulebook

pytestmark = pytest.mark.unit

BFSP = get_rulebook("bfsp")
# heads-up: seat 2 has the button and posts the small blind
START = HandStarted(
    table_id="t1",
    hand_number=1,
    variant="NT",
    seats=(SeatEntry(1, "Ann", 100), SeatEntry(2, "Bob", 100)),
    button=2,
    stakes=Stakes(blinds=((2, 1), (1, 2)), min_bet=2),
    burns_recorded=False,
)
PREFLOP: list[ReportedEvent] = [
    START,
    ForcedBetPosted(2, ForcedBetKind.SMALL_BLIND, 1),
    ForcedBetPosted(1, ForcedBetKind.BIG_BLIND, 2),
    HoleCardsDealt(1, parse_cards("AsAd")),
    HoleCardsDealt(2, parse_cards("KsKd")),
    PlayerActed(2, ActionKind.CALL),
    PlayerActed(1, ActionKind.CHECK),
]
FLOP = BoardDealt(parse_cards("2c7h9d"))


def test_a_hand_won_by_a_bet_nobody_calls_returns_the_bet_and_awards_the_pot() -> None:
    result = replay(
        [*PREFLOP, FLOP, PlayerActed(1, ActionKind.BET, 10), PlayerActed(2, ActionKind.FOLD)], BFSP
    )
    assert result.ok and result.is_over and not result.undetermined
    assert result.returned == (UncalledBetReturned(1, 10),)
    (pot,) = result.pots
    assert (pot.amount, [s.seat for s in pot.shares]) == (4, [1])
    assert result.stacks == ((1, 102), (2, 98))
    assert result.showdown_order == ()


def test_a_showdown_is_decided_and_its_order_kept() -> None:
    checks: list[ReportedEvent] = [PlayerActed(1, ActionKind.CHECK), PlayerActed(2, ActionKind.CHECK)]
    rest: list[ReportedEvent] = [
        FLOP,
        *checks,
        BoardDealt(parse_cards("3s")),
        *checks,
        BoardDealt(parse_cards("4h")),
        *checks,
    ]
    shows: list[ReportedEvent] = [HandShown(1, parse_cards("AsAd")), HandShown(2, parse_cards("KsKd"))]
    result = replay([*PREFLOP, *rest, *shows], BFSP)
    assert result.ok and result.is_over
    assert result.stacks == ((1, 102), (2, 98))
    assert result.showdown_order == (1, 2)  # checked through: first seat left of the button shows first


def test_the_first_refused_event_stops_the_replay_with_its_index_and_rule() -> None:
    late = PlayerActed(2, ActionKind.FOLD)
    result = replay([*PREFLOP, FLOP, PlayerActed(1, ActionKind.BET, 1), late], BFSP)
    assert not result.ok
    assert result.rejection is not None
    assert result.rejection.event_index == len(PREFLOP) + 1
    assert result.rejection.rule.rulebook == "bfsp"
    assert "1" in result.rejection.reason and result.rejection.message.endswith(f"({result.rejection.rule})")
    assert late not in result.accepted
    assert result.stacks == ((1, 98), (2, 98))  # as they stood when the replay stopped


def test_events_before_the_start_and_a_second_start_are_refused() -> None:
    before = replay([ForcedBetPosted(2, ForcedBetKind.SMALL_BLIND, 1)], BFSP)
    assert before.rejection is not None and before.rejection.event_index == 0
    assert "before the hand started" in before.rejection.reason
    again = replay([START, START], BFSP)
    assert again.rejection is not None and again.rejection.event_index == 1


def test_a_replayer_shows_its_state_between_events() -> None:
    replayer = Replayer(BFSP)
    assert replayer.state is None
    for event in PREFLOP[:5]:
        replayer.apply(event)
    assert replayer.state is not None and replayer.state.actor == 2
