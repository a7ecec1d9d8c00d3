"""Showdown order and pot awards (bfsp 5.9.2-5.9.3; TDA 2022 16-21 and TV-82…TV-93; TDA 2017 D-16, D-19,
TV-39…TV-45)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pokerkit import Automation, FixedLimitOmahaHoldemHighLowSplitEightOrBetter, NoLimitTexasHoldem, State
from pokerkit_acts import act

from domain.cards import MaybeCard, parse_cards, standard_deck
from domain.errors import RulingRequired
from domain.evaluation import EvaluationKind, evaluate
from domain.hand.events import PotAwarded, PotShare
from domain.hand.pots import Pot, build_pots
from domain.hand.showdown import award_pots, showdown_order, showdown_order_reason
from domain.rulebooks import MultiwayOddChips, OddChipRule, get_rulebook

pytestmark = pytest.mark.unit

BFSP = get_rulebook("bfsp")
TDA_2022 = get_rulebook("tda-2022")
TDA_2017 = get_rulebook("tda-2017")
HIGH = EvaluationKind.STANDARD_HIGH
OMAHA_HIGH = EvaluationKind.OMAHA_HIGH
OMAHA_LOW = EvaluationKind.OMAHA_EIGHT_OR_BETTER_LOW
STUD_LOW = EvaluationKind.EIGHT_OR_BETTER_LOW
RAZZ = EvaluationKind.RAZZ

#: a board on which hole cards decide: no pair, no flush, no straight draw completed by the board alone
BOARD = parse_cards("2c4s7d9hJs")


def hands(**by_seat: str) -> dict[int, tuple[MaybeCard, ...]]:
    """``hands(s1="AsAd", s3="????")``: seat number → cards."""
    return {int(name[1:]): parse_cards(text) for name, text in by_seat.items()}


def won(awards: tuple[PotAwarded, ...]) -> dict[int, int]:
    """Chips each seat takes from all the awards."""
    totals: dict[int, int] = {}
    for award in awards:
        for share in award.shares:
            totals[share.seat] = totals.get(share.seat, 0) + share.amount
    return totals


def one_pot(amount: int, *seats: int) -> tuple[Pot, ...]:
    return (Pot(amount, seats, seats),)


# --- showdown order ----------------------------------------------------------------------------------------


def test_tv_85_the_last_aggressor_on_the_river_shows_first_then_clockwise() -> None:
    """TDA 2022 17-A (TV-85), bfsp 5.9.2: a bet on the final round."""
    for rulebook in (BFSP, TDA_2022, TDA_2017):
        assert showdown_order((2, 3, 5, 7), 5, 5, rulebook) == (5, 7, 2, 3)


def test_checked_through_river_under_bfsp_the_last_aggressor_of_any_round_shows_first() -> None:
    """bfsp 5.9.2: everyone checked the last round; seat 7 made the last bet of the hand (on the turn)."""
    assert showdown_order((2, 3, 5, 7), None, 7, BFSP) == (7, 2, 3, 5)


def test_tv_86_checked_through_river_under_tda_the_first_seat_left_of_the_button_shows_first() -> None:
    """TDA 2022 17-A (TV-86) and TDA 2017 D-16: no river bet, so the first live seat left of the button."""
    assert showdown_order((2, 3, 5, 7), None, 7, TDA_2022) == (2, 3, 5, 7)
    assert showdown_order((2, 3, 5, 7), None, 7, TDA_2017) == (2, 3, 5, 7)


def test_a_hand_with_no_bet_at_all_shows_from_the_first_seat_left_of_the_button_under_bfsp() -> None:
    """bfsp is silent when nobody bet in the whole hand; it follows TDA 2022 17-A."""
    assert showdown_order((8, 1, 4), None, None, BFSP) == (8, 1, 4)


def test_in_stud_the_engines_order_of_the_final_round_decides_who_shows_first_when_checked_through() -> None:
    """TV-86, stud: the highest board acts first, and the engine lists in_hand from it."""
    assert showdown_order((6, 2, 4), None, None, TDA_2022) == (6, 2, 4)


def test_the_showdown_record_says_why_the_first_seat_shows_first() -> None:
    assert showdown_order_reason((2, 3, 5, 7), 5, 5, BFSP) == (
        "seat 5 shows first: the last aggressor on the final betting round (bfsp 5.9.2)"
    )
    assert showdown_order_reason((2, 3, 5, 7), None, 7, BFSP) == (
        "seat 7 shows first: the final round was checked through; the last aggressor of the hand (bfsp 5.9.2)"
    )
    assert showdown_order_reason((2, 3, 5, 7), None, 7, TDA_2022) == (
        "seat 2 shows first: nobody bet on the final round; the first to act on it (tda-2022 17-A)"
    )


def test_a_final_round_aggressor_who_is_not_in_the_hand_is_a_caller_error() -> None:
    with pytest.raises(ValueError, match="seat 9"):
        showdown_order((2, 3), 9, 9, BFSP)


def test_a_showdown_needs_distinct_seats() -> None:
    with pytest.raises(ValueError):
        showdown_order((2, 2), None, None, BFSP)
    with pytest.raises(ValueError):
        showdown_order((), None, None, BFSP)


# --- one winner ---------------------------------------------------------------------------------------------


def test_tv_87_the_last_live_hand_wins_without_showing() -> None:
    """TDA 2022 17-B (TV-87), bfsp 5.9.2: everyone else mucked; his cards stay unknown and need not be read."""
    awards, undetermined = award_pots(
        one_pot(900, 1, 2, 3), hands(s2="????"), BOARD, HIGH, None, (1, 2, 3), BFSP
    )

    assert awards == (PotAwarded(0, 900, (1, 2, 3), (PotShare(2, 900),)),)
    assert not undetermined


def test_the_best_hand_takes_the_pot_and_the_award_names_it() -> None:
    awards, _ = award_pots(one_pot(600, 1, 2), hands(s1="AsAd", s2="KhKd"), BOARD, HIGH, None, (1, 2), BFSP)

    assert awards == (PotAwarded(0, 600, (1, 2), (PotShare(1, 600),), "", "pair of aces", ""),)


def test_tv_83_side_pot_is_decided_before_the_main_pot_and_each_goes_to_its_own_best_hand() -> None:
    """TDA 2022 16 Ex 2 (TV-83; TDA 2017 TV-40): A all-in pre-flop, B all-in on the turn, C calls.
    A has the best hand and takes the main pot; B beats C for the side pot, which is awarded first."""
    a, b, c = 1, 2, 3
    pots = build_pots({a: 300, b: 800, c: 800}, folded=())
    shown = hands(s1="AsAd", s2="KhKd", s3="QhQd")

    awards, undetermined = award_pots(pots, shown, BOARD, HIGH, None, (a, b, c), TDA_2022)

    assert [(award.pot_index, award.shares) for award in awards] == [
        (1, (PotShare(b, 1000),)),
        (0, (PotShare(a, 900),)),
    ]
    assert not undetermined


def test_tv_84_side_pot_of_2000_to_b_then_main_pot_of_2100_plus_dead_money_to_a() -> None:
    """TDA 2022 16 Ex 3 (TV-84; TDA 2017 TV-41), with seat 4's folded blind of 100 as the dead money."""
    pots = build_pots({1: 700, 2: 1700, 3: 1700, 4: 100}, folded={4})
    shown = hands(s1="AsAd", s2="KhKd", s3="QhQd")

    awards, _ = award_pots(pots, shown, BOARD, HIGH, None, (1, 2, 3, 4), TDA_2022)

    assert [(award.pot_index, award.amount, award.shares) for award in awards] == [
        (1, 2000, (PotShare(2, 2000),)),
        (0, 2200, (PotShare(1, 2200),)),
    ]


def test_a_side_pot_whose_players_mucked_to_one_goes_to_him_without_a_reading() -> None:
    pots = build_pots({1: 100, 2: 500, 3: 500}, folded=())
    awards, _ = award_pots(pots, hands(s1="AsAd", s2="KhKd"), BOARD, HIGH, None, (1, 2, 3), BFSP)

    assert won(awards) == {2: 800, 1: 300}
    assert awards[0] == PotAwarded(1, 800, (2, 3), (PotShare(2, 800),))


# --- ties and odd chips --------------------------------------------------------------------------------------


def test_tv_90_when_the_board_plays_every_tabled_hand_shares() -> None:
    """TDA 2022 19 (TV-90): a royal flush on the board; both tabled hands split it."""
    royal = parse_cards("AsKsQsJsTs")
    awards, _ = award_pots(one_pot(400, 1, 2), hands(s1="2c3d", s2="4h5c"), royal, HIGH, None, (1, 2), BFSP)

    assert awards[0].shares == (PotShare(1, 200), PotShare(2, 200))
    assert awards[0].winning_hand == "royal flush"
    assert awards[0].odd_chip == ""


def test_bfsp_5_9_3_the_odd_chip_goes_to_the_first_winner_left_of_the_button() -> None:
    """Button on seat 5: seat 6 is first left of it, so seat 6 takes the odd chip though seat 2 is lower."""
    shown = hands(s2="AsKd", s6="AhKc")
    awards, _ = award_pots(one_pot(101, 2, 6), shown, BOARD, HIGH, None, (6, 2), BFSP)

    assert awards[0].shares == (PotShare(2, 50), PotShare(6, 51))
    assert awards[0].odd_chip == "odd chip to seat 6, first winner left of the button (bfsp 5.9.3)"


def test_tv_91_in_a_flop_game_the_odd_chip_goes_to_the_first_seat_left_of_the_button() -> None:
    """TDA 2022 20-a (TV-91)."""
    awards, _ = award_pots(
        one_pot(101, 2, 6), hands(s2="AsKd", s6="AhKc"), BOARD, HIGH, None, (2, 6), TDA_2022
    )

    assert awards[0].shares == (PotShare(2, 51), PotShare(6, 50))
    assert awards[0].odd_chip == "odd chip to seat 2, first winner left of the button (tda-2022 20)"


def test_a_three_way_split_gives_its_two_odd_chips_one_each_clockwise_from_the_button() -> None:
    """Button on seat 7: the order is 8, 1, 3; 302 three ways is 100 each and two odd chips."""
    shown = hands(s1="AsKd", s3="AhKc", s8="AdKh")
    awards, _ = award_pots(one_pot(302, 1, 3, 8), shown, BOARD, HIGH, None, (8, 1, 3), BFSP)

    assert awards[0].shares == (PotShare(1, 101), PotShare(3, 100), PotShare(8, 101))
    assert awards[0].odd_chip == (
        "odd chips to seats 8, 1, one each in order: first winner left of the button (bfsp 5.9.3)"
    )


def test_a_rulebook_may_give_all_odd_chips_to_the_first_winner() -> None:
    rulebook = replace(BFSP, multiway_odd_chips=MultiwayOddChips.ALL_TO_FIRST)
    shown = hands(s1="AsKd", s3="AhKc", s8="AdKh")
    awards, _ = award_pots(one_pot(302, 1, 3, 8), shown, BOARD, HIGH, None, (8, 1, 3), rulebook)

    assert awards[0].shares == (PotShare(1, 100), PotShare(3, 100), PotShare(8, 102))
    assert awards[0].odd_chip == "2 odd chips to seat 8, first winner left of the button (bfsp 5.9.3)"


def test_splits_go_down_to_the_smallest_chip_in_play_and_no_further() -> None:
    """bfsp 5.9.3: with 25-chips the smallest in play, 1,075 two ways is 550 and 525."""
    awards, _ = award_pots(
        one_pot(1075, 1, 2), hands(s1="AsKd", s2="AhKc"), BOARD, HIGH, None, (1, 2), BFSP, chip_unit=25
    )

    assert awards[0].shares == (PotShare(1, 550), PotShare(2, 525))
    assert awards[0].odd_chip == "odd chip of 25 to seat 1, first winner left of the button (bfsp 5.9.3)"


def test_a_pot_that_is_not_made_of_the_smallest_chip_cannot_be_split() -> None:
    with pytest.raises(ValueError, match="chips of 25"):
        award_pots(one_pot(1070, 1, 2), hands(s1="AsKd", s2="AhKc"), BOARD, HIGH, None, (1, 2), BFSP, 25)


def test_each_side_pot_is_split_on_its_own_with_its_own_odd_chip() -> None:
    """TDA 2022 21: main pot three ways (seats 1, 2, 3 tie), side pot between 2 and 3 (tie again)."""
    pots = (Pot(301, (1, 2, 3), (1, 2, 3)), Pot(201, (2, 3), (2, 3)))
    shown = hands(s1="AsKd", s2="AhKc", s3="AdKh")

    awards, _ = award_pots(pots, shown, BOARD, HIGH, None, (3, 1, 2), TDA_2022)

    assert [(award.pot_index, award.shares) for award in awards] == [
        (1, (PotShare(2, 100), PotShare(3, 101))),
        (0, (PotShare(1, 100), PotShare(2, 100), PotShare(3, 101))),
    ]


# --- stud and razz ties: the highest card by suit --------------------------------------------------------------


def test_tv_92_a_stud_tie_gives_the_odd_chip_to_the_highest_card_by_suit() -> None:
    """TDA 2022 20-b (TV-92): both play A-K-Q-J-9; seat 2's ace of spades beats seat 1's ace of hearts."""
    shown = hands(s1="AhKsQdJc9h3c2d", s2="AsKdQcJh9s4d2c")

    awards, _ = award_pots(one_pot(101, 1, 2), shown, (), HIGH, None, (1, 2), TDA_2022, button_game=False)

    assert awards[0].shares == (PotShare(1, 50), PotShare(2, 51))
    assert awards[0].odd_chip == "odd chip to seat 2, highest card by suit (As, Ah) (tda-2022 20)"


def test_in_razz_the_highest_card_of_a_wheel_is_its_five_not_its_ace() -> None:
    """TV-92 for razz: both play 5-4-3-2-A; seat 1 has the ace of spades but seat 2 the five of spades."""
    shown = hands(s1="As2h3d4s5cQdQs", s2="Ac2d3c4h5sKdKh")

    awards, _ = award_pots(one_pot(101, 1, 2), shown, (), RAZZ, None, (1, 2), TDA_2022, button_game=False)

    assert awards[0].shares == (PotShare(1, 50), PotShare(2, 51))
    assert awards[0].winning_hand == "5-4-3-2-A low"


def test_a_rulebook_may_give_the_stud_odd_chip_by_seat_order_instead() -> None:
    rulebook = replace(TDA_2022, odd_chip_stud=OddChipRule.FIRST_LEFT_OF_BUTTON)
    shown = hands(s1="AhKsQdJc9h3c2d", s2="AsKdQcJh9s4d2c")

    awards, _ = award_pots(one_pot(101, 1, 2), shown, (), HIGH, None, (1, 2), rulebook, button_game=False)

    assert awards[0].shares == (PotShare(1, 51), PotShare(2, 50))


# --- hi-lo ----------------------------------------------------------------------------------------------------

#: Omaha hi-lo: A-2 makes a 7-4-3-2-A low on it, kings make three of a kind
HI_LO_BOARD = parse_cards("3c4h7dTsKc")


def test_a_hi_lo_pot_is_halved_between_the_high_and_the_low_hand() -> None:
    shown = hands(s1="As2d9c9h", s2="KsKdQcQh")

    awards, _ = award_pots(one_pot(100, 1, 2), shown, HI_LO_BOARD, OMAHA_HIGH, OMAHA_LOW, (1, 2), TDA_2022)

    assert awards == (
        PotAwarded(0, 50, (1, 2), (PotShare(2, 50),), "high", "three of a kind, kings"),
        PotAwarded(0, 50, (1, 2), (PotShare(1, 50),), "low", "7-4-3-2-A low"),
    )


def test_tv_93_the_odd_chip_of_a_hi_lo_split_goes_to_the_high_half() -> None:
    """TDA 2022 20-c (TV-93): 101 is 51 high and 50 low, though the low hand sits left of the button."""
    shown = hands(s1="As2d9c9h", s2="KsKdQcQh")

    awards, _ = award_pots(one_pot(101, 1, 2), shown, HI_LO_BOARD, OMAHA_HIGH, OMAHA_LOW, (1, 2), TDA_2022)

    assert [(award.half, award.shares, award.odd_chip) for award in awards] == [
        ("high", (PotShare(2, 51),), "odd chip of the split to the high half (tda-2022 20)"),
        ("low", (PotShare(1, 50),), ""),
    ]


def test_a_rulebook_may_give_the_hi_lo_odd_chip_to_the_half_of_the_first_winner_left_of_the_button() -> None:
    rulebook = replace(BFSP, odd_chip_to_high_half=False)
    shown = hands(s1="As2d9c9h", s2="KsKdQcQh")

    awards, _ = award_pots(one_pot(101, 1, 2), shown, HI_LO_BOARD, OMAHA_HIGH, OMAHA_LOW, (1, 2), rulebook)

    assert won(awards) == {1: 51, 2: 50}
    assert awards[1].odd_chip == (
        "odd chip of the split to the low half: seat 1 won it, the first winner in order (bfsp 5.9.3)"
    )


def test_without_a_qualifying_low_the_high_hand_scoops() -> None:
    board = parse_cards("9c9hTdJsKc")
    shown = hands(s1="As2d3c4h", s2="KsKdQcQh")

    awards, _ = award_pots(one_pot(101, 1, 2), shown, board, OMAHA_HIGH, OMAHA_LOW, (1, 2), TDA_2022)

    assert awards == (
        PotAwarded(
            0,
            101,
            (1, 2),
            (PotShare(2, 101),),
            "",
            "full house, kings full of nines; no qualifying low, the high hand scoops",
        ),
    )


def test_one_hand_that_wins_both_halves_takes_the_whole_pot_in_one_award() -> None:
    shown = hands(s1="As2d5c6h", s2="KsKdQcQh")
    awards, _ = award_pots(one_pot(101, 1, 2), shown, HI_LO_BOARD, OMAHA_HIGH, OMAHA_LOW, (1, 2), TDA_2022)

    assert awards == (
        PotAwarded(
            0, 101, (1, 2), (PotShare(1, 101),), "", "straight, seven high (high) and 7-4-3-2-A low (low)"
        ),
    )


def test_quartering_the_low_half_is_split_again_between_two_tied_lows() -> None:
    """Seat 1 and seat 3 tie for low with A-2; seat 2 has the high hand: 102 is 51 high, 26 and 25 low."""
    shown = hands(s1="As2d9c9h", s2="KsKdQcQh", s3="Ah2cJcJh")

    awards, _ = award_pots(
        one_pot(102, 1, 2, 3), shown, HI_LO_BOARD, OMAHA_HIGH, OMAHA_LOW, (3, 1, 2), TDA_2022
    )

    assert [(award.half, award.shares) for award in awards] == [
        ("high", (PotShare(2, 51),)),
        ("low", (PotShare(1, 25), PotShare(3, 26))),
    ]
    assert awards[1].odd_chip == "odd chip to seat 3, first winner left of the button (tda-2022 20)"


def test_a_high_hand_that_also_ties_for_low_takes_three_quarters() -> None:
    shown = hands(s1="As2d5c6h", s3="Ah2cJcJh")

    awards, _ = award_pots(one_pot(100, 1, 3), shown, HI_LO_BOARD, OMAHA_HIGH, OMAHA_LOW, (1, 3), TDA_2022)

    assert won(awards) == {1: 75, 3: 25}


def test_tv_44_identical_omaha_hi_lo_hands_split_the_whole_pot_evenly_not_each_half() -> None:
    """TDA 2017 D-19 D (TV-44): both make 6-5-4-3-2 high and low; 66 chips are 33/33, never 34/32."""
    board = parse_cards("4h5d6cKsQd")
    shown = hands(s1="2s3sJhJd", s2="2c3cTh9s")

    awards, _ = award_pots(one_pot(66, 1, 2), shown, board, OMAHA_HIGH, OMAHA_LOW, (1, 2), TDA_2017)

    assert awards == (
        PotAwarded(
            0,
            66,
            (1, 2),
            (PotShare(1, 33), PotShare(2, 33)),
            "",
            "straight, six high (high) and 6-5-4-3-2 low (low)",
        ),
    )


def test_tv_44_halving_first_is_the_method_the_example_forbids_and_a_rulebook_may_still_choose() -> None:
    rulebook = replace(TDA_2017, hi_lo_same_winners_split_whole=False)
    board = parse_cards("4h5d6cKsQd")
    shown = hands(s1="2s3sJhJd", s2="2c3cTh9s")

    awards, _ = award_pots(one_pot(66, 1, 2), shown, board, OMAHA_HIGH, OMAHA_LOW, (1, 2), rulebook)

    assert won(awards) == {1: 34, 2: 32}


def test_tv_45_identical_stud_hi_lo_hands_split_66_chips_33_33() -> None:
    """TDA 2017 D-19 D (TV-45): 2-3-4-5-6 both ways, A's six of spades does not earn him the odd chips."""
    shown = hands(s1="6s5h4d3c2sKdQh", s2="6c5d4h3s2cKcJd")

    awards, _ = award_pots(one_pot(66, 1, 2), shown, (), HIGH, STUD_LOW, (2, 1), TDA_2017, button_game=False)

    assert won(awards) == {1: 33, 2: 33}


def test_tv_45_halving_first_would_give_both_odd_chips_to_the_six_of_spades() -> None:
    """The "incorrect method" of TV-44/45, reachable only by a rulebook that halves first: 34/32."""
    rulebook = replace(TDA_2017, hi_lo_same_winners_split_whole=False)
    shown = hands(s1="6s5h4d3c2sKdQh", s2="6c5d4h3s2cKcJd")

    awards, _ = award_pots(one_pot(66, 1, 2), shown, (), HIGH, STUD_LOW, (2, 1), rulebook, button_game=False)

    assert won(awards) == {1: 34, 2: 32}
    assert awards[0].odd_chip == "odd chip to seat 1, highest card by suit (6s, 6c) (tda-2017 D-19)"


# --- unknown cards: never guessed ---------------------------------------------------------------------------------


def test_a_pot_that_unknown_hole_cards_would_decide_is_left_undetermined() -> None:
    awards, undetermined = award_pots(
        one_pot(600, 1, 2), hands(s1="AsAd", s2="????"), BOARD, HIGH, None, (1, 2), BFSP
    )

    assert awards == ()
    assert undetermined


def test_a_board_card_nobody_saw_leaves_a_contested_pot_undetermined() -> None:
    board = parse_cards("2c7d9hJs??")
    awards, undetermined = award_pots(
        one_pot(600, 1, 2), hands(s1="AsAd", s2="KhKd"), board, HIGH, None, (1, 2), BFSP
    )

    assert (awards, undetermined) == ((), True)


def test_only_the_pots_the_unknown_cards_touch_are_undetermined() -> None:
    """Seat 1 (all-in, cards unknown) contests only the main pot; the side pot between 2 and 3 is decided."""
    pots = build_pots({1: 100, 2: 500, 3: 500}, folded=())
    shown = hands(s1="Ah??", s2="KhKd", s3="QhQd")

    awards, undetermined = award_pots(pots, shown, BOARD, HIGH, None, (1, 2, 3), BFSP)

    assert awards == (PotAwarded(1, 800, (2, 3), (PotShare(2, 800),), "", "pair of kings"),)
    assert undetermined


def test_a_pot_nobody_eligible_still_contests_asks_for_a_ruling() -> None:
    pots = build_pots({1: 100, 2: 500, 3: 500}, folded=())
    with pytest.raises(RulingRequired, match="side pot 1"):
        award_pots(pots, hands(s1="AsAd"), BOARD, HIGH, None, (1, 2, 3), BFSP)


def test_a_showdown_without_a_way_to_rank_hands_is_a_caller_error() -> None:
    with pytest.raises(ValueError, match="rank"):
        award_pots(one_pot(100, 1, 2), hands(s1="AsAd", s2="KsKd"), BOARD, None, None, (1, 2), BFSP)


def test_a_contender_missing_from_the_order_around_the_table_is_a_caller_error() -> None:
    with pytest.raises(ValueError, match="order around the table"):
        award_pots(one_pot(100, 1, 2), hands(s1="AsAd", s2="KsKd"), BOARD, HIGH, None, (1,), BFSP)


# --- properties ----------------------------------------------------------------------------------------------------

#: pots, the cards of the seats still contesting, the board, the seats clockwise from the button
Showdown = tuple[tuple[Pot, ...], dict[int, tuple[MaybeCard, ...]], tuple[MaybeCard, ...], tuple[int, ...]]


@st.composite
def showdowns(draw: st.DrawFn, hole_count: int) -> Showdown:
    seats = draw(st.lists(st.integers(1, 10), min_size=2, max_size=8, unique=True))
    contributions = {seat: draw(st.integers(1, 2000)) for seat in seats}
    folded = set(draw(st.lists(st.sampled_from(seats), max_size=len(seats) - 1, unique=True)))
    live = [seat for seat in seats if seat not in folded]
    deck = draw(st.permutations(standard_deck()))
    shown: dict[int, tuple[MaybeCard, ...]] = {
        seat: tuple(deck[i * hole_count : (i + 1) * hole_count]) for i, seat in enumerate(live)
    }
    mucked = draw(st.lists(st.sampled_from(live), max_size=len(live) - 1, unique=True))
    for seat in mucked:
        del shown[seat]
    board: tuple[MaybeCard, ...] = tuple(deck[-5:])
    pots = tuple(
        pot for pot in build_pots(contributions, folded) if any(seat in shown for seat in pot.eligible)
    )
    order = tuple(draw(st.permutations(seats)))
    return pots, shown, board, order


def assert_every_pot_is_paid_in_full_to_its_contenders(
    pots: tuple[Pot, ...], shown: dict[int, tuple[MaybeCard, ...]], awards: tuple[PotAwarded, ...]
) -> None:
    for index, pot in enumerate(pots):
        paid = [share for award in awards if award.pot_index == index for share in award.shares]
        assert sum(share.amount for share in paid) == pot.amount
        assert all(share.seat in pot.eligible and share.seat in shown and share.amount >= 0 for share in paid)


@settings(max_examples=200, deadline=None)
@given(showdowns(hole_count=2), st.integers(1, 5))
def test_every_holdem_pot_is_paid_in_full_to_seats_that_could_win_it(
    showdown: Showdown,
    chip_unit: int,
) -> None:
    pots, shown, board, order = showdown
    pots = tuple(Pot(pot.amount * chip_unit, pot.eligible, pot.contributors) for pot in pots)

    awards, undetermined = award_pots(pots, shown, board, HIGH, None, order, BFSP, chip_unit)

    assert not undetermined
    assert_every_pot_is_paid_in_full_to_its_contenders(pots, shown, awards)
    assert all(share.amount % chip_unit == 0 for award in awards for share in award.shares)


@settings(max_examples=200, deadline=None)
@given(showdowns(hole_count=4))
def test_every_omaha_hi_lo_pot_is_paid_in_full_and_each_half_to_its_own_winners(
    showdown: Showdown,
) -> None:
    pots, shown, board, order = showdown

    awards, undetermined = award_pots(pots, shown, board, OMAHA_HIGH, OMAHA_LOW, order, TDA_2022)

    assert not undetermined
    assert_every_pot_is_paid_in_full_to_its_contenders(pots, shown, awards)
    for award in awards:
        assert sum(share.amount for share in award.shares) == award.amount
        assert max(share.amount for share in award.shares) - min(share.amount for share in award.shares) <= 1


@settings(max_examples=100, deadline=None)
@given(showdowns(hole_count=2), st.data())
def test_hiding_a_contenders_card_leaves_exactly_the_pots_he_contests_with_others_undetermined(
    showdown: Showdown,
    data: st.DataObject,
) -> None:
    pots, shown, board, order = showdown
    hidden = data.draw(st.sampled_from(sorted(shown)))
    shown = {**shown, hidden: (None, shown[hidden][1])}

    awards, undetermined = award_pots(pots, shown, board, HIGH, None, order, BFSP)

    touched = {
        i
        for i, pot in enumerate(pots)
        if hidden in pot.eligible and sum(s in shown for s in pot.eligible) > 1
    }
    assert {award.pot_index for award in awards} == set(range(len(pots))) - touched
    assert undetermined == bool(touched)


# --- against PokerKit 0.7.7, with the rulebook set to PokerKit's conventions ------------------------------------

#: PokerKit gives every odd chip of a split to the first winner in seat order, the odd chip between halves to
#: the high hand, and always halves a hi-lo pot first.
POKERKIT_CONVENTIONS = replace(
    BFSP,
    multiway_odd_chips=MultiwayOddChips.ALL_TO_FIRST,
    odd_chip_to_high_half=True,
    hi_lo_same_winners_split_whole=False,
)
POKERKIT_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


@dataclass
class PlayedHand:
    """What a PokerKit hand looked like at its showdown (seat = player index + 1) and how it ended."""

    contributions: dict[int, int]
    folded: set[int]
    shown: dict[int, tuple[MaybeCard, ...]]
    board: tuple[MaybeCard, ...]
    final_stacks: list[int]


def ours(cards: Iterable[object]) -> tuple[MaybeCard, ...]:
    return parse_cards("".join(repr(card) for card in cards))


def at_showdown(state: State) -> PlayedHand:
    stacks = zip(state.starting_stacks, state.stacks, strict=True)
    return PlayedHand(
        {i + 1: start - now for i, (start, now) in enumerate(stacks)},
        {i + 1 for i, live in enumerate(state.statuses) if not live},
        {i + 1: ours(state.hole_cards[i]) for i, live in enumerate(state.statuses) if live},
        (),
        [],
    )


def play_out(state: State, choices: st.DataObject) -> PlayedHand | None:
    """Play to the showdown, table every live hand, finish; None when nobody had to show."""
    seen: PlayedHand | None = None
    while state.status:
        if state.can_show_or_muck_hole_cards():
            seen = seen or at_showdown(state)
            state.show_or_muck_hole_cards(True)
        else:
            act(state, choices)
    if seen is not None:
        seen.board = ours(card for street in state.board_cards for card in street)
        seen.final_stacks = list(state.stacks)
    return seen


def our_final_stacks(
    hand: PlayedHand, starting: list[int], high: EvaluationKind, low: EvaluationKind | None
) -> list[int]:
    """The stacks after our awards. PokerKit kills every tabled hand that wins nothing before it pushes the
    chips, so pots whose contestants then coincide are split as one there, where TDA 2022 21 splits each pot
    on its own; to compare, those hands are mucked here too and the pots built again."""
    order = tuple(range(1, len(starting) + 1))
    pots = build_pots(hand.contributions, hand.folded)
    awards, _ = award_pots(pots, hand.shown, hand.board, high, low, order, POKERKIT_CONVENTIONS)
    losers = set(hand.shown) - set(won(awards))
    pots = build_pots(hand.contributions, hand.folded | losers)
    shown = {seat: cards for seat, cards in hand.shown.items() if seat not in losers}
    assume(low is None or not splits_a_pot_without_a_low(pots, shown, hand.board, low))
    awards, undetermined = award_pots(pots, shown, hand.board, high, low, order, POKERKIT_CONVENTIONS)
    assert not undetermined
    paid = won(awards)
    return [starting[i] - hand.contributions[i + 1] + paid.get(i + 1, 0) for i in range(len(starting))]


def splits_a_pot_without_a_low(
    pots: tuple[Pot, ...],
    shown: dict[int, tuple[MaybeCard, ...]],
    board: tuple[MaybeCard, ...],
    low: EvaluationKind,
) -> bool:
    """PokerKit halves every pot once any tabled hand makes a low, and shares the low half of a pot none of
    whose players has one among them all; the rules give such a pot to the high hand (here it scoops)."""
    known = [card for card in board if card is not None]
    lows = {
        seat for seat, cards in shown.items() if evaluate(low, [c for c in cards if c], known) is not None
    }
    return bool(lows) and any(not lows & set(pot.eligible) for pot in pots)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 300), min_size=2, max_size=9), st.data())
def test_no_limit_holdem_showdowns_end_with_the_same_stacks_as_pokerkit(
    stacks: list[int], data: st.DataObject
) -> None:
    state = NoLimitTexasHoldem.create_state(
        POKERKIT_AUTOMATIONS, True, 1, (1, 2), 2, tuple(stacks), len(stacks)
    )
    hand = play_out(state, data)
    assume(hand is not None)
    assert hand is not None

    assert our_final_stacks(hand, stacks, HIGH, None) == hand.final_stacks


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 60), min_size=2, max_size=6), st.data())
def test_omaha_hi_lo_showdowns_end_with_the_same_stacks_as_pokerkit(
    stacks: list[int], data: st.DataObject
) -> None:
    state = FixedLimitOmahaHoldemHighLowSplitEightOrBetter.create_state(
        POKERKIT_AUTOMATIONS, True, 0, (1, 2), 2, 4, tuple(stacks), len(stacks)
    )
    hand = play_out(state, data)
    assume(hand is not None)
    assert hand is not None

    assert our_final_stacks(hand, stacks, OMAHA_HIGH, OMAHA_LOW) == hand.final_stacks
