"""The competition's end and what follows it (bfsp 2.1.1, 2.1.4, 2.3.3): the Chief Judge ends the competition,
the Secretary compiles the final protocol (a snapshot marked final) and issues the result documents from it once
the Chief Judge has signed it. The rules are domain/competition/closing.py's and domain/final_protocol.py's.

:func:`closed_after_the_final` wraps every federation handler: once the Chief Judge has signed a final version,
an act that would amend the record is refused before its own handler runs (only the federation's protest
decisions amend it, each followed by a new final version).
"""

from __future__ import annotations

from collections.abc import Mapping

from eventsourcing.domain import Aggregate

from domain.competition.events import CompetitionEnded
from domain.final_protocol import (
    FinalProtocolCompiled,
    ResultDocuments,
    ResultDocumentsIssued,
    results_id,
    signed_final,
    verify_compile,
    verify_final_signature,
    verify_issue,
    verify_record_open,
)
from domain.protocol import ProtocolArchive, ProtocolSignatures, ProtocolSnapshotTaken, signatures_id
from domain.roles import Role
from ingest.envelope import MalformedRecord
from ingest.handlers.desk import Desk, Handler, Reported


def _same_competition(act: Reported, named: str) -> None:
    if named != act.competition_id:
        raise MalformedRecord(f"the record is for {act.competition_id}, its payload names {named}", "payload.competition_id")


def _end(desk: Desk, act: Reported) -> Aggregate:
    e: CompetitionEnded = act.event
    _same_competition(act, e.competition_id)
    competition = desk.competition(act.competition_id)
    competition.end(act.at, act.by, act.meta, winner=e.winner)
    return competition


def _compile(desk: Desk, act: Reported) -> Aggregate:
    e: FinalProtocolCompiled = act.event
    _same_competition(act, e.competition_id)
    competition = desk.competition(act.competition_id)
    archive = desk.archive(act.competition_id)
    finals = archive.finals() if archive is not None else ()
    compiled = desk.compiled_protocol(act.competition_id)
    verify_compile(competition.has_ended, finals, _signed(desk, act.competition_id), compiled.document)
    kept = archive or ProtocolArchive.open(act.competition_id, act.at, act.meta)
    kept.take(compiled.document, compiled.heads, act.by.person, act.at, act.meta, compiled.breaks, final=True)
    return kept


def _issue(desk: Desk, act: Reported) -> Aggregate:
    e: ResultDocumentsIssued = act.event
    _same_competition(act, e.competition_id)
    desk.competition(act.competition_id)
    archive = desk.archive(act.competition_id)
    found = desk.find(results_id(act.competition_id))
    documents = found if isinstance(found, ResultDocuments) else None
    final = verify_issue(
        e, archive.finals() if archive is not None else (), _signed(desk, act.competition_id),
        documents.issued_versions if documents is not None else (),
    )
    documents = documents or ResultDocuments.open(act.competition_id, act.at, act.meta)
    documents.issue(final, act.at, act.meta)
    return documents


def _signed(desk: Desk, competition_id: str) -> list[tuple[int, Role]]:
    """Each signature on the competition's snapshots: its version and the signer's office."""
    found = desk.find(signatures_id(competition_id))
    if not isinstance(found, ProtocolSignatures):
        return []
    return [(s.version, s.role) for s in found.signatures]


def _finals(desk: Desk, competition_id: str) -> tuple[ProtocolSnapshotTaken, ...]:
    archive = desk.archive(competition_id)
    return archive.finals() if archive is not None else ()


def closed_after_the_final(name: str, handler: Handler) -> Handler:
    """``handler``, refusing first what the competition's signed final protocol closes (nothing is read for a
    competition that has not ended: the acts of one being played cost no more)."""

    def judge(desk: Desk, act: Reported) -> Aggregate:
        competition = desk.competition_of(act.competition_id)
        if competition is not None and competition.has_ended:
            finals = _finals(desk, act.competition_id)
            verify_record_open(name, act.role, signed_final(finals, _signed(desk, act.competition_id)),
                               act.competition_id)
            if name == "ProtocolSigned":
                verify_final_signature(act.event.version, finals)
        return handler(desk, act)

    return judge


def gated(handlers: Mapping[str, Handler]) -> dict[str, Handler]:
    """Every handler of ``handlers`` behind :func:`closed_after_the_final`."""
    return {name: closed_after_the_final(name, handler) for name, handler in handlers.items()}


HANDLERS: dict[str, Handler] = {
    "CompetitionEnded": _end,
    "FinalProtocolCompiled": _compile,
    "ResultDocumentsIssued": _issue,
}
