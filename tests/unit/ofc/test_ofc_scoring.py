"""OFC settlement (bfsp 8, scoring): per pair in the order 1–2, 1–3, 2–3, +1 a row, 6 for a scoop, fouls against
non-fouls, royalties paid by the other player — each worked out by hand."""

from __future__ import annotations

import pytest

from domain.cards import Card, parse_cards
from domain.ofc.scoring import SetHand, settle

pytestmark = pytest.mark.unit


def cards(text: str) -> tuple[Card, ...]:
    return tuple(c for c in parse_cards(text) if c is not None)


def hand(seat: int, position: int, bottom: str, middle: str, top: str) -> SetHand:
    return SetHand(seat, position, cards(bottom), cards(middle), cards(top))


# seat 1: flush (4) / pair of kings / QQ (7): royalties 11, enters fantasy
P1 = hand(1, 1, "AhJh8h5h2h", "KsKd9c7d3s", "QcQd4c")
# seat 2: straight (2) / two pair tens and fours / 99 (4): royalties 6
P2 = hand(2, 2, "9s8d7c6h5s", "TsTc4d4hAs", "9h9d2c")
# seat 3 (the button): pair of threes below a pair of eights: fouled
P3 = hand(3, 3, "3h3dKcJd6c", "8s8cQs7s2s", "AcKh4s")


def test_the_example_hands_use_each_card_once() -> None:
    every = [c for h in (P1, P2, P3) for c in h.bottom + h.middle + h.top]
    assert len(every) == len(set(every)) == 39


def test_three_players_settle_1_2_then_1_3_then_2_3() -> None:
    result = settle([P3, P1, P2])
    assert [(p.first, p.second) for p in result.pairs] == [(1, 2), (1, 3), (2, 3)]
    one_two, one_three, two_three = result.pairs
    # 1–2: bottom flush beats straight (+1), middle kings lose to two pair (-1), top QQ beats 99 (+1): +1 in rows;
    # royalties 11 - 6 = +5; seat 1 takes 6
    assert one_two.rows == (1, -1, 1) and one_two.row_points == 1 and not one_two.scoop
    assert one_two.royalties == 5 and one_two.points == 6
    # 1–3: seat 3 fouled: a scoop's 6, and seat 1's 11 royalties (a dead hand has none): 17
    assert one_three.rows == (1, 1, 1) and one_three.scoop and one_three.points == 17
    # 2–3: 6 + 6 = 12
    assert two_three.points == 12
    assert result.points() == {1: 6 + 17, 2: -6 + 12, 3: -17 - 12}
    assert sum(result.points().values()) == 0


def test_a_fouled_hand_earns_no_royalty() -> None:
    result = settle([P1, P3])
    fouled = next(s for s in result.scores if s.seat == 3)
    assert fouled.fouled and fouled.royalties == (0, 0, 0)
    assert result.points() == {1: 17, 3: -17}


def test_a_scoop_without_a_foul_is_worth_six_plus_the_royalties() -> None:
    # seat 1: full house (6) / flush (8) / KK (8) = 22; seat 2: two pair / pair / high card, no royalties
    winner = hand(1, 1, "8s8d8c4s4d", "Ah9h7h4h2h", "KsKd2c")
    loser = hand(2, 2, "AsAdJcJd2d", "TsTc5d3h6c", "QcJs9d")
    result = settle([winner, loser])
    (pair,) = result.pairs
    assert pair.rows == (1, 1, 1) and pair.scoop and pair.row_points == 6
    assert pair.royalties == 22 and pair.points == 28
    assert result.points() == {1: 28, 2: -28}


def test_the_scoop_is_the_rulebooks_number() -> None:
    winner = hand(1, 1, "8s8d8c4s4d", "Ah9h7h4h2h", "KsKd2c")
    loser = hand(2, 2, "AsAdJcJd2d", "TsTc5d3h6c", "QcJs9d")
    assert settle([winner, loser], scoop_points=3).points() == {1: 25, 2: -25}


def test_tied_rows_score_nothing() -> None:
    # the same ranks in every row, other suits: three ties
    a = hand(1, 1, "AsKsQdJd9c", "8s8d5c4h3h", "7c6d2s")
    b = hand(2, 2, "AhKhQcJc9d", "8h8c5d4s3c", "7d6c2h")
    (pair,) = settle([a, b]).pairs
    assert pair.rows == (0, 0, 0) and pair.points == 0


def test_two_fouled_hands_exchange_nothing() -> None:
    a = hand(1, 1, "3h3dKcJd6c", "8s8cQs7s2s", "AcKh4s")
    b = hand(2, 2, "2h2dKdJc6s", "9s9cQh7h2c", "AdKs4h")
    (pair,) = settle([a, b]).pairs
    assert pair.points == 0 and pair.rows == (0, 0, 0)


def test_rows_split_two_to_one_net_one_point() -> None:
    a = hand(1, 1, "AsAdKcKd2h", "QsQd5h4c3h", "7c6d2s")
    b = hand(2, 2, "JsJdTcTd3s", "KsKh9c8c2c", "8h5d4s")
    (pair,) = settle([a, b]).pairs
    assert pair.rows == (1, -1, -1) and pair.points == -1
