"""Rejections: what was reported and refused, kept forever beside what was accepted (DESIGN decision 1).

A rejection is not an error swallowed: it is a record with the rulebook and rule it broke and a sentence a
floor official would say, or, for a record the referee could not read, the field that was wrong. One
:class:`RejectionLog` per competition holds them in log order, hash-chained like every stored stream.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.chained import JSON
from domain.recorded import TypedRecord, applies, recorded_events

REJECTIONS_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/rejections")


def rejection_log_id(competition_id: str) -> UUID:
    return uuid5(REJECTIONS_NAMESPACE, competition_id)


class RejectionKind(StrEnum):
    #: the rules forbid the act (the citation says which rule)
    ILLEGAL = "illegal"
    #: the record cannot be read: bad JSON, unknown type, a field that breaks the schema
    MALFORMED = "malformed"
    #: the record does not fit the hand's sequence (a gap, a second start, an unknown hand)
    OUT_OF_SEQUENCE = "out_of_sequence"
    #: the record reuses an event id already answered for a record of other content: not judged, the first
    #: record's verdict stands (the same record again is a harmless duplicate, not this)
    CONFLICTING_DUPLICATE = "conflicting_duplicate"


@dataclass(frozen=True, slots=True)
class RecordRejected:
    """A record refused: the event :class:`RejectionLog` records, stored as its fields. The referee's verdicts
    call it a :data:`Rejection`."""

    kind: RejectionKind
    reason: str
    #: "bfsp 4.9.6", or "" for a malformed record
    rule: str = ""
    #: the envelope field at fault, for a malformed record ("payload.cards.1")
    field: str = ""
    event_id: str = ""
    event_type: str = ""
    table_id: str = ""
    hand_id: str = ""
    seq: int | None = None
    #: the record as it came off the log (kept verbatim up to a bound, so officials see what was attempted)
    record: str = ""

    @property
    def message(self) -> str:
        return f"{self.reason} ({self.rule})" if self.rule else self.reason


#: what the referee's verdicts call a record refused: the one event type, by the name it is judged by
Rejection = RecordRejected


class RejectionLog(TypedRecord):
    plain_json = True  # a rejection's fields and the envelope's meta
    RECORDS = (RecordRejected,)

    @staticmethod
    def create_id(competition_id: str, **_: Any) -> UUID:
        return rejection_log_id(competition_id)

    @event("Opened")
    def __init__(self, competition_id: str, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self.competition_id = competition_id
        self.count = 0
        self.chain_head = link

    @classmethod
    def open(cls, competition_id: str, at: datetime) -> RejectionLog:
        log: RejectionLog = cls._create_chained(
            "Opened",
            rejection_log_id(competition_id),
            at,
            {"competition_id": competition_id},
            {},
            competition_id=competition_id,
        )
        return log

    def reject(self, rejection: Rejection, at: datetime, meta: JSON) -> None:
        self._record(rejection, at, meta)

    locals().update(recorded_events(RECORDS))

    @applies(RecordRejected)
    def _record_rejected(self, e: RecordRejected) -> None:
        self.count += 1
