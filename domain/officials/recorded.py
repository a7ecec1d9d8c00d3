"""The base of the officials' aggregates: a disciplinary case, a season record, a hand's review, a protest.

Their events are the typed values of each package's catalog (``domain/discipline/events.py``, …), as the
Competition's are (``domain/competition/aggregate.py``): an act records ``self._record(event, at, meta)``, stored
under the event's type name in its JSON form (:mod:`.codec`), and the one method registered for that type with
``@applies(EventType)`` applies it, whether recorded now or read back from the store. A subclass names the types
it records after its opening in ``RECORDS`` and adds their stored event classes to its body with
``locals().update(recorded_events(RECORDS))``; it refuses to be defined if one of them has no applier.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, ClassVar, TypeVar

from eventsourcing.domain import event

from domain.chained import JSON, ChainedAggregate
from domain.officials.codec import decode, encode

_Applier = TypeVar("_Applier", bound=Callable[..., None])
#: the attribute :func:`applies` marks a method with: the event types it applies
_APPLIES = "__officials_applies__"


def applies(*kinds: type) -> Callable[[_Applier], _Applier]:
    """Register the decorated method as what recording (or reading back) an event of ``kinds`` does to the
    aggregate's state; it is given the typed event."""

    def mark(method: _Applier) -> _Applier:
        setattr(method, _APPLIES, kinds)
        return method

    return mark


class OfficialsRecord(ChainedAggregate):
    """A hash-chained aggregate whose events are the officials' typed events, each stored under its own type's
    name in its JSON form, so a stored record reads back with the package's ``CATALOG`` alone."""

    #: the event types a subclass records after its opening (ClassVar: eventsourcing would take another annotated
    #: class attribute for a field of the creation event)
    RECORDS: ClassVar[tuple[type, ...]] = ()
    _by_name: ClassVar[dict[str, type]] = {}
    _appliers: ClassVar[dict[type, Callable[[Any, Any], None]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        appliers: dict[type, Callable[[Any, Any], None]] = {}
        for member in vars(cls).values():
            for kind in getattr(member, _APPLIES, ()):
                if kind in appliers:
                    raise TypeError(f"{cls.__name__} applies {kind.__name__} twice")
                appliers[kind] = member
        unapplied = sorted(k.__name__ for k in cls.RECORDS if k not in appliers)
        if unapplied:
            raise TypeError(f"{cls.__name__} records {', '.join(unapplied)} and applies none of them: add an @applies method")
        cls._appliers = appliers
        cls._by_name = {k.__name__: k for k in cls.RECORDS}

    def _record(self, recorded: Any, at: datetime, meta: JSON | None) -> None:
        """Record ``recorded``: stored under its type's name, as the codec writes its fields; the method
        ``@applies`` registered for its type then applies it."""
        self._trigger_chained(type(recorded).__name__, encode(recorded), at, meta or {})

    def _recorded(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        # the body every stored event after the opening runs, recorded now or read back from the store
        typed = decode(payload, self._by_name)
        self._appliers[type(typed)](self, typed)
        self.chain_head = link


def recorded_events(kinds: Iterable[type]) -> dict[str, Any]:
    """The stored event class of each of ``kinds`` (``DisciplinaryCase.PenaltyImposed``, …: the topic the store
    keeps), for a subclass's body: each made by eventsourcing from an @event method running
    :meth:`OfficialsRecord._recorded`."""
    return {f"_{kind.__name__}": event(kind.__name__)(OfficialsRecord._recorded) for kind in kinds}
