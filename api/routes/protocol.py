"""The competition protocol: read as JSON, a printable HTML page or a PDF; its immutable snapshots taken by the
Secretary or the Chief Judge (bfsp 2.1.4, 2.3.3), listed, and each read back with its verification."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from api.auth import AuthError, require
from api.deps import CurrentPrincipal, event_store, verify_scope
from api.errors import ERROR_RESPONSES, ApiError, not_found
from api.routes.reads import READS_REJECTIONS
from domain.protocol import ProtocolSnapshotTaken
from domain.roles import Role
from projections import protocol as protocols
from projections.protocol_render import to_html, to_pdf

router = APIRouter(prefix="/v1", tags=["protocol"], responses=ERROR_RESPONSES)

#: who keeps the protocol: the Secretary compiles it, the Chief Judge signs it (bfsp 2.1.4, 2.3.3)
TAKES_SNAPSHOTS: frozenset[Role] = frozenset({Role.SECRETARY, Role.CHIEF_JUDGE})

CompetitionId = Annotated[str, Path(description="the competition, as the events name it")]
Version = Annotated[int, Path(ge=1, le=10**6, description="the snapshot's number, from 1")]


def _document(request: Request, competition: str) -> dict[str, Any]:
    try:
        document = protocols.protocol(event_store(request), competition)
    except protocols.UnreadableStream as err:
        raise ApiError(409, "store_tampered", f"the protocol cannot be read: {err}") from err
    if "regulations" not in document:
        raise not_found("competition", competition)
    return document


def _snapshot_json(snapshot: ProtocolSnapshotTaken, verification: protocols.Verification | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": snapshot.name,
        "version": snapshot.version,
        "sha256": snapshot.sha256,
        "chain_head": snapshot.chain_head,
        "streams": len(snapshot.heads),
        "taken_by": snapshot.taken_by,
        "taken_at": snapshot.taken_at.isoformat(),
    }
    if verification is not None:
        out["heads"] = {stream: list(head) for stream, head in snapshot.heads.items()}
        out["protocol"] = snapshot.protocol
        out["verification"] = verification.to_json()
    return out


def _withheld(document: dict[str, Any]) -> dict[str, Any]:
    """The protocol as a viewer may read it: what was refused and under which rule, not the refusal's words,
    which can name a player's hole cards (the rejections read model is for officials too)."""
    withheld = [{**r, "reason": "withheld: officials only"} for r in document.get("rejections", [])]
    return {**document, "rejections": withheld}


@router.get("/competitions/{competition}/protocol", response_model=None)
def read_protocol(
    request: Request,
    principal: CurrentPrincipal,
    competition: CompetitionId,
    format: Annotated[Literal["json", "html", "pdf"], Query(description="json, a printable html page, or pdf")] = "json",
) -> Response:
    verify_scope(principal, competition)
    document = protocols.as_at(_document(request, competition), datetime.now(UTC))
    if principal.role not in READS_REJECTIONS:
        document = _withheld(document)
    if format == "html":
        return HTMLResponse(to_html(document))
    if format == "pdf":
        headers = {"Content-Disposition": f'inline; filename="protocol-{competition}.pdf"'}
        return Response(to_pdf(document), media_type="application/pdf", headers=headers)
    return JSONResponse(document)


@router.post("/competitions/{competition}/protocol/snapshots", status_code=201)
def take_snapshot(request: Request, principal: CurrentPrincipal, competition: CompetitionId) -> dict[str, Any]:
    try:
        require(principal, TAKES_SNAPSHOTS, "taking a snapshot of the protocol")
    except AuthError as exc:
        raise ApiError(exc.status, exc.code, exc.message, rule="bfsp 2.3.3") from exc
    verify_scope(principal, competition)
    _document(request, competition)
    taken = protocols.take_snapshot(event_store(request), competition, principal.person, datetime.now(UTC))
    return _snapshot_json(taken)


@router.get("/competitions/{competition}/protocol/snapshots")
def list_snapshots(request: Request, principal: CurrentPrincipal, competition: CompetitionId) -> dict[str, Any]:
    verify_scope(principal, competition)
    items = [_snapshot_json(s) for s in protocols.snapshots(event_store(request), competition)]
    return {"items": items, "total": len(items)}


@router.get("/competitions/{competition}/protocol/snapshots/{version}")
def read_snapshot(
    request: Request, principal: CurrentPrincipal, competition: CompetitionId, version: Version
) -> dict[str, Any]:
    try:
        require(principal, READS_REJECTIONS, "a protocol snapshot's full text")
    except AuthError as exc:
        raise ApiError(exc.status, exc.code, exc.message) from exc
    verify_scope(principal, competition)
    archive = protocols.archive(event_store(request), competition)
    snapshot = archive.snapshot(version) if archive is not None else None
    if snapshot is None:
        raise not_found("protocol snapshot", f"{competition} v{version}")
    return _snapshot_json(snapshot, protocols.verify_snapshot(event_store(request), snapshot))
