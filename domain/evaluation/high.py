"""High hands: the standard ranking, the short-deck ranking, and the 2-7 reading of it (no wheel).

Each :class:`HighRules` keeps two lazily filled tables: strength by rank multiset (everything but flushes)
and strength by the rank bitmask of one suit (flushes and straight flushes). A hand of n cards costs one
pass over the cards and at most five dictionary lookups; the tables are filled the first time a multiset
or suit pattern is seen, so nothing is computed at import.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations

from domain.cards import Card
from domain.evaluation.encoding import (
    CATEGORY_SHIFT,
    POW5,
    SUIT_INDEX,
    LazyTable,
    pack_ranks,
    ranks_of_key,
)


class Category(IntEnum):
    """Poker combinations, standard order, weakest first (bfsp 4.6.1)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


class HighRules:
    """One way of ranking high hands: which five-card runs are straights and how categories order."""

    def __init__(self, straights: Sequence[tuple[int, frozenset[int]]], order: Sequence[Category]) -> None:
        # (high card named, ranks of the run), best first.
        self._straights = [(high, sum(1 << r for r in run)) for high, run in straights]
        self._ordinal = {category: i for i, category in enumerate(order)}
        self._category = dict(enumerate(order))
        #: Rank multiset (sum of ``POW5[rank]``) → best five cards, flushes aside.
        self.by_ranks = LazyTable(lambda key: self._best_of_ranks(ranks_of_key(key)))
        #: One suit's rank bitmask (five ranks or more) → its best flush or straight flush.
        self.by_suit_mask = LazyTable(self._best_of_suit)

    def strength(self, category: Category, ranks: Sequence[int]) -> int:
        return (self._ordinal[category] << CATEGORY_SHIFT) | pack_ranks(ranks)

    def category_of(self, strength: int) -> Category:
        return self._category[strength >> CATEGORY_SHIFT]

    def straight_high(self, mask: int) -> int:
        """The high card of the best straight in a rank bitmask, or 0."""
        for high, run in self._straights:
            if mask & run == run:
                return high
        return 0

    def _best_of_suit(self, mask: int) -> int:
        high = self.straight_high(mask)
        if high:
            return self.strength(Category.STRAIGHT_FLUSH, (high,))
        top = [r for r in range(14, 1, -1) if mask >> r & 1][:5]
        return self.strength(Category.FLUSH, top)

    def _best_of_ranks(self, ranks: list[int]) -> int:
        """The best five of ``ranks`` (a rank multiset, flushes aside): the best of the candidates each category
        present makes. Worked out from the ranks' counts in one pass, highest rank first — the table calls it for
        every multiset a process meets first (nearly every showdown of a validate run: issue 17)."""
        counts = [0] * 16
        for rank in ranks:
            counts[rank] += 1
        # the ranks present, those held twice or more, three times or more, four times or more: highest first
        distinct: list[int] = []
        pairs: list[int] = []
        trips: list[int] = []
        quads: list[int] = []
        for rank in range(15, -1, -1):
            n = counts[rank]
            if n:
                distinct.append(rank)
                if n >= 2:
                    pairs.append(rank)
                    if n >= 3:
                        trips.append(rank)
                        if n >= 4:
                            quads.append(rank)
        strength = self.strength
        candidates: list[int] = []
        if len(distinct) >= 5:
            candidates.append(strength(Category.HIGH_CARD, distinct[:5]))
            mask = 0
            for rank in distinct:
                mask |= 1 << rank
            high = self.straight_high(mask)
            if high:
                candidates.append(strength(Category.STRAIGHT, (high,)))
        # by rank, not by count: with eight or more cards a second trips must not outrank a higher pair
        if pairs:
            top = pairs[0]
            others = [r for r in distinct if r != top]
            if len(others) >= 3:
                candidates.append(strength(Category.PAIR, [top, *others[:3]]))
            if len(pairs) >= 2:
                second = pairs[1]
                kickers = [r for r in others if r != second]
                if kickers:
                    candidates.append(strength(Category.TWO_PAIR, [top, second, kickers[0]]))
        if trips:
            top = trips[0]
            others = [r for r in distinct if r != top]
            if len(others) >= 2:
                candidates.append(strength(Category.THREE_OF_A_KIND, [top, *others[:2]]))
            paired = [p for p in pairs if p != top]
            if paired:
                candidates.append(strength(Category.FULL_HOUSE, [top, paired[0]]))
        if quads:
            top = quads[0]
            others = [r for r in distinct if r != top]
            if others:
                candidates.append(strength(Category.FOUR_OF_A_KIND, [top, others[0]]))
        return max(candidates)


def _runs(highs: range) -> list[tuple[int, frozenset[int]]]:
    return [(h, frozenset(range(h - 4, h + 1))) for h in highs]


_STANDARD_ORDER = tuple(Category)
_SHORT_DECK_ORDER = (
    Category.HIGH_CARD,
    Category.PAIR,
    Category.TWO_PAIR,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT,
    Category.FULL_HOUSE,
    Category.FLUSH,
    Category.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
)

#: Ace high, and low in the wheel A-2-3-4-5 (a five-high straight).
STANDARD = HighRules([*_runs(range(14, 5, -1)), (5, frozenset({14, 2, 3, 4, 5}))], _STANDARD_ORDER)
#: Sixes to aces; A-6-7-8-9 is the lowest straight (nine high); a flush beats a full house.
SHORT_DECK = HighRules([*_runs(range(14, 9, -1)), (9, frozenset({14, 6, 7, 8, 9}))], _SHORT_DECK_ORDER)
#: Deuce-to-seven reads hands as high hands with the ace only high: A-2-3-4-5 is ace high, no straight.
NO_WHEEL = HighRules(_runs(range(14, 5, -1)), _STANDARD_ORDER)

SHORT_DECK_LOWEST_RANK = 6


def best_high(cards: Sequence[Card], rules: HighRules) -> int:
    """Strength of the best five of ``cards`` (five or more, all different) under ``rules``."""
    key = 0
    suit_masks = [0, 0, 0, 0]
    for card in cards:
        rank = card.rank
        key += POW5[rank]
        suit_masks[SUIT_INDEX[card.suit]] |= 1 << rank
    value = rules.by_ranks[key]
    for mask in suit_masks:
        if mask.bit_count() >= 5:
            flush = rules.by_suit_mask[mask]
            if flush > value:
                value = flush
    return value


def parts_of(cards: Sequence[Card]) -> tuple[int, list[int]]:
    """The rank key (the sum of ``POW5[rank]``, what ``by_ranks`` is keyed by) and the four suit masks (what
    ``by_suit_mask`` is keyed by) of ``cards``: a caller trying many completions of the same cards adds the
    fixed cards' parts once, then each completion's (best_high reads the same parts)."""
    key = 0
    suit_masks = [0, 0, 0, 0]
    for card in cards:
        rank = card.rank
        key += POW5[rank]
        suit_masks[SUIT_INDEX[card.suit]] |= 1 << rank
    return key, suit_masks


def best_short_deck(cards: Sequence[Card]) -> int:
    if any(card.rank < SHORT_DECK_LOWEST_RANK for card in cards):
        bad = ", ".join(str(c) for c in cards if c.rank < SHORT_DECK_LOWEST_RANK)
        raise ValueError(f"{bad} is not in the short deck (sixes to aces)")
    return best_high(cards, SHORT_DECK)


def best_omaha(hole: Sequence[Card], board: Sequence[Card], rules: HighRules) -> int:
    """Strength of the best hand of exactly two hole cards and three board cards."""
    # Rank keys add up, so the 60 combinations of a 4-card hand on a 5-card board cost an addition and a
    # lookup each; flushes are looked at only in a suit with two hole cards and three board cards.
    hole_keys = [POW5[c.rank] for c in hole]
    board_keys = [POW5[c.rank] for c in board]
    pair_keys = [a + b for a, b in combinations(hole_keys, 2)]
    triple_keys = [a + b + c for a, b, c in combinations(board_keys, 3)]
    by_ranks = rules.by_ranks
    best = max([by_ranks[p + t] for p in pair_keys for t in triple_keys])
    board_suits = [SUIT_INDEX[c.suit] for c in board]
    for suit in set(board_suits):
        if board_suits.count(suit) < 3:
            continue
        hole_bits = [1 << c.rank for c in hole if SUIT_INDEX[c.suit] == suit]
        if len(hole_bits) < 2:
            continue
        board_bits = [1 << c.rank for c in board if SUIT_INDEX[c.suit] == suit]
        for a, b in combinations(hole_bits, 2):
            for c, d, e in combinations(board_bits, 3):
                flush = rules.by_suit_mask[a | b | c | d | e]
                if flush > best:
                    best = flush
    return best
