"""The value of a hand at showdown: one ordered, hashable number per kind, higher always better."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from domain.cards import SUIT_SENIORITY, Card
from domain.evaluation.badugi import badugi_ranks, best_badugi_cards
from domain.evaluation.high import NO_WHEEL, SHORT_DECK, STANDARD
from domain.evaluation.kinds import LOW_KINDS, EvaluationKind
from domain.evaluation.low import low_rank
from domain.evaluation.strengths import strength_of
from domain.evaluation.words import describe_badugi, describe_deuce_to_seven, describe_high, describe_low

_OMAHA_KINDS = frozenset({EvaluationKind.OMAHA_HIGH, EvaluationKind.OMAHA_EIGHT_OR_BETTER_LOW})
#: The five-card kind that scores one Omaha combination (the strengths are the same numbers).
_FIVE_CARD_KIND = {
    EvaluationKind.OMAHA_HIGH: EvaluationKind.STANDARD_HIGH,
    EvaluationKind.OMAHA_EIGHT_OR_BETTER_LOW: EvaluationKind.EIGHT_OR_BETTER_LOW,
}


@dataclass(frozen=True, slots=True, eq=False)
class HandValue:
    """A player's best hand under one :class:`EvaluationKind`.

    Values of the same kind compare by strength only (equal values split the pot); comparing values of
    different kinds is a programming error and raises ``TypeError``. The cards a hand plays are worked out
    only when asked for (``cards``), so showdowns that only compare pay nothing for them.
    """

    kind: EvaluationKind
    strength: int
    hole: tuple[Card, ...]
    board: tuple[Card, ...]

    def _other(self, other: object) -> int:
        if not isinstance(other, HandValue):
            raise TypeError(f"cannot compare a hand value with {type(other).__name__}")
        if other.kind is not self.kind:
            raise TypeError(f"cannot compare a {self.kind} hand with a {other.kind} hand")
        return other.strength

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return other.kind is self.kind and other.strength == self.strength

    def __hash__(self) -> int:
        return hash((self.kind, self.strength))

    def __lt__(self, other: HandValue) -> bool:
        return self.strength < self._other(other)

    def __le__(self, other: HandValue) -> bool:
        return self.strength <= self._other(other)

    def __gt__(self, other: HandValue) -> bool:
        return self.strength > self._other(other)

    def __ge__(self, other: HandValue) -> bool:
        return self.strength >= self._other(other)

    def __repr__(self) -> str:
        return f"HandValue({self.kind.value}, {self.describe()!r})"

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards the hand plays (five; up to four in badugi), highest first in the kind's order."""
        if self.kind is EvaluationKind.BADUGI:
            chosen = best_badugi_cards(self.hole + self.board)
        else:
            chosen = self._five_cards()
        ace_low = self.kind in LOW_KINDS and self.kind is not EvaluationKind.DEUCE_TO_SEVEN_LOW
        ranks = [low_rank(c.rank) if ace_low else c.rank for c in chosen]
        # Reading order: the biggest group first (trips before the pair), then rank, then suit.
        order = sorted(
            zip(chosen, ranks, strict=True),
            key=lambda cr: (ranks.count(cr[1]), cr[1], SUIT_SENIORITY[cr[0].suit]),
            reverse=True,
        )
        return tuple(card for card, _ in order)

    def _five_cards(self) -> tuple[Card, ...]:
        if self.kind in _OMAHA_KINDS:
            five_kind = _FIVE_CARD_KIND[self.kind]
            for two in combinations(self.hole, 2):
                for three in combinations(self.board, 3):
                    if strength_of(five_kind, two + three, ()) == self.strength:
                        return two + three
        else:
            for five in combinations(self.hole + self.board, 5):
                if strength_of(self.kind, five, ()) == self.strength:
                    return five
        raise AssertionError(f"no five cards make {self.strength} under {self.kind}")

    def describe(self) -> str:
        """The hand as a dealer reads it: "flush, ace high", "two pair, kings and sevens", "8-6-4-2-A low"."""
        kind = self.kind
        if kind in (EvaluationKind.STANDARD_HIGH, EvaluationKind.OMAHA_HIGH):
            return describe_high(self.strength, STANDARD)
        if kind is EvaluationKind.SHORT_DECK_HIGH:
            return describe_high(self.strength, SHORT_DECK)
        if kind is EvaluationKind.DEUCE_TO_SEVEN_LOW:
            return describe_deuce_to_seven(-self.strength, NO_WHEEL)
        if kind is EvaluationKind.BADUGI:
            return describe_badugi(badugi_ranks(self.strength))
        return describe_low(self.strength)
