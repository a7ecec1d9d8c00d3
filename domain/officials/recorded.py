"""The base of the officials' aggregates: a disciplinary case, a season record, a hand's review, a protest.

Their events are the typed values of each package's catalog (``domain/discipline/events.py``, …), as the
Competition's are (``domain/competition/aggregate.py``), recorded and applied as every typed record's are
(:mod:`domain.recorded`: ``RECORDS``, one ``@applies(EventType)`` per type). The officials' payloads name their
own type (``{"type": "PenaltyImposed", …}``, :mod:`.codec`), so a stored record reads back with the package's
``CATALOG`` alone.
"""

from __future__ import annotations

from typing import Any

from domain.chained import JSON
from domain.officials.codec import decode, encode
from domain.recorded import TypedRecord, applies, recorded_events

__all__ = ["OfficialsRecord", "applies", "recorded_events"]


class OfficialsRecord(TypedRecord):
    """A typed record whose stored payloads name their event's type."""

    @classmethod
    def payload_of(cls, recorded: Any) -> JSON:
        return encode(recorded)

    @classmethod
    def recorded_from(cls, kind: type, payload: JSON) -> Any:
        return decode(payload, {kind.__name__: kind})
