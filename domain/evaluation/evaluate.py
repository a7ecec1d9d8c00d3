"""The public entry point: the best hand a player makes under a kind."""

from __future__ import annotations

from collections.abc import Sequence

from domain.cards import Card
from domain.evaluation.kinds import EvaluationKind
from domain.evaluation.strengths import strength_of
from domain.evaluation.value import HandValue


def evaluate(kind: EvaluationKind, hole: Sequence[Card], board: Sequence[Card]) -> HandValue | None:
    """The best hand a player makes under ``kind`` from ``hole`` and ``board``.

    Hold'em and short deck use any five of hole + board; Omaha kinds exactly two hole and three board
    cards; stud passes all seven cards as ``hole``; draw games pass the hand as ``hole`` and no board.
    Returns ``None`` when there are too few cards, or when an eight-or-better low does not qualify.
    The cards must be different cards (deck integrity is checked where cards are dealt, not here).
    Raises ``ValueError`` for a card below six in short deck.
    """
    strength = strength_of(kind, hole, board)
    if strength is None:
        return None
    return HandValue(kind, strength, tuple(hole), tuple(board))
