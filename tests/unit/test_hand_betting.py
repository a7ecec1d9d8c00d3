"""Betting legality: turn order, checks, bets and raises and their sizes, re-opening, pot limit, fixed limit.

Worked examples: bfsp 4.7-4.9 and TDA 2022 43, 47, 54 (TV-31, TV-33..43 of the TDA digest)."""

from __future__ import annotations

import pytest
from hand_table import BFSP, B, C, F, R, Table, X, start, with_rules

from domain.errors import HandStateError, IllegalActionError, OutOfTurnError
from domain.hand.events import ActionKind, HandEnded, PlayerActed, PotAwarded, UncalledBetReturned
from domain.rulebooks import ShortAllInReraise

pytestmark = pytest.mark.unit


# --- turn order -------------------------------------------------------------------------------------------


def test_the_first_seat_after_the_big_blind_acts_first_before_the_flop() -> None:
    t = start().post().deal()
    assert t.state.actor == 3
    t.refuse(PlayerActed(4, F), OutOfTurnError, "turn_order", "seat 4 acted out of turn; it is seat 3's turn")
    t.act(3, F)
    assert t.state.actor == 4


def test_after_the_flop_the_first_seat_left_of_the_button_acts_first() -> None:
    t = start().post().deal().acts((3, C), (4, C), (5, F), (6, C), (1, C), (2, X))
    t.board("2c7h9d")
    assert t.state.actor == 1
    t.refuse(PlayerActed(2, X), OutOfTurnError, "turn_order")


def test_heads_up_the_button_posts_the_small_blind_acts_first_before_the_flop_and_last_after() -> None:
    t = start(stacks=(1000, 1000), button=2).post().deal()
    assert t.state.contributions == {1: 100, 2: 50}
    assert t.state.actor == 2
    t.acts((2, C), (1, X))
    t.board("2c7h9d")
    assert t.state.actor == 1


def test_the_big_blind_has_the_option_when_nobody_raised() -> None:
    t = start().post().deal().acts((3, C), (4, F), (5, F), (6, F), (1, C))
    legal = t.state.legal_actions()
    assert (legal.seat, legal.can_check, legal.can_raise, legal.min_bet_or_raise_to) == (2, True, True, 200)
    t.act(2, X)
    assert t.state.street_index == 1


# --- check, call, bet ---------------------------------------------------------------------------------


def test_a_check_facing_a_bet_is_refused() -> None:
    t = start().post().deal()
    t.refuse(
        PlayerActed(3, X),
        IllegalActionError,
        "check",
        "seat 3 checked facing a bet of 100; seat 3 may call 100, raise or fold",
    )


def test_a_call_with_nothing_to_call_is_refused_and_a_wrong_call_amount_too() -> None:
    t = start().post().deal().acts((3, C), (4, C), (5, C), (6, C), (1, C), (2, X))
    t.board("2c7h9d")
    t.refuse(
        PlayerActed(1, C),
        IllegalActionError,
        "call",
        "seat 1 called, but there is no bet to call; seat 1 may check",
    )
    t.act(1, B, 300)
    t.refuse(
        PlayerActed(2, C, 250), IllegalActionError, "call", "seat 2 called 250; the call is 300 more, to 300"
    )
    t.act(2, C, 300)
    assert t.state.contributions[2] == 400


def test_a_bet_where_there_is_already_a_bet_is_refused_as_a_raise() -> None:
    t = start().post().deal()
    t.refuse(
        PlayerActed(3, B, 300),
        IllegalActionError,
        "bet",
        "seat 3 made a bet, but there is a bet of 100: it is a raise",
    )


def test_the_minimum_bet_is_the_big_blind_unless_the_bet_is_all_in() -> None:
    t = start(stacks=(10_000, 10_000, 160, 10_000, 10_000, 10_000)).post().deal()
    t.acts((3, C), (4, C), (5, F), (6, F), (1, C), (2, X))
    t.board("2c7h9d")
    t.refuse(PlayerActed(1, B, 60), IllegalActionError, "min_bet", "seat 1 bet 60; the minimum bet is 100")
    t.acts((1, X), (2, X))
    assert t.state.legal_actions().min_bet_or_raise_to == 60  # all 60 of seat 3's chips
    t.act(3, B, 60)
    assert t.state.stacks[3] == 0


def test_a_bet_larger_than_the_stack_is_refused() -> None:
    t = start(stacks=(10_000, 10_000, 500, 10_000, 10_000, 10_000)).post().deal()
    t.refuse(
        PlayerActed(3, R, 600),
        IllegalActionError,
        "bet",
        "seat 3 raised to 600 but has only 500 in all on this round",
    )


# --- minimum raise: the last full increment (bfsp 4.9.5-4.9.6, TDA 43) ---------------------------------


def test_a_raise_must_at_least_match_the_previous_raise_bfsp_4_9_6() -> None:
    t = start().post().deal()
    t.act(3, R, 300)
    t.refuse(
        PlayerActed(4, R, 400),
        IllegalActionError,
        "min_raise",
        "seat 4 raised to 400; the minimum raise is to 500",
    )
    t.act(4, R, 500)
    assert t.state.legal_actions().min_bet_or_raise_to == 700


def flop_100_200(stacks: tuple[int, ...] = (20_000,) * 5) -> object:
    t = start(stacks=stacks, blinds=(100, 200)).post().deal()
    n = len(stacks)
    for seat in [*range(3, n + 1), 1]:
        t.act(seat, C)
    t.act(2, X)
    t.board("2c7h9d")
    return t


def test_tv_33_the_minimum_raise_is_the_last_increment_not_the_last_total() -> None:
    t = flop_100_200()
    t.acts((1, B, 600), (2, R, 1600), (3, R, 3600))
    assert t.state.legal_actions().min_bet_or_raise_to == 5600
    t.refuse(PlayerActed(4, R, 5500), IllegalActionError, "min_raise")
    t.act(4, R, 5600)


def test_tv_34_a_short_all_in_leaves_the_increment_at_the_big_blind() -> None:
    t = start(stacks=(10_000, 10_000, 150, 10_000, 10_000, 10_000)).post().deal()
    t.act(3, R, 150)
    legal = t.state.legal_actions()
    assert (legal.call_amount, legal.min_bet_or_raise_to) == (150, 250)


def test_tv_35_an_all_in_bet_then_a_raise_sets_the_increment() -> None:
    t = flop_100_200((20_000, 20_000, 500, 20_000, 20_000))
    t.acts((1, X), (2, X), (3, B, 300), (4, R, 1000))
    legal = t.state.legal_actions()
    assert (legal.seat, legal.call_amount, legal.min_bet_or_raise_to) == (5, 1000, 1700)


def test_tv_36_and_tv_37_the_largest_raise_of_the_round_sets_the_minimum() -> None:
    t = start(blinds=(25, 50)).post().deal().acts((3, R, 125), (4, R, 200), (5, R, 500))
    assert t.state.legal_actions().min_bet_or_raise_to == 800
    u = start(blinds=(25, 50)).post().deal().acts((3, R, 500), (4, C), (5, C))
    legal = u.state.legal_actions()
    assert (legal.call_amount, legal.min_bet_or_raise_to) == (500, 950)


def test_bfsp_4_9_8_read_literally_the_reraise_over_a_short_all_in_is_the_all_in_plus_the_big_blind() -> None:
    literal = with_rules(short_all_in_reraise=ShortAllInReraise.ALL_IN_PLUS_BIG_BLIND)
    for rulebook, minimum in ((literal, 400 + 200), (BFSP, 400 + 300)):
        t = start(stacks=(20_000, 20_000, 600, 20_000, 20_000), blinds=(100, 200), rulebook=rulebook)
        t.post().deal().acts((3, C), (4, C), (5, C), (1, C), (2, X))
        t.board("2c7h9d")
        t.acts((1, B, 300), (2, C), (3, R, 400))  # seat 3 all-in, 100 over the bet: not a full raise
        assert t.state.legal_actions().min_bet_or_raise_to == minimum


# --- re-opening (bfsp 4.9.8, TDA 47) ----------------------------------------------------------------------


def tv_38(stacks: tuple[int, ...] = (10_000, 225, 10_000, 300, 10_000, 10_000)) -> object:
    t = start(stacks=stacks).post().deal().acts((3, C), (4, C), (5, C), (6, C), (1, C), (2, X))
    t.board("2c7h9d")
    return t.acts((1, B, 100), (2, R, 125), (3, C), (4, R, 200), (5, C), (6, F))


def test_tv_38_short_all_ins_adding_up_to_a_full_raise_reopen_the_betting() -> None:
    t = tv_38()
    legal = t.state.legal_actions()
    assert (legal.seat, legal.reopened, legal.can_raise, legal.call_amount) == (1, True, True, 100)


def test_tv_39_a_player_facing_less_than_a_full_raise_may_only_call_or_fold() -> None:
    t = tv_38()
    t.act(1, C)
    legal = t.state.legal_actions()
    assert (legal.seat, legal.reopened, legal.can_raise, legal.can_call) == (3, False, False, True)
    t.refuse(
        PlayerActed(3, R, 400),
        IllegalActionError,
        "reopen",
        "seat 3 already acted and the betting was not re-opened by a full raise; seat 3 may only call 75 or fold",
    )
    t.act(3, C)


def test_tv_40_a_full_raise_behind_reopens_the_betting() -> None:
    t = tv_38()
    t.act(1, R, 300)
    legal = t.state.legal_actions()
    assert (legal.seat, legal.reopened, legal.can_raise) == (3, True, True)


def test_short_all_ins_do_not_add_up_when_the_rulebook_says_so() -> None:
    t = start(
        stacks=(10_000, 225, 10_000, 300, 10_000, 10_000), rulebook=with_rules(short_all_ins_add_up=False)
    )
    t.post().deal().acts((3, C), (4, C), (5, C), (6, C), (1, C), (2, X))
    t.board("2c7h9d")
    t.acts((1, B, 100), (2, R, 125), (3, C), (4, R, 200), (5, C), (6, F))
    assert not t.state.legal_actions().can_raise


def test_tv_41_several_short_all_ins_keep_the_opening_bet_as_the_increment() -> None:
    t = start(stacks=(10_000, 600, 750, 900, 10_000, 10_000)).post().deal()
    t.acts((3, C), (4, C), (5, C), (6, C), (1, C), (2, X))
    t.board("2c7h9d")
    t.acts((1, B, 300), (2, R, 500), (3, R, 650), (4, R, 800), (5, C))
    legal = t.state.legal_actions()
    assert (legal.seat, legal.call_amount, legal.min_bet_or_raise_to) == (6, 800, 1100)


def tv_42() -> object:
    t = start(stacks=(100_000, 100_000, 100_000, 100_000, 7500), blinds=(2000, 4000)).post().deal()
    return t.acts((3, C), (4, F), (5, R, 7500), (1, F))


def test_tv_42_the_big_blind_may_raise_a_short_all_in_but_the_limper_may_not() -> None:
    t = tv_42()
    legal = t.state.legal_actions()
    assert (legal.seat, legal.call_amount, legal.min_bet_or_raise_to) == (2, 3500, 11_500)
    t.act(2, C)
    legal = t.state.legal_actions()
    assert (legal.seat, legal.call_amount, legal.can_raise) == (3, 3500, False)


def test_tv_43_a_full_raise_by_the_big_blind_reopens_for_the_limper() -> None:
    t = tv_42()
    t.act(2, R, 11_500)
    legal = t.state.legal_actions()
    assert (legal.seat, legal.call_amount, legal.can_raise) == (3, 7500, True)


# --- big blind all-in for less (bfsp 4.9.8) ---------------------------------------------------------------


def test_a_big_blind_all_in_for_less_still_sets_the_call_and_the_raise_sizes() -> None:
    t = start(stacks=(10_000, 75, 10_000, 10_000)).post().deal()
    assert t.state.contributions[2] == 75
    legal = t.state.legal_actions()
    assert (legal.seat, legal.call_amount, legal.min_bet_or_raise_to) == (3, 100, 200)
    t.refuse(
        PlayerActed(3, C, 75), IllegalActionError, "call", "seat 3 called 75; the call is 100 more, to 100"
    )
    t.acts((3, C), (4, F), (1, F))
    # nobody else can bet: the 25 seat 3 put in above the big blind's 75 goes back at once
    assert UncalledBetReturned(3, 25) in t.derived


def test_nobody_may_raise_when_no_other_player_could_answer_the_raise() -> None:
    t = start(stacks=(10_000, 10_000, 300, 10_000), button=4).post().deal()
    t.acts((3, R, 300), (4, F), (1, F))  # seat 3 is all-in
    legal = t.state.legal_actions()
    assert (legal.seat, legal.can_call, legal.can_raise) == (2, True, False)
    t.refuse(
        PlayerActed(2, R, 1000),
        IllegalActionError,
        "bet",
        "seat 2 cannot raise: no other player has chips to answer it, so seat 2 may only call or fold",
    )


# --- pot limit (bfsp 4.7.2, 4.9.6; TDA 54-B) -----------------------------------------------------------


def test_the_pot_limit_maximum_raise_counts_the_call_first_bfsp_4_9_6() -> None:
    t = start("PO", stacks=(10_000,) * 4, blinds=(10, 20)).post().deal()
    t.acts((3, C), (4, C), (1, C), (2, X))
    t.board("2c7h9d")
    assert t.state.pot_total() == 80
    t.acts((1, B, 50), (2, R, 180))
    assert t.state.legal_actions().max_bet_or_raise_to == 670
    t.refuse(
        PlayerActed(3, R, 680),
        IllegalActionError,
        "max_bet_pot_limit",
        "seat 3 raised to 680; the pot-limit maximum is 670",
    )
    t.act(3, R, 670)


def test_the_pot_limit_maximum_bet_is_the_pot_bfsp_4_7_2() -> None:
    t = start("PO", stacks=(10_000,) * 5, blinds=(10, 20)).post().deal()
    t.acts((3, C), (4, C), (5, C), (1, C), (2, X))
    t.board("2c7h9d")
    assert t.state.legal_actions().max_bet_or_raise_to == 100
    t.refuse(PlayerActed(1, B, 110), IllegalActionError, "max_bet_pot_limit")
    t.act(1, B, 100)
    assert t.state.legal_actions().max_bet_or_raise_to == 400


@pytest.mark.parametrize("tv", ["TV-31", "2017/TV-02"])
def test_tv_31_a_short_big_blind_counts_in_full_for_the_pot_before_the_flop(tv: str) -> None:
    t = start("PO", stacks=(10_000, 75, 10_000, 10_000), blinds=(50, 100)).post().deal()
    assert t.state.legal_actions().max_bet_or_raise_to == 350


@pytest.mark.parametrize("tv", ["TV-32"])
def test_tv_32_after_the_flop_the_actual_amounts_size_the_pot(tv: str) -> None:
    """The big blind all-in for 75 counts as 75 once the flop is out (TDA 2022 54-B)."""
    t = start("PO", stacks=(10_000, 75, 10_000, 10_000), blinds=(50, 100)).post().deal()
    t.acts((3, C), (4, C), (1, C))
    t.board("2c7h9d")
    assert t.state.pot_total() == 375
    assert t.state.legal_actions().max_bet_or_raise_to == 375


# --- fixed limit (bfsp 4.7.3, 4.9.5-4.9.8) -----------------------------------------------------------------


def fixed(n: int = 4, rulebook: object = BFSP, stacks: int = 1000) -> object:
    return (
        start("FT", stacks=(stacks,) * n, blinds=(5, 10), small_bet=10, big_bet=20, rulebook=rulebook)
        .post()
        .deal()
    )  # type: ignore[arg-type]


def test_a_fixed_limit_raise_is_exactly_one_bet_more() -> None:
    t = fixed()
    legal = t.state.legal_actions()
    assert (legal.min_bet_or_raise_to, legal.max_bet_or_raise_to, legal.allowed_to) == (20, 20, (20,))
    t.refuse(
        PlayerActed(3, R, 25),
        IllegalActionError,
        "limit_bet_size",
        "seat 3 raised to 25; in this fixed-limit round it must be to 20",
    )


def test_fixed_limit_caps_the_betting_at_three_raises() -> None:
    t = fixed()
    t.acts((3, R, 20), (4, R, 30), (1, R, 40))
    legal = t.state.legal_actions()
    assert (legal.seat, legal.raises_left, legal.can_raise, legal.call_amount) == (2, 0, False, 30)
    t.refuse(
        PlayerActed(2, R, 50),
        IllegalActionError,
        "raise_cap",
        "seat 2 cannot raise: the betting is capped at 3 raises on this round",
    )


def test_heads_up_from_the_start_of_the_round_raises_are_unlimited_if_the_rulebook_says_so() -> None:
    t = fixed(2)
    t.acts((2, R, 20), (1, R, 30), (2, R, 40), (1, R, 50), (2, R, 60))
    capped = fixed(2, with_rules(limit_unlimited_heads_up=False))
    capped.acts((2, R, 20), (1, R, 30), (2, R, 40))
    capped.refuse(PlayerActed(1, R, 50), IllegalActionError, "raise_cap")


def test_three_players_at_the_start_of_the_round_keep_the_cap_when_one_folds() -> None:
    t = fixed(3)
    t.acts((3, R, 20), (1, F), (2, R, 30), (3, R, 40))
    t.refuse(PlayerActed(2, R, 50), IllegalActionError, "raise_cap")


def test_the_small_bet_goes_on_the_first_two_rounds_and_the_big_bet_on_the_last_two() -> None:
    t = fixed()
    t.acts((3, C), (4, C), (1, C), (2, X))
    t.board("2c7h9d")
    t.refuse(PlayerActed(1, B, 20), IllegalActionError, "limit_bet_size")
    t.acts((1, B, 10), (2, C), (3, C), (4, C))
    t.board("3s")
    t.refuse(PlayerActed(1, B, 10), IllegalActionError, "limit_bet_size")
    t.act(1, B, 20)
    assert t.state.legal_actions().allowed_to == (40,)


def limit_flop(short: int) -> object:
    """Three players at 10-20; seat 3 has ``short`` left on the flop."""
    t = start("FT", stacks=(1000, 1000, 10 + short), blinds=(5, 10), small_bet=10, big_bet=20).post().deal()
    t.acts((3, C), (1, C), (2, X))
    t.board("2c7h9d")
    return t.acts((1, B, 10))


def test_bfsp_4_9_8_limit_example_1_an_all_in_under_half_a_bet_does_not_reopen() -> None:
    t = limit_flop(14)
    t.acts((2, C), (3, R, 14))
    legal = t.state.legal_actions()
    assert (legal.seat, legal.call_amount, legal.can_raise) == (1, 4, False)
    t.refuse(PlayerActed(1, R, 24), IllegalActionError, "reopen")


def test_bfsp_4_9_8_limit_example_2_the_next_player_completes_to_a_full_raise_and_reopens() -> None:
    t = start("FT", stacks=(1000, 24, 1000), blinds=(5, 10), small_bet=10, big_bet=20).post().deal()
    t.acts((3, C), (1, C), (2, X))
    t.board("2c7h9d")
    t.acts((1, B, 10), (2, R, 14))  # seat 2 all-in for 14: not a raise
    assert t.state.legal_actions().allowed_to == (20,)
    t.act(3, R, 20)
    legal = t.state.legal_actions()
    assert (legal.seat, legal.can_raise) == (1, True)


def test_bfsp_4_9_8_limit_example_3_an_all_in_of_half_a_bet_counts_as_a_raise() -> None:
    t = limit_flop(15)
    t.acts((2, C), (3, R, 15))
    legal = t.state.legal_actions()
    assert (legal.seat, legal.can_raise, legal.allowed_to) == (1, True, (25,))
    t.acts((1, R, 25), (2, R, 35))
    t.refuse(PlayerActed(1, R, 45), IllegalActionError, "raise_cap")


# --- a hand where all but one fold -----------------------------------------------------------------------


def test_when_all_but_one_fold_the_uncalled_bet_returns_and_the_pot_is_awarded_at_once() -> None:
    t = start(stacks=(1000, 1000, 1000), button=3).post().deal()
    out = t.acts((3, R, 300), (1, F)).act(2, F)
    assert out[0] == UncalledBetReturned(3, 200)
    pot = out[1]
    assert isinstance(pot, PotAwarded) and (pot.amount, pot.shares[0].seat, pot.shares[0].amount) == (
        250,
        3,
        250,
    )
    assert out[2] == HandEnded(((1, 950), (2, 900), (3, 1150)))
    assert t.state.is_over and t.state.actor is None
    t.refuse(PlayerActed(1, X), HandStateError, "hand_over")


def test_an_act_with_an_unknown_action_kind_for_this_moment_is_refused() -> None:
    t = start().post().deal()
    t.refuse(PlayerActed(3, ActionKind.BRING_IN), IllegalActionError, "bring_in")
    t.refuse(PlayerActed(3, R), IllegalActionError, "bet", "seat 3 raised without an amount")


def test_a_raise_nobody_could_call_beyond_the_current_bet_is_not_offered() -> None:
    # seat 3 called 10 with 1 chip left; seat 1 raised all-in to 21: nobody could answer seat 2's raise
    t = start(stacks=(21, 22, 11, 1), blinds=(5, 10)).post().deal()
    t.acts((3, C), (4, F), (1, R, 21))
    legal = t.state.legal_actions()
    assert (legal.seat, legal.can_call, legal.can_raise) == (2, True, False)


def test_under_pokerkits_convention_the_call_over_a_short_big_blind_is_what_it_put_in() -> None:
    t = start(stacks=(10_000, 75, 10_000, 10_000), rulebook=with_rules(short_big_blind_full_call=False))
    t.post().deal()
    legal = t.state.legal_actions()
    assert (legal.call_amount, legal.min_bet_or_raise_to) == (75, 175)


def test_a_call_for_less_puts_in_the_whole_stack() -> None:
    t = start(stacks=(10_000, 10_000, 10_000, 250), button=4).post().deal()
    t.act(3, R, 600)
    legal = t.state.legal_actions()
    assert (legal.seat, legal.call_amount, legal.can_raise) == (4, 250, False)
    t.act(4, C)
    assert t.state.stacks[4] == 0 and t.state.contributions[4] == 250


def test_a_straddle_acts_last_before_the_flop_and_doubles_the_minimum_raise() -> None:
    t = start(stacks=(10_000,) * 5, blinds=(50, 100, 200)).post().deal()
    legal = t.state.legal_actions()
    assert (legal.seat, legal.call_amount, legal.min_bet_or_raise_to) == (4, 200, 400)
    t.acts((4, C), (5, C), (1, C), (2, C))
    legal = t.state.legal_actions()
    assert (legal.seat, legal.can_check, legal.can_raise) == (3, True, True)


def test_a_pot_limit_raise_may_always_reach_the_minimum_even_over_a_tiny_pot() -> None:
    """Both blinds all-in for one chip: the pot (2) is smaller than a minimum raise, which stays allowed;
    the only raise then open is all-in (a raise to 4 would be neither full nor all-in)."""
    import dataclasses

    from domain.hand.events import ForcedBetKind, ForcedBetPosted, HandStarted, SeatEntry, Stakes
    from domain.hand.state import HandState
    from domain.rulebooks import get_rulebook

    seats = (SeatEntry(1, "a", 1), SeatEntry(2, "b", 1), SeatEntry(3, "c", 5), SeatEntry(4, "d", 2))
    start = HandStarted("t", 1, "PO", seats, 4, Stakes(blinds=((1, 5), (2, 10)), min_bet=10), burns_recorded=False)
    rulebook = dataclasses.replace(get_rulebook("tda-2022"), short_big_blind_full_call=False)
    state = HandState.start(start, rulebook)
    state.apply(ForcedBetPosted(1, ForcedBetKind.SMALL_BLIND, 1))
    state.apply(ForcedBetPosted(2, ForcedBetKind.BIG_BLIND, 1))
    from domain.cards import parse_cards
    from domain.hand.events import HoleCardsDealt

    for seat, cards in ((1, "AsKsQsJs"), (2, "AhKhQhJh"), (3, "AdKdQdJd"), (4, "AcKcQcJc")):
        state.apply(HoleCardsDealt(seat, parse_cards(cards)))
    legal = state.legal_actions()
    assert legal.seat == 3 and (legal.min_bet_or_raise_to, legal.max_bet_or_raise_to) == (5, 5)


# --- decision D10: facing a short all-in *bet* after checking (docs/RULEBOOKS.md) ---------------------------


def _checked_to_a_short_all_in_bet(**rules: object) -> Table:
    """NLHE 50-100, three see the flop; seat 1 checks, seat 2 is all-in for 60 (less than a full bet of 100),
    seat 3 calls: the action is back on seat 1."""
    t = start(stacks=(10_000, 160, 10_000), rulebook=with_rules(**rules)).post().deal()
    t.acts((3, C), (1, C), (2, X))
    t.board("AhKd4c")
    t.acts((1, X), (2, B, 60), (3, C))
    assert t.state.actor == 1
    return t


def test_d10_a_player_who_checked_may_only_call_or_fold_a_short_all_in_bet() -> None:
    """TDA 2022 47-A, bfsp 4.9.8: he has acted, and an all-in short of a full bet does not re-open the betting."""
    t = _checked_to_a_short_all_in_bet()
    legal = t.state.legal_actions()
    assert not legal.can_raise and not legal.reopened and legal.call_amount == 60
    t.refuse(PlayerActed(1, R, 160), IllegalActionError, "reopen")


def test_d10_under_the_other_reading_he_may_raise_as_pokerkit_lets_him() -> None:
    t = _checked_to_a_short_all_in_bet(short_all_in_bet_reopens=True)
    legal = t.state.legal_actions()
    assert legal.can_raise and legal.min_bet_or_raise_to == 160
    t.act(1, R, 160)
    assert t.state.actor == 3


def test_d10_is_only_about_a_check_a_bettor_facing_a_short_all_in_raise_still_may_not_raise() -> None:
    t = start(stacks=(10_000, 260, 10_000), rulebook=with_rules(short_all_in_bet_reopens=True)).post().deal()
    t.acts((3, C), (1, C), (2, X))
    t.board("AhKd4c")
    t.acts((1, B, 100), (2, R, 160), (3, C))
    assert t.state.actor == 1 and not t.state.legal_actions().can_raise
