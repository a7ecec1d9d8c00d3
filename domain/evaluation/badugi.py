"""Badugi, aces low (PokerKit's ``BadugiHand``, the hand its badugi game uses).

A hand counts only the cards of different suits and different ranks: four such cards (a badugi) beat
any three, three beat any two, and among hands of the same size the lower cards win, compared from the
highest down. A duplicated suit or rank costs one of the two cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from domain.cards import Card
from domain.evaluation.encoding import SUIT_INDEX, pack_ranks, unpack_ranks
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


def best_badugi_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards a badugi hand plays: the largest set of different suits and ranks, lowest first."""
    summaries = [(low_rank(c.rank), 1 << SUIT_INDEX[c.suit], c) for c in cards]
    for size in range(min(BADUGI_SIZE, len(summaries)), 0, -1):
        best: tuple[int, tuple[Card, ...]] | None = None
        for chosen in combinations(summaries, size):
            ranks = {rank for rank, _, _ in chosen}
            suits = {suit for _, suit, _ in chosen}
            if len(ranks) == size and len(suits) == size:
                value = badugi_strength(sorted(ranks, reverse=True))
                if best is None or value > best[0]:
                    best = (value, tuple(card for _, _, card in chosen))
        if best is not None:
            return best[1]
    return ()


def best_badugi(cards: Sequence[Card]) -> int:
    chosen = best_badugi_cards(cards)
    return badugi_strength(sorted((low_rank(c.rank) for c in chosen), reverse=True))
