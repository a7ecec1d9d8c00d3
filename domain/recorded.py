"""Aggregates that record typed events: one definition of an event, one method that applies it.

An aggregate's events after its opening are typed values (frozen dataclasses): an act records
``self._record(event, at, meta)``, the event is stored under its type's name in the JSON form the aggregate's
codec gives (:meth:`TypedRecord.payload_of`), and the one method registered for that type with
``@applies(EventType)`` applies it, whether recorded now or read back from the store (it is given the event as
:meth:`TypedRecord.recorded_from` reads it back from the stored payload, so both ways run the same code on the
same value).

A subclass names the types it records in ``RECORDS`` and adds their stored event classes to its body with
``locals().update(recorded_events(RECORDS))``; it refuses to be defined if one of them has no applier, or one is
applied twice. A type stored under another name than its own (the name an act it records already has, as the
deny list's ``TokenRevoked``) says so in ``RECORDED_AS``. The officials' aggregates (:mod:`domain.officials.recorded`), the protocol's record
(:mod:`domain.protocol`) and the rejections (:mod:`domain.rejections`) are made this way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, ClassVar, TypeVar

from eventsourcing.domain import event

from domain.chained import JSON, ChainedAggregate
from domain.officials.codec import decode_as, fields

_Applier = TypeVar("_Applier", bound=Callable[..., None])
#: the attribute :func:`applies` marks a method with: the event types it applies
_APPLIES = "__recorded_applies__"


def applies(*kinds: type) -> Callable[[_Applier], _Applier]:
    """Register the decorated method as what recording (or reading back) an event of ``kinds`` does to the
    aggregate's state; it is given the typed event."""

    def mark(method: _Applier) -> _Applier:
        setattr(method, _APPLIES, kinds)
        return method

    return mark


class TypedRecord(ChainedAggregate):
    """A hash-chained aggregate whose events after its opening are typed values, each stored under its own type's
    name. By default an event is stored as its fields (enums by value, times in ISO 8601: the federation's codec,
    :mod:`domain.officials.codec`); a subclass whose events were always stored in another form says how with
    :meth:`payload_of` and :meth:`recorded_from`."""

    #: the event types a subclass records after its opening (ClassVar: eventsourcing would take another annotated
    #: class attribute for a field of the creation event)
    RECORDS: ClassVar[tuple[type, ...]] = ()
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

    @classmethod
    def payload_of(cls, recorded: Any) -> JSON:
        """``recorded`` as its stored event's payload."""
        return fields(recorded)

    @classmethod
    def recorded_from(cls, kind: type, payload: JSON) -> Any:
        """The event of type ``kind`` a stored payload holds (the inverse of :meth:`payload_of`)."""
        return decode_as(kind, payload)

    def _record(self, recorded: Any, at: datetime, meta: JSON | None) -> None:
        """Record ``recorded``: stored under its type's name, as :meth:`payload_of` writes it; the method
        ``@applies`` registered for its type then applies it."""
        self._trigger_chained(recorded_name(type(recorded)), self.payload_of(recorded), at, meta or {})


def recorded_name(kind: type) -> str:
    """The name an event of type ``kind`` is stored under: its ``RECORDED_AS`` (a ClassVar) when the name is an act's
    already (the act reported and the event recorded of it hold different fields), else the type's own name."""
    name = getattr(kind, "RECORDED_AS", kind.__name__)
    assert isinstance(name, str)
    return name


def recorded_events(kinds: Iterable[type]) -> dict[str, Any]:
    """The stored event class of each of ``kinds`` (``DisciplinaryCase.PenaltyImposed``, …: the topic the store
    keeps), for a subclass's body: each made by eventsourcing from an @event method that reads the typed event back
    from the payload and runs its applier."""
    return {f"_{kind.__name__}": event(recorded_name(kind))(_applying(kind)) for kind in kinds}


def _applying(kind: type) -> Callable[[Any, JSON, JSON, str, str], None]:
    def recorded(self: Any, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        # the body every stored event of this type runs, recorded now or read back from the store
        self._appliers[kind](self, self.recorded_from(kind, payload))
        self.chain_head = link

    recorded.__qualname__ = recorded.__name__ = f"_{kind.__name__}"
    return recorded
