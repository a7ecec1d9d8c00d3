"""Errors that stand unless corrected in time (TDA 2022 52, TV-46 to TV-52; TDA 2017 D-42, its TV-03 and TV-12 to
TV-14), driven through the engine: the incorrect bet accepted as made, then corrected in time (every matching bet
brought to what the rule gives) or standing once its window closes, and the hand going on from it.

Ids are the TV ids of ../shared/rules; docs/WORKED_EXAMPLES.md lists every id and its test.
"""

from __future__ import annotations

import pytest
from hand_table import C, F, R, Table, X, start

from domain.cards import parse_cards
from domain.errors import HandStateError, IllegalActionError
from domain.hand.events import (
    ActionKind,
    BetCorrected,
    BoardDealt,
    HandShown,
    HandVoided,
    IncorrectBetAccepted,
    IncorrectBetCorrected,
    IncorrectBetNoted,
    IncorrectBetStood,
    PlayerActed,
)
from domain.hand.phase import Phase
from domain.rulebooks import Rulebook, get_rulebook

pytestmark = pytest.mark.unit

TDA = get_rulebook("tda-2022")
TDA_2017 = get_rulebook("tda-2017")
BFSP = get_rulebook("bfsp")
B = ActionKind.BET


def nl_flop(rulebook: Rulebook = TDA) -> Table:
    """NLHE 100-200, five players A..E (seats 1..5, the button on 5) limped to the flop: 200 each in the pot."""
    table = start(stacks=(10_000,) * 5, blinds=(100, 200), rulebook=rulebook).post().deal()
    table.acts((3, C), (4, C), (5, C), (1, C), (2, X))
    table.board("QhJh4c")
    return table


def under_raised(rulebook: Rulebook = TDA) -> Table:
    """TDA 2022 52-A's example: A bets 600; B raises to 1,000 (the minimum is 1,200); C and D call; E folds."""
    table = nl_flop(rulebook)
    table.act(1, B, 600)
    (noted,) = table.apply(IncorrectBetAccepted(2, R, 1000))
    assert noted == IncorrectBetNoted(
        2, 1000, 1200, str(rulebook.cite("min_raise")), noted.reason, "the next card, or on the last round the showdown"
    )
    table.acts((3, C), (4, C), (5, F))
    return table


def street_totals(table: Table, seats: range) -> list[int]:
    return [table.state.contributions[s] - 200 for s in seats]


@pytest.mark.parametrize(("tv", "rulebook"), [("TV-46", TDA), ("2017/TV-03-before-turn", TDA_2017)])
def test_an_under_raise_found_before_the_turn_brings_every_bettor_up_to_the_minimum(tv: str, rulebook: Rulebook) -> None:
    table = under_raised(rulebook)
    assert table.state.actor == 1  # A still to act, facing 1,000
    derived = table.apply(IncorrectBetCorrected(2))
    assert [(d.seat, d.was, d.to) for d in derived if isinstance(d, BetCorrected)] == [
        (2, 1000, 1200), (3, 1000, 1200), (4, 1000, 1200)
    ]  # fmt: skip
    assert all(d.rule == str(rulebook.cite("incorrect_bet")) for d in derived)
    assert table.state.legal_actions().call_amount == 600  # A faces 1,200 now
    assert table.state.legal_actions().min_bet_or_raise_to == 1800  # the raise to beat is still 600
    table.act(1, C)
    assert table.state.phase is Phase.DEALING and street_totals(table, range(1, 6)) == [1200] * 4 + [0]
    assert sum(table.state.contributions.values()) == 5 * 200 + 4 * 1200


def test_tv_46_found_once_the_betting_is_over_a_caller_of_1000_is_brought_up_too() -> None:
    table = under_raised()
    table.act(1, C)  # A calls the 1,000: the round is over, the turn not yet dealt
    derived = table.apply(IncorrectBetCorrected(2))
    assert [d.seat for d in derived if isinstance(d, BetCorrected)] == [1, 2, 3, 4]
    assert street_totals(table, range(1, 6)) == [1200] * 4 + [0]
    assert [table.state.stacks[s] for s in range(1, 5)] == [10_000 - 1400] * 4
    table.board("Kd")  # the hand goes on from the corrected amounts
    assert table.state.phase is Phase.BETTING


@pytest.mark.parametrize(("tv", "rulebook"), [("TV-47", TDA), ("2017/TV-03-after-turn", TDA_2017)])
def test_an_under_raise_found_after_the_turn_stands_and_the_hand_goes_on_from_it(tv: str, rulebook: Rulebook) -> None:
    table = under_raised(rulebook)
    table.act(1, C)
    stood, *rest = table.board("Kd")
    assert stood == IncorrectBetStood(2, 1000, str(rulebook.cite("incorrect_bet_stands")), stood.reason)
    assert "stands" in stood.reason and rest == []
    assert street_totals(table, range(1, 6)) == [1000] * 4 + [0]
    reason = table.refuse(IncorrectBetCorrected(2), HandStateError, "incorrect_bet_stands")
    assert "can no longer be corrected" in reason
    table.acts((1, X), (2, X), (3, B, 400), (4, F), (1, C), (2, F))  # and the hand plays on
    assert table.state.contributions == {1: 1600, 2: 1200, 3: 1600, 4: 1200, 5: 200}


def river(rulebook: Rulebook = TDA) -> Table:
    table = nl_flop(rulebook)
    table.acts((1, X), (2, X), (3, X), (4, X), (5, X))
    table.board("Kd")
    table.acts((1, X), (2, X), (3, X), (4, X), (5, X))
    table.board("2s")
    table.act(1, B, 600)
    table.apply(IncorrectBetAccepted(2, R, 1000))
    table.acts((3, F), (4, F), (5, F), (1, C))
    assert table.state.phase is Phase.SHOWDOWN
    return table


def test_tv_48_an_under_raise_on_the_river_is_corrected_until_the_showdown_starts() -> None:
    table = river()
    derived = table.apply(IncorrectBetCorrected(2))
    assert [(d.seat, d.to) for d in derived if isinstance(d, BetCorrected)] == [(1, 1200), (2, 1200)]
    assert table.state.contributions[1] == table.state.contributions[2] == 1400


def test_tv_48_once_the_showdown_started_the_river_under_raise_stands() -> None:
    table = river()
    (stood,) = table.apply(HandShown(2, tuple(table.state.hole[2])))
    assert isinstance(stood, IncorrectBetStood) and stood.amount == 1000
    table.refuse(IncorrectBetCorrected(2), HandStateError, "incorrect_bet_stands")


def plo_flop(rulebook: Rulebook = TDA) -> Table:
    """PLO 500-1000; the flop pot is 10,500 (the small blind's 500 and four players' 2,500); seat 2 (A) first."""
    table = start("PO", stacks=(20_000,) * 5, blinds=(500, 1000), rulebook=rulebook).post().deal()
    table.acts((3, R, 2500), (4, C), (5, C), (1, F), (2, C))
    table.board("QhJh4c")
    assert table.state.pot_total() == 10_500 and table.state.legal_actions().max_bet_or_raise_to == 10_500
    return table


@pytest.mark.parametrize(("tv", "rulebook"), [("TV-49", TDA), ("2017/TV-12", TDA_2017)])
def test_a_pot_bet_counted_short_stands_once_substantial_action_follows_it(tv: str, rulebook: Rulebook) -> None:
    table = plo_flop(rulebook)
    (noted,) = table.apply(IncorrectBetAccepted(2, B, 9500, pot_declared=True))  # the dealer said 9,500
    assert (noted.made, noted.due, noted.closes) == (9500, 10_500, "substantial action after it, or the next card")
    assert table.apply(PlayerActed(3, F)) == ()
    stood, *_ = table.apply(PlayerActed(4, C))  # fold + call: substantial action
    assert stood == IncorrectBetStood(2, 9500, str(rulebook.cite("pot_limit_bet_stands")), stood.reason)
    table.refuse(IncorrectBetCorrected(2), HandStateError, "pot_limit_bet_stands")
    assert table.state.contributions[4] == 2500 + 9500


@pytest.mark.parametrize(("tv", "rulebook"), [("TV-50", TDA), ("2017/TV-13", TDA_2017)])
def test_a_pot_bet_counted_short_is_raised_to_the_pot_before_substantial_action(tv: str, rulebook: Rulebook) -> None:
    table = plo_flop(rulebook)
    table.apply(IncorrectBetAccepted(2, B, 9500, pot_declared=True))
    table.act(3, F)
    (corrected,) = table.apply(IncorrectBetCorrected(2))
    assert corrected == BetCorrected(2, 9500, 10_500, str(rulebook.cite("pot_limit_correction")), corrected.reason)
    assert table.state.actor == 4 and table.state.legal_actions().call_amount == 10_500


def over_the_pot(rulebook: Rulebook = TDA) -> Table:
    table = plo_flop(rulebook)
    (noted,) = table.apply(IncorrectBetAccepted(2, B, 11_500))  # the dealer said 11,500
    assert (noted.due, noted.rule) == (10_500, str(rulebook.cite("max_bet_pot_limit")))
    table.acts((3, F), (4, C), (5, C))
    assert table.state.phase is Phase.DEALING
    return table


@pytest.mark.parametrize(("tv", "rulebook"), [("TV-51", TDA), ("2017/TV-14-before-next-card", TDA_2017)])
def test_a_bet_over_the_pot_is_cut_for_every_caller_before_the_next_card_despite_substantial_action(
    tv: str, rulebook: Rulebook
) -> None:
    table = over_the_pot(rulebook)
    derived = table.apply(IncorrectBetCorrected(2))
    assert [(d.seat, d.was, d.to) for d in derived if isinstance(d, BetCorrected)] == [
        (2, 11_500, 10_500), (4, 11_500, 10_500), (5, 11_500, 10_500)
    ]  # fmt: skip
    assert [table.state.stacks[s] for s in (2, 4, 5)] == [20_000 - 13_000] * 3
    assert table.state.pot_total() == 10_500 + 3 * 10_500


@pytest.mark.parametrize(("tv", "rulebook"), [("TV-52", TDA), ("2017/TV-14-after-next-card", TDA_2017)])
def test_a_bet_over_the_pot_stands_once_the_next_card_is_out(tv: str, rulebook: Rulebook) -> None:
    table = over_the_pot(rulebook)
    (stood,) = table.apply(BoardDealt(parse_cards("Kd")))
    assert stood.amount == 11_500 and stood.rule == str(rulebook.cite("pot_limit_bet_stands"))
    table.refuse(IncorrectBetCorrected(2), HandStateError, "pot_limit_bet_stands")
    assert table.state.pot_total() == 10_500 + 3 * 11_500


def test_under_the_federation_the_bet_is_completed_under_4_13_and_stands_as_tda_52_a_says() -> None:
    table = under_raised(BFSP)
    corrected = table.apply(IncorrectBetCorrected(2))
    assert {d.rule for d in corrected} == {"bfsp 4.13"}
    stood_table = under_raised(BFSP)
    stood_table.act(1, C)
    (stood,) = stood_table.board("Kd")
    assert stood.rule == "tda-2022 52-A"  # bfsp is silent on when it is too late


def test_an_accepted_under_raise_reopens_the_betting_and_keeps_the_raise_to_beat() -> None:
    table = under_raised()
    legal = table.state.legal_actions()  # A faces 1,000 after betting 600: the raise re-opens for him
    assert legal.can_raise and legal.min_bet_or_raise_to == 1600


def test_a_legal_amount_is_not_an_incorrect_bet_and_a_raise_over_the_error_leaves_it_to_the_director() -> None:
    table = nl_flop()
    table.act(1, B, 600)
    table.refuse(IncorrectBetAccepted(2, R, 1200), IllegalActionError, "incorrect_bet")
    table.refuse(IncorrectBetAccepted(3, R, 1000), IllegalActionError, "turn_order")
    table.apply(IncorrectBetAccepted(2, R, 1000))
    table.act(3, R, 2000)
    reason = table.refuse(IncorrectBetCorrected(2), HandStateError, "floor_decision")
    assert "director" in reason
    table.refuse(IncorrectBetCorrected(4), HandStateError, "incorrect_bet")


def test_a_voided_hand_drops_a_pending_incorrect_bet_with_every_chip() -> None:
    table = under_raised()
    assert len(table.state.incorrect) == 1
    table.apply(HandVoided("a fouled deck", "tda-2022 35-E"))
    assert table.state.incorrect == [] and table.state.stood == []
    assert all(stack == 10_000 for stack in table.state.stacks.values())


def test_in_fixed_limit_a_bet_short_of_the_limit_can_stand_but_an_overbet_is_not_accepted() -> None:
    table = start("FT", stacks=(1000,) * 3, blinds=(5, 10), rulebook=TDA, small_bet=10, big_bet=20).post().deal()
    table.acts((3, C), (1, C), (2, X))
    table.board("QhJh4c")
    table.refuse(IncorrectBetAccepted(1, B, 15), IllegalActionError, "limit_bet_size")
    (noted,) = table.apply(IncorrectBetAccepted(1, B, 5))
    assert (noted.made, noted.due) == (5, 10)
    table.acts((2, C), (3, C))
    (stood,) = table.board("Kd")
    assert stood.amount == 5 and table.state.contributions == {1: 15, 2: 15, 3: 15}
