"""Main and side pots (bfsp definitions "Side pot"; TDA 2022 rules 16 and 21; TDA 2017 D-15, D-20)."""

from __future__ import annotations

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from pokerkit import Automation, NoLimitTexasHoldem, State
from pokerkit_acts import act

from domain.hand.pots import Pot, build_pots, pot_name, pots_summary, total

pytestmark = pytest.mark.unit


def amounts_and_eligible(pots: tuple[Pot, ...]) -> list[tuple[int, tuple[int, ...]]]:
    return [(pot.amount, pot.eligible) for pot in pots]


# --- worked examples ---------------------------------------------------------------------------------------


def test_the_bfsp_side_pot_example_gives_p2_the_main_pot_and_p1_p3_the_side_pot() -> None:
    """bfsp definitions: P1 bets 10, P2 all-in for 20, P3 raises to 50, P1 calls: 20 of each in the main
    pot for all three, the other 30 of P1 and P3 in a side pot P2 cannot win."""
    pots = build_pots({1: 50, 2: 20, 3: 50}, folded=())

    assert pots == (Pot(60, (1, 2, 3), (1, 2, 3)), Pot(60, (1, 3), (1, 3)))


def test_before_p1_calls_the_bfsp_example_already_shows_p3s_raise_beyond_p2() -> None:
    """The same example mid-street: P1 has 10 in, P2 20 (all-in), P3 50; the pot view is provisional."""
    pots = build_pots({1: 10, 2: 20, 3: 50}, folded=())

    assert amounts_and_eligible(pots) == [(30, (1, 2, 3)), (20, (2, 3)), (30, (3,))]
    assert pots[-1].is_uncalled_excess


def test_tv_84_main_pot_of_three_700s_and_a_side_pot_of_2000_for_b_and_c() -> None:
    """TDA 2022 16 Ex 3 (TV-84; TDA 2017 TV-41): A all-in for 700 pre-flop, B and C call; B bets 1000 on
    the turn and C calls. Side pot 2000 (B, C); main pot 2100 (derived, no dead money)."""
    a, b, c = 1, 2, 3
    pots = build_pots({a: 700, b: 1700, c: 1700}, folded=())

    assert amounts_and_eligible(pots) == [(2100, (a, b, c)), (2000, (b, c))]


def test_tv_84_a_folded_blind_is_dead_money_in_the_main_pot() -> None:
    """TV-84's "plus dead money": a fourth seat posted 100 and folded; it stays in, and only in, the main pot."""
    pots = build_pots({1: 700, 2: 1700, 3: 1700, 4: 100}, folded={4})

    assert pots == (Pot(2200, (1, 2, 3), (1, 2, 3, 4)), Pot(2000, (2, 3), (2, 3)))


def test_tv_83_two_all_ins_on_different_streets_make_a_main_and_a_side_pot() -> None:
    """TDA 2022 16 Ex 2 (TV-83; TDA 2017 TV-40): A all-in pre-flop, B all-in on the turn, C calls."""
    pots = build_pots({1: 300, 2: 800, 3: 800}, folded=())

    assert amounts_and_eligible(pots) == [(900, (1, 2, 3)), (1000, (2, 3))]


def test_tv_82_heads_up_all_in_and_call_is_one_pot() -> None:
    """TDA 2022 16 Ex 1 (TV-82; TDA 2017 TV-39): A (shorter) all-in on the turn, B calls."""
    assert build_pots({1: 450, 2: 450}, folded=()) == (Pot(900, (1, 2), (1, 2)),)


def test_three_all_ins_for_different_stacks_make_a_main_and_two_side_pots() -> None:
    pots = build_pots({1: 100, 2: 250, 3: 400, 4: 400}, folded=())

    assert amounts_and_eligible(pots) == [(400, (1, 2, 3, 4)), (450, (2, 3, 4)), (300, (3, 4))]


def test_four_all_ins_for_different_stacks_and_a_cover_make_four_pots() -> None:
    pots = build_pots({1: 60, 2: 200, 3: 350, 4: 500, 5: 500}, folded=())

    assert amounts_and_eligible(pots) == [
        (300, (1, 2, 3, 4, 5)),
        (560, (2, 3, 4, 5)),
        (450, (3, 4, 5)),
        (300, (4, 5)),
    ]
    assert total(pots) == 60 + 200 + 350 + 500 + 500


def test_a_folded_seats_chips_stay_in_every_level_it_reached_but_it_can_win_none() -> None:
    pots = build_pots({1: 50, 2: 100, 3: 300, 4: 300}, folded={1})

    assert pots == (Pot(350, (2, 3, 4), (1, 2, 3, 4)), Pot(400, (3, 4), (3, 4)))


def test_a_seat_that_folded_above_an_all_in_leaves_its_chips_to_the_live_seat_above() -> None:
    """A all-in for 100; B put in 400 and folded to C, who had 600 in: 300 of B's chips are C's to win,
    and C's own 200 nobody called is reported apart, as an uncalled excess, not merged into the others."""
    pots = build_pots({1: 100, 2: 400, 3: 600}, folded={2})

    assert pots == (Pot(300, (1, 3), (1, 2, 3)), Pot(600, (3,), (2, 3)), Pot(200, (3,), (3,)))
    assert [pot.is_uncalled_excess for pot in pots] == [False, False, True]


def test_dead_money_above_every_live_seat_joins_the_highest_contested_pot() -> None:
    """A dead small blind lifted seat 2 to 150 before it folded to a 40 bet; nobody live reached 150."""
    pots = build_pots({1: 140, 2: 150}, folded={2})

    assert pots == (Pot(290, (1,), (1, 2)),)


def test_an_all_in_for_exactly_the_bet_makes_no_side_pot() -> None:
    assert build_pots({1: 200, 2: 200, 3: 200}, folded=()) == (Pot(600, (1, 2, 3), (1, 2, 3)),)


def test_seats_that_put_nothing_in_are_neither_contributors_nor_eligible() -> None:
    assert build_pots({1: 0, 2: 100, 3: 100}, folded=()) == (Pot(200, (2, 3), (2, 3)),)


def test_no_chips_make_no_pots() -> None:
    assert build_pots({}, folded=()) == ()


def test_a_negative_contribution_is_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        build_pots({1: 100, 2: -5}, folded=())


def test_the_pot_summary_names_the_pots_the_way_a_dealer_does() -> None:
    pots = build_pots({1: 50, 2: 20, 3: 50, 4: 10}, folded={4})

    assert pot_name(0) == "main pot"
    assert pots_summary(pots) == "main pot 70 for seats 1, 2, 3; side pot 1 60 for seats 1, 3"


def test_the_pot_summary_says_when_a_top_pot_is_an_uncalled_bet() -> None:
    pots = build_pots({1: 2000, 2: 500}, folded=())

    assert pots_summary(pots) == "main pot 1,000 for seats 1, 2; side pot 1 1,500 uncalled, seat 1's own"


# --- properties --------------------------------------------------------------------------------------------

contributions_strategy = st.dictionaries(st.integers(1, 10), st.integers(0, 5000), max_size=10)


@given(contributions_strategy, st.data())
def test_the_pots_hold_every_chip_put_in(contributions: dict[int, int], data: st.DataObject) -> None:
    folded = data.draw(st.sets(st.sampled_from(sorted(contributions)))) if contributions else set()

    assert total(build_pots(contributions, folded)) == sum(contributions.values())


@given(contributions_strategy, st.data())
def test_each_side_pot_is_contested_by_a_subset_of_the_pot_before_it(
    contributions: dict[int, int], data: st.DataObject
) -> None:
    folded = data.draw(st.sets(st.sampled_from(sorted(contributions)))) if contributions else set()
    pots = build_pots(contributions, folded)

    for lower, upper in zip(pots, pots[1:], strict=False):
        assert set(upper.eligible) < set(lower.eligible) or (
            upper.is_uncalled_excess and upper.eligible == lower.eligible
        )
        assert set(upper.contributors) <= set(lower.contributors)
    assert not any(pot.is_uncalled_excess for pot in pots[:-1])


@given(contributions_strategy, st.data())
def test_eligible_seats_are_the_live_contributors_and_no_pot_is_empty(
    contributions: dict[int, int], data: st.DataObject
) -> None:
    folded = data.draw(st.sets(st.sampled_from(sorted(contributions)))) if contributions else set()
    live = {seat for seat, amount in contributions.items() if amount > 0 and seat not in folded}
    assume(live)
    pots = build_pots(contributions, folded)

    assert all(pot.amount > 0 for pot in pots)
    assert all(set(pot.eligible) == set(pot.contributors) - folded for pot in pots)
    assert set(pots[0].eligible) == live


# --- against PokerKit 0.7.7 --------------------------------------------------------------------------------

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
)


def play_to_showdown(stacks: list[int], choices: st.DataObject) -> State | None:
    """A no-limit hold'em hand (blinds 1-2, ante 1) where each act is a fold, a call, a min-raise or a
    shove; None when it ended without a showdown."""
    state = NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 1, (1, 2), 2, tuple(stacks), len(stacks))
    while state.actor_index is not None:
        act(state, choices)
    return state if sum(state.statuses) >= 2 else None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 400), min_size=2, max_size=9), st.data())
def test_pots_agree_with_pokerkit_on_no_limit_holdem_all_ins(stacks: list[int], data: st.DataObject) -> None:
    state = play_to_showdown(stacks, data)
    assume(state is not None)
    assert state is not None
    contributions = {i + 1: stacks[i] - state.stacks[i] for i in range(len(stacks))}
    folded = {i + 1 for i in range(len(stacks)) if not state.statuses[i]}

    ours = amounts_and_eligible(build_pots(contributions, folded))
    theirs = [(pot.amount, tuple(i + 1 for i in pot.player_indices)) for pot in state.pots]
    event(f"{len(theirs)} pots, {len(folded)} folded")

    assert ours == theirs
