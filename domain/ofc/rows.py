"""The three rows of an Open-Face Chinese hand, how each is ranked, fouls and royalties (bfsp 8).

A row's strength is the engine's own number for a high hand (:mod:`domain.evaluation.high`, the standard
ranking of bfsp 4.6): its category in the top bits, then its ranks. The five-card rows are the engine's
evaluator itself; the three-card top row is written in the same encoding (high card, a pair with its kicker,
trips: a top row makes no straight and no flush), with its two missing ranks as the lowest slots. So a top
row compares with a middle row by plain integer comparison, and ``QQ5`` on top beats a middle ``QQ432``
(a five is higher than a four) — the foul rule's "middle ≥ top" as played.

Suits never break a tie between rows (bfsp 4.5's suit seniority is for the few places its rules name): two
equal rows tie.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from domain.cards import RANK_CHARS, Card
from domain.evaluation.encoding import CATEGORY_SHIFT, grouped
from domain.evaluation.high import STANDARD, Category, best_high


class Row(StrEnum):
    """The three rows, strongest first (bfsp 8, set-up)."""

    BOTTOM = "bottom"
    MIDDLE = "middle"
    TOP = "top"


#: cards in each row (bfsp 8, set-up: two rows of five and one of three)
ROW_SIZE: dict[Row, int] = {Row.BOTTOM: 5, Row.MIDDLE: 5, Row.TOP: 3}
HAND_SIZE = 13
ACE = 14


def five_card_strength(cards: Sequence[Card]) -> int:
    """A bottom or middle row's strength: the engine's standard high-hand evaluator."""
    if len(cards) != ROW_SIZE[Row.BOTTOM]:
        raise ValueError(f"a five-card row holds 5 cards, not {len(cards)}")
    return best_high(cards, STANDARD)


def three_card_strength(cards: Sequence[Card]) -> int:
    """A top row's strength in the five-card encoding: trips, a pair and its kicker, or three high cards."""
    if len(cards) != ROW_SIZE[Row.TOP]:
        raise ValueError(f"the top row holds 3 cards, not {len(cards)}")
    groups = grouped(c.rank for c in cards)
    ranks = [rank for _, rank in groups]
    most = groups[0][0]
    category = {3: Category.THREE_OF_A_KIND, 2: Category.PAIR, 1: Category.HIGH_CARD}[most]
    return STANDARD.strength(category, ranks)


def row_strength(row: Row, cards: Sequence[Card]) -> int:
    return three_card_strength(cards) if row is Row.TOP else five_card_strength(cards)


def category_of(strength: int) -> Category:
    return STANDARD.category_of(strength)


def _top_rank(strength: int) -> int:
    """The first (most significant) rank of a strength: the pair's, the trips', the straight's high card."""
    return (strength >> (CATEGORY_SHIFT - 4)) & 0xF


def is_royal_flush(strength: int) -> bool:
    return category_of(strength) is Category.STRAIGHT_FLUSH and _top_rank(strength) == ACE


@dataclass(frozen=True, slots=True)
class Foul:
    """Why a set hand is dead: which row is weaker than the row above it (bfsp 8, later deals)."""

    weaker: Row
    stronger: Row

    def __str__(self) -> str:
        return f"the {self.weaker} row is weaker than the {self.stronger} row"


def foul_of(bottom: Sequence[Card], middle: Sequence[Card], top: Sequence[Card]) -> Foul | None:
    """The foul of a complete hand, or None: the rows must hold bottom ≥ middle ≥ top (bfsp 8)."""
    b = five_card_strength(bottom)
    m = five_card_strength(middle)
    t = three_card_strength(top)
    if b < m:
        return Foul(Row.BOTTOM, Row.MIDDLE)
    if m < t:
        return Foul(Row.MIDDLE, Row.TOP)
    return None


# --- royalties, exactly as bfsp 8 gives them ---------------------------------------------------------------

#: bottom row: straight 2, flush 4, full house 6, quads 10, straight flush 15, royal flush 25
BOTTOM_ROYALTIES: dict[Category, int] = {
    Category.STRAIGHT: 2,
    Category.FLUSH: 4,
    Category.FULL_HOUSE: 6,
    Category.FOUR_OF_A_KIND: 10,
    Category.STRAIGHT_FLUSH: 15,
}
BOTTOM_ROYAL_FLUSH = 25
#: middle row: set 2, straight 4, flush 8, full house 12, quads 20, straight flush 30, royal flush 50
MIDDLE_ROYALTIES: dict[Category, int] = {
    Category.THREE_OF_A_KIND: 2,
    Category.STRAIGHT: 4,
    Category.FLUSH: 8,
    Category.FULL_HOUSE: 12,
    Category.FOUR_OF_A_KIND: 20,
    Category.STRAIGHT_FLUSH: 30,
}
MIDDLE_ROYAL_FLUSH = 50
#: top row pairs by rank: 66 1, 77 2 … AA 9 (a pair below sixes earns nothing)
TOP_PAIR_ROYALTIES: dict[int, int] = {rank: rank - 5 for rank in range(6, ACE + 1)}
#: top row trips by rank: 222 10, 333 11 … AAA 22
TOP_TRIPS_ROYALTIES: dict[int, int] = {rank: rank + 8 for rank in range(2, ACE + 1)}


def royalty(row: Row, cards: Sequence[Card]) -> int:
    """The royalty a row earns by itself (the foul rule takes them all away from a dead hand)."""
    strength = row_strength(row, cards)
    category = category_of(strength)
    if row is Row.TOP:
        if category is Category.THREE_OF_A_KIND:
            return TOP_TRIPS_ROYALTIES[_top_rank(strength)]
        if category is Category.PAIR:
            return TOP_PAIR_ROYALTIES.get(_top_rank(strength), 0)
        return 0
    if row is Row.BOTTOM:
        return BOTTOM_ROYAL_FLUSH if is_royal_flush(strength) else BOTTOM_ROYALTIES.get(category, 0)
    return MIDDLE_ROYAL_FLUSH if is_royal_flush(strength) else MIDDLE_ROYALTIES.get(category, 0)


# --- fantasy --------------------------------------------------------------------------------------------------

QUEEN = 12


def top_enters_fantasy(top: Sequence[Card]) -> bool:
    """QQ or better on top (bfsp 8, fantasy): a pair of queens, kings or aces, or any trips."""
    strength = three_card_strength(top)
    category = category_of(strength)
    return category is Category.THREE_OF_A_KIND or (
        category is Category.PAIR and _top_rank(strength) >= QUEEN
    )


def repeats_fantasy(bottom: Sequence[Card], top: Sequence[Card]) -> bool:
    """Trips on top, or quads or better on the bottom (bfsp 8, repeat fantasy)."""
    if category_of(three_card_strength(top)) is Category.THREE_OF_A_KIND:
        return True
    return category_of(five_card_strength(bottom)) >= Category.FOUR_OF_A_KIND


def describe_row(row: Row, cards: Sequence[Card]) -> str:
    """A row as a dealer reads it: "pair of queens", "flush", "trips, sevens"."""
    strength = row_strength(row, cards)
    category = category_of(strength)
    if is_royal_flush(strength):
        return "royal flush"
    words = category.name.lower().replace("_", " ")
    if category in (Category.PAIR, Category.THREE_OF_A_KIND, Category.FOUR_OF_A_KIND):
        return f"{words}, {RANK_CHARS[_top_rank(strength) - 2]}s"
    return f"{words}, {RANK_CHARS[_top_rank(strength) - 2]} high"
