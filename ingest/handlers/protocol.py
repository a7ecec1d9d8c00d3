"""The protocol's snapshots and signatures (bfsp 2.1.4, 2.3.3): acts on the log like any other, judged here.

A snapshot's record is the Secretary's or the Chief Judge's (the roles table and the appointments, checked at
the desk); what it covers is the referee's to fix: the competition's every stream as the log stood at the
record (the referee commits what it judged before it first), read into the protocol with its heads. A
signature names a snapshot of the archive and its SHA-256.
"""

from __future__ import annotations

from eventsourcing.domain import Aggregate

from domain.errors import (
    NotPermittedError,
    RuleRef,
)
from domain.protocol import (
    ProtocolArchive,
    ProtocolSignatures,
    signatures_id,
)
from ingest.envelope import MalformedRecord
from ingest.handlers.desk import (
    Desk,
    Handler,
    Reported,
)


def _take(desk: Desk, act: Reported) -> Aggregate:
    if act.event.competition_id != act.competition_id:
        raise MalformedRecord(
            f"the record is for {act.competition_id}, its payload asks for {act.event.competition_id}'s protocol",
            "payload.competition_id",
        )
    desk.competition(act.competition_id)  # a competition that adopted no Regulations has no protocol yet
    compiled = desk.compiled_protocol(act.competition_id)
    archive = desk.archive(act.competition_id) or ProtocolArchive.open(act.competition_id, act.at, act.meta)
    archive.take(compiled.document, compiled.heads, act.by.person, act.at, act.meta, compiled.breaks)
    return archive


def _sign(desk: Desk, act: Reported) -> Aggregate:
    e = act.event
    if e.person != act.by.person or e.role is not act.role:
        raise NotPermittedError(
            f"{act.by.person} signs in his own name: the signature says {e.person} "
            f"({e.role.value.replace('_', ' ')})",
            RuleRef("bfsp", "2.1.4"),
        )
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
