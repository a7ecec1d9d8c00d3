"""The protocol's snapshots and signatures (bfsp 2.1.4, 2.3.3): acts on the log like any other, judged here.

A snapshot's record is the Secretary's or the Chief Judge's (the roles table and the appointments, checked at
the desk); what it covers is the referee's to fix: the competition's every stream as the log stood at the
record (the referee commits what it judged before it first), read into the protocol with its heads. A
signature names a snapshot of the archive and its SHA-256.
"""

from __future__ import annotations

from eventsourcing.domain import Aggregate

from domain.officials import verify_recorded_by_named
from domain.protocol import (
    REQUEST_ID,
    ProtocolArchive,
    ProtocolSignatures,
    ProtocolSnapshotRequested,
    signatures_id,
    snapshot_request_event_id,
)
from ingest.envelope import MalformedRecord
from ingest.handlers.desk import (
    Desk,
    Handler,
    Reported,
)


def _take(desk: Desk, act: Reported) -> Aggregate:
    e: ProtocolSnapshotRequested = act.event
    if e.competition_id != act.competition_id:
        raise MalformedRecord(
            f"the record is for {act.competition_id}, its payload asks for {e.competition_id}'s protocol",
            "payload.competition_id",
        )
    if e.request_id:
        # a named request is one record: under another event id it could make a second snapshot
        if not REQUEST_ID.fullmatch(e.request_id):
            raise MalformedRecord(
                f"a request id is 1 to 100 letters, digits and . _ : - (beginning with a letter or a digit); "
                f"{e.request_id[:120]!r} is not one",
                "payload.request_id",
            )
        named = snapshot_request_event_id(act.competition_id, act.by.person, act.role, e.request_id)
        if act.envelope.event_id != named:
            raise MalformedRecord(
                f"snapshot request {e.request_id!r} of {act.by.person} is the record with event id {named}, not "
                f"{act.envelope.event_id}",
                "event_id",
            )
    desk.competition(act.competition_id)  # a competition that adopted no Regulations has no protocol yet
    compiled = desk.compiled_protocol(act.competition_id)
    archive = desk.archive(act.competition_id) or ProtocolArchive.open(act.competition_id, act.at, act.meta)
    archive.take(compiled.document, compiled.heads, act.by.person, act.at, act.meta, compiled.breaks)
    return archive


def _sign(desk: Desk, act: Reported) -> Aggregate:
    e = act.event
    verify_recorded_by_named(e, act.role, act.by.person)
    competition = desk.competition(act.competition_id)
    office = competition.officials.get(e.person)
    found = desk.find(signatures_id(act.competition_id))
    signatures = (
        found if isinstance(found, ProtocolSignatures)
        else ProtocolSignatures.open(act.competition_id, act.at, act.meta)
    )
    archive = desk.archive(act.competition_id)
    snapshot = archive.snapshot(e.version) if archive is not None else None
    signatures.sign(e, snapshot, office is not None and office.role is e.role, act.at, act.meta)
    return signatures


HANDLERS: dict[str, Handler] = {"ProtocolSnapshotRequested": _take, "ProtocolSigned": _sign}
