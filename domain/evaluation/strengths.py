"""Which evaluator serves which kind, and how many cards each needs; strengths as plain ints."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain

from domain.cards import Card
from domain.evaluation.badugi import best_badugi
from domain.evaluation.high import STANDARD, best_high, best_omaha, best_short_deck
from domain.evaluation.kinds import EvaluationKind
from domain.evaluation.low import (
    best_deuce_to_seven,
    best_eight_or_better,
    best_omaha_eight_or_better,
    best_razz,
)

FIVE = 5
OMAHA_HOLE = 2
OMAHA_BOARD = 3


def _any_five(best: Callable[[Sequence[Card]], int | None]) -> Callable[[Sequence[Card], Sequence[Card]], int | None]:
    def strength(hole: Sequence[Card], board: Sequence[Card]) -> int | None:
        cards = list(chain(hole, board)) if board else hole
        if len(cards) < FIVE:
            return None
        return best(cards)

    return strength


def _standard(cards: Sequence[Card]) -> int:
    return best_high(cards, STANDARD)


def _omaha_high(hole: Sequence[Card], board: Sequence[Card]) -> int | None:
    if len(hole) < OMAHA_HOLE or len(board) < OMAHA_BOARD:
        return None
    return best_omaha(hole, board, STANDARD)


def _omaha_eight(hole: Sequence[Card], board: Sequence[Card]) -> int | None:
    if len(hole) < OMAHA_HOLE or len(board) < OMAHA_BOARD:
        return None
    return best_omaha_eight_or_better(hole, board)


def _badugi(hole: Sequence[Card], board: Sequence[Card]) -> int | None:
    cards = list(chain(hole, board)) if board else hole
    if not cards:
        return None
    return best_badugi(cards)


_STRENGTH: dict[EvaluationKind, Callable[[Sequence[Card], Sequence[Card]], int | None]] = {
    EvaluationKind.STANDARD_HIGH: _any_five(_standard),
    EvaluationKind.SHORT_DECK_HIGH: _any_five(best_short_deck),
    EvaluationKind.OMAHA_HIGH: _omaha_high,
    EvaluationKind.EIGHT_OR_BETTER_LOW: _any_five(best_eight_or_better),
    EvaluationKind.OMAHA_EIGHT_OR_BETTER_LOW: _omaha_eight,
    EvaluationKind.RAZZ: _any_five(best_razz),
    EvaluationKind.DEUCE_TO_SEVEN_LOW: _any_five(best_deuce_to_seven),
    EvaluationKind.BADUGI: _badugi,
}


def strength_of(kind: EvaluationKind, hole: Sequence[Card], board: Sequence[Card]) -> int | None:
    """The raw strength number of :func:`evaluate` (higher is better), or ``None``."""
    return _STRENGTH[kind](hole, board)

