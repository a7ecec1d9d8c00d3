"""The rulings event catalog: officials' rulings on a hand and the Chief Judge's inspection of mucked cards."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from domain.errors import RuleRef
from domain.hand.events import PotShare
from domain.officials import Act, NamesItsOfficial
from domain.roles import Role


class RulingKind(StrEnum):
    #: a judge decides whether a game event took place; protestable to the Chief Judge (bfsp 2.2.3)
    FINDING_OF_FACT = "finding_of_fact"
    #: the Chief Judge decides: a protest at the event, a situation the rules do not cover (bfsp 2.1.3, 2.1.6)
    CHIEF_JUDGE_DECISION = "chief_judge_decision"
    #: the Chief Judge departs from the rules when fairness requires it, and says why (bfsp 7.4.1; TDA 2022 1)
    FAIRNESS_OVERRIDE = "fairness_override"

    @property
    def act(self) -> Act:
        return _ACTS[self]


_ACTS = {
    RulingKind.FINDING_OF_FACT: Act.FINDING_OF_FACT,
    RulingKind.CHIEF_JUDGE_DECISION: Act.CHIEF_JUDGE_DECISION,
    RulingKind.FAIRNESS_OVERRIDE: Act.FAIRNESS_RULING,
}


@dataclass(frozen=True, slots=True)
class PotReaward:
    """A pot (or half of one) awarded again: its new shares replace the engine's."""

    pot_index: int
    shares: tuple[PotShare, ...]
    half: str = ""


@dataclass(frozen=True, slots=True)
class RulingIssued:
    """An official's ruling on ``hand``: what he found or decided (``finding``) under ``rule``, and how it
    amends the engine's outcome — pots re-awarded, hands declared dead, folded or mucked hands restored.

    A fairness override names the rules it departs from (``deviates_from``) and its ``justification``.
    ``amends`` names the ruling this one replaces (the Chief Judge's decision on a protested finding).
    """

    ruling: str
    hand: str
    kind: RulingKind
    official: str
    role: Role
    rule: str
    finding: str
    reawards: tuple[PotReaward, ...] = ()
    dead: tuple[int, ...] = ()
    restored: tuple[int, ...] = ()
    deviates_from: tuple[str, ...] = ()
    justification: str = ""
    amends: str = ""

    #: a ruling names the official who issued it, by person and office: recorded by him (bfsp 2.1.1)
    NAMES_ITS_OFFICIAL: ClassVar[NamesItsOfficial] = NamesItsOfficial(
        "ruling", "issued", role="role", person="official", rule=RuleRef("bfsp", "2.1.1")
    )


@dataclass(frozen=True, slots=True)
class HandReviewOpened:
    """The record of the officials' rulings on one hand opens (with its first ruling or inspection)."""

    competition: str
    hand: str


class InspectionOutcome(StrEnum):
    TEAM_PLAY_FOUND = "team_play_found"
    NO_TEAM_PLAY = "no_team_play"


@dataclass(frozen=True, slots=True)
class MuckedCardsInspected:
    """The Chief Judge alone looked at the mucked hands of ``seats`` on a suspicion of team play raised by
    ``suspected_by`` (bfsp 5.9.2). Finding team play, he shows the cards to all participants to justify it
    (``shown_to_table``); finding none, nobody else sees them."""

    hand: str
    seats: tuple[int, ...]
    suspected_by: Role
    suspicion: str
    outcome: InspectionOutcome
    shown_to_table: bool
    inspected_by: Role


CATALOG: dict[str, type] = {cls.__name__: cls for cls in (HandReviewOpened, RulingIssued, MuckedCardsInspected)}
