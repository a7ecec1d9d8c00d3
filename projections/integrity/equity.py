"""All-in equity: each player's share of the pot over the boards still to come, from the known hole cards.

Exact over every remaining river (and turn and river, up to the 990 of a flop all-in when asked); before the
flop, and on the flop by default, a fixed number of boards drawn with a generator seeded by the hand, so the
same hand always gets the same figure.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Final

from domain.cards import Card
from domain.evaluation.encoding import POW5
from domain.integrity.strength import DECK_CODES, bits, card_codes, strength_of_ranks, strength_of_suit

#: boards drawn where more than one card is to come: the expectation to about ±6% of the pot per hand,
#: which over a player's all-ins averages out
SAMPLES: Final = 60
#: the rank keys' powers, a Final name (compiled, a static, not a module dictionary's entry at every use)
_POW5: Final = POW5


def equities(
    hole: Sequence[Sequence[Card]], board: Sequence[Card], seed: str, dead: Sequence[Card] = ()
) -> list[float]:
    """Each hand's expected share of one pot all of them contest (ties split); ``dead``: other cards known
    not to come (a side pot's: the hole cards of the all-in players it does not concern)."""
    return equities_of([card_codes(h) for h in hole], card_codes(board), seed, card_codes(dead))


def equities_of(hole: list[list[int]], board: list[int], seed: str, dead: list[int]) -> list[float]:
    """:func:`equities` with cards as codes (domain/integrity/strength.py's ``card_code``)."""
    seen = 0
    for cards in hole:
        for code in cards:
            seen |= 1 << code
    for code in board:
        seen |= 1 << code
    for code in dead:
        seen |= 1 << code
    # the cards to come in the deck's order: a run is the positions in ``rest`` of the cards it deals
    rest = [code for code in DECK_CODES if not seen >> code & 1]
    missing = 5 - len(board)
    if missing == 0:
        runs: list[tuple[int, ...]] = [()]
    elif missing == 1:
        runs = [(j,) for j in range(len(rest))]
    elif missing == 2 and len(rest) <= 46 and SAMPLES >= 990:
        runs = list(combinations(range(len(rest)), 2))
    else:
        runs = draws(random.Random(seed), len(rest), missing, SAMPLES)
    n = len(hole)
    shares = [0.0] * n
    # the board's and each hand's parts are added up once, a run adds its cards' (the same strengths as
    # best_high of each hand with the full board, at a fraction of the cost); a suit is looked at for a flush
    # only where the full board and some hand could hold five of it
    board_key = b0 = b1 = b2 = b3 = 0
    for code in board:
        board_key += _POW5[code >> 2]
        if code & 3 == 0:
            b0 |= 1 << (code >> 2)
        elif code & 3 == 1:
            b1 |= 1 << (code >> 2)
        elif code & 3 == 2:
            b2 |= 1 << (code >> 2)
        else:
            b3 |= 1 << (code >> 2)
    #: each hand's rank key, and its suit masks four by four
    keys = [0] * n
    masks = [0] * (4 * n)
    most0 = most1 = most2 = most3 = 0
    for h in range(n):
        for code in hole[h]:
            keys[h] += _POW5[code >> 2]
            masks[4 * h + (code & 3)] |= 1 << (code >> 2)
        most0 = max(most0, bits(masks[4 * h]))
        most1 = max(most1, bits(masks[4 * h + 1]))
        most2 = max(most2, bits(masks[4 * h + 2]))
        most3 = max(most3, bits(masks[4 * h + 3]))
    rest_keys = [_POW5[code >> 2] for code in rest]
    values = [0] * n
    for run in runs:
        f0, f1, f2, f3 = b0, b1, b2, b3
        run_key = board_key
        for j in run:
            code = rest[j]
            bit = 1 << (code >> 2)
            suit = code & 3
            if suit == 0:
                f0 |= bit
            elif suit == 1:
                f1 |= bit
            elif suit == 2:
                f2 |= bit
            else:
                f3 |= bit
            run_key += rest_keys[j]
        c0, c1 = bits(f0) + most0 >= 5, bits(f1) + most1 >= 5
        c2, c3 = bits(f2) + most2 >= 5, bits(f3) + most3 >= 5
        flushes = c0 or c1 or c2 or c3
        top = -1
        for h in range(n):
            value = strength_of_ranks(keys[h] + run_key)
            if flushes:
                at = 4 * h
                if c0:
                    mask = f0 | masks[at]
                    if bits(mask) >= 5:
                        value = max(value, strength_of_suit(mask))
                if c1:
                    mask = f1 | masks[at + 1]
                    if bits(mask) >= 5:
                        value = max(value, strength_of_suit(mask))
                if c2:
                    mask = f2 | masks[at + 2]
                    if bits(mask) >= 5:
                        value = max(value, strength_of_suit(mask))
                if c3:
                    mask = f3 | masks[at + 3]
                    if bits(mask) >= 5:
                        value = max(value, strength_of_suit(mask))
            values[h] = value
            if value > top:
                top = value
        winners = 0
        for h in range(n):
            if values[h] == top:
                winners += 1
        share = 1 / winners
        for h in range(n):
            if values[h] == top:
                shares[h] += share
    return [s / len(runs) for s in shares]


def draws(rng: random.Random, n: int, k: int, count: int) -> list[tuple[int, ...]]:
    """``count`` draws of ``k`` distinct positions out of ``n``: each what ``rng.sample(range(n), k)`` gives
    (the same numbers taken from the generator, so the same boards as ever), without its per-call cost, which
    was a third of the live statistics' time. ``rng.sample`` itself where it would shuffle a pool instead
    (``n`` ≤ 21, or more than five cards)."""
    if n <= 21 or k > 5:
        return [tuple(rng.sample(range(n), k)) for _ in range(count)]
    getrandbits, bits = rng.getrandbits, n.bit_length()
    result = []
    for _ in range(count):
        picked: list[int] = []
        for _ in range(k):
            j = getrandbits(bits)
            while j >= n or j in picked:
                j = getrandbits(bits)
            picked.append(j)
        result.append(tuple(picked))
    return result
