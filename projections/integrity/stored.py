"""The hands of a competition in the event store, as integrity reads them.

A hand's stored events are its reported events and the engine's consequences; integrity reads the start,
the forced bets, the cards, the betting acts (a raw act's reading included: it is stored as the action it was
read as), the hands shown and the final stacks (``HandEnded``). A ruling that later amends a hand's outcome
is not applied here: the statistics count the hand as the engine ended it.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from domain.hand.codec import REPORTED, decode
from domain.hand.events import HandEnded
from domain.integrity.record import HandRecord, record_from_events
from projections.hand_projection import Stored, decoded
from projections.protocol import competition_streams
from projections.stored import EventSource

#: the stored events integrity reads of a hand, beside its end
READ = frozenset({"HandStarted", "ForcedBetPosted", "HoleCardsDealt", "BoardDealt", "PlayerActed", "HandShown"})


def competition_records(store: EventSource, competition_id: str, since: datetime | None = None) -> Iterator[HandRecord]:
    """The competition's ended hold'em hands (started at or after ``since``), in the order of their ids."""
    streams = competition_streams(store, competition_id)
    for stream, events in sorted(streams.items(), key=lambda item: str(item[0])):
        if not events or type(events[0]).__name__ != "HandStarted":
            continue
        if since is not None and getattr(events[0], "timestamp", since) < since:
            continue
        record = record_from_events(domain_events(events), str(stream), competition_id, "")
        if record is not None:
            yield record


def domain_events(stored: list[Any]) -> Iterator[object]:
    for event in stored:
        payload = getattr(event, "payload", None)
        kind = payload.get("type") if isinstance(payload, dict) else None
        if kind in READ and kind in REPORTED:
            if kind != "HandStarted" and isinstance(event, Stored):
                # the projector's hand projection has just decoded this act through the memo: looked up, not
                # decoded again (a hand's start is decoded once, and would only crowd the memo)
                yield decoded(event)
            else:
                yield decode(payload)  # type: ignore[arg-type]
        elif kind == "HandEnded":
            yield HandEnded(tuple((int(seat), int(chips)) for seat, chips in payload["final_stacks"]),  # type: ignore[index]
                            bool(payload.get("undetermined", False)))  # type: ignore[union-attr]

