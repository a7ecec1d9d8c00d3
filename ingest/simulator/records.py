"""A simulated hand as log records: the legal events through :func:`ingest.publish.hand_records`, and each
mistake as its own record just before the legal act that follows it.

A refused record takes no place in the hand's sequence (the referee stores it as a rejection), so a mistake
carries the sequence number of the act that replaces it; its event id is derived apart from that act's, or
the referee would take the legal act for a retry of the refused one.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from uuid import uuid5

from ingest.envelope import RecordedBy, encode, make_envelope
from ingest.publish import EVENT_NAMESPACE, hand_records
from ingest.simulator.hand import PlayedHand

#: time between two reported events at a table
STEP = timedelta(seconds=5)
#: how long before the legal act its mistake was reported
CORRECTED_AFTER = timedelta(seconds=2)


def simulated_records(
    played: PlayedHand, competition_id: str, recorded_by: RecordedBy, started_at: datetime
) -> Iterator[tuple[bytes, bytes]]:
    start = played.started
    mistakes = {m.seq: m for m in played.mistakes}
    legal = hand_records(played.events, competition_id, recorded_by, started_at, step=STEP)
    for seq, record in enumerate(legal):
        mistake = mistakes.get(seq)
        if mistake is not None:
            envelope = make_envelope(
                mistake.act,
                event_id=uuid5(
                    EVENT_NAMESPACE, f"{competition_id}/{start.table_id}/{start.hand_number}/{seq}/mistake"
                ),
                competition_id=competition_id,
                seq=seq,
                recorded_by=recorded_by,
                occurred_at=started_at + STEP * seq - CORRECTED_AFTER,
                table_id=start.table_id,
                hand_id=str(start.hand_number),
                rulebook=start.rulebook,
            )
            yield record[0], encode(envelope)
        yield record
