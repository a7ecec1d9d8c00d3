"""How strong a known hand is, in five buckets the statistics condition on (0 nothing … 4 a monster).

Before the flop a hand is placed by its Chen score among the 1,326 starting hands; after it, by what the
hole cards add to the board: a made hand the board alone does not make, top pair or better, draws.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import IntEnum
from functools import cache

from domain.cards import Card, standard_deck
from domain.evaluation.encoding import POW5, SUIT_INDEX
from domain.evaluation.high import STANDARD, Category, best_high, parts_of


class Strength(IntEnum):
    NOTHING = 0
    WEAK = 1  # a weak pair or a draw
    GOOD = 2  # top pair or an overpair
    STRONG = 3  # two pair, three of a kind
    MONSTER = 4  # a straight or better


#: percentile of the starting hand (0 worst, 1 best) from which each bucket begins
_PREFLOP_CUTS = (0.95, 0.85, 0.62, 0.35)
#: the deck, made once (the cards left to come are taken from it for every all-in and nuts test)
_DECK = standard_deck()
_HOLE_WORDS = {
    Category.HIGH_CARD: "high card",
    Category.PAIR: "a pair",
    Category.TWO_PAIR: "two pair",
    Category.THREE_OF_A_KIND: "three of a kind",
    Category.STRAIGHT: "a straight",
    Category.FLUSH: "a flush",
    Category.FULL_HOUSE: "a full house",
    Category.FOUR_OF_A_KIND: "four of a kind",
    Category.STRAIGHT_FLUSH: "a straight flush",
}


def chen(high: int, low: int, suited: bool) -> float:
    """Bill Chen's starting-hand score (ranks 2..14, ``high`` ≥ ``low``)."""
    points = {14: 10.0, 13: 8.0, 12: 7.0, 11: 6.0}.get(high, high / 2)
    if high == low:
        return max(points * 2, 5.0)
    score = points + (2 if suited else 0)
    gap = high - low - 1
    score -= (0, 1, 2, 4)[gap] if gap < 4 else 5
    if gap <= 1 and high < 12:
        score += 1
    return float(math.ceil(score))


@cache
def _percentiles() -> dict[tuple[int, int, bool], float]:
    """Each starting-hand class → the share of the 1,326 hands it beats or ties on Chen score."""
    classes = []
    for high in range(2, 15):
        for low in range(2, high + 1):
            for suited in (False, True) if high != low else (False,):
                combos = 6 if high == low else 4 if suited else 12
                classes.append((chen(high, low, suited), combos, (high, low, suited)))
    classes.sort()
    below, result = 0, {}
    for score, combos, key in classes:
        result[key] = (below + combos) / 1326
        below += combos
        del score
    return result


def preflop_percentile(hole: Sequence[Card]) -> float:
    a, b = hole[0], hole[1]
    high, low = max(a.rank, b.rank), min(a.rank, b.rank)
    return _percentiles()[(high, low, a.suit == b.suit and high != low)]


def preflop_bucket(hole: Sequence[Card]) -> Strength:
    share = preflop_percentile(hole)
    for bucket, cut in zip((4, 3, 2, 1), _PREFLOP_CUTS, strict=True):
        if share >= cut:
            return Strength(bucket)
    return Strength.NOTHING


def _category(cards: Sequence[Card]) -> Category:
    if len(cards) < 5:
        ranks = [c.rank for c in cards]
        most = max(ranks.count(r) for r in ranks)
        pairs = len({r for r in ranks if ranks.count(r) == 2})
        return (Category.HIGH_CARD, Category.PAIR if pairs < 2 else Category.TWO_PAIR, Category.THREE_OF_A_KIND,
                Category.FOUR_OF_A_KIND)[most - 1]
    return STANDARD.category_of(best_high(cards, STANDARD))


def _draw(hole: Sequence[Card], board: Sequence[Card]) -> bool:
    """A flush draw with a hole card in it, or four to an open-ended straight, with cards still to come."""
    if len(board) >= 5:
        return False
    cards = [*hole, *board]
    for card in hole:
        if sum(1 for c in cards if c.suit == card.suit) == 4:
            return True
    mask = 0
    for c in cards:
        mask |= 1 << c.rank
    return any((mask >> low) & 0b1111 == 0b1111 for low in range(2, 11))


def board_category(board: Sequence[Card]) -> Category:
    """What the board alone makes (a hand reading several players' cards on one board computes it once)."""
    return _category(board)


def postflop_bucket(hole: Sequence[Card], board: Sequence[Card], board_only: Category | None = None) -> Strength:
    """What the hole cards make with the board (three to five cards), beyond what the board makes alone."""
    mine = _category([*hole, *board])
    if board_only is None:
        board_only = _category(board)
    if mine >= Category.STRAIGHT and mine > board_only:
        return Strength.MONSTER
    if mine in (Category.TWO_PAIR, Category.THREE_OF_A_KIND) and mine > board_only + (board_only >= 1):
        return Strength.STRONG
    top = max(c.rank for c in board)
    hole_ranks = [c.rank for c in hole]
    paired = [r for r in hole_ranks if any(c.rank == r for c in board)]
    pocket = hole_ranks[0] if hole_ranks[0] == hole_ranks[1] else 0
    if max([*paired, pocket], default=0) >= top:
        return Strength.GOOD
    if paired or pocket or _draw(hole, board):
        return Strength.WEAK
    return Strength.NOTHING


def bucket(hole: Sequence[Card], board: Sequence[Card]) -> Strength:
    return postflop_bucket(hole, board) if board else preflop_bucket(hole)


def describe(hole: Sequence[Card], board: Sequence[Card]) -> str:
    """The hand in words for an alert: ``"AsKs (a flush)"``, ``"QhQd (top 3% before the flop)"``."""
    cards = "".join(str(c) for c in hole)
    if not board:
        return f"{cards} (top {max(1, round((1 - preflop_percentile(hole)) * 100))}% before the flop)"
    category = _category([*hole, *board])
    words = _HOLE_WORDS[category]
    if category >= Category.STRAIGHT and len(board) >= 3 and _is_nuts(hole, board):
        words = "the nuts, " + words
    return f"{cards} ({words})"


def _is_nuts(hole: Sequence[Card], board: Sequence[Card]) -> bool:
    """No two other unseen cards make a better hand with this board."""
    if len(board) < 5:
        return False
    mine = best_high([*hole, *board], STANDARD)
    seen = {*hole, *board}
    # the board's parts are added up once and each unseen card's looked up once: 990 two-card hands tried,
    # a suit looked at for a flush only where the board holds three of it
    board_key, board_masks = parts_of(board)
    suits = [suit for suit in range(4) if board_masks[suit].bit_count() >= 3]
    by_ranks, by_suit_mask = STANDARD.by_ranks, STANDARD.by_suit_mask
    rest = [(POW5[c.rank], SUIT_INDEX[c.suit], 1 << c.rank) for c in _DECK if c not in seen]
    for i, (a_key, a_suit, a_bit) in enumerate(rest):
        with_a = board_key + a_key
        for b_key, b_suit, b_bit in rest[i + 1 :]:
            if by_ranks[with_a + b_key] > mine:
                return False
            for suit in suits:
                mask = board_masks[suit] | (a_bit if a_suit == suit else 0) | (b_bit if b_suit == suit else 0)
                if mask.bit_count() >= 5 and by_suit_mask[mask] > mine:
                    return False
    return True

