"""OFC rows (bfsp 8): every royalty of the three tables, the foul rule and the fantasy conditions, each with a
hand worked out by hand."""

from __future__ import annotations

import pytest

from domain.cards import Card, parse_cards
from domain.ofc.rows import (
    Row,
    foul_of,
    repeats_fantasy,
    royalty,
    three_card_strength,
    top_enters_fantasy,
)

pytestmark = pytest.mark.unit


def cards(text: str) -> tuple[Card, ...]:
    parsed = parse_cards(text.replace(" ", ""))
    assert all(c is not None for c in parsed)
    return tuple(c for c in parsed if c is not None)


BOTTOM = [
    ("AsAdKcKd2h", 0, "two pair"),
    ("7s7d7c3h2d", 0, "trips: no bottom royalty"),
    ("9c8d7h6s5c", 2, "straight"),
    ("5d4c3h2sAd", 2, "the wheel is a straight"),
    ("Ah9h7h4h2h", 4, "flush"),
    ("8s8d8c4h4d", 6, "full house"),
    ("JsJdJcJh2d", 10, "quads"),
    ("9s8s7s6s5s", 15, "straight flush"),
    ("5h4h3h2hAh", 15, "steel wheel: a five-high straight flush"),
    ("AsKsQsJsTs", 25, "royal flush"),
]

MIDDLE = [
    ("AsAdKcKd2h", 0, "two pair"),
    ("7s7d7c3h2d", 2, "set"),
    ("9c8d7h6s5c", 4, "straight"),
    ("Ah9h7h4h2h", 8, "flush"),
    ("8s8d8c4h4d", 12, "full house"),
    ("JsJdJcJh2d", 20, "quads"),
    ("9s8s7s6s5s", 30, "straight flush"),
    ("AdKdQdJdTd", 50, "royal flush"),
]

TOP = [
    ("AsKdQc", 0),
    ("5s5d4c", 0),
    ("6s6dAc", 1),
    ("7s7d2c", 2),
    ("8s8d2c", 3),
    ("9s9d2c", 4),
    ("TsTd2c", 5),
    ("JsJd2c", 6),
    ("QsQd2c", 7),
    ("KsKd2c", 8),
    ("AsAd2c", 9),
    ("2s2d2c", 10),
    ("3s3d3c", 11),
    ("4s4d4c", 12),
    ("5s5d5c", 13),
    ("6s6d6c", 14),
    ("7s7d7c", 15),
    ("8s8d8c", 16),
    ("9s9d9c", 17),
    ("TsTdTc", 18),
    ("JsJdJc", 19),
    ("QsQdQc", 20),
    ("KsKdKc", 21),
    ("AsAdAc", 22),
]


@pytest.mark.parametrize(("row", "points", "what"), BOTTOM)
def test_bottom_royalties_as_bfsp_8_gives_them(row: str, points: int, what: str) -> None:
    assert royalty(Row.BOTTOM, cards(row)) == points, what


@pytest.mark.parametrize(("row", "points", "what"), MIDDLE)
def test_middle_royalties_as_bfsp_8_gives_them(row: str, points: int, what: str) -> None:
    assert royalty(Row.MIDDLE, cards(row)) == points, what


@pytest.mark.parametrize(("row", "points"), TOP)
def test_top_royalties_pairs_from_sixes_and_every_trips(row: str, points: int) -> None:
    assert royalty(Row.TOP, cards(row)) == points


def test_bottom_greater_than_middle_greater_than_top_is_alive() -> None:
    # flush ≥ pair of kings ≥ pair of queens
    assert foul_of(cards("AhJh8h5h2h"), cards("KsKd9c7d3s"), cards("QcQd4c")) is None


def test_a_bottom_weaker_than_the_middle_fouls() -> None:
    foul = foul_of(cards("7s7d4c3h2d"), cards("9s9dAcKhQs"), cards("2c3c4d"))
    assert foul is not None and (foul.weaker, foul.stronger) == (Row.BOTTOM, Row.MIDDLE)


def test_a_top_pair_with_a_better_kicker_than_the_middle_pair_fouls() -> None:
    # Q-Q-5 on top against Q-Q-4-3-2 in the middle: queens each, then 5 beats 4
    foul = foul_of(cards("AsAdKcKd2h"), cards("QsQd4c3h2s"), cards("QcQh5c"))
    assert foul is not None and (foul.weaker, foul.stronger) == (Row.MIDDLE, Row.TOP)


def test_a_top_pair_whose_kicker_the_middle_matches_is_not_a_foul() -> None:
    # Q-Q-5 against Q-Q-5-4-3: queens, fives, then the middle has more cards: middle ≥ top
    assert foul_of(cards("AsAdKcKd2h"), cards("QsQd5h4c3h"), cards("QcQh5c")) is None


def test_high_card_rows_compare_card_by_card() -> None:
    assert foul_of(cards("AsAdKcKd2h"), cards("AhKsQd3c2s"), cards("AcKhQs")) is None
    foul = foul_of(cards("AsAdKcKd2h"), cards("AhKsJd3c2s"), cards("AcKhQs"))
    assert foul is not None and foul.weaker is Row.MIDDLE


def test_equal_rows_tie_whatever_the_suits_and_do_not_foul() -> None:
    assert foul_of(cards("AsKsQdJd9c"), cards("AhKhQcJc9d"), cards("2c3c4d")) is None


def test_trips_on_top_need_better_than_trips_below() -> None:
    assert foul_of(cards("9c8d7h6s5c"), cards("4s4d4hAcKd"), cards("2s2d2c")) is None
    foul = foul_of(cards("9c8d7h6s5c"), cards("2s2d2hAcKd"), cards("4s4d4c"))
    assert foul is not None and foul.weaker is Row.MIDDLE


def test_fantasy_takes_queens_or_better_on_top() -> None:
    assert top_enters_fantasy(cards("QsQd2c"))
    assert top_enters_fantasy(cards("AsAdKc"))
    assert top_enters_fantasy(cards("2s2d2c"))
    assert not top_enters_fantasy(cards("JsJdAc"))
    assert not top_enters_fantasy(cards("AsKdQc"))


def test_repeat_fantasy_takes_trips_on_top_or_quads_or_better_on_the_bottom() -> None:
    assert repeats_fantasy(cards("AhJh8h5h2h"), cards("3s3d3c"))
    assert repeats_fantasy(cards("JsJdJcJh2d"), cards("QsQd2c"))
    assert repeats_fantasy(cards("9s8s7s6s5s"), cards("2s3d4c"))
    assert not repeats_fantasy(cards("8s8d8c4h4d"), cards("AsAd2c"))


def test_the_top_row_ranks_trips_then_pairs_by_kicker_then_high_cards() -> None:
    order = ["2s3d5c", "AsKdQc", "2s2dAc", "3s3d2c", "3s3d4c", "AsAdKc", "2s2d2c", "AsAdAc"]
    strengths = [three_card_strength(cards(t)) for t in order]
    assert strengths == sorted(strengths) and len(set(strengths)) == len(strengths)
