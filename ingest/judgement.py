"""What the write path's handlers share with the referee: the record being judged, the batch its outcome goes
into, the one builder of rejections, and the narrow interface a handler is given (:class:`Bench`).

The referee (ingest/referee.py) reads each record, answers duplicates and commits a batch's outcomes in one
transaction; a handler (ingest/handlers/: a hand's events, OFC rounds, and the federation's acts family by
family, assembled in ingest/desk.py) judges one record: it loads the aggregate(s) the record belongs to by natural
key, then accepts the record into them or rejects it with a rule. A handler never sees the referee itself,
only a :class:`Bench`, so that this module, not the referee, is what the handlers import.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass, field
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.chain import time_text
from domain.clock import RULE as CLOCK_RULE
from domain.clock import is_imported
from domain.errors import RuleError
from domain.hand.aggregate import Hand, hand_id
from domain.hand.events import HandStarted
from domain.rejections import Rejection, RejectionKind
from ingest.envelope import Envelope, MalformedRecord
from ingest.log import LogRecord
from ingest.store import Store

#: how much of a refused record a rejection keeps
RECORD_EXCERPT = 4000

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Verdict:
    partition: int
    offset: int
    event_id: UUID
    outcome: str  # "accepted", "rejected", "duplicate"
    rejection: Rejection | None = None
    competition_id: str = ""


@dataclass
class Batch:
    """The outcomes of one batch of records, committed together by the referee."""

    touched: dict[UUID, Aggregate] = field(default_factory=dict)
    seen: list[tuple[UUID, UUID, str]] = field(default_factory=list)
    #: the batch's answered ids → the digest of the record answered
    ids: dict[UUID, str] = field(default_factory=dict)
    verdicts: list[Verdict] = field(default_factory=list)

    def accept(self, record: LogRecord, event_id: UUID, envelope: Envelope, *touched: Aggregate) -> None:
        """``record`` is accepted into ``touched`` (the first is the aggregate its event id is answered by)."""
        for aggregate in touched:
            self.touched[aggregate.id] = aggregate
        self.seen.append((event_id, touched[0].id, "accepted"))
        self.verdicts.append(
            Verdict(record.partition, record.offset, event_id, "accepted", None, envelope.competition_id)
        )

    def follow(self, aggregate: Aggregate) -> None:
        """``aggregate`` changed as a consequence of an accepted record (the floor following its hands)."""
        self.touched[aggregate.id] = aggregate


class Bench(Protocol):
    """What the referee gives a handler: the store and the hot aggregates to load by natural key, the hand
    streams it keeps hot, and the one way to reject a record (in the competition's rejection log)."""

    @property
    def store(self) -> Store: ...

    @property
    def hot(self) -> MutableMapping[UUID, Any]: ...

    def hand(self, stream: UUID) -> Hand | None:
        """The hand on ``stream`` (hot, else from the store), or None."""
        ...

    def keep(self, hand: Hand) -> None:
        """Keep a hand just started hot."""
        ...

    def reject(
        self,
        batch: Batch,
        record: LogRecord,
        event_id: UUID,
        envelope: Envelope | None,
        rejection: Rejection,
        answered: bool = True,
    ) -> None: ...


# --- where a record's events are stored, and what is stored with them ------------------------------------------


def hand_stream(envelope: Envelope, event: Any) -> UUID:
    """The hand's stream an event of it belongs to (from the envelope's natural key), or MalformedRecord."""
    if not envelope.table_id:
        raise MalformedRecord("a hand's event must name its table", "table_id")
    if not envelope.hand_id:
        raise MalformedRecord("a hand's event must name its hand", "hand_id")
    if isinstance(event, HandStarted):
        if event.table_id != envelope.table_id:
            raise MalformedRecord(f"the envelope says table {envelope.table_id}, the start {event.table_id}", "table_id")
        if str(event.hand_number) != envelope.hand_id:
            raise MalformedRecord(
                f"the envelope says hand {envelope.hand_id}, the start hand {event.hand_number}", "hand_id"
            )
    try:
        number = int(envelope.hand_id)
    except ValueError:
        raise MalformedRecord(f"hand_id {envelope.hand_id!r} is not a hand number", "hand_id") from None
    return hand_id(envelope.table_id, number, envelope.competition_id)


def meta_of(envelope: Envelope | None, record: LogRecord) -> JSON:
    """What is stored with an event a record makes: where the record is in the log, when the log received it,
    and (with its envelope) who recorded it."""
    # Built as one literal, the keys in the order they were always stored (an event stored through eventsourcing's
    # transcoder keeps them in this order): made for every record, a tenth of judging a hand's event when it was
    # built by update() with an Enum's value looked up through its property.
    position = {"topic": record.topic, "partition": record.partition, "offset": record.offset}
    received = record.received_at
    received_at = "" if received is None else time_text(received)
    if envelope is None:
        return {"log": position} if received is None else {"log": position, "received_at": received_at}
    by = envelope.recorded_by
    role = by.role
    recorded_by = {"person": by.person, "role": str(role)}  # a StrEnum's str() is its value
    if received is None:
        meta: JSON = {
            "log": position,
            "event_id": uuid_text(envelope.event_id),
            "seq": envelope.seq,
            "recorded_by": recorded_by,
            "competition_id": envelope.competition_id,
            "rulebook": envelope.rulebook,
            "occurred_at": time_text(envelope.occurred_at),
        }
    else:
        meta = {
            "log": position,
            "received_at": received_at,  # the service's time, beside the table's claim
            "event_id": uuid_text(envelope.event_id),
            "seq": envelope.seq,
            "recorded_by": recorded_by,
            "competition_id": envelope.competition_id,
            "rulebook": envelope.rulebook,
            # the table's claim; the act is judged at the service's. Written through the cache the event's link
            # is written with: an imported record's act is at this very time object
            "occurred_at": time_text(envelope.occurred_at),
        }
    if is_imported(role):
        meta["imported"] = True  # a past event's record: its own time stands, no live deadline applies
    return meta


def uuid_text(value: UUID) -> str:
    """``str(value)``: the standard library's ``UUID.__str__`` (a Python method, its text made by %-formatting),
    written once here where every record's id is written."""
    digits = f"{value.int:032x}"
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"


def log_position(record: LogRecord) -> JSON:
    return {"topic": record.topic, "partition": record.partition, "offset": record.offset}


# --- the one rejection builder ------------------------------------------------------------------------------------


def rejection(
    kind: RejectionKind,
    why: str,
    record: LogRecord,
    envelope: Envelope | None,
    *,
    rule: str = "",
    field: str = "",
    event_id: UUID | None = None,
) -> Rejection:
    """A rejection of ``record``: what was refused (from its envelope, when it could be read), why, the rule or
    the field, and the record as it came (cut at :data:`RECORD_EXCERPT`)."""
    named = event_id if event_id is not None else envelope.event_id if envelope is not None else None
    return Rejection(
        kind,
        why,
        rule=rule,
        field=field,
        event_id=str(named) if named is not None else "",
        event_type=envelope.type if envelope else "",
        table_id=(envelope.table_id or "") if envelope else "",
        hand_id=(envelope.hand_id or "") if envelope else "",
        seq=envelope.seq if envelope else None,
        record=excerpt(record.value),
    )


def illegal(record: LogRecord, envelope: Envelope, err: RuleError) -> Rejection:
    """The act breaks a rule: the rejection cites it."""
    return rejection(RejectionKind.ILLEGAL, err.reason, record, envelope, rule=str(err.rule))


def malformed(record: LogRecord, envelope: Envelope | None, err: MalformedRecord) -> Rejection:
    """The record cannot be what it says: the rejection names the field."""
    return rejection(RejectionKind.MALFORMED, err.reason, record, envelope, field=err.field)


def untimely(record: LogRecord, envelope: Envelope, why: str, field: str = "occurred_at") -> Rejection:
    """A time the service's clock refuses (domain/clock.py)."""
    return rejection(RejectionKind.MALFORMED, why, record, envelope, rule=CLOCK_RULE, field=field)


def out_of_sequence(record: LogRecord, envelope: Envelope, why: str, field: str = "") -> Rejection:
    """The record's place in its stream is wrong: a start of a stream that exists, a gap, an act too early."""
    named = field or ("seq" if "seq" in why else "hand_id")
    return rejection(RejectionKind.OUT_OF_SEQUENCE, why, record, envelope, field=named)


def conflicting(record: LogRecord, event_id: UUID, envelope: Envelope | None) -> Rejection:
    """Another record under an event id already answered."""
    return rejection(
        RejectionKind.CONFLICTING_DUPLICATE,
        f"event id {event_id} was already answered for a record with other content: this one is not judged, and "
        "the first one's verdict stands (a new record needs a new event id)",
        record,
        envelope,
        field="event_id",
        event_id=event_id,
    )


def excerpt(raw: bytes) -> str:
    return raw[:RECORD_EXCERPT].decode("utf-8", "replace")
