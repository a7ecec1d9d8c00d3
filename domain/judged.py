"""Aggregates an engine judges act by act: a Hand (:mod:`domain.hand.aggregate`), an OFC round
(:mod:`domain.ofc.aggregate`).

Such an aggregate is created from a start (its creation event's payload), keeps every reported act it accepted
as a JSON value, and records each act by asking its engine first: the event body applies the act to the engine,
which refuses before anything changes, so a refused act raises out of the trigger and nothing is stored. What the
engine derives from an act follows it as events of their own, each naming the record it ``follows``.

The engine lives in a slot, outside the stored state: after a snapshot it is rebuilt from the start and the
accepted acts when first needed. Subclasses say which engine and which codec (:meth:`new_engine`,
:meth:`decode`, :meth:`encode`).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar
from uuid import UUID

from domain.chained import JSON, ChainedAggregate


class Engine(Protocol):
    """What a judged aggregate asks of its engine."""

    @property
    def is_over(self) -> bool: ...

    def apply(self, event: Any) -> tuple[Any, ...]: ...


EngineT = TypeVar("EngineT", bound=Engine)


class JudgedAggregate(ChainedAggregate, Generic[EngineT]):
    __slots__ = ("_engine", "_live", "_derived")
    plain_json = True  # payloads from the codec, metas from the envelope

    # --- what a subclass says: its engine and its codec ------------------------------------------------------

    @classmethod
    def new_engine(cls, start: Any) -> EngineT:
        """The engine of a new aggregate, from its decoded start (raises the engine's error if it breaks a rule)."""
        raise NotImplementedError

    @staticmethod
    def decode(payload: JSON) -> Any:
        raise NotImplementedError

    @staticmethod
    def encode(event: Any) -> JSON:
        raise NotImplementedError

    # --- created from a start ----------------------------------------------------------------------------------

    @classmethod
    def _start_judged(cls, type_name: str, stream: UUID, at: datetime, started: Any, meta: JSON, **kwargs: Any) -> Any:
        """The creation event ``type_name`` from ``started``: its body starts the engine, which refuses a start
        that breaks the rules before the aggregate exists."""
        return cls._create_chained(type_name, stream, at, cls.encode(started), meta, **kwargs)

    def _begin(self, payload: JSON, link: str) -> None:
        """The creation event's body (each subclass's ``__init__``, decorated with its own event name)."""
        self.started = payload
        self.reported: list[JSON] = []
        self.chain_head = link
        self._engine: EngineT | None = self.new_engine(self.decode(payload))
        self._derived: tuple[Any, ...] = ()

    # --- the engine ----------------------------------------------------------------------------------------

    @property
    def engine(self) -> EngineT:
        """The engine's view of this aggregate (rebuilt from the accepted acts after a snapshot)."""
        engine: EngineT | None = getattr(self, "_engine", None)
        if engine is None:
            engine = self.new_engine(self.decode(self.started))
            for payload in self.reported:
                engine.apply(self.decode(payload))
            self._engine = engine
        return engine

    @property
    def is_over(self) -> bool:
        return self.engine.is_over

    # --- recording -----------------------------------------------------------------------------------------

    def _judge(self, reported: Any, at: datetime, meta: JSON) -> tuple[Any, ...]:
        """Record ``reported`` if the engine accepts it (its event body applies it); what the engine derived."""
        self._live: Any = reported  # recording live: the body needs not decode it back
        try:
            self._trigger_chained(type(reported).__name__, self.encode(reported), at, meta)
        finally:
            self._live = None
        derived: tuple[Any, ...] = self._derived
        return derived

    def _follow_with(self, consequences: Iterable[Any], at: datetime, meta: JSON) -> None:
        """Record what the engine derived from the record ``meta`` names, each naming the record it follows."""
        follows = {"follows": meta.get("event_id")}
        for consequence in consequences:
            self._trigger_chained(type(consequence).__name__, self.encode(consequence), at, follows)

    def _apply(self, payload: JSON, link: str) -> None:
        """A reported act's event body: the engine applies it (live, or decoded on replay)."""
        engine = self.engine
        live: Any = getattr(self, "_live", None)
        self._derived = engine.apply(live if live is not None else self.decode(payload))
        self.reported.append(payload)
        self.chain_head = link

    def _follow(self, link: str) -> None:
        """A derived event's body: replaying the act it follows derived it again."""
        self.chain_head = link
