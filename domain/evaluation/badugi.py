"""Badugi, aces low (PokerKit's ``BadugiHand``, the hand its badugi game uses).

A hand counts only the cards of different suits and different ranks: four such cards (a badugi) beat
any three, three beat any two, and among hands of the same size the lower cards win, compared from the
highest down. A duplicated suit or rank costs one of the two cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from domain.cards import Card
from domain.evaluation.encoding import SUIT_INDEX, LazyTable, pack_ranks, unpack_ranks
from domain.evaluation.low import low_rank

BADUGI_SIZE = 4
SIZE_SHIFT = 20
_RANKS_MASK = (1 << SIZE_SHIFT) - 1


def badugi_strength(ranks: Sequence[int]) -> int:
    """Size first, then the lower ranks (ace-to-five, given highest first) win."""
    return (len(ranks) << SIZE_SHIFT) | (_RANKS_MASK - pack_ranks(ranks))


def badugi_ranks(strength: int) -> tuple[int, ...]:
    """The ranks of a badugi strength, highest first."""
    return unpack_ranks(_RANKS_MASK - (strength & _RANKS_MASK))


def _best_subset(cards: Sequence[tuple[int, int, Card | None]]) -> tuple[int, tuple[int, ...]]:
    """(strength, indices) of the best set of different suits and ranks among (rank, suit bit, card)."""
    for size in range(min(BADUGI_SIZE, len(cards)), 0, -1):
        best: tuple[int, tuple[int, ...]] | None = None
        for chosen in combinations(range(len(cards)), size):
            ranks = {cards[i][0] for i in chosen}
            suits = {cards[i][1] for i in chosen}
            if len(ranks) == size and len(suits) == size:
                value = badugi_strength(sorted(ranks, reverse=True))
                if best is None or value > best[0]:
                    best = (value, chosen)
        if best is not None:
            return best
    return 0, ()


def best_badugi_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards a badugi hand plays: the largest set of different suits and ranks, lowest first."""
    _, chosen = _best_subset([(low_rank(c.rank), 1 << SUIT_INDEX[c.suit], c) for c in cards])
    return tuple(cards[i] for i in chosen)


_LOW_RANK = tuple(low_rank(r) for r in range(15))


def _badugi_of_key(key: int) -> int:
    cards = [(bit // 4, 1 << (bit % 4), None) for bit in range(key.bit_length()) if key >> bit & 1]
    return _best_subset(cards)[0]


#: Set of cards (bit ``4 * low rank + suit``) → strength; there are 270,725 four-card hands, so the table
#: keeps at most the last 100,000 seen.
_BADUGI_BY_CARDS = LazyTable(_badugi_of_key, limit=100_000)


def best_badugi(cards: Sequence[Card]) -> int:
    key = 0
    for card in cards:
        key |= 1 << (_LOW_RANK[card.rank] * 4 + SUIT_INDEX[card.suit])
    return _BADUGI_BY_CARDS[key]
