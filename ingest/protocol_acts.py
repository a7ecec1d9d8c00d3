"""The protocol's acts as records for the log: a snapshot asked for, and a signature on one (domain/protocol.py).

The CLI, the simulator and the tests put them on the log like any other act; the referee judges them
(ingest/handlers/protocol.py)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID, uuid5

from domain.protocol import (
    SNAPSHOT_REQUESTS,
    ProtocolSigned,
    ProtocolSnapshotRequested,
    snapshot_request_event_id,
)
from ingest.envelope import RecordedBy, encode, make_envelope


def snapshot_request_id(competition_id: str, by: RecordedBy, at: datetime) -> UUID:
    """One id per official and moment: the same request sent again is judged once."""
    return uuid5(SNAPSHOT_REQUESTS, f"{competition_id}/{by.person}/{by.role.value}/{at.isoformat()}")


def snapshot_request(
    competition_id: str, by: RecordedBy, at: datetime, event_id: UUID | None = None, request_id: str = ""
) -> tuple[bytes, bytes]:
    """The log record of ``by`` asking for a snapshot of ``competition_id``'s protocol at ``at``; with
    ``request_id`` (the requester's name for it) its event id is the one that name gives: the same request and
    time sent again are the very same record."""
    if request_id:
        event_id = snapshot_request_event_id(competition_id, by.person, by.role, request_id)
    envelope = make_envelope(
        ProtocolSnapshotRequested(competition_id, request_id),
        event_id=event_id or snapshot_request_id(competition_id, by, at),
        competition_id=competition_id,
        seq=0,
        recorded_by=by,
        occurred_at=at,
    )
    return envelope.key, encode(envelope)


def signature(
    competition_id: str, version: int, sha256: str, by: RecordedBy, at: datetime, event_id: UUID | None = None
) -> tuple[bytes, bytes]:
    """The log record of ``by`` signing snapshot ``version`` (whose text hashes to ``sha256``) in his own name."""
    signed = ProtocolSigned(competition_id, version, sha256, by.person, by.role)
    envelope = make_envelope(
        signed,
        event_id=event_id or uuid5(SNAPSHOT_REQUESTS, f"{competition_id}/v{version}/{by.person}/{at.isoformat()}"),
        competition_id=competition_id,
        seq=0,
        recorded_by=by,
        occurred_at=at,
    )
    return envelope.key, encode(envelope)
