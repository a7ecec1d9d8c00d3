"""PHH positions become seats, the button, stakes and forced bets."""

from __future__ import annotations

import pytest

from domain.hand.events import ForcedBetKind, ForcedBetPosted, SeatEntry
from ingest.phh import UNKNOWN_STACK, loads
from ingest.phh_events import forced_bets, hand_started

pytestmark = pytest.mark.unit


def hand_of(**fields: str) -> str:
    base = {
        "variant": "'NT'",
        "antes": "[0, 0, 0, 0]",
        "blinds_or_straddles": "[1, 2, 0, 0]",
        "min_bet": "2",
        "starting_stacks": "[100, 100, 100, 100]",
        "actions": "[]",
    }
    base.update(fields)
    return "\n".join(f"{key} = {value}" for key, value in base.items()) + "\n"


def test_players_sit_in_the_recorded_seats_and_the_last_player_has_the_button() -> None:
    (hand,) = loads(hand_of(seats="[3, 5, 7, 1]", players="['a', 'b', 'c', 'd']"), "x.phh")
    started = hand_started(hand)
    assert started.seats == (SeatEntry(3, "a", 100), SeatEntry(5, "b", 100), SeatEntry(7, "c", 100), SeatEntry(1, "d", 100))
    assert started.button == 1
    assert started.stakes.blinds == ((3, 1), (5, 2))
    assert started.stakes.min_bet == 2
    assert started.burns_recorded is False


def test_without_seats_player_n_sits_in_seat_n() -> None:
    (hand,) = loads(hand_of(), "x.phh")
    assert [s.seat for s in hand_started(hand).seats] == [1, 2, 3, 4]
    assert hand_started(hand).button == 4


def test_blinds_then_straddles_are_posted_in_order() -> None:
    (hand,) = loads(hand_of(blinds_or_straddles="[1, 2, 4, 0]"), "x.phh")
    assert forced_bets(hand) == [
        ForcedBetPosted(1, ForcedBetKind.SMALL_BLIND, 1),
        ForcedBetPosted(2, ForcedBetKind.BIG_BLIND, 2),
        ForcedBetPosted(3, ForcedBetKind.STRADDLE, 4),
    ]


def test_heads_up_the_button_posts_the_small_blind_and_the_arrays_are_reversed() -> None:
    text = hand_of(antes="[0, 3]", blinds_or_straddles="[1, 2]", starting_stacks="[50, 60]", seats="[2, 6]")
    (hand,) = loads(text, "x.phh")
    started = hand_started(hand)
    assert started.button == 6  # p2, the last player
    assert started.stakes.antes == ((2, 3),)  # the big-blind ante falls on p1, the big blind
    assert forced_bets(hand) == [
        ForcedBetPosted(2, ForcedBetKind.ANTE, 3),
        ForcedBetPosted(6, ForcedBetKind.SMALL_BLIND, 1),
        ForcedBetPosted(2, ForcedBetKind.BIG_BLIND, 2),
    ]


def test_a_negative_blind_is_a_blind_posted_out_of_its_place() -> None:
    (hand,) = loads(hand_of(blinds_or_straddles="[0.1, 0.25, -0.25, 0]", min_bet="0.25"), "x.phh")
    assert forced_bets(hand)[-1] == ForcedBetPosted(3, ForcedBetKind.DEAD_BLIND, 25)


def test_forced_bets_are_cut_to_the_stack() -> None:
    (hand,) = loads(hand_of(antes="[5, 5, 5, 5]", starting_stacks="[100, 6, 100, 100]"), "x.phh")
    assert ForcedBetPosted(2, ForcedBetKind.ANTE, 5) in forced_bets(hand)
    assert ForcedBetPosted(2, ForcedBetKind.BIG_BLIND, 1) in forced_bets(hand)
    assert hand_started(hand).stakes.blinds == ((1, 1), (2, 2))  # what is owed, not what is posted


def test_stud_has_no_button_and_a_bring_in() -> None:
    text = hand_of(
        variant="'F7S'", antes="[1, 1, 1, 1]", bring_in="2", small_bet="5", big_bet="10"
    ).replace("blinds_or_straddles = [1, 2, 0, 0]\n", "").replace("min_bet = 2\n", "")
    (hand,) = loads(text, "x.phh")
    started = hand_started(hand)
    assert started.button is None
    assert (started.stakes.bring_in, started.stakes.small_bet, started.stakes.big_bet) == (2, 5, 10)
    assert [bet.kind for bet in forced_bets(hand)] == [ForcedBetKind.ANTE] * 4


def test_an_unknown_stack_starts_with_the_sentinel() -> None:
    (hand,) = loads(hand_of(starting_stacks="[inf, 100, 100, inf]"), "x.phh")
    assert hand_started(hand).seats[0].stack == UNKNOWN_STACK
