"""The referee's verdicts on submitted events, read back from the verdicts' read model.

The store's index keeps, for every event id it answered, the stream the answer went to and the outcome; the
projector keeps what that answer says of the record (who recorded it, where, and a rejection's kind, rule and
reason) in ``rm_verdicts`` (projections/verdicts.py). A verdict is read once the read models hold the answer, or
have caught up with what was stored when the referee answered; the record found there must be the one submitted (api/sealing.py: a
verdict is returned only to whoever may see the record).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from uuid import UUID

from pydantic import BaseModel, Field

from domain.hand.aggregate import hand_id
from domain.rejections import RejectionKind, rejection_log_id
from ingest.catalog import FEDERATION_CATALOG
from ingest.envelope import Envelope
from ingest.store import Store
from projections.read_models import ReadModels
from projections.verdicts import StoredVerdict

#: how often a waiting request asks the store again
POLL_SECONDS = 0.02


class Outcome(StrEnum):
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class EventVerdict(BaseModel):
    event_id: UUID
    outcome: Outcome
    kind: str = Field(
        default="", description="for a rejection: illegal, malformed, out_of_sequence or conflicting_duplicate"
    )
    rule: str = Field(default="", description="for an illegal act: the rulebook and rule it broke")
    reason: str = Field(default="", description="for a rejection: why, as a floor official would say it")
    field: str = Field(default="", description="for a malformed or out-of-sequence record: the field at fault")


def await_seen(store: Store, ids: Sequence[UUID], timeout: float) -> set[UUID]:
    """The ids of ``ids`` the store has answered, once all are or ``timeout`` seconds have passed."""
    wanted = set(ids)
    deadline = time.monotonic() + timeout
    seen = store.seen(wanted)
    while seen != wanted and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        seen |= store.seen(wanted - seen)
    return seen


@dataclass(frozen=True)
class Answers:
    """The store's answers to some record ids (id → the stream answered in and the outcome), and what the
    verdicts' read model holds of them (id → stream → the answer as stored)."""

    answered: dict[UUID, tuple[UUID, str]]
    stored: dict[str, dict[str, StoredVerdict]]

    def projected(self) -> bool:
        return all(str(stream) in self.stored.get(str(i), {}) for i, (stream, _) in self.answered.items())


def await_projected(store: Store, models: ReadModels, ids: Sequence[UUID], timeout: float) -> Answers | None:
    """The answers to ``ids`` (all answered by the store) once the read models hold them, or have caught up with
    what was stored when they were all answered (an answer missing then is not a record's: :func:`verdicts` says
    so); None if neither within ``timeout`` seconds."""
    answered = store.answers(set(ids))
    head = store.recorder.max_notification_id() or 0
    deadline = time.monotonic() + timeout
    while True:
        # the position first: the rows read after it hold at least what was projected up to it
        caught_up = models.position() >= head
        found = Answers(answered, models.verdicts({str(i): str(stream) for i, (stream, _) in answered.items()}))
        if caught_up or found.projected():
            return found
        if time.monotonic() >= deadline:
            return None
        time.sleep(POLL_SECONDS)


def verdicts(
    store: Store,
    answers: Answers,
    envelopes: Sequence[Envelope],
    readable: Callable[[Envelope, str], str] = lambda _, reason: reason,
    digests: Sequence[str] | None = None,
) -> list[EventVerdict]:
    """The verdict on each answered record, in the order given, with each reason as ``readable`` lets the caller
    read it (api/sealing.py), from the answers as the read models hold them (:func:`await_projected`).

    A verdict is the verdict on the record the caller submitted: where the event id already names another record
    — another competition's, table's or hand's, another recorder's, another sequence number — the answer says so
    and nothing of that record (an event id is no key to somebody else's verdict, reason or cards)."""
    # ``digests``: of the records as submitted (ingest.referee.record_digest); an id answered for a record of other
    # content is a conflicting duplicate, whatever its metadata shares with the one submitted
    answered_digests = store.seen_digests(answers.answered) if digests is not None else {}
    out = []
    for n, envelope in enumerate(envelopes):
        answer = answers.answered.get(envelope.event_id)
        if answer is None:
            raise LookupError(f"the store has not answered event {envelope.event_id}")
        stream, outcome = answer
        found = answers.stored.get(str(envelope.event_id), {}).get(str(stream))
        if found is None or not _same_record(envelope, stream, outcome, found):
            out.append(_another_record(envelope.event_id))
            continue
        first = answered_digests.get(envelope.event_id)
        if digests is not None and first is not None and first != digests[n]:
            out.append(_conflicting(envelope.event_id))  # the same place and recorder, other content
            continue
        if outcome != Outcome.REJECTED:
            out.append(EventVerdict(event_id=envelope.event_id, outcome=Outcome.ACCEPTED))
            continue
        out.append(
            EventVerdict(
                event_id=envelope.event_id,
                outcome=Outcome.REJECTED,
                kind=found.kind,
                rule=found.rule,
                reason=readable(envelope, found.reason),
                field=found.field,
            )
        )
    return out


def _same_record(envelope: Envelope, stream: UUID, outcome: str, found: StoredVerdict) -> bool:
    """Whether ``found`` (the answer the store gave ``envelope``'s id, as projected) is ``envelope``'s: the same
    competition, recorder and sequence number, and the same table, hand and type."""
    if (found.recorded_by, found.role) != (envelope.recorded_by.person, envelope.recorded_by.role.value):
        return False
    if found.competition != envelope.competition_id or found.seq != envelope.seq:
        return False
    if outcome == Outcome.REJECTED:
        return bool(
            found.rejected
            and stream == rejection_log_id(envelope.competition_id)
            and found.event_type == envelope.type
            and found.table_id == (envelope.table_id or "")
            and found.hand == (envelope.hand_id or "")
        )
    if found.rejected:
        return False
    if envelope.type in FEDERATION_CATALOG:
        return True
    number = envelope.hand_id or ""
    return bool(
        envelope.table_id and number.isdigit() and stream == hand_id(envelope.table_id, int(number), envelope.competition_id)
    )


def _conflicting(event_id: UUID) -> EventVerdict:
    return EventVerdict(
        event_id=event_id,
        outcome=Outcome.REJECTED,
        kind=RejectionKind.CONFLICTING_DUPLICATE.value,
        field="event_id",
        reason=f"event id {event_id} was already answered for a record with other content: this one is not judged "
        "(a new record needs a new event id)",
    )


def _another_record(event_id: UUID) -> EventVerdict:
    return EventVerdict(
        event_id=event_id,
        outcome=Outcome.REJECTED,
        kind="duplicate",
        field="event_id",
        reason=f"event id {event_id} already names another record (another table's, hand's or recorder's, or "
        "other contents): this record was not judged, and that record's verdict is for whoever may see it; "
        "report this record with an event id of its own",
    )
