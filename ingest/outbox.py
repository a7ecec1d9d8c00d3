"""The rejections outbox: every stored rejection reaches the rejections topic, at least once.

The referee stores a rejection in the same transaction as its log position; publishing it to Kafka happens
after that commit. If the broker (or the process) fails in between, a redelivered record is only a duplicate
to the referee, so it would never be published again. Instead the publisher follows the store: it reads the
RecordRejected events after its own tracked position (a tracking record named ``rejections-topic``),
publishes them, then records how far it got. A crash between the two publishes them again: consumers
recognise a rejection by its ``event_id``. Referee processes sharing a store (``pokeraudit referee
--processes N``) follow the same position: one that finds it already recorded as far by another has only
published those rejections a second time, and goes on from there.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any

from eventsourcing.persistence import IntegrityError, Tracking
from eventsourcing.utils import get_topic

from domain.rejections import RejectionLog
from ingest.store import Store

POSITION = "rejections-topic"
REJECTED = get_topic(RejectionLog.RecordRejected)  # type: ignore[attr-defined]

#: (key, message) pairs to put on the rejections topic
Publish = Callable[[Sequence[tuple[bytes, dict[str, Any]]]], None]


def publish_pending(store: Store, publish: Publish, page: int = 500) -> int:
    """Publish every stored rejection not yet published; answer how many were."""
    done = 0
    while True:
        after = store.recorder.max_tracking_id(POSITION) or 0  # type: ignore[attr-defined]
        notifications = store.recorder.select_notifications(after + 1, page, topics=[REJECTED])
        if not notifications:
            return done
        messages = []
        for n in notifications:
            event: Any = store.mapper.to_domain_event(n)
            log = event.meta.get("log", {})
            value = {
                "event_id": event.payload.get("event_id", ""),
                "partition": log.get("partition"),
                "offset": log.get("offset"),
                **event.payload,
            }
            messages.append((str(event.meta.get("competition_id", "")).encode(), value))
        publish(messages)
        # IntegrityError: another referee recorded this position (or one past it) first; read on from there
        with contextlib.suppress(IntegrityError):
            store.recorder.insert_tracking(Tracking(POSITION, notifications[-1].id))  # type: ignore[attr-defined]
        done += len(messages)
