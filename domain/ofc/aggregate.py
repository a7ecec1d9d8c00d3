"""The OfcRound aggregate: one Open-Face Chinese round at one table, its accepted events, and the engine that
judged them (:mod:`domain.ofc.game`).

As the Hand: each reported act is an event named for what happened (``OfcCardsDealt``, ``OfcCardsSet``) and
each consequence the engine derives is one too (``OfcRoundRedealt``, ``OfcRoundScored``); :meth:`OfcRound.record`
asks the engine first, so a refused act raises its :class:`domain.ofc.game.OfcError` and nothing is stored.
Every event carries ``meta`` and a link of the round's hash chain (:mod:`domain.chained`); the engine, recording
and replay are the judged aggregate's (:mod:`domain.judged`), as the Hand's. Each event type is defined once, in
:mod:`domain.ofc.events`: the round's stored event classes are made from its catalogs (:func:`stored_events`), so
an act or a consequence added there is recorded and read back with nothing to add here.

The id is ``uuid5`` of the competition, the table and the round number, so a redelivered record lands on the
same aggregate.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.chained import JSON
from domain.judged import JudgedAggregate
from domain.ofc.codec import decode, encode
from domain.ofc.events import OFC_DERIVED, OFC_REPORTED, OfcDerived, OfcReported, OfcRoundStarted
from domain.ofc.game import OfcGame
from domain.rulebooks import get_rulebook

OFC_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/ofc-round")


def ofc_round_id(table_id: str, round_number: int, competition_id: str = "") -> UUID:
    """A round's natural key: its competition, its table and its number."""
    return uuid5(OFC_NAMESPACE, f"{competition_id}/{table_id}/{round_number}")


def stored_events() -> dict[str, Any]:
    """The stored event class of each act reported after the start (the engine applies it) and of each consequence
    the engine derives (replaying the act derives it again), for :class:`OfcRound`'s body: ``OfcRound.OfcCardsSet``,
    …, the topics the store keeps; each made by eventsourcing from an @event method."""
    reported = {name: event(name)(_body(name, applies=True)) for name in OFC_REPORTED if name != OfcRoundStarted.__name__}
    derived = {name: event(name)(_body(name, applies=False)) for name in OFC_DERIVED}
    return {f"_{name}": made for name, made in {**reported, **derived}.items()}


def _body(name: str, applies: bool) -> Callable[[Any, JSON, JSON, str, str], None]:
    def recorded(self: Any, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        # the body every stored event of this type runs, recorded now or read back from the store
        if applies:
            self._apply(payload, link)
        else:
            self._follow(link)

    recorded.__qualname__ = recorded.__name__ = f"_{name}"
    return recorded


class OfcRound(JudgedAggregate[OfcGame]):
    @staticmethod
    def create_id(table_id: str, round_number: int, **_: Any) -> UUID:
        return ofc_round_id(table_id, round_number)

    @classmethod
    def new_engine(cls, start: Any) -> OfcGame:
        assert isinstance(start, OfcRoundStarted)
        return OfcGame(start, get_rulebook(start.rulebook))

    decode = staticmethod(decode)
    encode = staticmethod(encode)

    @event("OfcRoundStarted")
    def __init__(
        self, table_id: str, round_number: int, payload: JSON, meta: JSON, prev_link: str, link: str
    ) -> None:
        self.table_id = table_id
        self.round_number = round_number
        self._begin(payload, link)

    @classmethod
    def start(cls, started: OfcRoundStarted, at: datetime, meta: JSON | None = None) -> OfcRound:
        """A new round; :class:`domain.ofc.game.OfcError` if its start breaks the rules (nothing is created:
        the creation event's body starts the engine, which refuses before the aggregate exists)."""
        meta = meta or {}
        stream = ofc_round_id(started.table_id, started.round_number, str(meta.get("competition_id", "")))
        created: OfcRound = cls._start_judged(
            "OfcRoundStarted", stream, at, started, meta, table_id=started.table_id,
            round_number=started.round_number,
        )
        return created

    def record(self, reported: OfcReported, at: datetime, meta: JSON | None = None) -> tuple[OfcDerived, ...]:
        """Judge ``reported`` and, if legal, record it and what follows from it (a redeal, the settlement)."""
        meta = meta or {}
        derived: tuple[OfcDerived, ...] = self._judge(reported, at, meta)
        self._follow_with(derived, at, meta)
        return derived

    locals().update(stored_events())
