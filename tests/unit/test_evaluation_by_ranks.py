"""``HighRules._best_of_ranks`` (what ``by_ranks`` computes for a rank multiset met first) worked out from the
ranks' counts in one pass (issue 17) gives what the candidates' first reading gave: that reading is kept here, as
it was written, and the two are compared on every multiset of five and six ranks and on seven, eight and nine
(a rank at most four times, as in a deck), under the standard ranking, the short deck's and deuce-to-seven's."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations_with_replacement

import pytest

from domain.evaluation.encoding import POW5, grouped, ranks_of_key
from domain.evaluation.high import NO_WHEEL, SHORT_DECK, STANDARD, Category, HighRules

pytestmark = pytest.mark.unit


def first_reading(rules: HighRules, ranks: list[int]) -> int:
    """The candidates as ``_best_of_ranks`` first read them (high.py before issue 17's change)."""
    groups = grouped(ranks)
    distinct = sorted({r for _, r in groups}, reverse=True)
    pairs = sorted((r for n, r in groups if n >= 2), reverse=True)
    trips = sorted((r for n, r in groups if n >= 3), reverse=True)
    candidates: list[int] = []

    def others(*used: int) -> list[int]:
        return [r for r in distinct if r not in used]

    if len(distinct) >= 5:
        candidates.append(rules.strength(Category.HIGH_CARD, distinct[:5]))
        high = rules.straight_high(sum(1 << r for r in distinct))
        if high:
            candidates.append(rules.strength(Category.STRAIGHT, (high,)))
    if pairs and len(others(pairs[0])) >= 3:
        candidates.append(rules.strength(Category.PAIR, [pairs[0], *others(pairs[0])[:3]]))
    if len(pairs) >= 2 and others(pairs[0], pairs[1]):
        kicker = others(pairs[0], pairs[1])[0]
        candidates.append(rules.strength(Category.TWO_PAIR, [pairs[0], pairs[1], kicker]))
    if trips and len(others(trips[0])) >= 2:
        candidates.append(rules.strength(Category.THREE_OF_A_KIND, [trips[0], *others(trips[0])[:2]]))
    if trips and [p for p in pairs if p != trips[0]]:
        pair = [p for p in pairs if p != trips[0]][0]
        candidates.append(rules.strength(Category.FULL_HOUSE, [trips[0], pair]))
    quads = [r for n, r in groups if n >= 4]
    if quads and others(quads[0]):
        candidates.append(rules.strength(Category.FOUR_OF_A_KIND, [quads[0], others(quads[0])[0]]))
    return max(candidates)


def multisets(size: int, lowest: int) -> Iterator[list[int]]:
    """Every multiset of ``size`` ranks from ``lowest`` to the ace, none more than four times, highest first."""
    for combo in combinations_with_replacement(range(14, lowest - 1, -1), size):
        if all(combo.count(r) <= 4 for r in set(combo)):
            yield list(combo)


RULES = {"standard": (STANDARD, 2), "short deck": (SHORT_DECK, 6), "deuce to seven": (NO_WHEEL, 2)}


@pytest.mark.parametrize("name", list(RULES))
def test_every_multiset_of_five_and_six_ranks_reads_as_before(name: str) -> None:
    rules, lowest = RULES[name]
    seen = 0
    for size in (5, 6):
        for ranks in multisets(size, lowest):
            assert rules._best_of_ranks(ranks) == first_reading(rules, ranks), ranks
            seen += 1
    assert seen > (2_000 if lowest == 6 else 8_000)


@pytest.mark.parametrize("name", list(RULES))
def test_seven_to_nine_ranks_read_as_before(name: str) -> None:
    rules, lowest = RULES[name]
    random_ = random.Random(17)
    deck = [r for r in range(lowest, 15) for _ in range(4)]
    for size in (7, 8, 9):
        for _ in range(3_000):
            ranks = sorted(random_.sample(deck, size), reverse=True)
            assert rules._best_of_ranks(ranks) == first_reading(rules, ranks), ranks
            # in any order, as the table's key gives them or not
            shuffled = random_.sample(ranks, size)
            assert rules._best_of_ranks(shuffled) == first_reading(rules, shuffled), shuffled


def test_the_table_reads_a_key_as_its_ranks() -> None:
    ranks = [14, 14, 13, 13, 9, 9, 2]  # three pairs: the two highest, and the third's nine as the kicker
    key = sum(POW5[r] for r in ranks)
    assert ranks_of_key(key) == ranks
    assert STANDARD.by_ranks[key] == first_reading(STANDARD, ranks) == STANDARD.strength(Category.TWO_PAIR, [14, 13, 9])
