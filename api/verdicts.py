"""The referee's verdicts on submitted events, read back from the store.

The store keeps, for every event id it answered, the stream the answer went to; a rejection's details (its
kind, rule and reason) live in the competition's :class:`RejectionLog`, committed in the same transaction as
the id. So an id the store has seen is accepted unless its competition's rejection log names it.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from enum import StrEnum
from uuid import UUID

from pydantic import BaseModel, Field

from domain.rejections import rejection_log_id
from ingest.store import Store

#: how often a waiting request asks the store again
POLL_SECONDS = 0.02


class Outcome(StrEnum):
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class EventVerdict(BaseModel):
    event_id: UUID
    outcome: Outcome
    kind: str = Field(default="", description="for a rejection: illegal, malformed or out_of_sequence")
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


def verdicts(store: Store, events: Iterable[tuple[UUID, str]]) -> list[EventVerdict]:
    """The verdict on each answered (event id, competition id), in the order given."""
    pairs = list(events)
    rejected: dict[str, dict[str, object]] = {}
    for competition in {c for _, c in pairs}:
        rejected.update(_rejections(store, competition))
    out = []
    for event_id, _ in pairs:
        found = rejected.get(str(event_id))
        if found is None:
            out.append(EventVerdict(event_id=event_id, outcome=Outcome.ACCEPTED))
            continue
        out.append(
            EventVerdict(
                event_id=event_id,
                outcome=Outcome.REJECTED,
                kind=str(found.get("kind", "")),
                rule=str(found.get("rule", "")),
                reason=str(found.get("reason", "")),
                field=str(found.get("field", "")),
            )
        )
    return out


def _rejections(store: Store, competition_id: str) -> dict[str, dict[str, object]]:
    """The competition's rejections by event id (its RejectionLog's events after the opening one)."""
    found: dict[str, dict[str, object]] = {}
    for event in store.events.get(rejection_log_id(competition_id)):
        payload = getattr(event, "payload", None)
        if isinstance(payload, dict) and payload.get("event_id"):
            found[str(payload["event_id"])] = payload
    return found
