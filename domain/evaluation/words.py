"""A hand in the words a dealer would say: "flush, ace high", "8-6-4-2-A low", "badugi 7-5-3-2"."""

from __future__ import annotations

from domain.evaluation.encoding import CATEGORY_SHIFT, unpack_ranks
from domain.evaluation.high import Category, HighRules
from domain.evaluation.low import LowCategory

_NAMES = {
    1: ("ace", "aces"),
    2: ("deuce", "deuces"),
    3: ("three", "threes"),
    4: ("four", "fours"),
    5: ("five", "fives"),
    6: ("six", "sixes"),
    7: ("seven", "sevens"),
    8: ("eight", "eights"),
    9: ("nine", "nines"),
    10: ("ten", "tens"),
    11: ("jack", "jacks"),
    12: ("queen", "queens"),
    13: ("king", "kings"),
    14: ("ace", "aces"),
}
_SYMBOLS = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
_SIZE_WORDS = {1: "one-card", 2: "two-card", 3: "three-card"}


def _one(rank: int) -> str:
    return _NAMES[rank][0]


def _many(rank: int) -> str:
    return _NAMES[rank][1]


def _run(ranks: tuple[int, ...]) -> str:
    return "-".join(_SYMBOLS.get(r, str(r)) for r in ranks)


def describe_made_hand(category: Category | LowCategory, ranks: tuple[int, ...]) -> str:
    """Words for a combination named by its category and its ranks in reading order."""
    name = category.name
    if name == "HIGH_CARD":
        return f"{_one(ranks[0])} high"
    if name == "PAIR":
        return f"pair of {_many(ranks[0])}"
    if name == "TWO_PAIR":
        return f"two pair, {_many(ranks[0])} and {_many(ranks[1])}"
    if name == "THREE_OF_A_KIND":
        return f"three of a kind, {_many(ranks[0])}"
    if name == "STRAIGHT":
        return f"straight, {_one(ranks[0])} high"
    if name == "FLUSH":
        return f"flush, {_one(ranks[0])} high"
    if name == "FULL_HOUSE":
        return f"full house, {_many(ranks[0])} full of {_many(ranks[1])}"
    if name == "FOUR_OF_A_KIND":
        return f"four of a kind, {_many(ranks[0])}"
    if ranks[0] == 14:
        return "royal flush"
    return f"straight flush, {_one(ranks[0])} high"


def describe_high(strength: int, rules: HighRules) -> str:
    return describe_made_hand(rules.category_of(strength), unpack_ranks(strength))


def describe_low(strength: int) -> str:
    """Ace-to-five: "8-6-4-2-A low"; a razz hand with a pair reads like a high hand, "pair of kings"."""
    category = LowCategory(-strength >> CATEGORY_SHIFT)
    ranks = unpack_ranks(-strength)
    if category is LowCategory.NO_PAIR:
        return f"{_run(ranks)} low"
    return describe_made_hand(category, ranks)


def describe_deuce_to_seven(high_strength: int, rules: HighRules) -> str:
    """Deuce-to-seven: "7-5-4-3-2 low" when no pair, straight or flush; else the combination held."""
    category = rules.category_of(high_strength)
    ranks = unpack_ranks(high_strength)
    if category is Category.HIGH_CARD:
        return f"{_run(ranks)} low"
    return describe_made_hand(category, ranks)


def describe_badugi(ranks: tuple[int, ...]) -> str:
    if len(ranks) == 4:
        return f"badugi {_run(ranks)}"
    return f"{_SIZE_WORDS[len(ranks)]} {_run(ranks)}"

