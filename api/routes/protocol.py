"""The competition protocol: read as JSON, a printable HTML page or a PDF; its immutable snapshots taken and
signed by the Secretary or the Chief Judge (bfsp 2.1.4, 2.3.3) — each an act on the log, judged by the referee
like any other (DESIGN decision 10) — listed, each read back with its verification, and printed as signed."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Path, Query
from fastapi.responses import HTMLResponse, JSONResponse, Response

from api.auth import Principal
from api.deps import CurrentHeavyReads, CurrentPrincipal, CurrentSealing, CurrentStore, roles, verify_scope
from api.errors import ERROR_RESPONSES, ApiError, not_found
from api.routes.protocol_models import (
    ProtocolDocument,
    SignedSnapshot,
    SnapshotList,
    SnapshotRead,
    SnapshotRequest,
    SnapshotSummary,
)
from api.routes.submit import EventSubmission, Reporter, Timeout, Wiring, submit_and_wait
from api.sealing import READS_REJECTIONS
from api.verdicts import EventVerdict, Outcome
from domain.protocol import TAMPER_RULE, ProtocolSnapshotTaken, snapshot_request_event_id
from ingest.store import Store
from projections import protocol as protocols
from projections.protocol_render import signed_snapshot_html, signed_snapshot_pdf, to_html, to_pdf

router = APIRouter(prefix="/v1", tags=["protocol"], responses=ERROR_RESPONSES)

CompetitionId = Annotated[str, Path(description="the competition, as the events name it")]
Version = Annotated[int, Path(ge=1, le=10**6, description="the snapshot's number, from 1")]
Sha256 = Annotated[str, Body(embed=True, pattern="^[0-9a-f]{64}$", description="the SHA-256 of the snapshot read")]
#: who reads a snapshot's full text: whoever reads the rejections it holds
SnapshotReader = Annotated[Principal, Depends(roles(READS_REJECTIONS, "a protocol snapshot's full text"))]
#: the protocol in each format it is read in
PROTOCOL_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "model": ProtocolDocument,
        "description": "the protocol: JSON, or with format=html a printable page, with format=pdf a PDF",
        "content": {"text/html": {"schema": {"type": "string"}},
                    "application/pdf": {"schema": {"type": "string", "format": "binary"}}},
    },
}
SNAPSHOT_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "model": SnapshotRead,
        "description": "the snapshot re-verified: JSON, or with format=html a printable page, with format=pdf a PDF",
        "content": {"text/html": {"schema": {"type": "string"}},
                    "application/pdf": {"schema": {"type": "string", "format": "binary"}}},
    },
}


def _document(store: Store, competition: str) -> dict[str, Any]:
    try:
        document = protocols.checked_protocol(store, competition)
    except protocols.UnreadableStream as err:
        raise ApiError(409, "store_tampered", f"the protocol cannot be read: {err}") from err
    if "regulations" not in document:
        raise not_found("competition", competition)
    return document


@router.get("/competitions/{competition}/protocol", response_model=None, responses=PROTOCOL_RESPONSES)
async def read_protocol(
    store: CurrentStore,
    heavy: CurrentHeavyReads,
    principal: CurrentPrincipal,
    competition: CompetitionId,
    sealing: CurrentSealing,
    format: Annotated[Literal["json", "html", "pdf"], Query(description="json, a printable html page, or pdf")] = "json",
) -> Response:
    """The competition protocol as the caller may read it (api/sealing.py), in every format. A heavy read
    (api/heavy.py): a bounded number at once; 503 with Retry-After when they are all taken."""
    verify_scope(principal, competition)

    def render() -> Response:
        document = sealing.protocol(protocols.as_at(_document(store, competition), datetime.now(UTC)), principal)
        if format == "html":
            return HTMLResponse(to_html(document))
        if format == "pdf":
            headers = {"Content-Disposition": f'inline; filename="protocol-{competition}.pdf"'}
            return Response(to_pdf(document), media_type="application/pdf", headers=headers)
        return JSONResponse(document)

    return await heavy.run(f"the protocol of {competition}", render)


@router.post("/competitions/{competition}/protocol/snapshots", status_code=201, response_model=SnapshotSummary)
def take_snapshot(
    store: CurrentStore, wiring: Wiring, principal: Reporter, competition: CompetitionId, timeout: Timeout = 10.0,
    request: Annotated[SnapshotRequest | None, Body()] = None,
) -> dict[str, Any]:
    """Take a snapshot of the protocol as it stands: a ``ProtocolSnapshotRequested`` record put on the log and
    its verdict awaited (as ``POST /v1/events?wait=true``). 201 with the snapshot the referee kept; refused by
    the referee (the refusal stays on record): 403 citing the rule for a role or an office that may not (bfsp
    2.3.3, 2.1.1), 409 when the stored events fail verification (DESIGN 7), 404 for a competition without
    Regulations; 504 when the referee has not judged it in time (it will be: read the list).

    With a body naming the request (``request_id``, ``requested_at``), sending it again is the same record: the
    referee judges it once, and the retry answers with the one snapshot it made (or its refusal)."""
    verify_scope(principal, competition)
    if request is None:
        envelope = _act(competition, "ProtocolSnapshotRequested", {"competition_id": competition})
    else:
        envelope = EventSubmission(
            event_id=snapshot_request_event_id(competition, principal.person, principal.role, request.request_id),
            competition_id=competition, seq=0, type="ProtocolSnapshotRequested",
            payload={"competition_id": competition, "request_id": request.request_id},
            occurred_at=request.requested_at,
        )  # fmt: skip
    verdict = submit_and_wait(wiring, principal, envelope, timeout)
    if verdict.outcome is not Outcome.ACCEPTED:
        raise _refused(verdict, permission_refusal=True)
    taken = _taken_by_record(store, competition, envelope.event_id)
    if request is not None:
        # a named request answered again may find its snapshot signed since
        return protocols.snapshot_json(taken, signed=protocols.signatures(store, competition))
    # just taken: nobody has signed it yet (the list gives the same body, signatures included)
    return {**protocols.snapshot_json(taken), "signatures": []}


@router.post(
    "/competitions/{competition}/protocol/snapshots/{version}/signatures", status_code=201, response_model=SignedSnapshot
)
def sign_snapshot(
    store: CurrentStore, wiring: Wiring, principal: Reporter, competition: CompetitionId, version: Version,
    sha256: Sha256, timeout: Timeout = 10.0,
) -> dict[str, Any]:
    """Sign snapshot ``version`` in the caller's own name and office (bfsp 2.1.4, 2.3.3): a ``ProtocolSigned``
    record naming the SHA-256 the signer read, put on the log and judged. 201 with the snapshot's signatures;
    refused by the referee (a role that may not sign, an official not appointed here, no such snapshot,
    another text, signed already): 409 citing the rule (404 for a competition without Regulations)."""
    verify_scope(principal, competition)
    payload = {"competition_id": competition, "version": version, "sha256": sha256, "person": principal.person,
               "role": principal.role.value}
    verdict = submit_and_wait(wiring, principal, _act(competition, "ProtocolSigned", payload), timeout)
    if verdict.outcome is not Outcome.ACCEPTED:
        raise _refused(verdict, permission_refusal=False)
    return {"name": f"{competition}/protocol/v{version}", "version": version,
            "signatures": _signatures_json(store, competition, version)}


def _act(competition: str, kind: str, payload: dict[str, Any]) -> EventSubmission:
    """The record of an act the caller makes now (signed with the caller's token by the submit path)."""
    return EventSubmission(
        event_id=uuid.uuid4(), competition_id=competition, seq=0, type=kind, payload=payload,
        occurred_at=datetime.now(UTC),
    )  # fmt: skip


def _refused(verdict: EventVerdict, *, permission_refusal: bool) -> ApiError:
    """The referee's refusal as an answer: its rule and reason, as stored in the competition's rejections."""
    if verdict.kind == "out_of_sequence":
        return ApiError(404, "not_found", verdict.reason, field=verdict.field)
    if verdict.kind == "malformed":
        return ApiError(422, "validation_error", verdict.reason, field=verdict.field, rule=verdict.rule)
    if verdict.rule == str(TAMPER_RULE):
        return ApiError(409, "store_tampered", verdict.reason, rule=verdict.rule)
    if permission_refusal:
        # a snapshot is refused only for who asks for it (the roles table, the appointments)
        return ApiError(403, "forbidden", verdict.reason, rule=verdict.rule)
    return ApiError(409, "rejected", f"the referee refused it: {verdict.reason}", rule=verdict.rule)


def _taken_by_record(store: Store, competition: str, event_id: uuid.UUID) -> ProtocolSnapshotTaken:
    taken = protocols.snapshot_of_record(store, competition, event_id)
    if taken is None:
        raise ApiError(500, "internal", f"the referee accepted snapshot record {event_id} but kept no snapshot of it")
    return taken


def _signatures_json(store: Store, competition: str, version: int) -> list[dict[str, Any]]:
    return [s for s in protocols.signatures(store, competition) if s["version"] == version]


@router.get("/competitions/{competition}/protocol/snapshots", response_model=SnapshotList)
def list_snapshots(store: CurrentStore, principal: CurrentPrincipal, competition: CompetitionId) -> dict[str, Any]:
    """Every snapshot of the protocol, in the order taken, each with the signatures on it."""
    verify_scope(principal, competition)
    signed = protocols.signatures(store, competition)
    items = [protocols.snapshot_json(s, signed=signed) for s in protocols.snapshots(store, competition)]
    return {"items": items, "total": len(items)}


@router.get("/competitions/{competition}/protocol/snapshots/{version}", response_model=None,
            responses=SNAPSHOT_RESPONSES)
async def read_snapshot(
    store: CurrentStore, heavy: CurrentHeavyReads, principal: SnapshotReader, competition: CompetitionId,
    version: Version, sealing: CurrentSealing,
    format: Annotated[Literal["json", "html", "pdf"], Query(description="json, a printable html page, or pdf")] = "json",
) -> Response:
    """A snapshot re-verified against the store, with the signatures on it; its text as the caller may read it (a
    reader who may not see every card it quotes reads them sealed, and ``sealed`` says that the SHA-256 covers the
    text unsealed). As html or pdf: the text printed under its number, SHA-256, chain head and signatures."""
    verify_scope(principal, competition)

    def verified() -> Response:
        out = protocols.verified_snapshot(store, competition, version)
        if out is None:
            raise not_found("protocol snapshot", f"{competition} v{version}")
        readable = sealing.protocol(out["protocol"], principal)
        out["sealed"] = readable != out["protocol"]
        out["protocol"] = readable
        if format == "html":
            return HTMLResponse(signed_snapshot_html(out))
        if format == "pdf":
            headers = {"Content-Disposition": f'inline; filename="protocol-{competition}-v{version}.pdf"'}
            return Response(signed_snapshot_pdf(out), media_type="application/pdf", headers=headers)
        return JSONResponse(SnapshotRead.model_validate(out).model_dump(mode="json"))

    return await heavy.run(f"snapshot {version} of {competition}", verified)
