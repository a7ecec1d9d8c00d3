"""Aggregates whose stored events form a hash chain (DESIGN decision 7).

Every event of a :class:`ChainedAggregate` carries ``payload`` (what happened, as JSON), ``meta`` (who recorded
it, when, the log position: filled at the edge), ``prev_link`` and ``link`` =
``sha256(prev_link + canonical body)``, where the body is the aggregate's id, the event's version, type and
time, its payload and its meta: everything stored of the event but the link itself.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Iterable
from datetime import datetime
from functools import cache
from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.domain import (
    Aggregate,
    BaseAggregate,
    CanInitAggregate,
    CanMutateAggregate,
    DecoratedFuncCaller,
    DomainEvent,
    decorated_funcs,
)
from eventsourcing.utils import get_topic

from domain.chain import (
    GENESIS,
    BrokenLink,
    canonical_chain_body,
    first_broken_link,
    link_after,
    time_text,
)

JSON = dict[str, Any]


def chain_body(stream: UUID | str, version: int, type_name: str, at: datetime, payload: JSON, meta: JSON) -> JSON:
    """What an event's link is computed over (``stream`` as a UUID, or already written as its string)."""
    return {
        "stream": stream if type(stream) is str else str(stream),
        "version": version,
        "type": type_name,
        "at": at.isoformat(),
        "payload": payload,
        "meta": meta,
    }


class ChainedAggregate(Aggregate):
    """Subclasses set ``self.chain_head = link`` in every event body (their creation event included).

    A subclass whose payloads and metas are plain JSON values (strings, numbers, booleans, null, lists and
    objects: no dates, ids or decimals) says so with ``plain_json``; it then keeps each new event's canonical
    body (:meth:`collect_chained`), so the store can keep those very bytes instead of encoding the event again.
    """

    # _bodies: version → canonical body of the events not yet collected; _stream_text: the id as the bodies write
    # it (a UUID's str() is a Python function, asked at every event). Slots, with no annotation: eventsourcing
    # would take an annotated class attribute for a field of the creation event.
    __slots__ = ("_bodies", "_stream_text")
    plain_json: ClassVar[bool] = False

    @classmethod
    def _create_chained(cls, type_name: str, stream: UUID, at: datetime, payload: JSON, meta: JSON, **kwargs: Any) -> Any:
        stream_text = str(stream)
        body = canonical_chain_body(stream_text, 1, type_name, time_text(at), payload, meta)
        event_class = getattr(cls, type_name)
        link = link_after(GENESIS, body)
        direct = _creation(cls, event_class, tuple(kwargs))
        if direct is not None and isinstance(stream, UUID):
            topic, order = direct
            # eventsourcing's _create and the created event's mutate, less their generic steps (filtering the
            # arguments twice, the frozen dataclass's per-field __init__, resolving the class from its topic): the
            # referee starts one of these for every hand. The event's fields in the dataclass's order, as stored.
            given = {
                "originator_id": stream,
                "originator_version": cls.INITIAL_VERSION,
                "timestamp": at,
                "originator_topic": topic,
                "payload": payload,
                "meta": meta,
                "prev_link": GENESIS,
                "link": link,
                **kwargs,
            }
            created_event = object.__new__(event_class)
            object.__setattr__(created_event, "__dict__", {name: given[name] for name in order})
            created = object.__new__(cls)
            created.__base_init__(stream, cls.INITIAL_VERSION, at)
            # the @event-decorated __init__ (the creation event's body): may refuse, before anything is kept
            created.__init__(payload=payload, meta=meta, prev_link=GENESIS, link=link, **kwargs)  # type: ignore[misc]
            created._pending_events.append(created_event)
        else:
            created = cls._create(
                event_class,
                id=stream,
                timestamp=at,
                payload=payload,
                meta=meta,
                prev_link=GENESIS,
                link=link,
                **kwargs,
            )
        created._stream_text = stream_text
        if cls.plain_json:
            created._bodies = {1: body}
        return created

    def _trigger_chained(self, type_name: str, payload: JSON, at: datetime, meta: JSON) -> None:
        version = self.version + 1
        previous: str = self.chain_head  # type: ignore[attr-defined]
        stream: str | None = getattr(self, "_stream_text", None)
        if stream is None:
            stream = self._stream_text = str(self.id)
        body = canonical_chain_body(stream, version, type_name, time_text(at), payload, meta)
        event_class = getattr(type(self), type_name)
        fields = {
            "originator_id": self.id,
            "originator_version": version,
            "timestamp": at,
            "payload": payload,
            "meta": meta,
            "prev_link": previous,
            "link": link_after(previous, body),
        }
        direct = _event_body(event_class)
        if direct is not None:
            body_of_event, timed = direct
            # eventsourcing's trigger_event and mutate, less their generic steps (copying and filtering the
            # arguments, the frozen dataclass's per-field __init__, checking the stream and version this
            # method just set): the referee triggers one of these for every record it accepts.
            new_event = object.__new__(event_class)
            object.__setattr__(new_event, "__dict__", fields)
            # the @event method: may refuse
            if timed:
                body_of_event(self, payload, meta, previous, fields["link"], at)
            else:
                body_of_event(self, payload, meta, previous, fields["link"])
            self.version = version
            self.modified_on = at
            self._pending_events.append(new_event)
        else:
            self.trigger_event(event_class, **fields)
        # Kept only once the event is: a refused act raises out of the trigger above.
        if self.plain_json:
            bodies: dict[int, bytes] | None = getattr(self, "_bodies", None)
            if bodies is None:
                bodies = {}
                self._bodies = bodies
            bodies[version] = body

    def collect_chained(self) -> list[tuple[Any, bytes | None]]:
        """The new events, each with its canonical body (None where none was kept), as ``collect_events``."""
        bodies: dict[int, bytes] = getattr(self, "_bodies", None) or {}
        self._bodies = {}
        return [(e, bodies.get(e.originator_version)) for e in self.collect_events()]


_CHAINED_FIELDS = ("originator_id", "originator_version", "timestamp", "payload", "meta", "prev_link", "link")
_BODY_PARAMETERS = ("self", "payload", "meta", "prev_link", "link")
#: a body told the event's time too (the Competition's: when a winner was declared is when it ended)
_TIMED_BODY_PARAMETERS = (*_BODY_PARAMETERS, "timestamp")
_APPLIES_INERT = (None, DecoratedFuncCaller.apply, CanMutateAggregate.apply)


@cache
def _event_body(event_class: type) -> tuple[Callable[..., None], bool] | None:
    """The @event method an event class of a chained aggregate runs, where calling it directly is all that
    eventsourcing's mutate would do: a plain dataclass of exactly a chained event's fields, eventsourcing's
    own mutate and apply, and a method taking (payload, meta, prev_link, link), or those and the timestamp
    (then the bool is True). Otherwise None."""
    body = decorated_funcs.get(event_class)
    if (
        body is None
        or not dataclasses.is_dataclass(event_class)
        or tuple(f.name for f in dataclasses.fields(event_class)) != _CHAINED_FIELDS
        or "__slots__" in vars(event_class)
        or getattr(event_class, "apply", None) is not DecoratedFuncCaller.apply
        # what DecoratedFuncCaller.apply calls after the method (super().apply) must do nothing
        or any(vars(k).get("apply") not in _APPLIES_INERT for k in event_class.__mro__)
        or getattr(event_class, "mutate", None) is not CanMutateAggregate.mutate
        or tuple(inspect.signature(body).parameters) not in (_BODY_PARAMETERS, _TIMED_BODY_PARAMETERS)
    ):
        return None
    return body, tuple(inspect.signature(body).parameters) == _TIMED_BODY_PARAMETERS


_CREATION_FIELDS = ("originator_id", "originator_version", "timestamp", "originator_topic")
_CREATION_BODY = ("payload", "meta", "prev_link", "link")


@cache
def _creation(cls: type, event_class: type, named: tuple[str, ...]) -> tuple[str, tuple[str, ...]] | None:
    """(the aggregate's topic, the created event's field names) where making the aggregate directly is all that
    eventsourcing's ``_create`` and ``mutate`` would do with these arguments: a plain dataclass of the creation
    fields, the body's four and ``named``; eventsourcing's own mutate and an inert apply; the base class's
    ``__base_init__``; an ``__init__`` taking exactly the body's fields and ``named`` (not the id, which
    eventsourcing would add); no explicit topic. Otherwise None."""
    if not dataclasses.is_dataclass(event_class):
        return None
    order = tuple(f.name for f in dataclasses.fields(event_class))
    init = inspect.signature(cls.__init__).parameters  # type: ignore[misc]
    if (
        order[:4] != _CREATION_FIELDS
        or set(order[4:]) != {*_CREATION_BODY, *named}
        or len(order) != 4 + len(_CREATION_BODY) + len(named)
        or set(init) != {"self", *_CREATION_BODY, *named}
        or "__slots__" in vars(event_class)
        # eventsourcing's own (it refuses an id that is not a UUID: the direct path takes UUIDs only)
        or getattr(event_class, "__post_init__", DomainEvent.__post_init__) is not DomainEvent.__post_init__
        or getattr(event_class, "mutate", None) is not CanInitAggregate.mutate
        or any(vars(k).get("apply") not in _APPLIES_INERT for k in event_class.__mro__)
        or getattr(cls, "__base_init__", None) is not BaseAggregate.__base_init__
        or getattr(cls, "TOPIC", None)
    ):
        return None
    return get_topic(cls), order


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
