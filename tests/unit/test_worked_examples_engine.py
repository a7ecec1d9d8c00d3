"""Worked examples the engine decides: raise minimums, re-opening, the limit cap, burns, fouled decks, turn order.

Ids are the TV ids of ../shared/rules (``TV-nn`` TDA 2022, ``2017/TV-nn`` TDA 2017, ``bfsp-…`` the federation's
own examples); docs/WORKED_EXAMPLES.md lists every id and its test.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from domain.cards import Card, parse_cards, standard_deck
from domain.errors import DealingError, HandStateError, IllegalActionError
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    CardBurned,
    ForcedBetKind,
    ForcedBetPosted,
    HandEnded,
    HandStarted,
    HandVoided,
    HoleCardsDealt,
    MisdealDeclared,
    PlayerActed,
    SeatEntry,
    Stakes,
)
from domain.hand.legal import LegalActions, NextAct, NextActKind
from domain.hand.state import HandState
from domain.rulebooks import get_rulebook

pytestmark = pytest.mark.unit

FOLD, CHECK, CALL, BET, RAISE = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BET,
    ActionKind.RAISE,
)


class Table:
    """One hand dealt from a fresh deck in order; every mechanical act (blinds, cards, burns) done for us."""

    def __init__(
        self,
        stacks: dict[int, int],
        big_blind: int,
        *,
        button: int,
        rulebook: str = "tda-2022",
        variant: str = "NT",
        small_bet: int = 0,
        big_bet: int = 0,
        raise_cap_lifted: bool = False,
    ) -> None:
        order = sorted(stacks)
        at = order.index(button)
        if len(order) == 2:
            small, big = order[at], order[(at + 1) % 2]
        else:
            small, big = order[(at + 1) % len(order)], order[(at + 2) % len(order)]
        stakes = Stakes(
            blinds=((small, big_blind // 2), (big, big_blind)),
            min_bet=big_blind,
            small_bet=small_bet,
            big_bet=big_bet,
        )
        seats = tuple(SeatEntry(seat, f"player {seat}", stack) for seat, stack in sorted(stacks.items()))
        self.state = HandState.start(
            HandStarted("t1", 1, variant, seats, button, stakes, rulebook, raise_cap_lifted=raise_cap_lifted),
            get_rulebook(rulebook),
        )
        self.cards: Iterator[Card] = iter(standard_deck())
        self.deal()

    def deal(self) -> NextAct:
        """Post, deal and burn until a player must act."""
        while True:
            nxt = self.state.expected_next()
            if nxt.kind is NextActKind.FORCED_BET:
                assert nxt.seat is not None and nxt.forced_bet is not None
                self.state.apply(ForcedBetPosted(nxt.seat, nxt.forced_bet, nxt.amount))
            elif nxt.kind is NextActKind.DEAL_HOLE:
                assert nxt.seat is not None
                self.state.apply(HoleCardsDealt(nxt.seat, self._take(nxt.count)))
            elif nxt.kind is NextActKind.BURN:
                self.state.apply(CardBurned(next(self.cards)))
            elif nxt.kind is NextActKind.DEAL_BOARD:
                self.state.apply(BoardDealt(self._take(nxt.count)))
            else:
                return nxt

    def _take(self, count: int) -> tuple[Card | None, ...]:
        return tuple(next(self.cards) for _ in range(count))

    def act(self, seat: int, action: ActionKind, to: int | None = None) -> Table:
        assert self.state.actor == seat, f"seat {self.state.actor} is to act, not seat {seat}"
        self.state.apply(PlayerActed(seat, action, to))
        self.deal()
        return self

    def limp_to_the_flop(self) -> Table:
        """Everyone calls the big blind and the big blind checks: the flop is dealt."""
        street = self.state.street_index
        while self.state.street_index == street:
            options = self.state.legal_actions()
            self.act(options.seat, CHECK if options.can_check else CALL)
        return self

    @property
    def options(self) -> LegalActions:
        return self.state.legal_actions()


def seats(count: int, stack: int = 1_000_000) -> dict[int, int]:
    return dict.fromkeys(range(1, count + 1), stack)


# --- raise minimums: TDA 2022 43 (TV-33..37), TDA 2017 TV-19..23, bfsp 4.9.6 --------------------------------


@pytest.mark.parametrize("tv", ["TV-33", "2017/TV-19"])
def test_the_minimum_reraise_adds_the_last_raise_not_the_last_total(tv: str) -> None:
    hand = Table(seats(4), 200, button=4).limp_to_the_flop()
    hand.act(1, BET, 600).act(2, RAISE, 1600).act(3, RAISE, 3600)
    assert hand.options.seat == 4
    assert hand.options.min_bet_or_raise_to == 5600
    with pytest.raises(IllegalActionError) as refused:
        hand.act(4, RAISE, 5500)
    assert str(refused.value.rule) == "tda-2022 43-A"


@pytest.mark.parametrize("tv", ["TV-34", "2017/TV-20"])
def test_a_short_all_in_raise_leaves_the_big_blind_as_the_raise_to_beat(tv: str) -> None:
    hand = Table({1: 10_000, 2: 10_000, 3: 150, 4: 10_000}, 100, button=4)
    hand.act(3, RAISE, 150)
    assert (hand.options.seat, hand.options.min_bet_or_raise_to) == (4, 250)


@pytest.mark.parametrize("tv", ["TV-35", "2017/TV-21"])
def test_after_a_short_all_in_a_full_raise_sets_the_new_increment(tv: str) -> None:
    hand = Table({1: 500, 2: 100_000, 3: 100_000, 4: 100_000}, 200, button=4).limp_to_the_flop()
    hand.act(1, BET, 300).act(2, RAISE, 1000)
    assert hand.options.seat == 3
    assert (hand.options.call_amount, hand.options.min_bet_or_raise_to) == (1000, 1700)


@pytest.mark.parametrize("tv", ["TV-36", "2017/TV-22"])
def test_the_increment_to_beat_is_the_largest_raise_of_the_round(tv: str) -> None:
    hand = Table(seats(6), 50, button=6)
    hand.act(3, RAISE, 125).act(4, RAISE, 200).act(5, RAISE, 500)
    assert (hand.options.seat, hand.options.min_bet_or_raise_to) == (6, 800)


@pytest.mark.parametrize("tv", ["TV-37", "2017/TV-23"])
def test_calls_do_not_shrink_the_raise_to_beat(tv: str) -> None:
    hand = Table(seats(6), 50, button=6)
    hand.act(3, RAISE, 500).act(4, CALL).act(5, CALL)
    assert hand.options.seat == 6
    assert (hand.options.call_amount, hand.options.min_bet_or_raise_to) == (500, 950)


def test_bfsp_4_9_6_after_blinds_of_50_100_a_raise_to_300_must_be_reraised_to_500() -> None:
    hand = Table(seats(4), 100, button=4, rulebook="bfsp")
    hand.act(3, RAISE, 300)
    assert hand.options.min_bet_or_raise_to == 500
    with pytest.raises(IllegalActionError) as refused:
        hand.act(4, RAISE, 450)
    assert str(refused.value) == "seat 4 raised to 450; the minimum raise is to 500 (bfsp 4.9.6)"


def test_bfsp_4_9_8_a_big_blind_all_in_for_less_is_still_called_and_raised_by_the_full_blind() -> None:
    hand = Table({1: 10_000, 2: 75, 3: 10_000}, 100, button=3, rulebook="bfsp")
    assert hand.options.seat == 3
    assert (hand.options.call_amount, hand.options.min_bet_or_raise_to) == (100, 200)


# --- re-opening: TDA 2022 47 (TV-38..44), TDA 2017 TV-24..29, bfsp 4.9.8 --------------------------------------


def _short_all_ins_adding_up() -> Table:
    """NLHE 50-100, flop: A bets 100, B all-in 125, C calls, D all-in 200, E calls (TDA 2022 47 Ex 1)."""
    hand = Table({1: 100_000, 2: 225, 3: 100_000, 4: 300, 5: 100_000}, 100, button=5).limp_to_the_flop()
    return hand.act(1, BET, 100).act(2, RAISE, 125).act(3, CALL).act(4, RAISE, 200).act(5, CALL)


@pytest.mark.parametrize("tv", ["TV-38", "2017/TV-24"])
def test_short_all_ins_that_add_up_to_a_full_raise_reopen_the_betting(tv: str) -> None:
    hand = _short_all_ins_adding_up()
    assert hand.options.seat == 1
    assert hand.options.can_raise and hand.options.can_call and hand.options.can_fold


@pytest.mark.parametrize("tv", ["TV-39", "2017/TV-25"])
def test_a_player_facing_less_than_a_full_raise_since_he_acted_may_only_call_or_fold(tv: str) -> None:
    hand = _short_all_ins_adding_up().act(1, CALL)
    assert hand.options.seat == 3
    assert hand.options.can_call and not hand.options.can_raise
    assert hand.options.call_amount == 75


@pytest.mark.parametrize("tv", ["TV-40", "2017/TV-26"])
def test_a_full_raise_behind_him_reopens_the_betting_for_a_player_who_acted(tv: str) -> None:
    hand = _short_all_ins_adding_up().act(1, RAISE, 300)
    assert hand.options.seat == 3
    assert hand.options.can_raise
    assert hand.options.call_amount == 175


def test_tv_41_short_all_ins_leave_the_opening_bet_as_the_increment_to_beat() -> None:
    hand = Table(
        {1: 100_000, 2: 600, 3: 750, 4: 900, 5: 100_000, 6: 100_000}, 100, button=6
    ).limp_to_the_flop()
    hand.act(1, BET, 300).act(2, RAISE, 500).act(3, RAISE, 650).act(4, RAISE, 800).act(5, CALL)
    assert hand.options.seat == 6
    assert (hand.options.call_amount, hand.options.min_bet_or_raise_to) == (800, 1100)


def _limper_and_a_short_all_in() -> Table:
    """NLHE 2000-4000: A limps, B folds, C all-in 7500, the button and the small blind fold (47 Ex 3)."""
    hand = Table({1: 100_000, 2: 100_000, 3: 100_000, 4: 100_000, 5: 7500, 6: 100_000}, 4000, button=6)
    return hand.act(3, CALL).act(4, FOLD).act(5, RAISE, 7500).act(6, FOLD).act(1, FOLD)


@pytest.mark.parametrize("tv", ["TV-42", "2017/TV-27", "2017/TV-28"])
def test_a_short_all_in_lets_the_big_blind_raise_but_not_the_limper_once_the_blind_calls(tv: str) -> None:
    hand = _limper_and_a_short_all_in()
    assert hand.options.seat == 2
    assert hand.options.can_raise and hand.options.call_amount == 3500
    assert hand.options.min_bet_or_raise_to == 11_500
    hand.act(2, CALL)
    assert hand.options.seat == 3
    assert hand.options.can_call and not hand.options.can_raise
    assert hand.options.call_amount == 3500


@pytest.mark.parametrize("tv", ["TV-43", "2017/TV-29"])
def test_the_big_blinds_full_raise_reopens_the_betting_for_the_limper(tv: str) -> None:
    hand = _limper_and_a_short_all_in().act(2, RAISE, 11_500)
    assert hand.options.seat == 3
    assert hand.options.can_raise and hand.options.call_amount == 7500


def _limit_flop(all_in_for: int, rulebook: str) -> Table:
    """Fixed limit 10-20 (flop bets 10): P1 bets 10, P2 calls, P3 goes all-in for ``all_in_for``."""
    hand = Table(
        {1: 1000, 2: 1000, 3: 10 + all_in_for},
        10,
        button=3,
        variant="FT",
        small_bet=10,
        big_bet=20,
        rulebook=rulebook,
    ).limp_to_the_flop()
    return hand.act(1, BET, 10).act(2, CALL).act(3, RAISE, all_in_for)


@pytest.mark.parametrize("tv", ["TV-44", "bfsp-4.9.8-ex3"])
def test_in_limit_an_all_in_of_at_least_half_a_raise_reopens_the_betting(tv: str) -> None:
    hand = _limit_flop(15, "bfsp" if tv.startswith("bfsp") else "tda-2022")
    assert hand.options.seat == 1
    assert hand.options.can_raise


def test_bfsp_4_9_8_ex1_in_limit_an_all_in_of_less_than_half_a_raise_is_only_called() -> None:
    hand = _limit_flop(14, "bfsp")
    assert hand.options.seat == 1
    assert hand.options.can_call and not hand.options.can_raise
    assert hand.options.call_amount == 4


def test_bfsp_4_9_8_a_short_all_in_over_a_raise_lets_the_first_bettor_raise_but_not_the_raiser() -> None:
    hand = Table({1: 10_000, 2: 10_000, 3: 10_000, 4: 10_000, 5: 90}, 20, button=5, rulebook="bfsp")
    hand.act(3, CALL).act(4, RAISE, 60).act(5, RAISE, 90).act(1, FOLD).act(2, FOLD)
    assert hand.options.seat == 3 and hand.options.can_raise
    hand.act(3, CALL)
    assert hand.options.seat == 4
    assert hand.options.can_call and not hand.options.can_raise


# --- the fixed-limit cap: TDA 2022 48 (TV-45), bfsp 4.7.3 ------------------------------------------------------


def _capped_heads_up(rulebook: str, raise_cap_lifted: bool = False) -> Table:
    hand = Table(
        {1: 10_000, 2: 10_000}, 10, button=2, variant="FT", small_bet=10, big_bet=20, rulebook=rulebook,
        raise_cap_lifted=raise_cap_lifted,
    )
    hand.limp_to_the_flop()
    return hand.act(1, BET, 10).act(2, RAISE, 20).act(1, RAISE, 30).act(2, RAISE, 40)


def test_tv_45_under_tda_the_limit_cap_holds_even_heads_up() -> None:
    hand = _capped_heads_up("tda-2022")
    assert hand.options.seat == 1
    assert not hand.options.can_raise


def test_tv_45_under_tda_the_cap_is_lifted_once_two_players_are_left_in_the_event() -> None:
    hand = _capped_heads_up("tda-2022", raise_cap_lifted=True)
    assert hand.options.can_raise
    hand.act(1, RAISE, 50)  # a fifth bet: uncapped
    assert hand.options.can_raise


def test_bfsp_4_7_3_heads_up_from_the_start_of_the_round_raises_are_unlimited() -> None:
    hand = _capped_heads_up("bfsp")
    assert hand.options.can_raise


def test_bfsp_4_7_3_multi_way_the_cap_is_the_third_raise() -> None:
    hand = Table(seats(3, 10_000), 10, button=3, variant="FT", small_bet=10, big_bet=20, rulebook="bfsp")
    hand.limp_to_the_flop()
    hand.act(1, BET, 10).act(2, RAISE, 20).act(3, RAISE, 30).act(1, RAISE, 40)
    assert hand.options.seat == 2
    assert not hand.options.can_raise
    with pytest.raises(IllegalActionError) as refused:
        hand.act(2, RAISE, 50)
    assert refused.value.rule.rule == "4.7.3"


# --- heads-up order, burns, fouled decks, misdeals: TDA 2022 34, 35, 38 ------------------------------------------


def test_tv_109_heads_up_the_button_posts_the_small_blind_and_acts_first_only_before_the_flop() -> None:
    hand = Table({1: 10_000, 2: 10_000}, 100, button=2)
    assert hand.options.seat == 2
    hand.act(2, CALL).act(1, CHECK)
    assert hand.options.seat == 1


@pytest.mark.parametrize("tv", ["TV-70", "2017/TV-46"])
def test_exactly_one_card_is_burned_before_the_flop_never_two(tv: str) -> None:
    hand = Table(seats(3, 10_000), 100, button=3)
    hand.act(3, CALL).act(1, CALL)
    hand.state.apply(PlayerActed(2, CHECK))
    hand.state.apply(CardBurned(None))
    with pytest.raises(DealingError) as refused:
        hand.state.apply(CardBurned(None))
    assert str(refused.value.rule) == "tda-2022 38"


@pytest.mark.parametrize("tv", ["TV-71", "2017/TV-47"])
def test_the_flop_is_never_dealt_without_its_burn(tv: str) -> None:
    hand = Table(seats(3, 10_000), 100, button=3)
    hand.act(3, CALL).act(1, CALL)
    hand.state.apply(PlayerActed(2, CHECK))
    with pytest.raises(DealingError) as refused:
        hand.state.apply(BoardDealt(parse_cards("2c3c4c")))
    assert str(refused.value.rule) == "tda-2022 38"


def test_tv_78_a_card_dealt_twice_is_refused_and_the_voided_hand_returns_every_chip() -> None:
    rulebook = get_rulebook("tda-2022")
    stakes = Stakes(blinds=((1, 50), (2, 100)), min_bet=100)
    state = HandState.start(
        HandStarted(
            "t1", 1, "NT", tuple(SeatEntry(s, f"p{s}", 10_000) for s in (1, 2, 3)), 3, stakes, "tda-2022"
        ),
        rulebook,
    )
    state.apply(ForcedBetPosted(1, ForcedBetKind.SMALL_BLIND, 50))
    state.apply(ForcedBetPosted(2, ForcedBetKind.BIG_BLIND, 100))
    state.apply(HoleCardsDealt(1, parse_cards("AsAd")))
    with pytest.raises(DealingError) as refused:
        state.apply(HoleCardsDealt(2, parse_cards("AsKd")))
    assert str(refused.value.rule) == "tda-2022 35-E"
    (ended,) = state.apply(HandVoided("two aces of spades: a fouled deck", "35-E"))
    assert isinstance(ended, HandEnded)
    assert ended.final_stacks == ((1, 10_000), (2, 10_000), (3, 10_000))


def test_tv_75_a_misdeal_cannot_be_declared_once_the_betting_is_under_way() -> None:
    hand = Table(seats(3, 10_000), 100, button=3, rulebook="bfsp")
    hand.act(3, CALL).act(1, CALL)
    with pytest.raises(HandStateError) as refused:
        hand.state.apply(MisdealDeclared("a seat was dealt one card", "6.3.5"))
    assert refused.value.rule.rulebook == "bfsp"


def test_tv_75_before_any_action_a_misdeal_ends_the_hand_with_every_chip_back() -> None:
    hand = Table(seats(3, 10_000), 100, button=3)
    (ended,) = hand.state.apply(MisdealDeclared("first card dealt to the wrong seat", "35-A"))
    assert isinstance(ended, HandEnded)
    assert dict(ended.final_stacks) == {1: 10_000, 2: 10_000, 3: 10_000}
