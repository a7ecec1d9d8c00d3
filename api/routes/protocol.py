"""The competition protocol: read as JSON, a printable HTML page or a PDF; its immutable snapshots taken by the
Secretary or the Chief Judge (bfsp 2.1.4, 2.3.3), listed, and each read back with its verification."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from eventsourcing.application import AggregateNotFoundError
from fastapi import APIRouter, Depends, Path, Query
from fastapi.responses import HTMLResponse, JSONResponse, Response

from api.auth import Principal
from api.deps import CurrentHeavyReads, CurrentPrincipal, CurrentSealing, CurrentStore, roles, verify_scope
from api.errors import ERROR_RESPONSES, ApiError, not_found
from api.routes.protocol_models import ProtocolDocument, SnapshotList, SnapshotRead, SnapshotSummary
from api.sealing import READS_REJECTIONS
from domain.competition.aggregate import Competition, competition_stream_id
from domain.errors import NotPermittedError, RuleRef
from domain.officials.appointments import verify_appointed
from domain.protocol import ProtocolSnapshotTaken
from domain.roles import Role
from ingest.store import Store
from projections import protocol as protocols
from projections.protocol_render import to_html, to_pdf

router = APIRouter(prefix="/v1", tags=["protocol"], responses=ERROR_RESPONSES)

#: who keeps the protocol: the Secretary compiles it, the Chief Judge signs it (bfsp 2.1.4, 2.3.3)
TAKES_SNAPSHOTS: frozenset[Role] = frozenset({Role.SECRETARY, Role.CHIEF_JUDGE})
SNAPSHOT_RULE = RuleRef("bfsp", "2.3.3")

CompetitionId = Annotated[str, Path(description="the competition, as the events name it")]
Version = Annotated[int, Path(ge=1, le=10**6, description="the snapshot's number, from 1")]
#: the Secretary or the Chief Judge (appointed at the competition: checked against its records)
Keeper = Annotated[Principal, Depends(roles(TAKES_SNAPSHOTS, "taking a snapshot of the protocol", rule="bfsp 2.3.3"))]
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


def _document(store: Store, competition: str) -> dict[str, Any]:
    try:
        document = protocols.checked_protocol(store, competition)
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
def take_snapshot(store: CurrentStore, principal: Keeper, competition: CompetitionId) -> dict[str, Any]:
    verify_scope(principal, competition)
    breaks = _document(store, competition)["verification"]["breaks"]
    _verify_keeper(store, principal, competition)
    if breaks:
        # A snapshot is the record a protest is forwarded with: never one of a store that fails verification.
        raise ApiError(409, "store_tampered", f"the stored events fail verification ({len(breaks)} breaks), first:"
                       f" {breaks[0]}")
    taken = protocols.take_snapshot(store, competition, principal.person, datetime.now(UTC))
    return _snapshot_json(taken)


def _verify_keeper(store: Store, principal: Principal, competition: str) -> None:
    """The Secretary or the Chief Judge the competition's own records appointed (DESIGN decision 11): another
    competition's Chief Judge keeps no protocol here (403 citing the rule)."""
    try:
        found: object = store.repository.get(competition_stream_id(competition))
    except AggregateNotFoundError:
        raise not_found("competition", competition) from None
    assert isinstance(found, Competition)
    try:
        verify_appointed(
            found.officials, competition, principal.person, principal.role,
            doing="take a snapshot of the protocol", rule=SNAPSHOT_RULE,
        )  # fmt: skip
    except NotPermittedError as refused:
        raise ApiError(403, "forbidden", refused.reason, rule=str(refused.rule)) from refused


@router.get("/competitions/{competition}/protocol/snapshots", response_model=SnapshotList)
def list_snapshots(store: CurrentStore, principal: CurrentPrincipal, competition: CompetitionId) -> dict[str, Any]:
    verify_scope(principal, competition)
    items = [_snapshot_json(s) for s in protocols.snapshots(store, competition)]
    return {"items": items, "total": len(items)}


@router.get("/competitions/{competition}/protocol/snapshots/{version}", response_model=SnapshotRead)
async def read_snapshot(
    store: CurrentStore, heavy: CurrentHeavyReads, principal: SnapshotReader, competition: CompetitionId,
    version: Version, sealing: CurrentSealing,
) -> dict[str, Any]:
    """A snapshot re-verified against the store; its text as the caller may read it (a reader who may not see
    every card it quotes reads them sealed, and ``sealed`` says that the SHA-256 covers the text unsealed)."""
    verify_scope(principal, competition)

    def verified() -> dict[str, Any]:
        archive = protocols.archive(store, competition)
        snapshot = archive.snapshot(version) if archive is not None else None
        if snapshot is None:
            raise not_found("protocol snapshot", f"{competition} v{version}")
        out = _snapshot_json(snapshot, protocols.verify_snapshot(store, snapshot))
        readable = sealing.protocol(snapshot.protocol, principal)
        out["sealed"] = readable != snapshot.protocol
        out["protocol"] = readable
        return out

    return await heavy.run(f"snapshot {version} of {competition}", verified)
