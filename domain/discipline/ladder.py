"""The federation's violations (bfsp 7.1.2-7.1.16) and their penalty ladder by occurrence, as data.

Each rung lists the sanctions the rule allows: a single one where the rule fixes it (7.1.2, first offence: a
warning), several where it gives a choice (7.1.11: one to four missed rounds, or disqualification from the
competition or for the season). A repeat is the same violation a second time or more (the rules' "two or
more times"); the rules do not say over what span repeats are counted, and this record counts them per
participant per competition, the span a DisciplinaryCase covers. Where the rules state no repeat penalty
(7.1.10, 7.1.11, 7.1.13-7.1.15) the first offence's choices stand; anything heavier is a 7.1.16 matter.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domain.errors import DisciplineError, RuleRef
from domain.officials import Act


class PenaltyKind(StrEnum):
    WARNING = "warning"
    MISSED_ROUNDS = "missed_rounds"
    COMPETITION_DISQUALIFICATION = "competition_disqualification"
    SEASON_DISQUALIFICATION = "season_disqualification"

    @property
    def act(self) -> Act:
        """The act in the roles table: who may impose it (bfsp 7.2.1-7.2.3)."""
        return _ACTS[self]

    @property
    def words(self) -> str:
        return _WORDS[self]


_ACTS = {
    PenaltyKind.WARNING: Act.WARNING_GIVEN,
    PenaltyKind.MISSED_ROUNDS: Act.MISSED_ROUNDS_IMPOSED,
    PenaltyKind.COMPETITION_DISQUALIFICATION: Act.COMPETITION_DISQUALIFICATION,
    PenaltyKind.SEASON_DISQUALIFICATION: Act.SEASON_DISQUALIFICATION,
}
_WORDS = {
    PenaltyKind.WARNING: "a warning",
    PenaltyKind.MISSED_ROUNDS: "missed rounds",
    PenaltyKind.COMPETITION_DISQUALIFICATION: "disqualification from the competition",
    PenaltyKind.SEASON_DISQUALIFICATION: "disqualification for the season",
}


@dataclass(frozen=True, slots=True)
class Sanction:
    """One sanction a rung allows; missed rounds with the range of rounds (``1, 4`` for 7.1.11)."""

    kind: PenaltyKind
    least_rounds: int = 0
    most_rounds: int = 0

    def allows(self, kind: PenaltyKind, rounds: int) -> bool:
        if kind is not self.kind:
            return False
        if kind is PenaltyKind.MISSED_ROUNDS:
            return self.least_rounds <= rounds <= self.most_rounds
        return rounds == 0

    def __str__(self) -> str:
        if self.kind is not PenaltyKind.MISSED_ROUNDS:
            return self.kind.words
        if self.least_rounds == self.most_rounds:
            return _rounds(self.least_rounds)
        return f"{self.least_rounds} to {self.most_rounds} missed rounds"


def _rounds(count: int) -> str:
    return "1 missed round" if count == 1 else f"{count} missed rounds"


WARNING = Sanction(PenaltyKind.WARNING)
COMPETITION_DQ = Sanction(PenaltyKind.COMPETITION_DISQUALIFICATION)
SEASON_DQ = Sanction(PenaltyKind.SEASON_DISQUALIFICATION)


def miss(least: int, most: int | None = None) -> Sanction:
    return Sanction(PenaltyKind.MISSED_ROUNDS, least, least if most is None else most)


#: 7.1.16 sets no bound on the rounds an official may give for unsportsmanlike behaviour; the longest sanction
#: the federation names anywhere (7.1.11) bounds it here
_MOST_ROUNDS_ANYWHERE = 4


@dataclass(frozen=True, slots=True)
class Violation:
    """A violation by its code, the sanctions of its first offence and of its repeats.

    ``deliberate`` adds choices to a repeat done on purpose (7.1.8: touching the muck or the burns to learn
    them); ``kills_hand`` marks 7.1.5, where an exposure made on purpose also kills the hand at once (an
    accidental one is played on face up and the penalty follows the hand: note 1 to 7.1.6).
    """

    code: str
    name: str
    first: tuple[Sanction, ...]
    repeat: tuple[Sanction, ...] = ()
    deliberate: tuple[Sanction, ...] = ()
    kills_hand: bool = False

    @property
    def rule(self) -> RuleRef:
        return RuleRef("bfsp", self.code)

    def sanctions(self, occurrence: int, intentional: bool) -> tuple[Sanction, ...]:
        """What the rule allows for the ``occurrence``-th time (1 = the first offence)."""
        if occurrence <= 1 or not self.repeat:
            return self.first
        return self.repeat + (self.deliberate if intentional else ())


LADDER: dict[str, Violation] = {
    v.code: v
    for v in (
        Violation("7.1.2", "keeping his cards after announcing a fold", (WARNING,), (miss(1),)),
        Violation("7.1.3", "acting out of turn on purpose", (WARNING,), (miss(1),)),
        Violation("7.1.4", "collusion (team play)", (miss(2),), (COMPETITION_DQ, SEASON_DQ)),
        Violation(
            "7.1.5", "exposing his cards before the betting round ended", (miss(1),), (miss(2),), kills_hand=True
        ),
        Violation("7.1.6", "announcing his cards or his combination during play", (miss(1),), (miss(2),)),
        Violation("7.1.7", "delaying the game unreasonably", (WARNING,), (miss(1),)),
        Violation(
            "7.1.8",
            "touching the muck, the burn cards or another player's cards",
            (WARNING,),
            (miss(1),),
            deliberate=(COMPETITION_DQ,),
        ),
        Violation("7.1.9", "throwing his cards onto another player's cards", (WARNING,), (miss(1),)),
        Violation("7.1.10", "placing chips where they obstruct the deal or the view of the cards", (WARNING,)),
        Violation(
            "7.1.11", "insulting a player or an official", (miss(1, 4), COMPETITION_DQ, SEASON_DQ)
        ),
        Violation("7.1.12", "acting or leaving the table out of turn", (WARNING,), (miss(1, 2),)),
        Violation("7.1.13", "talking on the phone at the table", (WARNING,)),
        Violation("7.1.14", "advising or discussing strategy during a hand", (WARNING, miss(1))),
        Violation("7.1.15", "soft play: checking or calling the nuts in position", (miss(1),)),
        Violation(
            "7.1.16",
            "unsportsmanlike behaviour",
            (WARNING, miss(1, _MOST_ROUNDS_ANYWHERE), COMPETITION_DQ),
        ),
    )
}


def violation(code: str) -> Violation:
    """The violation called ``code``; an unknown code is refused (the federation's list is 7.1.2-7.1.16)."""
    try:
        return LADDER[code]
    except KeyError:
        raise DisciplineError(
            f"the federation's rules have no violation {code}; its violations are 7.1.2 to 7.1.16",
            RuleRef("bfsp", "7.1.1"),
        ) from None


def verify_sanction(v: Violation, occurrence: int, intentional: bool, kind: PenaltyKind, rounds: int) -> None:
    """Refuse a penalty the ladder does not allow for this occurrence of ``v``."""
    allowed = v.sanctions(occurrence, intentional)
    if any(s.allows(kind, rounds) for s in allowed):
        return
    given = _rounds(rounds) if kind is PenaltyKind.MISSED_ROUNDS else kind.words
    time = "a first offence" if occurrence <= 1 else f"offence number {occurrence}"
    choices = " or ".join(str(s) for s in allowed)
    raise DisciplineError(
        f"{given} is not the penalty for {time} of {v.code} ({v.name}); the rule gives {choices}", v.rule
    )
