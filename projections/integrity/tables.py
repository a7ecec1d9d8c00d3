"""The evaluation tables integrity's counting reads, filled at once for every multiset of five to seven ranks.

The standard ranking's strength by rank multiset (``STANDARD.by_ranks``: the all-in equities and "the nuts")
and the category the strength buckets read (domain/integrity/strength.py) are tables a process fills lazily,
about 40 µs and 20 µs a multiset it meets first. Counting a field meets most of the 75,000 multisets of five
to seven cards, so each process reading a share of it paid about two seconds to fill them, every process
anew. Here they are worked out array-wise in one pass (about a tenth of a second) before the reading
processes start, which inherit them: the same values (tests/unit/integrity/test_tables.py compares every
multiset with the lazy tables' own), only sooner.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np

from domain.evaluation.encoding import CATEGORY_SHIFT, POW5, RANK_BITS, RANK_SLOTS
from domain.evaluation.high import STANDARD, Category
from domain.integrity.strength import remember_rank_categories

_RANKS = range(14, 1, -1)
#: the standard ranking's straights, best first (A-K-Q-J-T … 6-5-4-3-2, then the wheel A-5-4-3-2)
_STRAIGHTS = [(high, sum(1 << r for r in range(high - 4, high + 1))) for high in range(14, 5, -1)] + [
    (5, (1 << 14) | 0b111100)]


def rank_counts(cards: tuple[int, ...] = (5, 6, 7)) -> np.ndarray:
    """Every multiset of ``cards`` ranks (a rank at most four times) as counts per rank, one row each
    (columns 0–14, ranks 2–14 used)."""
    rows = [combo for n in cards for combo in combinations_with_replacement(range(2, 15), n)]
    flat = np.array([r for combo in rows for r in combo], dtype=np.int64)
    sizes = np.array([len(combo) for combo in rows], dtype=np.int64)
    counts = np.zeros((len(rows), 15), dtype=np.int64)
    np.add.at(counts, (np.repeat(np.arange(len(rows)), sizes), flat), 1)
    kept: np.ndarray = counts[counts.max(axis=1) <= 4]
    return kept


def _top(eligible: np.ndarray, slots: int, *excluded: np.ndarray) -> np.ndarray:
    """Per row, the highest ``slots`` ranks where ``eligible`` (rows × 15) holds, leaving out each row's rank
    in ``excluded``; a missing slot is 0."""
    out = np.zeros((len(eligible), slots), dtype=np.int64)
    filled = np.zeros(len(eligible), dtype=np.int64)
    rows = np.arange(len(eligible))
    for rank in _RANKS:
        take = eligible[:, rank] & (filled < slots)
        for other in excluded:
            take &= other != rank
        out[rows[take], filled[take]] = rank
        filled += take
    return out


def _packed(category: Category, ranks: np.ndarray) -> np.ndarray:
    """``STANDARD.strength(category, ranks)`` row-wise (``pack_ranks``: the first rank most significant)."""
    value = np.full(len(ranks), int(category) << CATEGORY_SHIFT, dtype=np.int64)
    for slot in range(ranks.shape[1]):
        value |= ranks[:, slot] << (RANK_BITS * (RANK_SLOTS - 1 - slot))
    return value


def strengths(counts: np.ndarray) -> np.ndarray:
    """``STANDARD.by_ranks`` of each row of five to seven ranks: the best of its candidates, as
    ``HighRules._best_of_ranks`` makes them (with seven cards or fewer the best category present wins)."""
    distinct, pairs, trips, quads = counts >= 1, counts >= 2, counts >= 3, counts >= 4
    n_distinct, n_pairs = distinct.sum(axis=1), pairs.sum(axis=1)
    best = np.full(len(counts), -1, dtype=np.int64)

    def offer(where: np.ndarray, value: np.ndarray) -> None:
        np.maximum(best, np.where(where, value, -1), out=best)

    # high card: the five highest ranks
    offer(n_distinct >= 5, _packed(Category.HIGH_CARD, _top(distinct, 5)))
    mask = np.zeros(len(counts), dtype=np.int64)
    for rank in _RANKS:
        mask |= distinct[:, rank].astype(np.int64) << rank
    high = np.zeros(len(counts), dtype=np.int64)
    for top, run in reversed(_STRAIGHTS):  # the worst first, so the best straight is written last
        high = np.where(mask & run == run, top, high)
    offer((n_distinct >= 5) & (high > 0), _packed(Category.STRAIGHT, high[:, None]))
    pair = _top(pairs, 2)
    p0, p1 = pair[:, 0], pair[:, 1]
    offer((n_pairs >= 1) & (n_distinct - 1 >= 3), _packed(Category.PAIR, np.column_stack(
        [p0, _top(distinct, 3, p0)])))
    offer((n_pairs >= 2) & (n_distinct - 2 >= 1), _packed(Category.TWO_PAIR, np.column_stack(
        [p0, p1, _top(distinct, 1, p0, p1)])))
    t0 = _top(trips, 1)[:, 0]
    offer((t0 > 0) & (n_distinct - 1 >= 2), _packed(Category.THREE_OF_A_KIND, np.column_stack(
        [t0, _top(distinct, 2, t0)])))
    with_pair = _top(pairs, 1, t0)[:, 0]
    offer((t0 > 0) & (with_pair > 0), _packed(Category.FULL_HOUSE, np.column_stack([t0, with_pair])))
    q0 = _top(quads, 1)[:, 0]
    kicker = _top(distinct, 1, q0)[:, 0]
    offer((q0 > 0) & (kicker > 0), _packed(Category.FOUR_OF_A_KIND, np.column_stack([q0, kicker])))
    return best


def keys_of(counts: np.ndarray) -> np.ndarray:
    """Each row's rank key (the sum of ``POW5[rank]`` over its cards)."""
    keys: np.ndarray = counts @ np.array(POW5[:15], dtype=np.int64)
    return keys


#: whether this process has filled them (once is enough: the tables only grow)
_filled = False


def fill() -> None:
    """Fills the standard ranking's table of rank multisets and the buckets' categories for every multiset of
    five to seven ranks (values already there are the same and stay); once a process."""
    global _filled
    if _filled:
        return
    _filled = True
    counts = rank_counts()
    keys, values = keys_of(counts).tolist(), strengths(counts).tolist()
    table = STANDARD.by_ranks
    for key, value in zip(keys, values, strict=True):
        table.setdefault(key, value)
    remember_rank_categories(zip(keys, (v >> CATEGORY_SHIFT for v in values), strict=True))
