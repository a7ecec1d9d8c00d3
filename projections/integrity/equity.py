"""All-in equity: each player's share of the pot over the boards still to come, from the known hole cards.

Exact over every remaining river (and turn and river, up to the 990 of a flop all-in when asked); before the
flop, and on the flop by default, a fixed number of boards drawn with a generator seeded by the hand, so the
same hand always gets the same figure.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from domain.cards import Card, standard_deck
from domain.evaluation.encoding import POW5, SUIT_INDEX
from domain.evaluation.high import STANDARD, parts_of

#: boards drawn where more than one card is to come: the expectation to about ±6% of the pot per hand,
#: which over a player's all-ins averages out
SAMPLES = 60
#: the deck, made once (the cards left to come are taken from it for every all-in and nuts test)
_DECK = standard_deck()


def equities(
    hole: Sequence[Sequence[Card]], board: Sequence[Card], seed: str, dead: Sequence[Card] = ()
) -> list[float]:
    """Each hand's expected share of one pot all of them contest (ties split); ``dead``: other cards known
    not to come (a side pot's: the hole cards of the all-in players it does not concern)."""
    seen = {c for h in hole for c in h} | set(board) | set(dead)
    rest = [c for c in _DECK if c not in seen]
    missing = 5 - len(board)
    # a run is the positions in ``rest`` of the cards it deals
    if missing == 0:
        runs: list[tuple[int, ...]] = [()]
    elif missing == 1:
        runs = [(j,) for j in range(len(rest))]
    elif missing == 2 and len(rest) <= 46 and SAMPLES >= 990:
        runs = list(combinations(range(len(rest)), 2))
    else:
        runs = draws(random.Random(seed), len(rest), missing, SAMPLES)
    shares = [0.0] * len(hole)
    # the board's and each hand's parts are added up once, a run adds its cards' (the same strengths as
    # best_high of each hand with the full board, at a fraction of the cost); a suit is looked at for a flush
    # only where the full board and some hand could hold five of it
    board_key, board_masks = parts_of(board)
    hands = [parts_of(h) for h in hole]
    most = [max((masks[suit].bit_count() for _, masks in hands), default=0) for suit in range(4)]
    keys = [POW5[c.rank] for c in rest]
    cards = [(SUIT_INDEX[c.suit], 1 << c.rank) for c in rest]
    by_ranks, by_suit_mask = STANDARD.by_ranks, STANDARD.by_suit_mask
    for run in runs:
        full = board_masks.copy()
        run_key = board_key
        for j in run:
            suit, bit = cards[j]
            full[suit] |= bit
            run_key += keys[j]
        suits = [suit for suit in range(4) if full[suit].bit_count() + most[suit] >= 5]
        values = []
        for key, masks in hands:
            value = by_ranks[key + run_key]
            for suit in suits:
                mask = full[suit] | masks[suit]
                if mask.bit_count() >= 5:
                    flush = by_suit_mask[mask]
                    if flush > value:
                        value = flush
            values.append(value)
        top = max(values)
        winners = [i for i, v in enumerate(values) if v == top]
        for i in winners:
            shares[i] += 1 / len(winners)
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
