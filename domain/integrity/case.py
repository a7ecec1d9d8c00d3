"""The IntegrityCase aggregate: an integrity analyst's case on players suspected of colluding at one competition.

open (from an alert, proactively or on a complaint) → notes → concluded (confirmed or cleared) → a confirmed one
reported to the competition's Chief Judge as a violation (bfsp 7.1.4 collusion, 7.1.15 soft play), who records
it and imposes the penalty through the officials' own acts. Nothing is added to a case once it is concluded but
that report.

What a case cannot know by itself is passed in by whoever holds it: the hands its evidence names
(:func:`verify_evidence`) and the competition's registered players and Chief Judge (:meth:`IntegrityCase.report`).

The id is ``uuid5`` of the competition and the case's own name: a redelivered record lands on the same case.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.chained import JSON
from domain.discipline.ladder import violation
from domain.errors import IntegrityCaseError, RuleRef
from domain.integrity.case_events import (
    CATALOG,
    CaseOrigin,
    CaseOutcome,
    EvidenceHand,
    IntegrityCaseConcluded,
    IntegrityCaseNoted,
    IntegrityCaseOpened,
    IntegrityCaseReported,
)
from domain.officials import Act, verify_permitted
from domain.officials.codec import decode, encode
from domain.officials.recorded import OfficialsRecord, applies, recorded_events
from domain.roles import Role

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
CASE_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/integrity-case")
#: collusion: participants acting jointly against the others (bfsp 7.1.4): what the integrity team investigates
COLLUSION = RuleRef("bfsp", "7.1.4")
#: the violations an integrity case is reported as: collusion (chip dumping, team play, soft play between partners)
#: and soft play as the rules name it, the nuts in position only checked or called (7.1.15)
REPORTABLE = {"7.1.4": "collusion", "7.1.15": "soft play"}


def integrity_case_id(competition: str, case: str) -> UUID:
    return uuid5(CASE_NAMESPACE, f"{competition}/{case}")


class CaseState(StrEnum):
    OPEN = "open"
    CONFIRMED = "confirmed"
    CLEARED = "cleared"
    #: confirmed, and reported to the Chief Judge
    REPORTED = "reported"


@dataclass(frozen=True, slots=True)
class DealtHand:
    """What a case asks of a hand its evidence names: its competition, who was dealt in, whether it ended."""

    competition: str
    players: frozenset[str]
    ended: bool


def verify_new_case(case: str, opened_before: object | None) -> None:
    """A case is opened once: ``opened_before`` is what the store already holds under its id (None: nothing)."""
    if opened_before is not None:
        raise IntegrityCaseError(f"integrity case {case} has been opened already", RuleRef("bfsp", "7.1.4"))


def verify_chief_judge_to_report_to(competition: str, adopted: bool) -> None:
    """A confirmed case is reported to the Chief Judge the competition appointed: one that ``adopted`` no
    Regulations has appointed none."""
    if not adopted:
        raise IntegrityCaseError(
            f"{competition} has adopted no Regulations and appointed no Chief Judge to report to: the case stays "
            "with the integrity team and the federation",
            RuleRef("bfsp", "2.1.1"),
        )


def verify_evidence(
    competition: str, players: Collection[str], evidence: Iterable[EvidenceHand], hands: Mapping[str, DealtHand | None]
) -> None:
    """Each evidence hand is an ended hand of ``competition`` that dealt in at least two of the case's
    ``players`` (``hands``: the hands found by id, None for one the store does not have)."""
    for item in evidence:
        found = hands.get(item.hand_id)
        if found is None or found.competition != competition:
            raise IntegrityCaseError(f"evidence hand {item.hand_id} is not a hand of {competition}", COLLUSION)
        if not found.ended:
            raise IntegrityCaseError(
                f"evidence hand {item.hand_id} has not ended: a case cites hands whose play is complete", COLLUSION
            )
        together = sorted(found.players & set(players))
        if len(together) < 2:
            raise IntegrityCaseError(
                f"evidence hand {item.hand_id} dealt in {_listed(together) or 'none'} of the case's players; a hand is "
                "evidence of collusion where at least two of them played it together",
                COLLUSION,
            )


class IntegrityCase(OfficialsRecord):
    RECORDS = (IntegrityCaseNoted, IntegrityCaseConcluded, IntegrityCaseReported)

    @event("IntegrityCaseOpened")
    def __init__(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self.opening: IntegrityCaseOpened = decode(payload, CATALOG)
        self.state = CaseState.OPEN
        self._notes: list[IntegrityCaseNoted] = []
        self.conclusion: IntegrityCaseConcluded | None = None
        self.chain_head = link

    @classmethod
    def open(cls, opened: IntegrityCaseOpened, opened_by: Role, at: datetime, meta: JSON | None = None) -> IntegrityCase:
        """A case, refused (nothing created) when it names fewer than two players, states no grounds or, opened
        from an alert, carries none of its evidence."""
        verify_permitted(Act.INTEGRITY_CASE_OPENED, opened_by)
        verify_opening(opened)
        case: IntegrityCase = cls._create_chained(
            "IntegrityCaseOpened", integrity_case_id(opened.competition, opened.case), at, encode(opened), meta or {}
        )
        return case

    # --- what the record says -------------------------------------------------------------------------------

    @property
    def notes(self) -> tuple[IntegrityCaseNoted, ...]:
        return tuple(self._notes)

    @property
    def evidence(self) -> tuple[EvidenceHand, ...]:
        """The opening's evidence hands, then those the notes added."""
        return (*self.opening.evidence, *(e for n in self.notes for e in n.evidence))

    # --- the acts -------------------------------------------------------------------------------------------

    def note(self, noted: IntegrityCaseNoted, noted_by: Role, at: datetime, meta: JSON | None = None) -> None:
        verify_permitted(Act.INTEGRITY_CASE_NOTED, noted_by)
        self._verify_open("noted")
        if not noted.note.strip():
            raise IntegrityCaseError("a note says something: it is empty", COLLUSION)
        _verify_new_hands(noted.evidence, {e.hand_id for e in self.evidence})
        self._record(noted, at, meta)

    def conclude(
        self, concluded: IntegrityCaseConcluded, concluded_by: Role, at: datetime, meta: JSON | None = None
    ) -> None:
        verify_permitted(Act.INTEGRITY_CASE_CONCLUDED, concluded_by)
        self._verify_open("concluded")
        if not concluded.reasons.strip():
            raise IntegrityCaseError("a case is concluded with its reasons: confirmed or cleared, and why", COLLUSION)
        if concluded.outcome is CaseOutcome.CONFIRMED and not self.evidence:
            raise IntegrityCaseError(
                "a case is confirmed on its evidence: it cites no hand (add them with a note first)", COLLUSION
            )
        self._record(concluded, at, meta)

    def report(
        self,
        reported: IntegrityCaseReported,
        reported_by: Role,
        registered: Collection[str],
        chief_judges: Collection[str],
        at: datetime,
        meta: JSON | None = None,
    ) -> None:
        """Report the confirmed case to the Chief Judge; ``registered``: the competition's participants,
        ``chief_judges``: who its records appointed Chief Judge."""
        verify_permitted(Act.INTEGRITY_CASE_REPORTED, reported_by)
        if self.state is not CaseState.CONFIRMED:
            raise IntegrityCaseError(
                "only a confirmed case is reported to the Chief Judge"
                if self.state in (CaseState.OPEN, CaseState.CLEARED)
                else "this case has been reported to the Chief Judge already",
                RuleRef("bfsp", "7.1.1"),
            )
        if reported.violation not in REPORTABLE:
            violation(reported.violation)  # an unknown code is refused with the federation's list
            raise IntegrityCaseError(
                f"an integrity case is reported as collusion (7.1.4) or soft play (7.1.15), not as "
                f"violation {reported.violation}",
                RuleRef("bfsp", "7.1.1"),
            )
        players = set(self.opening.players)
        named = list(reported.participants)
        if not named or len(set(named)) != len(named) or not set(named) <= players:
            raise IntegrityCaseError(
                f"the report names the case's players it concerns, each once ({_listed(sorted(players))}); it names "
                f"{_listed(named) or 'nobody'}",
                RuleRef("bfsp", "7.1.1"),
            )
        unregistered = [p for p in named if p not in registered]
        if unregistered:
            raise IntegrityCaseError(
                f"{_listed(unregistered)} {'is' if len(unregistered) == 1 else 'are'} not registered at "
                f"{self.opening.competition}: its Chief Judge penalises his competition's participants",
                RuleRef("bfsp", "7.2.2"),
            )
        # named, or left blank for the one Chief Judge the competition's records appointed
        to = reported.chief_judge or (next(iter(chief_judges)) if len(chief_judges) == 1 else "")
        if to not in chief_judges:
            raise IntegrityCaseError(
                f"{to or 'nobody'} is not the Chief Judge of {self.opening.competition}"
                + (f" ({_listed(sorted(chief_judges))} is)" if chief_judges else ", which appointed none"),
                RuleRef("bfsp", "2.1.1"),
            )
        if not reported.summary.strip():
            raise IntegrityCaseError("a report tells the Chief Judge what the evidence shows: it is empty",
                                     RuleRef("bfsp", "7.1.1"))
        self._record(replace(reported, chief_judge=to), at, meta)

    # --- checks and recording -------------------------------------------------------------------------------

    def _verify_open(self, act: str) -> None:
        if self.state is not CaseState.OPEN:
            raise IntegrityCaseError(
                f"the case was concluded ({self.state.value}); it cannot be {act} now", COLLUSION
            )

    # --- the events: recorded by their type, applied by the method registered for their type ---------------

    locals().update(recorded_events(RECORDS))

    @applies(IntegrityCaseNoted)
    def _noted(self, e: IntegrityCaseNoted) -> None:
        self._notes.append(e)

    @applies(IntegrityCaseConcluded)
    def _concluded(self, e: IntegrityCaseConcluded) -> None:
        self.conclusion = e
        self.state = CaseState(e.outcome.value)

    @applies(IntegrityCaseReported)
    def _reported(self, e: IntegrityCaseReported) -> None:
        self.state = CaseState.REPORTED


def verify_opening(opened: IntegrityCaseOpened) -> None:
    """The opening's own rules: two players or more, grounds, an alert's evidence and score."""
    if not _NAME.fullmatch(opened.case):
        raise IntegrityCaseError(
            f"a case is opened under a name of its own, letters, digits, '-', '_' or '.': not {opened.case!r}",
            COLLUSION,
        )
    players = [p.strip() for p in opened.players]
    if len(set(players)) < 2 or len(players) != len(set(players)) or not all(players):
        raise IntegrityCaseError(
            f"collusion is players acting together: a case names two players or more, each once; this one names "
            f"{_listed(players) or 'nobody'}",
            COLLUSION,
        )
    if not opened.grounds.strip():
        what = {CaseOrigin.ALERT: "the alert's reasons", CaseOrigin.COMPLAINT: "the complaint as it was made",
                CaseOrigin.PROACTIVE: "what the analyst saw"}[opened.origin]
        raise IntegrityCaseError(f"a case is opened on its grounds ({what}): they are empty", COLLUSION)
    if opened.origin is CaseOrigin.ALERT and (not opened.evidence or opened.score is None):
        raise IntegrityCaseError(
            "a case opened from an alert carries the alert's score and its evidence hands", COLLUSION
        )
    if opened.score is not None and opened.origin is not CaseOrigin.ALERT:
        raise IntegrityCaseError("only an alert has a score: this case was not opened from one", COLLUSION)
    _verify_new_hands(opened.evidence, set())


def _verify_new_hands(evidence: Iterable[EvidenceHand], cited: set[str]) -> None:
    seen = set(cited)
    for item in evidence:
        if not item.reason.strip():
            raise IntegrityCaseError(f"evidence hand {item.hand_id} comes with its reason in words", COLLUSION)
        if item.hand_id in seen:
            raise IntegrityCaseError(f"hand {item.hand_id} is in the case's evidence already", COLLUSION)
        seen.add(item.hand_id)


def _listed(names: Iterable[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
