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
from domain.evaluation.high import STANDARD, best_high

#: boards drawn where more than one card is to come: the expectation to about ±6% of the pot per hand,
#: which over a player's all-ins averages out
SAMPLES = 60


def equities(
    hole: Sequence[Sequence[Card]], board: Sequence[Card], seed: str, dead: Sequence[Card] = ()
) -> list[float]:
    """Each hand's expected share of one pot all of them contest (ties split); ``dead``: other cards known
    not to come (a side pot's: the hole cards of the all-in players it does not concern)."""
    seen = {c for h in hole for c in h} | set(board) | set(dead)
    rest = [c for c in standard_deck() if c not in seen]
    missing = 5 - len(board)
    if missing == 0:
        runs: list[tuple[Card, ...]] = [()]
    elif missing == 1:
        runs = [(c,) for c in rest]
    elif missing == 2 and len(rest) <= 46 and SAMPLES >= 990:
        runs = list(combinations(rest, 2))
    else:
        rng = random.Random(seed)
        runs = [tuple(rng.sample(rest, missing)) for _ in range(SAMPLES)]
    shares = [0.0] * len(hole)
    base = list(board)
    for run in runs:
        full = base + list(run)
        values = [best_high([*h, *full], STANDARD) for h in hole]
        top = max(values)
        winners = [i for i, v in enumerate(values) if v == top]
        for i in winners:
            shares[i] += 1 / len(winners)
    return [s / len(runs) for s in shares]
