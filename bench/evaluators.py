"""Evaluations per second, ours against PokerKit 0.7.7, for every evaluation kind.

    .venv/bin/python bench/evaluators.py [--hands N] [--repeats R] [--seed S]

Both sides evaluate the same seeded random deals (hole + board as each kind's game deals them). Ours is
timed cold (first pass, tables empty) and warm (median of the repeats); PokerKit is timed on the same
deals (median of the repeats, on a slice of them because it is slow). The ratio is warm ours / PokerKit.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pokerkit as pk  # noqa: E402

from domain.cards import Card, format_cards, short_deck, standard_deck  # noqa: E402
from domain.evaluation import EvaluationKind, evaluate  # noqa: E402

Deal = tuple[list[Card], list[Card]]

#: kind → (PokerKit hand class, deck, hole cards, board cards), as the variants deal them.
GAMES: dict[EvaluationKind, tuple[type[pk.Hand], Callable[[], tuple[Card, ...]], int, int]] = {
    EvaluationKind.STANDARD_HIGH: (pk.StandardHighHand, standard_deck, 2, 5),
    EvaluationKind.SHORT_DECK_HIGH: (pk.ShortDeckHoldemHand, short_deck, 2, 5),
    EvaluationKind.OMAHA_HIGH: (pk.OmahaHoldemHand, standard_deck, 4, 5),
    EvaluationKind.EIGHT_OR_BETTER_LOW: (pk.EightOrBetterLowHand, standard_deck, 7, 0),
    EvaluationKind.OMAHA_EIGHT_OR_BETTER_LOW: (pk.OmahaEightOrBetterLowHand, standard_deck, 4, 5),
    EvaluationKind.RAZZ: (pk.RegularLowHand, standard_deck, 7, 0),
    EvaluationKind.DEUCE_TO_SEVEN_LOW: (pk.StandardLowHand, standard_deck, 5, 0),
    EvaluationKind.BADUGI: (pk.BadugiHand, standard_deck, 4, 0),
}


def deals(kind: EvaluationKind, count: int, rng: random.Random) -> list[Deal]:
    _, deck, hole, board = GAMES[kind]
    cards = deck()
    out = []
    for _ in range(count):
        drawn = rng.sample(cards, hole + board)
        out.append((drawn[:hole], drawn[hole:]))
    return out


def time_ours(kind: EvaluationKind, hands: Sequence[Deal]) -> float:
    start = time.perf_counter()
    for hole, board in hands:
        evaluate(kind, hole, board)
    return time.perf_counter() - start


def time_pokerkit(cls: type[pk.Hand], hands: Sequence[tuple[tuple[pk.Card, ...], tuple[pk.Card, ...]]]) -> float:
    start = time.perf_counter()
    for hole, board in hands:
        try:  # noqa: SIM105 - contextlib.suppress would add its own cost to PokerKit's time
            cls.from_game(hole, board)
        except ValueError:  # PokerKit's "no qualifying hand"
            pass
    return time.perf_counter() - start


def to_pokerkit(hands: Sequence[Deal]) -> list[tuple[tuple[pk.Card, ...], tuple[pk.Card, ...]]]:
    def convert(cards: Sequence[Card]) -> tuple[pk.Card, ...]:
        return tuple(pk.Card.parse(format_cards(tuple(cards))))

    return [(convert(hole), convert(board)) for hole, board in hands]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"{'kind':<27}{'ours cold/s':>13}{'ours warm/s':>13}{'pokerkit/s':>12}{'ratio':>8}")
    for kind, (cls, *_rest) in GAMES.items():
        hands = deals(kind, args.hands, rng)
        cold = args.hands / time_ours(kind, hands)
        warm = args.hands / statistics.median(time_ours(kind, hands) for _ in range(args.repeats))
        sample = to_pokerkit(hands[: max(200, args.hands // 20)])
        theirs = len(sample) / statistics.median(time_pokerkit(cls, sample) for _ in range(args.repeats))
        print(f"{kind.value:<27}{cold:>13,.0f}{warm:>13,.0f}{theirs:>12,.0f}{warm / theirs:>7.1f}x")


if __name__ == "__main__":
    main()
