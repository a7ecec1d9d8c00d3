"""Hands → log records: each event wrapped in its envelope, keyed by competition.

Event ids are ``uuid5`` of the competition, table, hand and sequence number, so publishing the same hand
history twice yields the same ids and the referee stores it once.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timedelta
from uuid import NAMESPACE_URL, UUID, uuid5

from domain.hand.events import HandStarted, ReportedEvent
from ingest.envelope import RecordedBy, encode, make_envelope

EVENT_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/event")


def event_id_for(competition_id: str, table_id: str, hand_number: int, seq: int) -> UUID:
    return uuid5(EVENT_NAMESPACE, f"{competition_id}/{table_id}/{hand_number}/{seq}")


def hand_records(
    events: Iterable[ReportedEvent],
    competition_id: str,
    recorded_by: RecordedBy,
    started_at: datetime,
    *,
    table_id: str | None = None,
    hand_number: int | None = None,
    step: timedelta = timedelta(seconds=1),
) -> Iterator[tuple[bytes, bytes]]:
    """One hand's events as (key, value) log records, in order; ``table_id``/``hand_number`` re-seat the hand."""
    it = iter(events)
    start = next(it)
    if not isinstance(start, HandStarted):
        raise ValueError(f"a hand's first event is HandStarted, not {type(start).__name__}")
    start = dataclasses.replace(
        start,
        table_id=table_id if table_id is not None else start.table_id,
        hand_number=hand_number if hand_number is not None else start.hand_number,
    )
    key = competition_id.encode()
    for seq, event in enumerate(itertools.chain((start,), it)):
        envelope = make_envelope(
            event,
            event_id=event_id_for(competition_id, start.table_id, start.hand_number, seq),
            competition_id=competition_id,
            table_id=start.table_id,
            hand_id=str(start.hand_number),
            seq=seq,
            recorded_by=recorded_by,
            occurred_at=started_at + step * seq,
            rulebook=start.rulebook,
        )
        yield key, encode(envelope)


def batched(records: Iterable[tuple[bytes, bytes]], size: int) -> Iterator[Sequence[tuple[bytes, bytes]]]:
    batch: list[tuple[bytes, bytes]] = []
    for record in records:
        batch.append(record)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch
