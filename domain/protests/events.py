"""The challenge and protest event catalog (bfsp 5.9.1, 2.1.3, 2.2.3, 7.3)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import ClassVar

from domain.errors import RuleRef
from domain.officials.permissions import NamesItsOfficial
from domain.roles import Role


class ChallengeKind(StrEnum):
    #: the hand's result: who won, how the hands read (bfsp 5.9.1; TDA 2022 22, first point)
    RESULT = "result"
    #: an error in counting or awarding a pot (TDA 2022 22, second point)
    POT_COUNT = "pot_count"


@dataclass(frozen=True, slots=True)
class HandChallenged:
    """A participant disputes ``hand``'s result within the window, which closes at ``deadline``."""

    hand: str
    participant: str
    kind: ChallengeKind
    grounds: str
    raised_at: datetime
    deadline: datetime | None


class ProtestTier(StrEnum):
    #: to the Chief Judge, against a judge's finding of fact (bfsp 2.2.3, 2.1.3)
    CHIEF_JUDGE = "chief_judge"
    #: in writing, through the Chief Judge, to the federation, against his sanction (bfsp 7.3)
    FEDERATION = "federation"


class ContestedKind(StrEnum):
    FINDING_OF_FACT = "finding_of_fact"
    CHIEF_JUDGE_DECISION = "chief_judge_decision"
    PENALTY = "penalty"


@dataclass(frozen=True, slots=True)
class Contested:
    """What a protest is against: the ruling's or penalty's id, what it is, who decided it, and the
    participant it sanctioned ("" for a finding that sanctions nobody)."""

    reference: str
    kind: ContestedKind
    decided_by: Role
    sanctioned: str = ""


@dataclass(frozen=True, slots=True)
class ProtestFiled:
    protest: str
    competition: str
    tier: ProtestTier
    filer: str
    contested: Contested
    grounds: str
    written: bool
    #: who took the protest in: the Chief Judge, for both tiers (bfsp 2.1.3, 7.3.1)
    received_by: Role
    filed_at: datetime
    rulebook: str = "bfsp"
    #: the SHA-256 of the written protest's scan, where an official received it on paper ("" otherwise)
    document_sha256: str = ""


@dataclass(frozen=True, slots=True)
class ProtestReceived:
    """A participant handed his protest in, and the Secretary or the Chief Judge records its receipt on his behalf
    (bfsp 7.3.1: in writing, through the Chief Judge): the filer is the participant, the protest is filed when the
    service received the record, and a paper protest is kept by the SHA-256 of its scan. The Protest it opens is
    the participant's filing (``ProtestFiled``), received for the Chief Judge."""

    protest: str
    competition: str
    tier: ProtestTier
    filer: str
    contested: Contested
    grounds: str
    written: bool
    received_at: datetime
    document_sha256: str = ""
    rulebook: str = "bfsp"


@dataclass(frozen=True, slots=True)
class ProtestForwarded:
    """The Chief Judge sent the protest to the federation with the competition protocol: the immutable
    snapshot ``protocol_snapshot`` and the event-chain head it carries, so the copy can be verified later
    (bfsp 7.3.3). The federation's 30 days run from here (7.3.4)."""

    protest: str
    protocol_snapshot: str
    chain_head: str
    forwarded_at: datetime
    deadline: datetime


class ProtestDecision(StrEnum):
    #: the protest succeeds: the contested ruling or sanction is lifted or amended
    UPHELD = "upheld"
    #: the contested ruling or sanction stands
    DISMISSED = "dismissed"


@dataclass(frozen=True, slots=True)
class ProtestDecided:
    """Decided by the Chief Judge (tier 1) or the federation (tier 2, final: bfsp 7.3.4); ``overdue`` when
    the federation decided after its deadline (recorded all the same, and flagged)."""

    protest: str
    decision: ProtestDecision
    decided_by: Role
    reasons: str
    decided_at: datetime
    overdue: bool = False

    #: a decision names the office that decided it: recorded by that office (bfsp 7.3.4)
    NAMES_ITS_OFFICIAL: ClassVar[NamesItsOfficial] = NamesItsOfficial(
        "decision", "decided", role="decided_by", rule=RuleRef("bfsp", "7.3.4")
    )


@dataclass(frozen=True, slots=True)
class FilerNotified:
    protest: str
    notified_by: Role
    notified_at: datetime


CATALOG: dict[str, type] = {
    cls.__name__: cls
    for cls in (HandChallenged, ProtestFiled, ProtestReceived, ProtestForwarded, ProtestDecided, FilerNotified)
}
