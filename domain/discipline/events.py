"""The discipline event catalog: violations, penalties and how they are served (bfsp 7.1-7.2).

Participants, officials and hands are named by their ids (strings); who recorded an event (person and role)
is in its meta, filled at the edge, and repeated here where the rules make the role part of the act (a
penalty is valid only from the role that may impose it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from domain.discipline.ladder import PenaltyKind
from domain.errors import RuleRef
from domain.officials.permissions import NamesItsOfficial
from domain.roles import Role


@dataclass(frozen=True, slots=True)
class CaseOpened:
    """A participant's disciplinary record at one competition. Its violations are the federation's codes
    whatever rulebook the games are played under: the TDA texts leave penalties to the director (TDA 2022 71)."""

    competition: str
    participant: str


@dataclass(frozen=True, slots=True)
class ViolationRecorded:
    """The ``occurrence``-th time the participant committed violation ``code`` at this competition."""

    participant: str
    code: str
    hand: str
    intentional: bool
    occurrence: int
    description: str = ""


@dataclass(frozen=True, slots=True)
class PenaltyImposed:
    """A penalty for the violation recorded as ``violation`` (its position in the case, from 1).

    Missed rounds: ``hands_to_miss`` = ``players_at_table`` (the offender included) x ``rounds`` (bfsp 7.1.2
    note; TDA 2022 71-A). ``kill_hand``: the hand in play is killed at once (7.1.5). A disqualification from
    the competition removes ``chips_removed`` from play and forfeits any prize.
    """

    participant: str
    violation: int
    kind: PenaltyKind
    imposed_by: Role
    rounds: int = 0
    players_at_table: int = 0
    hands_to_miss: int = 0
    kill_hand: bool = False
    chips_removed: int = 0

    #: a penalty names the official who imposed it: recorded by him (bfsp 7.2.1)
    NAMES_ITS_OFFICIAL: ClassVar[NamesItsOfficial] = NamesItsOfficial(
        "penalty", "imposed", role="imposed_by", rule=RuleRef("bfsp", "7.2.1")
    )


@dataclass(frozen=True, slots=True)
class ViolationEnteredInProtocol:
    """The Chief Judge entered the violation in the competition protocol: the ground a season
    disqualification needs (bfsp 7.2.3)."""

    participant: str
    violation: int


@dataclass(frozen=True, slots=True)
class PenaltyHandServed:
    """The penalised player was dealt in at ``hand``, his forced bets posted and his hand killed (TDA 2022
    71-C; bfsp 6.4.4 by analogy). A deal that ended in a misdeal does not count: the deal and its re-deal
    are one penalty hand (TDA 2022 35-C)."""

    participant: str
    penalty: int
    hand: str
    misdealt: bool
    hands_remaining: int


@dataclass(frozen=True, slots=True)
class PenaltyServed:
    participant: str
    penalty: int


@dataclass(frozen=True, slots=True)
class PenaltyRescinded:
    """A protest's decision lifted the penalty (bfsp 2.1.3, 7.3.4)."""

    participant: str
    penalty: int
    protest: str
    rescinded_by: Role


# --- the athlete's season record (bfsp 7.2.3) -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeasonRecordOpened:
    athlete: str
    season: str


@dataclass(frozen=True, slots=True)
class SeasonDisqualificationDecided:
    """The federation barred ``athlete`` from every official and rating competition of ``season`` from
    ``decided_at``, on violation ``violation`` of his case at ``competition``, which the Chief Judge entered
    in that competition's protocol (bfsp 7.2.3). ``athlete`` is the person, as every competition registers him
    (one id across competitions: the registration check asks by it); ``participant`` is his entry at
    ``competition`` whose case holds the violation, needed only when he played more than one entry there."""

    athlete: str
    season: str
    competition: str
    violation: int
    code: str
    decided_at: datetime
    protocol: str = ""
    participant: str = ""


CATALOG: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        CaseOpened,
        ViolationRecorded,
        PenaltyImposed,
        ViolationEnteredInProtocol,
        PenaltyHandServed,
        PenaltyServed,
        PenaltyRescinded,
        SeasonRecordOpened,
        SeasonDisqualificationDecided,
    )
}
