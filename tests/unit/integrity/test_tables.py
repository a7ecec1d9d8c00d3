"""The tables filled array-wise ahead of counting hold what the lazy tables would compute for the same rank
multiset: the standard ranking's strength (``HighRules._best_of_ranks``) and the buckets' category."""

from __future__ import annotations

import numpy as np
import pytest

from domain.evaluation.encoding import ranks_of_key
from domain.evaluation.high import STANDARD, Category, HighRules
from domain.integrity.strength import buckets_on
from projections.integrity import tables

pytestmark = pytest.mark.unit


def lazy_strength(key: int) -> int:
    best: int = HighRules._best_of_ranks(STANDARD, ranks_of_key(key))  # what the lazy table computes
    return best


def test_every_multiset_of_five_to_seven_ranks_is_there_once() -> None:
    counts = tables.rank_counts()
    assert len(counts) == 73_775  # multisets of 5, 6 and 7 of 13 ranks, none more than four times
    assert set(counts.sum(axis=1).tolist()) == {5, 6, 7}
    assert counts.max() <= 4
    assert len(set(tables.keys_of(counts).tolist())) == len(counts)


@pytest.mark.parametrize("cards", [5, 6, 7])
def test_the_strengths_filled_are_the_lazy_table_s_own(cards: int) -> None:
    counts = tables.rank_counts((cards,))
    # every multiset of five and six cards, every third of seven (16,796 of 50,388)
    counts = counts if cards < 7 else counts[::3]
    keys, values = tables.keys_of(counts).tolist(), tables.strengths(counts).tolist()
    wrong = [(ranks_of_key(k), v, lazy_strength(k)) for k, v in zip(keys, values, strict=True) if v != lazy_strength(k)]
    assert not wrong, wrong[:5]


def test_hands_made_on_purpose() -> None:
    made = {  # ranks → (category, ranks as pack_ranks orders them)
        (14, 14, 14, 14, 13, 13, 13): (7, [14, 13]),  # quads beside trips: the kicker is the trips' rank
        (10, 10, 10, 9, 9, 9, 2): (6, [10, 9]),  # two trips: a full house of the higher over the lower
        (14, 5, 4, 3, 2, 2, 2): (4, [5]),  # the wheel beats the trips
        (9, 9, 8, 8, 7, 7, 14): (2, [9, 8, 14]),  # three pairs: the third pair's rank loses to the ace kicker
        (14, 13, 12, 11, 9, 3, 2): (0, [14, 13, 12, 11, 9]),
    }
    for ranks, (category, top) in made.items():
        counts = np.zeros((1, 15), dtype=np.int64)
        for r in ranks:
            counts[0, r] += 1
        value = int(tables.strengths(counts)[0])
        assert value == STANDARD.strength(Category(category), top) == lazy_strength(int(tables.keys_of(counts)[0]))


def test_filling_changes_no_bucket() -> None:
    from domain.cards import Card, parse_cards

    def cards(text: str) -> tuple[Card, ...]:
        return tuple(c for c in parse_cards(text) if c is not None)

    holes = [cards(h) for h in ("AsAh", "7c2d", "KsQs", "Tc9c", "5c5d")]
    boards = [cards(b) for b in ("5h4c3d", "Ah5h9hKc", "QcQdQh7s7d", "Ts9s8s", "2c3c4c5c6c")]
    before = [buckets_on(holes, b) for b in boards]
    tables.fill()
    assert [buckets_on(holes, b) for b in boards] == before
    assert set(tables.keys_of(tables.rank_counts()).tolist()) <= STANDARD.by_ranks.keys()
