"""The OfcRound aggregate: one Open-Face Chinese round at one table, its accepted events, and the engine that
judged them (:mod:`domain.ofc.game`).

As the Hand: each reported act is an event named for what happened (``OfcCardsDealt``, ``OfcCardsSet``) and
each consequence the engine derives is one too (``OfcRoundRedealt``, ``OfcRoundScored``); :meth:`OfcRound.record`
asks the engine first, so a refused act raises its :class:`domain.ofc.game.OfcError` and nothing is stored.
Every event carries ``meta`` and a link of the round's hash chain (:mod:`domain.chained`). The engine lives in a
slot and is rebuilt from the stored acts when first needed.

The id is ``uuid5`` of the competition, the table and the round number, so a redelivered record lands on the
same aggregate.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.chained import JSON, ChainedAggregate
from domain.ofc.codec import decode, encode
from domain.ofc.events import OfcDerived, OfcReported, OfcRoundStarted
from domain.ofc.game import OfcGame
from domain.rulebooks import get_rulebook

OFC_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/ofc-round")


def ofc_round_id(table_id: str, round_number: int, competition_id: str = "") -> UUID:
    """A round's natural key: its competition, its table and its number."""
    return uuid5(OFC_NAMESPACE, f"{competition_id}/{table_id}/{round_number}")


class OfcRound(ChainedAggregate):
    __slots__ = ("_engine", "_live", "_derived")
    plain_json = True

    @staticmethod
    def create_id(table_id: str, round_number: int, **_: Any) -> UUID:
        return ofc_round_id(table_id, round_number)

    @event("OfcRoundStarted")
    def __init__(
        self, table_id: str, round_number: int, payload: JSON, meta: JSON, prev_link: str, link: str
    ) -> None:
        self.table_id = table_id
        self.round_number = round_number
        self.started = payload
        self.reported: list[JSON] = []
        self.chain_head = link
        start = decode(payload)
        assert isinstance(start, OfcRoundStarted)
        self._engine: OfcGame | None = OfcGame(start, get_rulebook(start.rulebook))

    @classmethod
    def start(cls, started: OfcRoundStarted, at: datetime, meta: JSON | None = None) -> OfcRound:
        """A new round; :class:`domain.ofc.game.OfcError` if its start breaks the rules (nothing is created)."""
        meta = meta or {}
        # judged before the aggregate exists, so a refused start creates nothing
        OfcGame(started, get_rulebook(started.rulebook))
        stream = ofc_round_id(started.table_id, started.round_number, str(meta.get("competition_id", "")))
        created: OfcRound = cls._create_chained(
            "OfcRoundStarted",
            stream,
            at,
            encode(started),
            meta,
            table_id=started.table_id,
            round_number=started.round_number,
        )
        return created

    @property
    def engine(self) -> OfcGame:
        engine: OfcGame | None = getattr(self, "_engine", None)
        if engine is None:
            start = decode(self.started)
            engine = OfcGame(start, get_rulebook(start.rulebook))
            for payload in self.reported:
                engine.apply(decode(payload))
            self._engine = engine
        return engine

    @property
    def is_over(self) -> bool:
        return self.engine.is_over

    def record(self, reported: OfcReported, at: datetime, meta: JSON | None = None) -> tuple[OfcDerived, ...]:
        """Judge ``reported`` and, if legal, record it and what follows from it (a redeal, the settlement)."""
        meta = meta or {}
        self._live: OfcReported | None = reported
        self._derived: tuple[OfcDerived, ...] = ()
        try:
            self._trigger_chained(type(reported).__name__, encode(reported), at, meta)
        finally:
            self._live = None
        derived: tuple[OfcDerived, ...] = self._derived
        follows = {"follows": meta.get("event_id")}
        for consequence in derived:
            self._trigger_chained(type(consequence).__name__, encode(consequence), at, follows)
        return derived

    def _apply(self, payload: JSON, link: str) -> None:
        engine = self.engine
        live: OfcReported | None = getattr(self, "_live", None)
        self._derived = engine.apply(live if live is not None else decode(payload))
        self.reported.append(payload)
        self.chain_head = link

    def _follow(self, link: str) -> None:
        self.chain_head = link

    @event("OfcCardsDealt")
    def _cards_dealt(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("OfcCardsSet")
    def _cards_set(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("OfcRoundRedealt")
    def _round_redealt(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._follow(link)

    @event("OfcRoundScored")
    def _round_scored(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._follow(link)
