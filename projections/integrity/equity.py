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
from domain.evaluation.high import STANDARD, parts_of, strength_of

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
    # the board's and each hand's parts are added up once; a run adds its own (the same strengths as
    # best_high of each hand with the full board, at a fraction of the cost)
    board_key, board_masks = parts_of(board)
    hands = []
    for h in hole:
        key, masks = parts_of(h)
        hands.append((key + board_key, [m | b for m, b in zip(masks, board_masks, strict=True)]))
    for run in runs:
        run_key, run_masks = parts_of(run)
        values = [strength_of(key + run_key, [m | r for m, r in zip(masks, run_masks, strict=True)], STANDARD)
                  for key, masks in hands]
        top = max(values)
        winners = [i for i, v in enumerate(values) if v == top]
        for i in winners:
            shares[i] += 1 / len(winners)
    return [s / len(runs) for s in shares]
