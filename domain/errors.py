"""The error hierarchy of the rules engine.

Every refusal names the rulebook and the rule it applies and says, in words a floor official would use,
what was wrong: ``seat 4 raised to 1,300; the minimum raise is to 1,400 (bfsp 4.9.6)``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RuleRef:
    """A citation: which rulebook, which rule (``RuleRef("bfsp", "4.9.6")``)."""

    rulebook: str
    rule: str

    def __str__(self) -> str:
        return f"{self.rulebook} {self.rule}"


class RuleError(Exception):
    """Something the rules do not allow. ``rule`` is the citation, ``reason`` the sentence without it."""

    def __init__(self, reason: str, rule: RuleRef) -> None:
        self.reason = reason
        self.rule = rule
        super().__init__(f"{reason} ({rule})")

    @property
    def message(self) -> str:
        return str(self)


class HandError(RuleError):
    """An event at a hand the rules do not allow."""


class CompetitionError(RuleError):
    """A competition act the rules do not allow: registration, draw, move, level, elimination, placing."""


class NotPermittedError(RuleError):
    """An act recorded by someone whose role may not do it (the federation's roles table)."""


class DisciplineError(RuleError):
    """A violation, penalty or ruling the rules do not allow as recorded."""


class ProtestError(RuleError):
    """A challenge or protest filed late, by the wrong person or through the wrong channel."""


class IntegrityCaseError(RuleError):
    """An integrity case's act the rules of its workflow do not allow (domain/integrity/case.py)."""


class IllegalActionError(HandError):
    """A player act (fold, check, call, bet, raise, complete, bring-in, draw, show) the rules forbid."""


class OutOfTurnError(IllegalActionError):
    """A player acted when it was not his turn."""


class DealingError(HandError):
    """A deal that breaks deck integrity: a duplicate card, a wrong count, a missing or extra burn."""


class ForcedBetError(HandError):
    """An ante, blind, straddle or bring-in posted by the wrong seat or for the wrong amount."""


class HandStateError(HandError):
    """An event that does not fit the phase of the hand (a deal after the hand ended, a second start)."""


class RulingRequired(HandError):
    """The rules leave this to a director's discretion: the engine asks for a ruling instead of deciding."""


def chips(amount: int) -> str:
    """Chip amounts the way a dealer announces them: ``1,300``."""
    return f"{amount:,}"


def verify_agrees(
    reported: object, computed: object, what: str, rule: RuleRef, error: type[RuleError] = CompetitionError
) -> None:
    """A value a record reports that the rules derive (a draw's buttons, a level's blinds, a place, an
    occurrence) must be the rules' own: the record is refused with the rule that fixes it, never trusted."""
    if reported != computed:
        raise error(f"the record says {what} {reported}; the rules give {computed}", rule)
