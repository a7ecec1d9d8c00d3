"""The integrity cases' read model: each case (domain/integrity/case.py) as it now stands — its players, suspicion,
origin and grounds, its evidence hands, its notes, its conclusion and its report to the Chief Judge — one row a
case, rewritten whole at each of its events (a case has a handful), so a rebuild by parts of the store writes each
case from one process."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from projections.hand_projection import Stored

#: the rule a report cites, by the violation it names
_REPORTED_AS = {"7.1.4": "collusion", "7.1.15": "soft play"}


class Recorder(BaseModel):
    person: str
    role: str


class CaseEvidence(BaseModel):
    hand_id: str
    reason: str
    #: the hand's history, event by event
    history: str
    added_at: str


class CaseNote(BaseModel):
    note: str
    by: Recorder
    at: str
    evidence: list[str]


class CaseConclusion(BaseModel):
    outcome: str
    reasons: str
    by: Recorder
    at: str


class CaseReport(BaseModel):
    participants: list[str]
    violation: str
    #: the violation in words, and the rule (``bfsp 7.1.4``)
    what: str
    rule: str
    chief_judge: str
    summary: str
    by: Recorder
    at: str


class IntegrityCaseView(BaseModel):
    case: str
    competition: str
    #: open, confirmed, cleared or reported
    state: str
    origin: str
    suspicion: str
    players: list[str]
    score: float | None
    grounds: str
    opened_by: Recorder
    opened_at: str
    evidence: list[CaseEvidence]
    notes: list[CaseNote]
    conclusion: CaseConclusion | None = None
    report: CaseReport | None = None
    updated_at: str
    version: int
    chain_head: str

    @property
    def outcome(self) -> str | None:
        return self.conclusion.outcome if self.conclusion is not None else None


def _by(event: Stored) -> Recorder:
    who = event.meta.get("recorded_by") or {}
    return Recorder(person=str(who.get("person", "")), role=str(who.get("role", "")))


def _evidence(items: list[dict[str, Any]], at: str) -> list[CaseEvidence]:
    return [
        CaseEvidence(hand_id=e["hand_id"], reason=e["reason"], history=f"/v1/hands/{e['hand_id']}/history", added_at=at)
        for e in items
    ]


class ProjectedCase:
    """One case folded from its stored events, in order."""

    def __init__(self, opened: Stored) -> None:
        p = opened.payload
        self.stream = opened.stream
        self.view = IntegrityCaseView(
            case=p["case"], competition=p["competition"], state="open", origin=p["origin"], suspicion=p["suspicion"],
            players=list(p["players"]), score=p.get("score"), grounds=p["grounds"], opened_by=_by(opened),
            opened_at=opened.at, evidence=_evidence(p.get("evidence", []), opened.at), notes=[],
            updated_at=opened.at, version=opened.version, chain_head=opened.link,
        )

    @property
    def version(self) -> int:
        return self.view.version

    def apply(self, event: Stored) -> None:
        p, view = event.payload, self.view
        if event.type == "IntegrityCaseNoted":
            added = _evidence(p.get("evidence", []), event.at)
            view.notes.append(CaseNote(note=p["note"], by=_by(event), at=event.at, evidence=[e.hand_id for e in added]))
            view.evidence.extend(added)
        elif event.type == "IntegrityCaseConcluded":
            view.conclusion = CaseConclusion(outcome=p["outcome"], reasons=p["reasons"], by=_by(event), at=event.at)
            view.state = p["outcome"]
        elif event.type == "IntegrityCaseReported":
            view.report = CaseReport(
                participants=list(p["participants"]), violation=p["violation"],
                what=_REPORTED_AS.get(p["violation"], ""), rule=f"bfsp {p['violation']}", chief_judge=p["chief_judge"],
                summary=p["summary"], by=_by(event), at=event.at,
            )
            view.state = "reported"
        view.updated_at, view.version, view.chain_head = event.at, event.version, event.link

    def row(self) -> tuple[Any, ...]:
        v = self.view
        return (
            self.stream, v.competition, v.case, v.state, 1 if v.report is not None else 0, json.dumps(v.players),
            v.updated_at, v.version, v.model_dump_json(),
        )


def case_of_row(text: str) -> IntegrityCaseView:
    return IntegrityCaseView.model_validate_json(text)
