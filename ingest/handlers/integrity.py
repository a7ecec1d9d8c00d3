"""Integrity cases (domain/integrity/case.py): each handler loads the case by its natural key through the desk,
and what the case cannot know by itself — the hands its evidence names, the competition's participants and
Chief Judge — for the domain to judge."""

from __future__ import annotations

from collections.abc import Iterable
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.competition.aggregate import Competition, competition_stream_id
from domain.hand.aggregate import Hand, hand_id
from domain.integrity.case import (
    DealtHand,
    IntegrityCase,
    integrity_case_id,
    verify_chief_judge_to_report_to,
    verify_evidence,
    verify_new_case,
)
from domain.integrity.case_events import (
    EvidenceHand,
    IntegrityCaseConcluded,
    IntegrityCaseNoted,
    IntegrityCaseOpened,
    IntegrityCaseReported,
)
from domain.roles import Role
from ingest.envelope import MalformedRecord
from ingest.handlers.desk import Desk, Handler, NotYet, Reported


def _open(desk: Desk, act: Reported) -> Aggregate:
    e: IntegrityCaseOpened = act.event
    if e.competition != act.competition_id:
        raise MalformedRecord(f"the envelope is for {act.competition_id}, the case for {e.competition}", "competition_id")
    verify_new_case(e.case, desk.find(integrity_case_id(e.competition, e.case)))
    verify_evidence(e.competition, e.players, e.evidence, _hands(desk, e.competition, e.evidence))
    return IntegrityCase.open(e, act.role, act.at, act.meta)


def _note(desk: Desk, act: Reported) -> Aggregate:
    e: IntegrityCaseNoted = act.event
    case = _case(desk, act.competition_id, e.case)
    verify_evidence(act.competition_id, case.opening.players, e.evidence, _hands(desk, act.competition_id, e.evidence))
    case.note(e, act.role, act.at, act.meta)
    return case


def _conclude(desk: Desk, act: Reported) -> Aggregate:
    e: IntegrityCaseConcluded = act.event
    case = _case(desk, act.competition_id, e.case)
    case.conclude(e, act.role, act.at, act.meta)
    return case


def _report(desk: Desk, act: Reported) -> Aggregate:
    e: IntegrityCaseReported = act.event
    case = _case(desk, act.competition_id, e.case)
    found = desk.find(competition_stream_id(act.competition_id))
    verify_chief_judge_to_report_to(act.competition_id, isinstance(found, Competition))
    assert isinstance(found, Competition)
    chief_judges = [person for person, office in found.officials.items() if office.role is Role.CHIEF_JUDGE]
    case.report(e, act.role, found.entries, chief_judges, act.at, act.meta)
    return case


def _case(desk: Desk, competition: str, case: str) -> IntegrityCase:
    found = desk.find(integrity_case_id(competition, case))
    if found is None:
        raise NotYet(f"no integrity case {case} has been opened at {competition}", "payload.case")
    assert isinstance(found, IntegrityCase)
    return found


def _hands(desk: Desk, competition: str, evidence: Iterable[EvidenceHand]) -> dict[str, DealtHand | None]:
    """The hands the evidence names, as the case asks of them (None: not a stored hand)."""
    found: dict[str, DealtHand | None] = {}
    for item in evidence:
        try:
            stream = UUID(item.hand_id)
        except ValueError:
            raise MalformedRecord(
                f"evidence names a hand by its id (as /v1/hands/{{hand_id}} does); {item.hand_id!r} is not one",
                "payload.evidence",
            ) from None
        hand = desk.find(stream)
        if not isinstance(hand, Hand):
            found[item.hand_id] = None
            continue
        started = hand.engine.started
        # a hand's id is made of its competition, table and number: it is this competition's if they make it
        here = hand_id(started.table_id, started.hand_number, competition) == stream
        found[item.hand_id] = DealtHand(
            competition if here else "", frozenset(s.player for s in started.seats), hand.is_over
        )
    return found


HANDLERS: dict[str, Handler] = {
    "IntegrityCaseOpened": _open,
    "IntegrityCaseNoted": _note,
    "IntegrityCaseConcluded": _conclude,
    "IntegrityCaseReported": _report,
}
