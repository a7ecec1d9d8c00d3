"""The base of the officials' aggregates: a disciplinary case, a season record, a hand's review, a protest."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from domain.chained import JSON, ChainedAggregate
from domain.officials.codec import encode


class OfficialsRecord(ChainedAggregate):
    """A hash-chained aggregate whose events are the officials' events in their JSON form (:mod:`.codec`), each
    stored under its own type's name, so a stored record reads back with the package's ``CATALOG`` alone."""

    def _record(self, recorded: Any, at: datetime, meta: JSON | None) -> None:
        self._trigger_chained(type(recorded).__name__, encode(recorded), at, meta or {})
