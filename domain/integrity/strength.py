"""How strong a known hand is, in five buckets the statistics condition on (0 nothing … 4 a monster).

Before the flop a hand is placed by its Chen score among the 1,326 starting hands; after it, by what the
hole cards add to the board: a made hand the board alone does not make, top pair or better, draws.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from enum import IntEnum
from functools import cache

from domain.cards import Card, standard_deck
from domain.evaluation.encoding import POW5, SUIT_INDEX, LazyTable, ranks_of_key
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


#: the buckets as plain ints, for the lists :func:`buckets_on` fills
_NOTHING, _WEAK, _GOOD, _STRONG, _MONSTER = (int(s) for s in Strength)


@cache
def _preflop_buckets() -> dict[tuple[int, int, bool], int]:
    """Each starting-hand class (high rank, low rank, suited) → its bucket, as :func:`preflop_bucket` gives it."""
    found = {}
    for key, share in _percentiles().items():
        found[key] = next((b for b, cut in zip((4, 3, 2, 1), _PREFLOP_CUTS, strict=True) if share >= cut), 0)
    return found


_FLUSH, _STRAIGHT_FLUSH = int(Category.FLUSH), int(Category.STRAIGHT_FLUSH)


@cache
def _straight(mask: int) -> bool:
    """A rank bitmask holds five in a row (the wheel A-2-3-4-5 too)."""
    return STANDARD.straight_high(mask) > 0


def _category_of_ranks(key: int) -> int:
    """The best category five or more cards make by their ranks alone (flushes aside), from their rank key: the
    category of ``STANDARD.by_ranks[key]`` without working out the hand's whole strength, which the buckets
    never read (that table fills at about 80 µs a new multiset, the tens of thousands a field deals)."""
    counts: dict[int, int] = {}
    for rank in ranks_of_key(key):
        counts[rank] = counts.get(rank, 0) + 1
    groups = sorted(counts.values(), reverse=True)
    if groups[0] >= 4:
        return int(Category.FOUR_OF_A_KIND)
    if groups[0] == 3 and len(groups) > 1 and groups[1] >= 2:
        return int(Category.FULL_HOUSE)
    if _straight(sum(1 << r for r in counts)):
        return int(Category.STRAIGHT)
    if groups[0] == 3:
        return int(Category.THREE_OF_A_KIND)
    if groups[0] == 2:
        return int(Category.TWO_PAIR if groups[1] == 2 else Category.PAIR)
    return int(Category.HIGH_CARD)


#: rank key → :func:`_category_of_ranks`, filled as keys are met (at most the ~73,000 multisets of 5-7 cards)
_RANK_CATEGORY = LazyTable(_category_of_ranks)


def remember_rank_categories(known: Iterable[tuple[int, int]]) -> None:
    """Fills the table of categories by rank key ahead of use with (key, :func:`_category_of_ranks`) pairs
    worked out elsewhere all at once (projections/integrity/tables.py); an entry already there stays."""
    setdefault = _RANK_CATEGORY.setdefault
    for key, category in known:
        setdefault(key, category)


def _category_of_parts(key: int, masks: list[int]) -> int:
    """The category of five or more cards from their rank key and suit masks (``parts_of``)."""
    found = _RANK_CATEGORY[key]
    for mask in masks:
        if mask.bit_count() >= 5:
            flush = _STRAIGHT_FLUSH if _straight(mask) else _FLUSH
            if flush > found:
                found = flush
    return found


@cache
def _open_ended(mask: int) -> bool:
    return any((mask >> low) & 0b1111 == 0b1111 for low in range(2, 11))


def buckets_on(holes: Sequence[Sequence[Card]], board: Sequence[Card]) -> list[int]:
    """Each hand's bucket on one board (:func:`preflop_bucket` with no board, else :func:`postflop_bucket`),
    -1 for a hand not of two known cards: the same buckets, with what the board alone makes, its rank key and
    its suits worked out once for every hand on it, and each hand's category looked up from its rank key."""
    found: list[int] = []
    if not board:
        table = _preflop_buckets()
        for hole in holes:
            if len(hole) != 2:
                found.append(-1)
                continue
            a, b = hole[0].rank, hole[1].rank
            high, low = (a, b) if a >= b else (b, a)
            found.append(table[(high, low, hole[0].suit == hole[1].suit and high != low)])
        return found
    board_key, board_masks = parts_of(board)
    board_only = _category(board) if len(board) < 5 else _category_of_parts(board_key, board_masks)
    ranks = 0
    for card in board:
        ranks |= 1 << card.rank
    top = max(card.rank for card in board)
    # a flush needs three board cards of its suit beside the two hole cards
    flush_suits = [suit for suit in range(4) if board_masks[suit].bit_count() >= 3]
    drawing = len(board) < 5
    by_ranks = _RANK_CATEGORY
    for hole in holes:
        if len(hole) != 2:
            found.append(-1)
            continue
        first, second = hole
        ra, rb = first.rank, second.rank
        sa, sb = SUIT_INDEX[first.suit], SUIT_INDEX[second.suit]
        mine = by_ranks[board_key + POW5[ra] + POW5[rb]]
        for suit in flush_suits:
            mask = board_masks[suit] | (1 << ra if sa == suit else 0) | (1 << rb if sb == suit else 0)
            if mask.bit_count() >= 5:
                flush = _STRAIGHT_FLUSH if _straight(mask) else _FLUSH
                if flush > mine:
                    mine = flush
        if mine >= Category.STRAIGHT and mine > board_only:
            found.append(_MONSTER)
            continue
        if mine in (Category.TWO_PAIR, Category.THREE_OF_A_KIND) and mine > board_only + (board_only >= 1):
            found.append(_STRONG)
            continue
        paired_a, paired_b = ranks >> ra & 1, ranks >> rb & 1
        best = max(ra if paired_a else 0, rb if paired_b else 0, ra if ra == rb else 0)
        if best >= top:
            found.append(_GOOD)
        elif best or (drawing and _draws(ra, rb, sa, sb, board_masks, ranks)):
            found.append(_WEAK)
        else:
            found.append(_NOTHING)
    return found


def _draws(ra: int, rb: int, sa: int, sb: int, board_masks: list[int], ranks: int) -> bool:
    """:func:`_draw` from the board's suit masks and ranks: four of a hole card's suit, or four in a row."""
    for suit in (sa, sb):
        mask = board_masks[suit] | (1 << ra if sa == suit else 0) | (1 << rb if sb == suit else 0)
        if mask.bit_count() == 4:
            return True
    return _open_ended(ranks | 1 << ra | 1 << rb)


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
    rest = [c for c in _DECK if c not in seen]
    board_key, board_masks = parts_of(board)
    by_ranks, by_suit_mask = STANDARD.by_ranks, STANDARD.by_suit_mask
    # flushes aside, two unseen cards count by their ranks alone: each pair of ranks the unseen cards hold is
    # tried once (at most 91), not each of the 990 pairs of cards
    left = [0] * 15
    for card in rest:
        left[card.rank] += 1
    ranks = [r for r in range(2, 15) if left[r]]
    for x, a in enumerate(ranks):
        with_a = board_key + POW5[a]
        for b in ranks[x:]:
            if (b != a or left[a] >= 2) and by_ranks[with_a + POW5[b]] > mine:
                return False
    # a flush or straight flush in a suit the board holds three of: the unseen cards of that suit add to the
    # board's, none (the board's own five), one (the other card any) or two of them
    for suit in range(4):
        if board_masks[suit].bit_count() < 3:
            continue
        bits = [1 << c.rank for c in rest if SUIT_INDEX[c.suit] == suit]
        masks = [board_masks[suit], *(board_masks[suit] | a for a in bits),
                 *(board_masks[suit] | a | b for x, a in enumerate(bits) for b in bits[x + 1 :])]
        for mask in masks:
            if mask.bit_count() >= 5 and by_suit_mask[mask] > mine:
                return False
    return True
