"""Aggregates whose stored events form a hash chain (DESIGN decision 7).

Every event of a :class:`ChainedAggregate` carries ``payload`` (what happened, as JSON), ``meta`` (who recorded
it, when, the log position: filled at the edge), ``prev_link`` and ``link`` =
``sha256(prev_link + canonical body)``, where the body is the aggregate's id, the event's version, type and
time, its payload and its meta: everything stored of the event but the link itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.chain import GENESIS, BrokenLink, first_broken_link, link

JSON = dict[str, Any]


def chain_body(stream: UUID, version: int, type_name: str, at: datetime, payload: JSON, meta: JSON) -> JSON:
    return {
        "stream": str(stream),
        "version": version,
        "type": type_name,
        "at": at.isoformat(),
        "payload": payload,
        "meta": meta,
    }


class ChainedAggregate(Aggregate):
    """Subclasses set ``self.chain_head = link`` in every event body (their creation event included)."""

    @classmethod
    def _create_chained(cls, type_name: str, stream: UUID, at: datetime, payload: JSON, meta: JSON, **kwargs: Any) -> Any:
        first = link(GENESIS, chain_body(stream, 1, type_name, at, payload, meta))
        return cls._create(
            getattr(cls, type_name),
            id=stream,
            timestamp=at,
            payload=payload,
            meta=meta,
            prev_link=GENESIS,
            link=first,
            **kwargs,
        )

    def _trigger_chained(self, type_name: str, payload: JSON, at: datetime, meta: JSON) -> None:
        body = chain_body(self.id, self.version + 1, type_name, at, payload, meta)
        self.trigger_event(
            getattr(type(self), type_name),
            timestamp=at,
            payload=payload,
            meta=meta,
            prev_link=self.chain_head,  # type: ignore[attr-defined]
            link=link(self.chain_head, body),  # type: ignore[attr-defined]
        )


def first_broken_link_in(events: Iterable[Any]) -> BrokenLink | None:
    """Recompute the chain of one stream's stored events (as the event store gives them back, in order)."""
    return first_broken_link(
        (
            chain_body(e.originator_id, e.originator_version, type(e).__name__, e.timestamp, e.payload, e.meta),
            e.prev_link,
            e.link,
        )
        for e in events
    )
