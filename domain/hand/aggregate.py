"""The Hand aggregate: one hand at one table, its accepted events, and the rules engine that judged them.

Each reported act is an event named for what happened (``PlayerActed``, ``HoleCardsDealt`` ...), and each
consequence the engine derives from it is one too (``UncalledBetReturned``, ``PotAwarded``, ``HandEnded``),
so the stored record shows what the table reported and what followed mechanically.
:meth:`Hand.record` asks the engine first: an illegal act raises its :class:`domain.errors.HandError` and
nothing is triggered, so the aggregate never stores a refused act (the referee stores the rejection
elsewhere). Event bodies drive the :class:`HandState` on replay exactly as they did live.

Every event carries ``meta`` (who recorded it, when, the log position: filled at the edge) and a link of the
hand's hash chain (:mod:`domain.chained`).

The id is ``uuid5`` of the table and the hand number, so a redelivered record lands on the same aggregate.
The engine's state lives in a slot, outside the aggregate's stored state; the accepted acts (as JSON values)
are in the stored state, so a snapshot rebuilds the engine when it is first needed.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.chained import JSON, ChainedAggregate
from domain.hand.codec import decode, encode, encode_any
from domain.hand.events import DerivedEvent, HandStarted, ReportedEvent
from domain.hand.state import HandState
from domain.rulebooks import get_rulebook

HAND_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/hand")


def hand_id(table_id: str, hand_number: int) -> UUID:
    return uuid5(HAND_NAMESPACE, f"{table_id}/{hand_number}")


class Hand(ChainedAggregate):
    __slots__ = ("_engine", "_derived")

    @staticmethod
    def create_id(table_id: str, hand_number: int, **_: Any) -> UUID:
        return hand_id(table_id, hand_number)

    @event("HandStarted")
    def __init__(
        self, table_id: str, hand_number: int, payload: JSON, meta: JSON, prev_link: str, link: str
    ) -> None:
        self.table_id = table_id
        self.hand_number = hand_number
        self.started = payload
        self.reported: list[JSON] = []
        self.chain_head = link
        start = decode(payload)
        assert isinstance(start, HandStarted)
        self._engine: HandState | None = HandState.start(start, get_rulebook(start.rulebook))
        self._derived: tuple[DerivedEvent, ...] = ()

    @classmethod
    def start(cls, started: HandStarted, at: datetime, meta: JSON | None = None) -> Hand:
        """A new hand; :class:`domain.errors.HandError` if its start breaks the rules (nothing is created)."""
        HandState.start(started, get_rulebook(started.rulebook))
        stream = hand_id(started.table_id, started.hand_number)
        hand: Hand = cls._create_chained(
            "HandStarted",
            stream,
            at,
            encode(started),
            meta or {},
            table_id=started.table_id,
            hand_number=started.hand_number,
        )
        return hand

    # --- the engine -------------------------------------------------------------------------------------

    @property
    def engine(self) -> HandState:
        """The rules engine's view of this hand (rebuilt from the accepted acts after a snapshot)."""
        engine: HandState | None = getattr(self, "_engine", None)
        if engine is None:
            start = decode(self.started)
            assert isinstance(start, HandStarted)
            engine = HandState.start(start, get_rulebook(start.rulebook))
            for payload in self.reported:
                engine.apply(decode(payload))
            self._engine = engine
        return engine

    @property
    def is_over(self) -> bool:
        return self.engine.is_over

    def record(self, reported: ReportedEvent, at: datetime, meta: JSON | None = None) -> tuple[DerivedEvent, ...]:
        """Judge ``reported`` and, if legal, record it and what follows from it (uncalled bet, pots, end).

        ``at`` is when it happened at the table and ``meta`` who recorded it and where it came from: both are
        stored with the event and covered by its chain link.
        """
        self.engine.verify(reported)
        meta = meta or {}
        self._trigger_chained(type(reported).__name__, encode(reported), at, meta)
        derived = self._derived
        follows = {"follows": meta.get("event_id")}
        for consequence in derived:
            self._trigger_chained(type(consequence).__name__, encode_any(consequence), at, follows)
        return derived

    def _apply(self, payload: JSON, link: str) -> None:
        self._derived = self.engine.apply(decode(payload))
        self.reported.append(payload)
        self.chain_head = link

    def _follow(self, link: str) -> None:
        self.chain_head = link

    # --- one event per reported act -----------------------------------------------------------------------

    @event("ForcedBetPosted")
    def _forced_bet_posted(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("HoleCardsDealt")
    def _hole_cards_dealt(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("CardBurned")
    def _card_burned(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("BoardDealt")
    def _board_dealt(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("PlayerActed")
    def _player_acted(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("CardsDiscarded")
    def _cards_discarded(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("HandShown")
    def _hand_shown(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("HandMucked")
    def _hand_mucked(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("MisdealDeclared")
    def _misdeal_declared(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("HandVoided")
    def _hand_voided(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    # --- what follows mechanically (the engine derived it; replay derives it again) ------------------------

    @event("UncalledBetReturned")
    def _uncalled_bet_returned(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._follow(link)

    @event("PotAwarded")
    def _pot_awarded(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._follow(link)

    @event("HandEnded")
    def _hand_ended(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._follow(link)

