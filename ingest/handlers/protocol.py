"""The protocol's signatures (bfsp 2.1.4, 2.3.3): the handler loads the competition's ProtocolSignatures and
the archived snapshot signed, through the desk."""

from __future__ import annotations

from eventsourcing.domain import Aggregate

from domain.errors import (
    NotPermittedError,
    RuleRef,
)
from domain.protocol import (
    ProtocolSignatures,
    signatures_id,
)
from ingest.handlers.desk import (
    Desk,
    Handler,
    Reported,
)


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




HANDLERS: dict[str, Handler] = {"ProtocolSigned": _sign}
