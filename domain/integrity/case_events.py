"""The integrity case's event catalog: a suspicion of collusion opened, noted, concluded and, when confirmed at a
competition, reported to its Chief Judge as a violation (bfsp 7.1.4, 7.1.15).

Hands are named by their ids as the API names them (``/v1/hands/{hand_id}``); players as the hands name them.
Who recorded an act (person and role) is in its meta, filled at the edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class CaseOrigin(StrEnum):
    #: opened from the alert queue: the alert's score, reasons and evidence hands come with it
    ALERT = "alert"
    #: found by the integrity team's own review (a pair's page, a player's statistics)
    PROACTIVE = "proactive"
    #: a player's or an official's complaint
    COMPLAINT = "complaint"


class Suspicion(StrEnum):
    """What the players are suspected of: the alert queue's behaviours."""

    SOFT_PLAY = "soft_play"
    CHIP_DUMPING = "chip_dumping"
    TEAM_PLAY = "team_play"


class CaseOutcome(StrEnum):
    #: the evidence shows the players colluded
    CONFIRMED = "confirmed"
    #: the evidence does not: honest play (friends who sit together, a loose regular, a run of cards)
    CLEARED = "cleared"


@dataclass(frozen=True, slots=True)
class EvidenceHand:
    """A hand that speaks to the suspicion, and why in words ("P038 checked the nut flush behind P060")."""

    hand_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class IntegrityCaseOpened:
    case: str
    competition: str
    players: tuple[str, ...]
    suspicion: Suspicion
    origin: CaseOrigin
    #: why the case is opened: the alert's reasons, the complaint as made, what the analyst saw
    grounds: str
    evidence: tuple[EvidenceHand, ...] = ()
    #: the alert's score when opened from one (standard deviations from the players' own play)
    score: float | None = None


@dataclass(frozen=True, slots=True)
class IntegrityCaseNoted:
    """An analyst's note, with the hands it adds to the evidence."""

    case: str
    note: str
    evidence: tuple[EvidenceHand, ...] = ()


@dataclass(frozen=True, slots=True)
class IntegrityCaseConcluded:
    case: str
    outcome: CaseOutcome
    reasons: str


@dataclass(frozen=True, slots=True)
class IntegrityCaseReported:
    """A confirmed case reported to the competition's Chief Judge as violation ``violation`` by ``participants``
    (bfsp 7.1): he records the violation and imposes the penalty through the officials' own acts (7.2.2).
    ``chief_judge`` left blank is the one Chief Judge the competition's records appointed (stored by name)."""

    case: str
    participants: tuple[str, ...]
    violation: str
    summary: str
    chief_judge: str = ""


CATALOG: dict[str, type] = {
    cls.__name__: cls
    for cls in (IntegrityCaseOpened, IntegrityCaseNoted, IntegrityCaseConcluded, IntegrityCaseReported)
}
