"""Low hands: ace-to-five (eight or better, and razz) and deuce-to-seven.

Ace-to-five reads the ace as one and ignores straights and flushes. Eight or better needs five different
ranks of eight or lower; razz takes any five cards, and a pair is worse than no pair (PokerKit's
``RegularLowHand``: no pair < one pair < two pair < trips < full house < quads, in that order of badness).
Strengths are negated high-style numbers, so a better low is a larger int.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations

from domain.cards import Card
from domain.evaluation.encoding import (
    CATEGORY_SHIFT,
    POW5,
    LazyTable,
    grouped,
    pack_ranks,
    ranks_of_key,
)
from domain.evaluation.high import NO_WHEEL

ACE = 14
EIGHT = 8


class LowCategory(IntEnum):
    """Ace-to-five low categories, best first (razz reads pairs as bad)."""

    NO_PAIR = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    FULL_HOUSE = 4
    FOUR_OF_A_KIND = 5


def low_rank(rank: int) -> int:
    """Ace-to-five rank: the ace is one."""
    return 1 if rank == ACE else rank


def low_strength(category: LowCategory, ranks: Sequence[int]) -> int:
    return -((int(category) << CATEGORY_SHIFT) | pack_ranks(ranks))


# --- eight or better -------------------------------------------------------------------------------------

#: Bit of a card's ace-to-five rank when it is eight or lower, else 0.
_LOW_BIT: tuple[int, ...] = tuple(1 << low_rank(r) if low_rank(r) <= EIGHT else 0 for r in range(15))


def _lowest(mask: int, count: int) -> int:
    """The ``count`` lowest set bits of ``mask``."""
    taken = 0
    for _ in range(count):
        bit = mask & -mask
        taken |= bit
        mask ^= bit
    return taken


def _eight_of_mask(mask: int) -> int:
    return low_strength(LowCategory.NO_PAIR, [r for r in range(EIGHT, 0, -1) if mask >> r & 1])


#: Five low-rank bits → strength.
_EIGHT_BY_MASK = LazyTable(_eight_of_mask)


def best_eight_or_better(cards: Sequence[Card]) -> int | None:
    """The five lowest different ranks of eight or lower, or ``None`` if there are not five."""
    mask = 0
    for card in cards:
        mask |= _LOW_BIT[card.rank]
    if mask.bit_count() < 5:
        return None
    return _EIGHT_BY_MASK[_lowest(mask, 5)]


def best_omaha_eight_or_better(hole: Sequence[Card], board: Sequence[Card]) -> int | None:
    """Exactly two hole and three board cards, five different ranks of eight or lower, or ``None``."""
    board_mask = 0
    for card in board:
        board_mask |= _LOW_BIT[card.rank]
    if board_mask.bit_count() < 3:
        return None
    hole_bits = {_LOW_BIT[c.rank] for c in hole} - {0}
    best: int | None = None
    for first, second in combinations(sorted(hole_bits), 2):
        # With the two hole ranks fixed, the three lowest other board ranks make the best low.
        rest = board_mask & ~(first | second)
        if rest.bit_count() >= 3:
            value = _EIGHT_BY_MASK[first | second | _lowest(rest, 3)]
            if best is None or value > best:
                best = value
    return best


# --- razz ------------------------------------------------------------------------------------------------

def _razz_five(ranks: Sequence[int]) -> int:
    groups = grouped(ranks)
    shape = tuple(n for n, _ in groups)
    category = {
        (1, 1, 1, 1, 1): LowCategory.NO_PAIR,
        (2, 1, 1, 1): LowCategory.PAIR,
        (2, 2, 1): LowCategory.TWO_PAIR,
        (3, 1, 1): LowCategory.THREE_OF_A_KIND,
        (3, 2): LowCategory.FULL_HOUSE,
        (4, 1): LowCategory.FOUR_OF_A_KIND,
    }[shape]
    return low_strength(category, [r for _, r in groups])


def _razz_of_key(key: int) -> int:
    return max(_razz_five(five) for five in set(combinations(ranks_of_key(key), 5)))


#: Ace-to-five rank multiset (sum of ``POW5[low rank]``) → best razz low of any five.
_RAZZ_BY_RANKS = LazyTable(_razz_of_key)


def best_razz(cards: Sequence[Card]) -> int:
    """Strength of the best ace-to-five low of any five of ``cards`` (five or more), pairs counting against."""
    key = 0
    for card in cards:
        key += POW5[low_rank(card.rank)]
    return _RAZZ_BY_RANKS[key]


# --- deuce to seven --------------------------------------------------------------------------------------


def _deuce_to_seven_five(cards: Sequence[Card]) -> int:
    key = 0
    mask = 0
    suit = cards[0].suit
    suited = True
    for card in cards:
        rank = card.rank
        key += POW5[rank]
        mask |= 1 << rank
        if card.suit is not suit:
            suited = False
    high = NO_WHEEL.by_ranks[key]
    if suited:
        high = max(high, NO_WHEEL.by_suit_mask[mask])
    return -high


def best_deuce_to_seven(cards: Sequence[Card]) -> int:
    """The best deuce-to-seven low of any five of ``cards`` (five or more): the weakest high hand, with
    aces only high and A-2-3-4-5 no straight."""
    if len(cards) == 5:
        return _deuce_to_seven_five(cards)
    return max(_deuce_to_seven_five(five) for five in combinations(cards, 5))
