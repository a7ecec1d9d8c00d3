"""How strong a known hand is, in five buckets the statistics condition on (0 nothing … 4 a monster).

Before the flop a hand is placed by its Chen score among the 1,326 starting hands; after it, by what the
hole cards add to the board: a made hand the board alone does not make, top pair or better, draws.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from enum import IntEnum
from functools import cache
from typing import Final

from domain.cards import Card, standard_deck
from domain.evaluation.encoding import CATEGORY_SHIFT, POW5, SUIT_INDEX, ranks_of_key
from domain.evaluation.high import STANDARD, Category, best_high


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


# --- the same, with cards as ints ------------------------------------------------------------------------------
#
# The counting asks for the buckets of every player still in, street by street, in every hand (three times a
# hand on average), and the all-in equities and the evidence's words for a few. Reading a Card's suit hashes
# an enum in Python; here a card is one int read once a hand (:func:`card_code`), and the buckets, the
# categories and the nuts are worked out from those ints alone, which is what makes the module worth compiling
# (deploy/native.py). The Card-based functions above stay the definitions; the tests hold the two together.

#: the rank keys' powers, a Final name (compiled, a static, not a module dictionary's entry at every use)
_POW5: Final = POW5
#: where a strength's category begins (a strength is its category shifted by this, then its ranks)
_CATEGORY_SHIFT: Final = CATEGORY_SHIFT
#: categories and buckets as plain ints (compared with ints in the loops below)
_HIGH_CARD: Final = int(Category.HIGH_CARD)
_PAIR: Final = int(Category.PAIR)
_TWO_PAIR: Final = int(Category.TWO_PAIR)
_THREE_OF_A_KIND: Final = int(Category.THREE_OF_A_KIND)
_STRAIGHT: Final = int(Category.STRAIGHT)
_FLUSH: Final = int(Category.FLUSH)
_FULL_HOUSE: Final = int(Category.FULL_HOUSE)
_FOUR_OF_A_KIND: Final = int(Category.FOUR_OF_A_KIND)
_STRAIGHT_FLUSH: Final = int(Category.STRAIGHT_FLUSH)
_NOTHING: Final = int(Strength.NOTHING)
_WEAK: Final = int(Strength.WEAK)
_GOOD: Final = int(Strength.GOOD)
_STRONG: Final = int(Strength.STRONG)
_MONSTER: Final = int(Strength.MONSTER)
#: the categories of fewer than five cards by how many of one rank the most common has (two pairs apart)
_SMALL_CATEGORY: Final = (_HIGH_CARD, _PAIR, _THREE_OF_A_KIND, _FOUR_OF_A_KIND)

#: a suit's index (SUIT_INDEX) by the code point of its letter: a Suit is a one-letter string, and its letter is
#: read in C where hashing the enum calls Python
_SUIT_OF_LETTER: Final = [0] * 128
for _suit, _index in SUIT_INDEX.items():
    _SUIT_OF_LETTER[ord(_suit)] = _index


def card_code(card: Card) -> int:
    """A card as one int: its rank × 4 + its suit's index (``SUIT_INDEX``)."""
    return card.rank * 4 + _SUIT_OF_LETTER[ord(card.suit)]


def card_codes(cards: Sequence[Card]) -> list[int]:
    return [card.rank * 4 + _SUIT_OF_LETTER[ord(card.suit)] for card in cards]


def bits(mask: int) -> int:
    """How many ranks a rank bitmask (ranks 0–15) holds: ``int.bit_count`` in a few native operations."""
    mask = mask - ((mask >> 1) & 0x5555)
    mask = (mask & 0x3333) + ((mask >> 2) & 0x3333)
    mask = (mask + (mask >> 4)) & 0x0F0F
    return (mask + (mask >> 8)) & 0x1F


def _straight(mask: int) -> bool:
    """A rank bitmask holds five in a row (the wheel A-2-3-4-5 too): ``STANDARD.straight_high(mask) > 0``, the
    ace copied to bit 1 and every run of five found at once."""
    low = mask | (mask >> 13 & 2)
    return (low & low >> 1 & low >> 2 & low >> 3 & low >> 4) != 0


def _open_ended(mask: int) -> bool:
    """Four ranks in a row from 2-3-4-5 to T-J-Q-K (A-K-Q-J and A-2-3-4 have one end only)."""
    runs = mask & mask >> 1 & mask >> 2 & mask >> 3
    return runs & 0x7FC != 0


def _category_of_ranks(key: int) -> int:
    """The best category five or more cards make by their ranks alone (flushes aside), from their rank key: the
    category of ``STANDARD.by_ranks[key]`` without working out the hand's whole strength, which the buckets
    never read (that table fills at about 80 µs a new multiset, the tens of thousands a field deals)."""
    counts: dict[int, int] = {}
    for rank in ranks_of_key(key):
        counts[rank] = counts.get(rank, 0) + 1
    groups = sorted(counts.values(), reverse=True)
    if groups[0] >= 4:
        return _FOUR_OF_A_KIND
    if groups[0] == 3 and len(groups) > 1 and groups[1] >= 2:
        return _FULL_HOUSE
    mask = 0
    for rank in counts:
        mask |= 1 << rank
    if _straight(mask):
        return _STRAIGHT
    if groups[0] == 3:
        return _THREE_OF_A_KIND
    if groups[0] == 2:
        return _TWO_PAIR if groups[1] == 2 else _PAIR
    return _HIGH_CARD


#: rank key → :func:`_category_of_ranks`, filled as keys are met (at most the ~73,000 multisets of 5-7 cards);
#: a plain dict read by :func:`_rank_category` (a subclass of dict is read through its type's Python-level
#: ``__getitem__``, several times slower, and the buckets read it for every hand on every street)
_RANK_CATEGORY: Final[dict[int, int]] = {}


def _rank_category(key: int) -> int:
    found = _RANK_CATEGORY.get(key, -1)
    if found < 0:
        found = _RANK_CATEGORY[key] = _category_of_ranks(key)
    return found


def remember_rank_categories(known: Iterable[tuple[int, int]]) -> None:
    """Fills the table of categories by rank key ahead of use with (key, :func:`_category_of_ranks`) pairs
    worked out elsewhere all at once (projections/integrity/tables.py); an entry already there stays."""
    setdefault = _RANK_CATEGORY.setdefault
    for key, category in known:
        setdefault(key, category)


#: the standard ranking's strength by rank key and by one suit's rank mask (``STANDARD.by_ranks`` and
#: ``by_suit_mask``), mirrored in plain dicts as the all-in equities and the nuts meet them: those tables are dict
#: subclasses, read through the type's Python-level ``__getitem__``, several times slower compiled; they hold the
#: same values (the mirror is filled from them), at most the ~73,000 multisets and ~8,000 masks
_STRENGTH_OF_RANKS: Final[dict[int, int]] = {}
_STRENGTH_OF_SUIT: Final[dict[int, int]] = {}


def strength_of_ranks(key: int) -> int:
    """``STANDARD.by_ranks[key]``: the best five of five or more cards by their rank key, flushes aside."""
    found = _STRENGTH_OF_RANKS.get(key, -1)
    if found < 0:
        found = _STRENGTH_OF_RANKS[key] = STANDARD.by_ranks[key]
    return found


def strength_of_suit(mask: int) -> int:
    """``STANDARD.by_suit_mask[mask]``: the best flush or straight flush of one suit's five or more ranks."""
    found = _STRENGTH_OF_SUIT.get(mask, -1)
    if found < 0:
        found = _STRENGTH_OF_SUIT[mask] = STANDARD.by_suit_mask[mask]
    return found


def _category_of_parts(key: int, masks: list[int]) -> int:
    """The category of five or more cards from their rank key and suit masks (``parts_of``)."""
    found = _rank_category(key)
    for mask in masks:
        if bits(mask) >= 5:
            flush = _STRAIGHT_FLUSH if _straight(mask) else _FLUSH
            if flush > found:
                found = flush
    return found


def _category_of_codes(codes: list[int]) -> int:
    """:func:`_category` of cards given as codes."""
    if len(codes) < 5:
        counts = [0] * 15
        most = pairs = 0
        for code in codes:
            counts[code >> 2] += 1
        for n in counts:
            if n > most:
                most = n
            if n == 2:
                pairs += 1
        if most == 2 and pairs >= 2:
            return _TWO_PAIR
        return _SMALL_CATEGORY[most - 1]
    key = 0
    masks = [0, 0, 0, 0]
    for code in codes:
        rank = code >> 2
        key += _POW5[rank]
        masks[code & 3] |= 1 << rank
    return _category_of_parts(key, masks)


#: the bucket of each starting hand before the flop, at ((high rank × 15 + low rank) × 2 + suited); filled on
#: first use from :func:`preflop_bucket`'s own percentiles and cuts
_PREFLOP: Final[list[int]] = []


def _preflop_table() -> list[int]:
    if not _PREFLOP:
        table = [0] * (15 * 15 * 2)
        for (high, low, suited), share in _percentiles().items():
            bucket = 0
            for candidate, cut in zip((4, 3, 2, 1), _PREFLOP_CUTS, strict=True):
                if share >= cut:
                    bucket = candidate
                    break
            table[(high * 15 + low) * 2 + (1 if suited else 0)] = bucket
        _PREFLOP.extend(table)
    return _PREFLOP


#: the share of starting hands better than each, in whole percent as the words say it (at least 1), indexed as
#: :data:`_PREFLOP`; filled on first use from :func:`_percentiles` (compiled, ``round`` of a float is a call
#: through its type's ``__round__``, a bound method made each time: most of a hand's words before the flop)
_PREFLOP_TOP: Final[list[int]] = []


def _preflop_top() -> list[int]:
    if not _PREFLOP_TOP:
        table = [0] * (15 * 15 * 2)
        for (high, low, suited), share in _percentiles().items():
            table[(high * 15 + low) * 2 + (1 if suited else 0)] = max(1, round((1 - share) * 100))
        _PREFLOP_TOP.extend(table)
    return _PREFLOP_TOP


def buckets_on(holes: Sequence[Sequence[Card]], board: Sequence[Card]) -> list[int]:
    """Each hand's bucket on one board (:func:`preflop_bucket` with no board, else :func:`postflop_bucket`),
    -1 for a hand not of two known cards (:func:`buckets_of` with the cards as codes)."""
    codes: list[int] = []
    for hole in holes:
        if len(hole) == 2:
            codes.append(card_code(hole[0]))
            codes.append(card_code(hole[1]))
        else:
            codes.append(-1)
            codes.append(-1)
    return buckets_of(codes, card_codes(board))


def buckets_of(holes: list[int], board: list[int]) -> list[int]:
    """:func:`buckets_on` with cards as codes (:func:`card_code`): ``holes`` two codes a hand, -1 for a hand
    not known (or not in). What the board alone makes, its rank key and its suits are worked out once for every
    hand on it, and each hand's category is looked up from its rank key."""
    n = len(holes) // 2
    found = [-1] * n
    if not board:
        table = _preflop_table()
        for k in range(n):
            a, b = holes[2 * k], holes[2 * k + 1]
            if a < 0 or b < 0:
                continue
            ra, rb = a >> 2, b >> 2
            if ra >= rb:
                at = (ra * 15 + rb) * 2 + (1 if (a & 3) == (b & 3) and ra != rb else 0)
            else:
                at = (rb * 15 + ra) * 2 + (1 if (a & 3) == (b & 3) else 0)
            found[k] = table[at]
        return found
    board_key = ranks = top = 0
    masks = [0, 0, 0, 0]
    #: the board's cards of each rank, and how many of its ranks it holds twice, three and four times
    held = [0] * 15
    for code in board:
        rank = code >> 2
        board_key += _POW5[rank]
        masks[code & 3] |= 1 << rank
        ranks |= 1 << rank
        held[rank] += 1
        if rank > top:
            top = rank
    twice = thrice = four = 0
    for count in held:
        if count == 2:
            twice += 1
        elif count == 3:
            thrice += 1
        elif count == 4:
            four += 1
    board_only = _category_of_codes(board) if len(board) < 5 else _category_of_parts(board_key, masks)
    # more than the board makes by itself: two pair on a paired board needs the hole cards to add a pair
    strong_above = board_only + (1 if board_only >= 1 else 0)
    # a flush needs three board cards of its suit beside the two hole cards
    m0, m1, m2, m3 = masks[0], masks[1], masks[2], masks[3]
    f0, f1, f2, f3 = bits(m0) >= 3, bits(m1) >= 3, bits(m2) >= 3, bits(m3) >= 3
    drawing = len(board) < 5
    for k in range(n):
        a, b = holes[2 * k], holes[2 * k + 1]
        if a < 0 or b < 0:
            continue
        ra, rb = a >> 2, b >> 2
        sa, sb = a & 3, b & 3
        # the category by ranks, from the board's groups and the one or two ranks the hole cards add to (the
        # category of the rank key, _category_of_ranks, without looking the key up in a table of 73,000)
        x2, x3, x4 = twice, thrice, four
        if ra == rb:
            was = held[ra]
            if was == 2:
                x2 -= 1
            if was == 0:
                x2 += 1
            elif was == 1:
                x3 += 1
            else:
                x4 += 1
        else:
            was = held[ra]
            if was == 2:
                x2, x3 = x2 - 1, x3 + 1
            elif was == 1:
                x2 += 1
            elif was == 3:
                x3, x4 = x3 - 1, x4 + 1
            was = held[rb]
            if was == 2:
                x2, x3 = x2 - 1, x3 + 1
            elif was == 1:
                x2 += 1
            elif was == 3:
                x3, x4 = x3 - 1, x4 + 1
        if x4:
            mine = _FOUR_OF_A_KIND
        elif x3 and (x3 > 1 or x2):
            mine = _FULL_HOUSE
        elif _straight(ranks | 1 << ra | 1 << rb):
            mine = _STRAIGHT
        elif x3:
            mine = _THREE_OF_A_KIND
        elif x2 > 1:
            mine = _TWO_PAIR
        elif x2:
            mine = _PAIR
        else:
            mine = _HIGH_CARD
        if f0 or f1 or f2 or f3:
            for suit in range(4):
                if suit == 0:
                    if not f0:
                        continue
                    mask = m0
                elif suit == 1:
                    if not f1:
                        continue
                    mask = m1
                elif suit == 2:
                    if not f2:
                        continue
                    mask = m2
                else:
                    if not f3:
                        continue
                    mask = m3
                if sa == suit:
                    mask |= 1 << ra
                if sb == suit:
                    mask |= 1 << rb
                if bits(mask) >= 5:
                    flush = _STRAIGHT_FLUSH if _straight(mask) else _FLUSH
                    if flush > mine:
                        mine = flush
        if mine >= _STRAIGHT and mine > board_only:
            found[k] = _MONSTER
            continue
        if _TWO_PAIR <= mine <= _THREE_OF_A_KIND and mine > strong_above:  # two pair or trips
            found[k] = _STRONG
            continue
        best = 0
        if ranks >> ra & 1 or ra == rb:
            best = ra
        if ranks >> rb & 1 and rb > best:
            best = rb
        if best >= top:
            found[k] = _GOOD
        elif best or (drawing and _draws(ra, rb, sa, sb, masks, ranks)):
            found[k] = _WEAK
        else:
            found[k] = _NOTHING
    return found


def _draws(ra: int, rb: int, sa: int, sb: int, board_masks: list[int], ranks: int) -> bool:
    """:func:`_draw` from the board's suit masks and ranks: four of a hole card's suit, or four in a row."""
    mask = board_masks[sa] | 1 << ra
    if sb == sa:
        mask |= 1 << rb
    if bits(mask) == 4:
        return True
    mask = board_masks[sb] | 1 << rb
    if sa == sb:
        mask |= 1 << ra
    if bits(mask) == 4:
        return True
    return _open_ended(ranks | 1 << ra | 1 << rb)


def bucket(hole: Sequence[Card], board: Sequence[Card]) -> Strength:
    return postflop_bucket(hole, board) if board else preflop_bucket(hole)


def describe(hole: Sequence[Card], board: Sequence[Card]) -> str:
    """The hand in words for an alert: ``"AsKs (a flush)"``, ``"QhQd (top 3% before the flop)"``."""
    return describe_codes(card_codes(hole), card_codes(board))


def describe_codes(hole: list[int], board: list[int]) -> str:
    """:func:`describe` of two hole cards and a board given as codes."""
    cards = "".join([_CARD_NAMES[code] for code in hole])
    if not board:
        a, b = hole[0] >> 2, hole[1] >> 2
        high, low = (a, b) if a >= b else (b, a)
        suited = 1 if (hole[0] & 3) == (hole[1] & 3) and high != low else 0
        return f"{cards} (top {_preflop_top()[(high * 15 + low) * 2 + suited]}% before the flop)"
    category = _category_of_codes(hole + board)
    words = _CATEGORY_WORDS[category]
    if category >= _STRAIGHT and len(board) >= 5 and _is_nuts(hole, board):
        words = "the nuts, " + words
    return f"{cards} ({words})"


#: the deck's cards as codes, in the deck's order (the cards left to come are taken from it, in that order)
DECK_CODES: Final = card_codes(_DECK)
#: each card's name by its code ("As"), and each category's words by its number
_CARD_NAMES: Final = [""] * 60
for _card in _DECK:
    _CARD_NAMES[card_code(_card)] = str(_card)
_CATEGORY_WORDS: Final = [_HOLE_WORDS[category] for category in Category]


def _is_nuts(hole: list[int], board: list[int]) -> bool:
    """No two other unseen cards make a better hand with this board (five board cards)."""
    board_key = 0
    board_masks = [0, 0, 0, 0]
    for code in board:
        board_key += _POW5[code >> 2]
        board_masks[code & 3] |= 1 << (code >> 2)
    mine = strength_of_ranks(board_key + _POW5[hole[0] >> 2] + _POW5[hole[1] >> 2])
    for suit in range(4):
        mask = board_masks[suit]
        for code in hole:
            if code & 3 == suit:
                mask |= 1 << (code >> 2)
        if bits(mask) >= 5:
            flush = strength_of_suit(mask)
            if flush > mine:
                mine = flush
    seen = 0
    for code in hole:
        seen |= 1 << code
    for code in board:
        seen |= 1 << code
    rest = [code for code in DECK_CODES if not seen >> code & 1]
    # flushes aside, two unseen cards count by their ranks alone: each pair of ranks the unseen cards hold is
    # tried once (at most 91), not each of the 990 pairs of cards. On a board of five ranks two cards make at best
    # a straight (a full house or four of a kind needs a pair on the board): against a flush or better none need
    # trying, against a straight only those that make one (bit operations, where a strength is a table lookup)
    board_ranks = board_masks[0] | board_masks[1] | board_masks[2] | board_masks[3]
    unpaired = len(board) == 5 and bits(board_ranks) == 5
    category = mine >> _CATEGORY_SHIFT
    if not (unpaired and category >= _FLUSH):
        straights_only = unpaired and category >= _STRAIGHT
        left = [0] * 15
        for code in rest:
            left[code >> 2] += 1
        for a in range(2, 15):
            if not left[a]:
                continue
            with_a = board_key + _POW5[a]
            for b in range(a, 15):
                if not left[b] or (b == a and left[a] < 2):
                    continue
                if straights_only and not _straight(board_ranks | 1 << a | 1 << b):
                    continue
                if strength_of_ranks(with_a + _POW5[b]) > mine:
                    return False
    # a flush or straight flush in a suit the board holds three of: the unseen cards of that suit add to the
    # board's, none (the board's own five), one (the other card any) or two of them
    for suit in range(4):
        held = board_masks[suit]
        if bits(held) < 3:
            continue
        suited = [1 << (code >> 2) for code in rest if code & 3 == suit]
        if bits(held) >= 5 and strength_of_suit(held) > mine:
            return False
        for x in range(len(suited)):
            one = held | suited[x]
            if bits(one) >= 5 and strength_of_suit(one) > mine:
                return False
            for y in range(x + 1, len(suited)):
                two = one | suited[y]
                if bits(two) >= 5 and strength_of_suit(two) > mine:
                    return False
    return True
