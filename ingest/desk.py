"""The desk: where the referee hands a record that is not a hand's or an OFC round's — the federation's acts.

The acts are judged by one handler each, grouped by family in ingest/handlers/ (competition and floor,
officials and discipline, protests, rulings, the protocol); the :class:`ingest.handlers.desk.Desk` they are
given loads each aggregate by its natural key and holds what the federation's checks remember. This module
assembles them: :data:`FEDERATION_HANDLERS` (one per type of ``FEDERATION_CATALOG``), :func:`open_desk`, and
:func:`route_at_desk`, the referee's door to the desk.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any, Protocol
from uuid import UUID

from domain.errors import RuleError
from ingest.catalog import FEDERATION_CATALOG
from ingest.envelope import Envelope, MalformedRecord
from ingest.handlers import competition, discipline, final, integrity, protests, protocol, rulings
from ingest.handlers.desk import Desk, Handler, NotYet, ProtocolCompiler
from ingest.judgement import Batch, Bench, illegal, malformed, meta_of, out_of_sequence
from ingest.log import LogRecord
from ingest.store import Store

__all__ = ["FEDERATION_HANDLERS", "Desk", "desk_of", "open_desk", "route_at_desk"]

#: each behind the signed final protocol's gate: after it only the federation's protest decisions amend the record
FEDERATION_HANDLERS: dict[str, Handler] = final.gated({
    **competition.HANDLERS,
    **discipline.HANDLERS,
    **protests.HANDLERS,
    **rulings.HANDLERS,
    **protocol.HANDLERS,
    **integrity.HANDLERS,
    **final.HANDLERS,
})
assert set(FEDERATION_HANDLERS) == set(FEDERATION_CATALOG), "every federation type has its handler at the desk"


def open_desk(store: Store, hot: MutableMapping[UUID, Any], protocols: ProtocolCompiler | None = None) -> Desk:
    """A desk over ``store`` keeping its aggregates in ``hot`` (the referee's hot aggregates), reading protocols
    for their snapshots with ``protocols``."""
    return Desk(store, hot, FEDERATION_HANDLERS, protocols)


class _HasDesk(Protocol):
    @property
    def desk(self) -> Desk: ...


def desk_of(referee: _HasDesk) -> Desk:
    """The referee's desk (made again with the hot aggregates whenever the referee forgets them)."""
    return referee.desk


def route_at_desk(
    bench: Bench, desk: Desk, batch: Batch, record: LogRecord, event_id: UUID, envelope: Envelope, event: Any
) -> None:
    """Judge a federation record: accepted into the aggregate its handler changed, or rejected with the rule
    (an act of an aggregate that does not exist yet is out of sequence, a record that contradicts its
    envelope malformed)."""
    try:
        touched = desk.judge(envelope, event, meta_of(envelope, record))
    except RuleError as err:
        bench.reject(batch, record, event_id, envelope, illegal(record, envelope, err))
        return
    except NotYet as err:
        bench.reject(batch, record, event_id, envelope, out_of_sequence(record, envelope, err.why, err.field))
        return
    except MalformedRecord as err:
        bench.reject(batch, record, event_id, envelope, malformed(record, envelope, err))
        return
    batch.accept(record, event_id, envelope, touched)
