"""The event store as the competition's projections see it, and what a stored event says of its recording.

Projections import only the domain (DESIGN, "Ownership"), so the protocol and the federation's views name
what they read as Protocols here; ``ingest.store.Store`` has that shape, and mypy holds it to it where the API
hands the store to them (api/routes/federation.py, api/routes/protocol.py, api/cli_protocol.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.application import Repository
from eventsourcing.persistence import AggregateRecorder, EventStore, Mapper


class EventSource(Protocol):
    """Stored events: by stream (decoded, or as stored with their mapper), by notification, and aggregates."""

    @property
    def events(self) -> EventStore[UUID]: ...

    @property
    def mapper(self) -> Mapper[UUID]: ...

    @property
    def recorder(self) -> AggregateRecorder: ...

    @property
    def repository(self) -> Repository[UUID]: ...

    def notifications(self, topics: Sequence[str] = ..., page: int = ...) -> Iterator[Any]:
        """Every stored event (or those of ``topics``) in the order stored."""
        ...


class ArchivingSource(EventSource, Protocol):
    """An event source the protocol's snapshots are saved to: a snapshot is itself a stored, chained event."""

    def save(self, *objs: Any, **kwargs: Any) -> Any: ...


def replayed(events: Iterable[Any]) -> Any:
    """The aggregate a stream's stored events make, applied in version order (None for no events)."""
    aggregate: Any = None
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


def recorded_by(event: Any) -> dict[str, str]:
    """Who recorded a stored event, as the referee put it in its meta (blank where it did not)."""
    recorded = event.meta.get("recorded_by", {}) if isinstance(event.meta, dict) else {}
    return {"person": recorded.get("person", ""), "role": recorded.get("role", "")}


def iso(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()
