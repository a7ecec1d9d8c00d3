"""The showdown as the engine plays it: shows and mucks in any order once the betting is over, all-in hands
tabled early (TDA 2022 16), the showdown order (bfsp 5.9.2), side pots, cards nobody saw left undetermined."""

from __future__ import annotations

import pytest
from hand_table import B, C, F, R, Table, X, start

from domain.cards import parse_cards
from domain.errors import IllegalActionError
from domain.hand.events import (
    HandEnded,
    HandMucked,
    HandShown,
    PotAwarded,
)
from domain.hand.legal import NextActKind

pytestmark = pytest.mark.unit


def to_river(bet_on_river: bool = True) -> Table:
    t = start(stacks=(1000, 1000, 1000)).post().deal(s1="AsKd", s2="QsQd", s3="7c2h")
    t.acts((3, C), (1, C), (2, X))
    t.board("Ah9c4d")
    t.acts((1, X), (2, B, 100), (3, C), (1, C))
    t.board("Tc")
    t.acts((1, X), (2, X), (3, X))
    t.board("3h")
    if bet_on_river:
        t.acts((1, X), (2, X), (3, B, 200), (1, C), (2, C))
    else:
        t.acts((1, X), (2, X), (3, X))
    return t


def test_the_last_aggressor_on_the_final_round_shows_first_then_clockwise() -> None:
    t = to_river()
    nxt = t.state.expected_next()
    assert (nxt.kind, nxt.seats) == (NextActKind.SHOWDOWN, (3, 1, 2))
    assert t.state.showdown_order() == (3, 1, 2)


def test_checked_through_the_last_aggressor_of_the_hand_shows_first_under_bfsp() -> None:
    t = to_river(bet_on_river=False)
    assert t.state.showdown_order() == (2, 3, 1)


def test_shows_and_mucks_come_in_any_order_and_the_best_hand_wins() -> None:
    t = to_river()
    t.apply(HandShown(1, parse_cards("AsKd")))
    t.apply(HandMucked(3))
    out = t.apply(HandShown(2, parse_cards("QsQd")))
    pot = out[0]
    assert isinstance(pot, PotAwarded) and [s.seat for s in pot.shares] == [1]
    assert out[-1] == HandEnded(((1, 1000 + 800), (2, 600), (3, 600)))


def test_when_the_others_muck_the_last_hand_wins_without_showing() -> None:
    t = to_river()
    t.apply(HandMucked(3))
    out = t.apply(HandMucked(2))
    assert isinstance(out[-1], HandEnded) and t.state.final_stacks()[1] == 1800


def test_a_shown_hand_must_be_the_cards_dealt() -> None:
    t = to_river()
    t.refuse(
        HandShown(1, parse_cards("AhKd")),
        IllegalActionError,
        "show",
        "seat 1 showed AhKd, but was dealt AsKd",
    )
    t.refuse(
        HandShown(1, parse_cards("As")), IllegalActionError, "show", "seat 1 showed 1 card(s); it holds 2"
    )


def test_a_tabled_hand_cannot_then_be_mucked_and_a_folded_seat_has_nothing_to_show() -> None:
    t = start(stacks=(1000, 1000, 1000)).post().deal(s1="AsKd", s2="QsQd", s3="7c2h")
    t.acts((3, F), (1, C), (2, X))
    for card in ("Ah9c4d", "Tc", "3h"):
        t.board(card)
        t.acts((1, X), (2, X))
    t.refuse(HandShown(3, parse_cards("7c2h")), IllegalActionError, "show", "seat 3 has no live hand to show")
    t.apply(HandShown(1, parse_cards("AsKd")))
    t.refuse(HandMucked(1), IllegalActionError, "show", "seat 1 has already tabled its hand")


def test_a_hand_is_neither_shown_nor_mucked_while_the_betting_goes_on() -> None:
    t = start(stacks=(1000, 1000, 1000)).post().deal(s1="AsKd")
    t.refuse(HandShown(1, parse_cards("AsKd")), IllegalActionError, "show")
    t.refuse(
        HandMucked(1),
        IllegalActionError,
        "show",
        "seat 1 mucked before the showdown; during the betting a hand is folded",
    )


def test_all_in_hands_are_tabled_before_the_board_is_out_tda_16() -> None:
    t = start(stacks=(500, 500), button=2).post().deal(s1="AsAd", s2="KsKd")
    t.acts((2, R, 500), (1, C))
    assert t.state.expected_next().kind is NextActKind.DEAL_BOARD
    t.apply(HandShown(2, parse_cards("KsKd")))
    t.apply(HandShown(1, parse_cards("AsAd")))
    t.board("2c7h9d")
    t.board("Tc")
    out = t.board("3h")
    assert out[-1] == HandEnded(((1, 1000), (2, 0)))


def test_side_pots_are_awarded_each_to_its_best_eligible_hand() -> None:
    t = start(stacks=(1000, 300, 1000)).post().deal(s1="AsKd", s2="QsQd", s3="7c2h")
    t.acts((3, R, 1000), (1, C), (2, C))
    for card in ("Ah9c4d", "Tc", "3h"):
        t.board(card)
    for seat, cards in ((3, "7c2h"), (1, "AsKd"), (2, "QsQd")):
        t.apply(HandShown(seat, parse_cards(cards)))
    pots = [e for e in t.derived if isinstance(e, PotAwarded)]
    assert sorted((p.pot_index, p.amount, p.shares[0].seat) for p in pots) == [(0, 900, 1), (1, 1400, 1)]
    assert t.state.final_stacks() == {1: 2300, 2: 0, 3: 0}


def test_cards_nobody_saw_leave_the_pot_undetermined_and_are_never_guessed() -> None:
    t = start(stacks=(1000, 1000), button=2).post().deal(s1="AsKd")  # seat 2's cards unknown
    t.acts((2, C), (1, X))
    for card in ("Ah9c4d", "Tc", "3h"):
        t.board(card)
        t.acts((1, X), (2, X))
    t.apply(HandShown(1, parse_cards("AsKd")))
    out = t.apply(HandShown(2, parse_cards("????")))
    ended = out[-1]
    assert isinstance(ended, HandEnded) and ended.undetermined
    assert not any(isinstance(e, PotAwarded) for e in out)
    assert t.state.final_stacks() == {1: 900, 2: 900}  # the 200 wait for the cards or a ruling


def test_a_shown_hand_fills_in_cards_the_record_did_not_know() -> None:
    t = start(stacks=(1000, 1000), button=2).post().deal(s1="AsKd")
    t.acts((2, C), (1, X))
    for card in ("Ah9c4d", "Tc", "3h"):
        t.board(card)
        t.acts((1, X), (2, X))
    t.refuse(HandShown(2, parse_cards("AsQd")), Exception, "duplicate_card")  # type: ignore[arg-type]
    t.apply(HandShown(2, parse_cards("QsQd")))
    assert t.state.hole[2] == list(parse_cards("QsQd"))
