"""Hand evaluators: the best hand each player makes, for every kind of showdown the variants use.

``evaluate(kind, hole, board)`` returns a :class:`HandValue` (higher is better for every kind, lows
included) or ``None``; ``showing_rank`` and ``bring_in_key`` order stud boards. Pure, table-driven and
memoised: tables fill on first use, never at import.
"""

from domain.evaluation.evaluate import evaluate
from domain.evaluation.kinds import EvaluationKind
from domain.evaluation.showing import bring_in_key, showing_rank
from domain.evaluation.value import HandValue

__all__ = ["EvaluationKind", "HandValue", "bring_in_key", "evaluate", "showing_rank"]
