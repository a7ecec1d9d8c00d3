"""Worked examples of the showdown (TDA 2022 16, 17, 19, 20; TDA 2017 D-15, D-16) played through the engine: the
hand's events through ``HandState``, the tabling, the order of showing, the pots and the odd chip as it awards them.

Ids are the TV ids of ../shared/rules; docs/WORKED_EXAMPLES.md lists every id and its test.
"""

from __future__ import annotations

import pytest
from hand_table import B, C, F, R, Table, X, start

from domain.cards import parse_cards
from domain.hand.events import ActionKind, CardBurned, HandMucked, HandShown, HoleCardsDealt, PotAwarded
from domain.hand.legal import NextActKind
from domain.rulebooks import get_rulebook

pytestmark = pytest.mark.unit

TDA = get_rulebook("tda-2022")


def awards(table: Table) -> list[tuple[int, int, tuple[int, ...]]]:
    """(pot, amount, winners) in the order the engine awarded them."""
    return [
        (p.pot_index, p.amount, tuple(s.seat for s in p.shares)) for p in table.derived if isinstance(p, PotAwarded)
    ]


def show(table: Table, seat: int, cards: str) -> None:
    table.apply(HandShown(seat, parse_cards(cards)))


@pytest.mark.parametrize("tv", ["TV-82", "2017/TV-39"])
def test_heads_up_all_in_on_the_turn_both_table_at_once_and_one_pot_is_awarded_on_the_river(tv: str) -> None:
    t = start(stacks=(1000, 3000), button=2, rulebook=TDA).post().deal(s1="AsAd", s2="KsKd")
    t.acts((2, C), (1, X))
    t.board("2c7h9d")
    t.acts((1, X), (2, X))
    t.board("Tc")
    t.acts((1, B, 900), (2, C))  # A, the shorter stack, all in; B calls
    assert t.state.expected_next().kind is NextActKind.DEAL_BOARD
    show(t, 1, "AsAd")  # tabled now, before the river (TDA 2022 16)
    show(t, 2, "KsKd")
    t.board("3h")
    assert awards(t) == [(0, 2000, (1,))]
    assert t.state.final_stacks() == {1: 2000, 2: 2000}


@pytest.mark.parametrize("tv", ["TV-83", "2017/TV-40"])
def test_two_all_ins_the_side_pot_is_decided_before_the_main_pot(tv: str) -> None:
    t = start(stacks=(300, 2000, 3000), rulebook=TDA).post().deal(s1="AsAd", s2="KsKd", s3="QsQd")
    t.acts((3, C), (1, R, 300), (2, C), (3, C))  # A all in pre-flop; B and C call
    t.board("2c7h9d")
    t.acts((2, X), (3, X))
    t.board("Tc")
    t.acts((2, B, 1700), (3, C))  # B all in on the turn; C calls: now all three table
    for seat, cards in ((1, "AsAd"), (2, "KsKd"), (3, "QsQd")):
        show(t, seat, cards)
    t.board("3h")
    assert awards(t) == [(1, 3400, (2,)), (0, 900, (1,))]  # the side pot (B, C) first


@pytest.mark.parametrize("tv", ["TV-84", "2017/TV-41"])
def test_tabled_after_the_river_the_side_pot_of_2000_goes_first_then_the_main_pot_of_2100(tv: str) -> None:
    t = start(stacks=(10_000, 10_000, 700, 10_000), blinds=(50, 100), rulebook=TDA).post()
    t.deal(s1="2c2d", s2="QsQd", s3="AsAd", s4="KsKd")
    t.acts((3, R, 700), (4, C), (1, F), (2, C))  # A (seat 3) all in for 700; B (4) and C (2) call; the SB folds
    t.board("Jh8c4d")
    t.acts((2, X), (4, X))
    t.board("5s")
    t.acts((2, X), (4, B, 1000), (2, C))
    t.board("9h")
    t.acts((2, X), (4, X))
    assert t.state.expected_next().kind is NextActKind.SHOWDOWN
    for seat, cards in ((3, "AsAd"), (4, "KsKd"), (2, "QsQd")):
        show(t, seat, cards)
    assert awards(t) == [(1, 2000, (4,)), (0, 2150, (3,))]  # 3 × 700 and the folded small blind's 50 (dead)


def river(bet: bool) -> Table:
    t = start(stacks=(1000, 1000, 1000), rulebook=TDA).post().deal(s1="AsKd", s2="QsQd", s3="7c2h")
    t.acts((3, C), (1, C), (2, X))
    for cards in ("Ah9c4d", "Tc"):
        t.board(cards)
        t.acts((1, X), (2, X), (3, X))
    t.board("3h")
    t.acts(*(((1, X), (2, B, 200), (3, C), (1, C)) if bet else ((1, X), (2, X), (3, X))))
    return t


@pytest.mark.parametrize("tv", ["TV-85"])
def test_after_a_river_bet_the_last_aggressor_shows_first(tv: str) -> None:
    assert river(bet=True).state.showdown_order() == (2, 3, 1)


@pytest.mark.parametrize("tv", ["TV-86"])
def test_with_no_river_bet_the_first_live_seat_left_of_the_button_shows_first(tv: str) -> None:
    assert river(bet=False).state.showdown_order() == (1, 2, 3)


@pytest.mark.parametrize("tv", ["TV-87"])
def test_when_all_but_one_muck_unshown_the_last_live_hand_wins_without_showing(tv: str) -> None:
    t = river(bet=True)
    t.apply(HandMucked(3))
    t.apply(HandMucked(1))
    assert awards(t) == [(0, 900, (2,))] and t.state.shown == set()


@pytest.mark.parametrize("tv", ["TV-90"])
def test_when_the_board_plays_every_hand_tabled_shares_the_pot(tv: str) -> None:
    t = start(stacks=(1000, 1000, 1000), rulebook=TDA).post().deal(s1="2c3d", s2="2d3c", s3="4h5s")
    t.acts((3, C), (1, C), (2, X))
    for cards in ("AhKhQh", "Jh", "Th"):
        t.board(cards)
        t.acts((1, X), (2, X), (3, X))
    show(t, 1, "2c3d")
    show(t, 2, "2d3c")
    show(t, 3, "4h5s")  # a royal flush on the board: all three share
    assert awards(t) == [(0, 300, (1, 2, 3))]


@pytest.mark.parametrize("tv", ["TV-91"])
def test_in_a_flop_game_the_odd_chip_goes_to_the_first_winner_left_of_the_button(tv: str) -> None:
    t = start(stacks=(1000, 1000, 1000), blinds=(5, 10), rulebook=TDA).post().deal(s2="9s8s", s3="2d3c")
    t.acts((3, C), (1, F), (2, X))  # 25 in the pot: the small blind's 5 and two 10s
    for cards in ("AhKhQc", "Jd", "Ts"):
        t.board(cards)
        t.acts((2, X), (3, X))
    show(t, 2, "9s8s")
    show(t, 3, "2d3c")  # the board's straight: a tie, and one odd chip
    (award,) = [p for p in t.derived if isinstance(p, PotAwarded)]
    assert [(s.seat, s.amount) for s in award.shares] == [(2, 13), (3, 12)]  # seat 2 is first left of the button


@pytest.mark.parametrize("tv", ["TV-93"])
def test_a_hi_lo_split_gives_the_odd_chip_to_the_high_half(tv: str) -> None:
    t = start("PO/8", stacks=(1000, 1000, 1000), blinds=(1, 2), rulebook=TDA).post()
    t.deal(s2="As4c9h9d", s3="KhKcJsJd")
    t.acts((3, C), (1, F), (2, X))  # 5 in the pot: the folded small blind's 1 and two 2s
    for cards in ("2c3d7h", "Ks", "Qd"):
        t.board(cards)
        t.acts((2, X), (3, X))
    show(t, 2, "As4c9h9d")  # the low: 7-4-3-2-A
    show(t, 3, "KhKcJsJd")  # the high: three kings, and no low
    won = {(p.half, s.seat): s.amount for p in t.derived if isinstance(p, PotAwarded) for s in p.shares}
    assert won == {("high", 3): 3, ("low", 2): 2}


@pytest.mark.parametrize("tv", ["2017/TV-44"])
def test_identical_omaha_hi_lo_hands_split_the_whole_pot_evenly_not_each_half(tv: str) -> None:
    t = start("PO/8", stacks=(1000, 1000), button=2, blinds=(1, 2), rulebook=get_rulebook("tda-2017")).post()
    t.deal(s1="As5cJhTd", s2="Ad5hJsTc")
    t.acts((2, C), (1, X))  # 4
    t.board("2c3d4h")
    t.acts((1, B, 4), (2, C))  # 12
    t.board("Ks")
    t.acts((1, B, 12), (2, C))  # 36
    t.board("Qd")
    t.acts((1, B, 15), (2, C))  # 66
    show(t, 1, "As5cJhTd")
    show(t, 2, "Ad5hJsTc")  # the same wheel high and the same wheel low
    assert t.state.final_stacks() == {1: 1000, 2: 1000}  # 33 / 33, never 34 / 32


def _deal_stud(t: Table, cards: dict[int, list[str]]) -> None:
    """Deal what the engine asks for on this street from each seat's queue of cards (unknown once it is empty)."""
    while (nxt := t.state.expected_next()).kind in (NextActKind.DEAL_HOLE, NextActKind.BURN):
        if nxt.kind is NextActKind.BURN:
            t.apply(CardBurned())
            continue
        assert nxt.seat is not None
        queue = cards[nxt.seat]
        dealt = tuple(parse_cards("".join(queue.pop(0) for _ in range(nxt.count))))
        t.apply(HoleCardsDealt(nxt.seat, dealt, nxt.face_up))


@pytest.mark.parametrize("tv", ["TV-92"])
def test_a_stud_tie_gives_the_odd_chip_to_the_highest_card_by_suit(tv: str) -> None:
    t = start("F7S", stacks=(1000, 1000, 1000), antes=[(1, 1), (2, 1), (3, 1)], rulebook=TDA,
              bring_in=2, small_bet=10, big_bet=20).post()  # fmt: skip
    cards = {  # two kings-high straights, one with the king of spades; seat 3 shows the deuce and brings in
        1: ["2d", "3h", "Kh", "Qc", "Jd", "Ts", "9h"],
        2: ["2c", "3d", "Ks", "Qd", "Jc", "Th", "9s"],
        3: ["4c", "5c", "2s", "7d", "8c", "6h", "4d"],
    }
    _deal_stud(t, cards)
    t.acts((3, ActionKind.BRING_IN), (1, C), (2, C))  # 3 in antes and three bring-ins of 2: 9
    _deal_stud(t, cards)
    first = t.state.actor
    assert first in (1, 2)
    other = 3 - first
    t.acts((first, B, 10), *(((3, F), (other, C)) if first == 2 else ((other, C), (3, F))))  # 29: an odd chip
    for _ in range(3):
        _deal_stud(t, cards)
        t.acts((first, X), (other, X))
    show(t, 1, "2d3hKhQcJdTs9h")
    show(t, 2, "2c3dKsQdJcTh9s")
    (award,) = [p for p in t.derived if isinstance(p, PotAwarded)]
    assert {(s.seat, s.amount) for s in award.shares} == {(1, 14), (2, 15)}  # seat 2's K♠ takes the odd chip


@pytest.mark.parametrize("tv", ["2017/TV-45"])
def test_identical_stud_hi_lo_hands_split_66_chips_33_33(tv: str) -> None:
    t = start("F7S/8", stacks=(1000, 1000), antes=[(1, 1), (2, 1)], rulebook=get_rulebook("tda-2017"),
              bring_in=2, small_bet=10, big_bet=20).post()  # fmt: skip
    cards = {  # the same wheel high and the same wheel low, in other suits
        1: ["As", "2c", "3d", "4h", "5s", "9c", "Kd"],
        2: ["Ad", "2h", "3s", "4c", "5d", "9h", "Ks"],
    }
    _deal_stud(t, cards)
    bring_in = t.state.actor
    assert bring_in is not None
    t.acts((bring_in, ActionKind.BRING_IN), (3 - bring_in, C))  # 2 in antes and two 2s: 6
    for bet in (10, 20, 0, 0):  # fourth to seventh street
        _deal_stud(t, cards)
        first = t.state.actor
        assert first is not None
        t.acts(*(((first, B, bet), (3 - first, C)) if bet else ((first, X), (3 - first, X))))
    assert t.state.pot_total() == 66
    show(t, 1, "As2c3d4h5s9cKd")
    show(t, 2, "Ad2h3s4c5d9hKs")
    assert t.state.final_stacks() == {1: 1000, 2: 1000}  # 33 / 33, never 34 / 32
