"""The competition's end and what follows it (bfsp 2.1.1, 2.1.4, 2.3.3): the Chief Judge ends the competition, the
Secretary compiles the final protocol and issues the result documents — each an act on the log judged by the
referee (DESIGN decision 10), the route waiting for its verdict — and the documents read back: a participant's
token reads his own, the competition's officials and the federation every one."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field

from api.auth import Principal
from api.deps import CurrentPrincipal, CurrentSealing, CurrentStore, verify_scope
from api.errors import ERROR_RESPONSES, ApiError, not_found
from api.routes.protocol_models import SnapshotSummary
from api.routes.submit import EventSubmission, Reporter, Timeout, Wiring, submit_and_wait
from api.sealing import SealingPolicy
from api.verdicts import EventVerdict, Outcome
from domain.competition.aggregate import Competition, competition_stream_id
from domain.roles import Role
from projections import protocol as protocols
from projections import results

router = APIRouter(prefix="/v1", tags=["results"], responses=ERROR_RESPONSES)

CompetitionId = Annotated[str, Path(description="the competition, as the events name it")]
#: who reads every participant's document: the federation, and the competition's officials where appointed
_OFFICIALS = frozenset({Role.CHIEF_JUDGE, Role.SECRETARY, Role.JUDGE})


class CompetitionClosed(BaseModel):
    """The competition as the Chief Judge's act left it."""

    competition: str
    closed_at: str = Field(description="when the log received the Chief Judge's act")
    closed_by: str
    winner: str = Field(description="the winner declared ('' when a deal ended play)")


class IssueDocuments(BaseModel):
    version: int = Field(ge=1, le=10**6, description="the signed final version the documents are issued from")
    sha256: str = Field(pattern="^[0-9a-f]{64}$", description="the SHA-256 of that version's text, as read")


class ResultPrize(BaseModel):
    gross: int
    withheld: int = Field(description="the tax withheld (the federation's FAQ: 13 %), rounded down")
    withheld_percent: int
    net: int


class ResultDocumentRead(BaseModel):
    """A participant's result document (bfsp 2.3.3), based on the signed final protocol."""

    competition_id: str
    title: str
    participant: str
    person: str
    place: int | None
    disqualified: bool
    prize: ResultPrize
    violations: list[dict[str, Any]] = Field(description="the violations recorded against him, with their rules")
    penalties: list[dict[str, Any]] = Field(description="the penalties imposed on him, with their rules")
    protocol: str = Field(description="the signed final protocol it derives from")
    protocol_version: int
    protocol_sha256: str


class ResultDocumentList(BaseModel):
    protocol: str
    version: int
    sha256: str
    issued_at: str
    items: list[ResultDocumentRead]
    total: int


def _act(competition: str, kind: str, payload: dict[str, Any]) -> EventSubmission:
    return EventSubmission(
        event_id=uuid.uuid4(), competition_id=competition, seq=0, type=kind, payload=payload,
        occurred_at=datetime.now(UTC),
    )  # fmt: skip


def _judged(wiring: Any, principal: Principal, submission: EventSubmission, timeout: float) -> None:
    verdict = submit_and_wait(wiring, principal, submission, timeout)
    if verdict.outcome is not Outcome.ACCEPTED:
        raise _refused(verdict)


def _refused(verdict: EventVerdict) -> ApiError:
    if verdict.kind == "out_of_sequence":
        return ApiError(404, "not_found", verdict.reason, field=verdict.field)
    if verdict.kind == "malformed":
        return ApiError(422, "validation_error", verdict.reason, field=verdict.field, rule=verdict.rule)
    return ApiError(409, "rejected", f"the referee refused it: {verdict.reason}", rule=verdict.rule)


@router.post("/competitions/{competition}/end", status_code=201, response_model=CompetitionClosed)
def end_competition(
    store: CurrentStore, wiring: Wiring, principal: Reporter, competition: CompetitionId, timeout: Timeout = 10.0
) -> dict[str, Any]:
    """The Chief Judge ends the competition (bfsp 2.1.1): a ``CompetitionEnded`` record put on the log and judged.
    Refused (409 with the rule) while play is not over — more than one player with chips (5.10.1), a hand being
    played — by anyone but the competition's Chief Judge, or twice; 404 for a competition without Regulations."""
    verify_scope(principal, competition)
    _judged(wiring, principal, _act(competition, "CompetitionEnded", {"competition_id": competition}), timeout)
    found: Any = store.repository.get(competition_stream_id(competition))
    assert isinstance(found, Competition) and found.closed_at is not None, "an accepted end is recorded"
    return {"competition": competition, "closed_at": found.closed_at.isoformat(), "closed_by": found.closed_by,
            "winner": found.winner or ""}


@router.post("/competitions/{competition}/protocol/final", status_code=201, response_model=SnapshotSummary)
def compile_final_protocol(
    store: CurrentStore, wiring: Wiring, principal: Reporter, competition: CompetitionId, timeout: Timeout = 10.0
) -> dict[str, Any]:
    """The Secretary compiles the final protocol (bfsp 2.3.3): a snapshot marked final, for the Chief Judge to sign
    (``POST …/protocol/snapshots/{version}/signatures``, 2.1.4). Refused (409 with the rule) before the end, by
    another office, or when the record has not changed since the last final version."""
    verify_scope(principal, competition)
    submission = _act(competition, "FinalProtocolCompiled", {"competition_id": competition})
    _judged(wiring, principal, submission, timeout)
    taken = protocols.snapshot_of_record(store, competition, submission.event_id)
    if taken is None:
        raise ApiError(500, "internal", f"the referee accepted {submission.event_id} but kept no final protocol of it")
    return {**protocols.snapshot_json(taken), "signatures": []}


@router.post("/competitions/{competition}/results", status_code=201, response_model=ResultDocumentList)
def issue_results(
    store: CurrentStore, wiring: Wiring, principal: Reporter, competition: CompetitionId, body: IssueDocuments,
    timeout: Timeout = 10.0,
) -> dict[str, Any]:
    """The Secretary issues every participant's result document from the signed final protocol (bfsp 2.3.3).
    Refused (409 with the rule) unless ``version`` is the final version in force, signed by the Chief Judge, its
    SHA-256 the one named, and its documents not issued yet."""
    verify_scope(principal, competition)
    payload = {"competition_id": competition, "version": body.version, "sha256": body.sha256}
    _judged(wiring, principal, _act(competition, "ResultDocumentsIssued", payload), timeout)
    return _listed(store, competition, principal)


def _listed(store: Any, competition: str, principal: Principal) -> dict[str, Any]:
    found = results.issued(store, competition)
    if found is None:
        raise not_found("result documents", competition)
    items = found["documents"]
    if principal.role is Role.PARTICIPANT:
        items = [d for d in items if d["person"] == principal.person]
    return {"protocol": found["protocol"], "version": found["version"], "sha256": found["sha256"],
            "issued_at": found["issued_at"], "items": items, "total": len(items)}


def _verify_reader(principal: Principal, sealing: SealingPolicy, competition: str) -> None:
    """A participant reads his own documents, the federation every one, an official those of his competition."""
    verify_scope(principal, competition)
    if principal.role in (Role.PARTICIPANT, Role.FEDERATION):
        return
    if principal.role not in _OFFICIALS:
        raise ApiError(403, "forbidden", f"result documents are for the participants, the competition's officials "
                       f"and the federation; this token's role is {principal.role.value}", rule="bfsp 2.3.3")
    if not sealing.appointed(principal, competition):
        raise ApiError(403, "forbidden", f"the result documents of {competition} are for its own officials; "
                       f"{principal.person} is not appointed there", rule="bfsp 2.1.1")


@router.get("/competitions/{competition}/results", response_model=ResultDocumentList)
def list_results(
    store: CurrentStore, principal: CurrentPrincipal, sealing: CurrentSealing, competition: CompetitionId
) -> dict[str, Any]:
    """The result documents of the latest issue: a participant's token lists his own entries' only."""
    _verify_reader(principal, sealing, competition)
    return _listed(store, competition, principal)


@router.get("/competitions/{competition}/results/{participant}", response_model=None, responses={
    200: {"model": ResultDocumentRead, "description": "the document: JSON, or with format=html a page, pdf a PDF",
          "content": {"text/html": {"schema": {"type": "string"}},
                      "application/pdf": {"schema": {"type": "string", "format": "binary"}}}},
})
def read_result(
    store: CurrentStore, principal: CurrentPrincipal, sealing: CurrentSealing, competition: CompetitionId,
    participant: Annotated[str, Path(description="the participant's entry, as the competition registered it")],
    format: Annotated[Literal["json", "html", "pdf"], Query(description="json, a printable html page, or pdf")] = "json",
) -> Response:
    """One participant's result document (404 for another participant's, read with a participant's token)."""
    _verify_reader(principal, sealing, competition)
    listed = _listed(store, competition, principal)
    document = next((d for d in listed["items"] if d["participant"] == participant), None)
    if document is None:
        raise not_found("result document", f"{competition}/{participant}")
    if format == "html":
        return HTMLResponse(results.to_html(document))
    if format == "pdf":
        headers = {"Content-Disposition": f'inline; filename="result-{competition}-{participant}.pdf"'}
        return Response(results.to_pdf(document), media_type="application/pdf", headers=headers)
    return JSONResponse(ResultDocumentRead.model_validate(document).model_dump(mode="json"))
