"""Stud order: the bring-in by the lowest up-card (razz: the highest), completion, the best board first on
later streets (razz: the lowest), the open pair on fourth street (bfsp 5.4.3, 5.8.2-5.8.6)."""

from __future__ import annotations

import pytest
from hand_table import BFSP, C, Table, start, with_rules

from domain.cards import parse_cards
from domain.errors import IllegalActionError, OutOfTurnError
from domain.hand.events import ActionKind, HoleCardsDealt, PlayerActed
from domain.rulebooks import Rulebook

pytestmark = pytest.mark.unit

BI, CO, B, R = ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE


def stud(variant: str = "F7S", rulebook: Rulebook = BFSP) -> Table:
    t = start(
        variant,
        stacks=(1000, 1000, 1000),
        antes=((1, 5), (2, 5), (3, 5)),
        bring_in=5,
        small_bet=10,
        big_bet=20,
        rulebook=rulebook,
    ).post()
    # up-cards: seat 1 Qh, seat 2 4c, seat 3 4h
    return t.deal(s1="AsKdQh", s2="2s3d4c", s3="5s6d4h")


def test_the_lowest_up_card_brings_in_and_clubs_is_the_lowest_suit() -> None:
    t = stud()
    assert t.state.actor == 2
    t.refuse(
        PlayerActed(1, BI), OutOfTurnError, "turn_order", "seat 1 acted out of turn; it is seat 2's turn"
    )
    legal = t.state.legal_actions()
    assert (legal.can_bring_in, legal.bring_in_amount, legal.can_complete, legal.can_fold) == (
        True,
        5,
        True,
        False,
    )


def test_the_bring_in_is_its_amount_and_nothing_else() -> None:
    t = stud()
    t.refuse(
        PlayerActed(2, ActionKind.CHECK),
        IllegalActionError,
        "bring_in",
        "seat 2 must open with the bring-in of 5 or complete to 10; a check is not allowed",
    )
    t.refuse(
        PlayerActed(2, BI, 10), IllegalActionError, "bring_in", "seat 2 brought in for 10; the bring-in is 5"
    )
    t.act(2, BI)
    assert t.state.contributions[2] == 10


def test_facing_the_bring_in_a_player_may_call_it_or_complete_to_the_small_bet() -> None:
    t = stud()
    t.act(2, BI)
    legal = t.state.legal_actions()
    assert (legal.seat, legal.call_amount, legal.aggressive_action, legal.allowed_to) == (3, 5, CO, (10,))
    t.refuse(PlayerActed(3, CO, 15), IllegalActionError, "limit_bet_size")
    t.act(3, CO, 10)
    assert t.state.legal_actions().allowed_to == (20,)
    t.acts((1, R, 20), (2, C), (3, C))
    assert t.state.street_index == 1


def test_the_bring_in_may_complete_at_once() -> None:
    t = stud()
    t.act(2, CO, 10)
    assert t.state.legal_actions().call_amount == 10


def test_in_razz_the_highest_up_card_brings_in() -> None:
    t = stud("FR")
    assert t.state.actor == 1


def to_fourth(variant: str, rulebook: Rulebook = BFSP) -> Table:
    t = stud(variant, rulebook)
    first = t.state.actor
    assert first is not None
    second, third = [s for s in (2, 3, 1, 2, 3) if s != first][:2]
    t.acts((first, BI), (second, CO, 10), (third, C), (first, C))
    for seat, card in ((1, "Qd"), (2, "7c"), (3, "8d")):
        t.apply(HoleCardsDealt(seat, parse_cards(card)))
    return t


def test_the_best_board_acts_first_on_fourth_street_and_razz_the_lowest() -> None:
    assert to_fourth("F7S").state.actor == 1  # a pair of queens showing
    assert to_fourth("FR").state.actor == 2  # 7-4 is the best razz board


def test_an_open_pair_on_fourth_street_allows_the_big_bet_when_the_rulebook_says_so() -> None:
    t = to_fourth("F7S", with_rules(stud_open_pair_big_bet=True))
    assert t.state.legal_actions().allowed_to == (10, 20)
    t.act(1, B, 20)
    assert t.state.legal_actions().allowed_to == (40,)
    u = to_fourth("F7S", with_rules(stud_open_pair_big_bet=False))
    u.refuse(
        PlayerActed(1, B, 20),
        IllegalActionError,
        "limit_bet_size",
        "seat 1 bet 20; in this fixed-limit round it must be to 10",
    )


def test_an_open_pair_small_bet_may_be_raised_by_a_small_or_a_big_bet() -> None:
    t = to_fourth("F7S", with_rules(stud_open_pair_big_bet=True))
    t.act(1, B, 10)
    assert t.state.legal_actions().allowed_to == (20, 30)


def test_stud_hi_lo_has_no_open_pair_big_bet() -> None:
    t = to_fourth("F7S/8", with_rules(stud_open_pair_big_bet=True))
    assert t.state.legal_actions().allowed_to == (10,)


def test_fifth_street_is_the_big_bet() -> None:
    t = to_fourth("F7S")
    t.acts((1, ActionKind.CHECK), (2, ActionKind.CHECK), (3, ActionKind.CHECK))
    for seat, card in ((1, "2h"), (2, "9c"), (3, "Tc")):
        t.apply(HoleCardsDealt(seat, parse_cards(card)))
    assert t.state.legal_actions().allowed_to == (20,)


def test_when_the_up_cards_are_unknown_the_record_names_the_bring_in() -> None:
    t = start(
        "F7S", stacks=(1000, 1000, 1000), antes=((1, 5), (2, 5), (3, 5)), bring_in=5, small_bet=10, big_bet=20
    )
    t.post().deal()  # nobody's cards known
    t.act(3, BI)
    legal = t.state.legal_actions()
    assert (legal.seat, legal.call_amount, legal.can_complete) == (1, 5, True)


def test_bfsp_6_5_4_when_the_bring_in_is_all_in_on_the_ante_the_next_seat_may_fold_bring_in_or_complete() -> (
    None
):
    t = start(
        "F7S",
        stacks=(1000, 5, 1000, 1000),
        antes=((1, 5), (2, 5), (3, 5), (4, 5)),
        bring_in=5,
        small_bet=10,
        big_bet=20,
    )
    t.post().deal(s1="AsKdQh", s2="2s3d4c", s3="5s6d4h", s4="9c9dJh")  # seat 2 has the 4c and nothing behind
    legal = t.state.legal_actions()
    assert (legal.seat, legal.can_fold, legal.can_bring_in, legal.can_complete) == (3, True, True, True)
    t.act(3, ActionKind.FOLD)
    legal = t.state.legal_actions()
    assert (legal.seat, legal.can_fold, legal.can_bring_in) == (4, True, True)
    t.act(4, BI)
    legal = t.state.legal_actions()
    assert (legal.seat, legal.call_amount, legal.aggressive_action) == (1, 5, CO)


def test_a_later_street_opens_left_of_an_all_in_best_board() -> None:
    t = start(
        "F7S", stacks=(1000, 15, 1000), antes=((1, 5), (2, 5), (3, 5)), bring_in=5, small_bet=10, big_bet=20
    )
    t.post().deal(s1="AsKd2h", s2="2s3dAc", s3="5s6d4h")  # seat 1 brings in with the 2h
    t.acts((1, BI), (2, CO, 10), (3, C), (1, C))
    assert t.state.stacks[2] == 0
    for seat, card in ((1, "Kc"), (2, "Ad"), (3, "8d")):
        t.apply(HoleCardsDealt(seat, parse_cards(card)))
    # seat 2 shows the best board (aces) but is all-in: seat 3, to his left, acts first (bfsp 6.5.4), not
    # seat 1 with the better board of the two who can still bet
    assert t.state.actor == 3
