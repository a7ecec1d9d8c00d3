"""The Hand aggregate: one hand at one table, its accepted events, and the rules engine that judged them.

Each reported act is an ``@event`` method named for what happened (``PlayerActed``, ``HoleCardsDealt`` ...).
:meth:`Hand.record` asks the engine first: an illegal act raises its :class:`domain.errors.HandError` and
nothing is triggered, so the aggregate never stores a refused act (the referee stores the rejection
elsewhere). The event bodies drive the :class:`HandState` on replay exactly as they did live.

The id is ``uuid5`` of the table and the hand number, so a redelivered record lands on the same aggregate.
The engine's state lives in a slot, outside the aggregate's stored state; the accepted acts (as JSON values)
are in the stored state, so a snapshot rebuilds the engine when it is first needed.
"""

from __future__ import annotations

from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain.hand.codec import JSON, decode, encode
from domain.hand.events import (
    DerivedEvent,
    HandStarted,
    ReportedEvent,
)
from domain.hand.state import HandState
from domain.rulebooks import get_rulebook

HAND_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/hand")


def hand_id(table_id: str, hand_number: int) -> UUID:
    return uuid5(HAND_NAMESPACE, f"{table_id}/{hand_number}")


class Hand(Aggregate):
    __slots__ = ("_engine", "_derived")

    @staticmethod
    def create_id(table_id: str, hand_number: int, started: JSON) -> UUID:
        return hand_id(table_id, hand_number)

    @event("HandStarted")
    def __init__(self, table_id: str, hand_number: int, started: JSON) -> None:
        self.table_id = table_id
        self.hand_number = hand_number
        self.started = started
        self.reported: list[JSON] = []
        start = decode(started)
        assert isinstance(start, HandStarted)
        self._engine: HandState | None = HandState.start(start, get_rulebook(start.rulebook))
        self._derived: tuple[DerivedEvent, ...] = ()

    @classmethod
    def start(cls, started: HandStarted) -> Hand:
        """A new hand; :class:`domain.errors.HandError` if its start breaks the rules (nothing is created)."""
        HandState.start(started, get_rulebook(started.rulebook))
        return cls(table_id=started.table_id, hand_number=started.hand_number, started=encode(started))

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

    def record(self, reported: ReportedEvent) -> tuple[DerivedEvent, ...]:
        """Judge ``reported`` and, if legal, record it; returns what follows from it (uncalled bet, pots, end)."""
        self.engine.verify(reported)
        trigger = getattr(self, _METHODS[type(reported).__name__])
        trigger(payload=encode(reported))
        return self._derived

    def _apply(self, payload: JSON) -> None:
        self._derived = self.engine.apply(decode(payload))
        self.reported.append(payload)

    # --- one event per reported act -----------------------------------------------------------------------

    @event("ForcedBetPosted")
    def _forced_bet_posted(self, payload: JSON) -> None:
        self._apply(payload)

    @event("HoleCardsDealt")
    def _hole_cards_dealt(self, payload: JSON) -> None:
        self._apply(payload)

    @event("CardBurned")
    def _card_burned(self, payload: JSON) -> None:
        self._apply(payload)

    @event("BoardDealt")
    def _board_dealt(self, payload: JSON) -> None:
        self._apply(payload)

    @event("PlayerActed")
    def _player_acted(self, payload: JSON) -> None:
        self._apply(payload)

    @event("CardsDiscarded")
    def _cards_discarded(self, payload: JSON) -> None:
        self._apply(payload)

    @event("HandShown")
    def _hand_shown(self, payload: JSON) -> None:
        self._apply(payload)

    @event("HandMucked")
    def _hand_mucked(self, payload: JSON) -> None:
        self._apply(payload)

    @event("MisdealDeclared")
    def _misdeal_declared(self, payload: JSON) -> None:
        self._apply(payload)

    @event("HandVoided")
    def _hand_voided(self, payload: JSON) -> None:
        self._apply(payload)


_METHODS: dict[str, str] = {
    "ForcedBetPosted": "_forced_bet_posted",
    "HoleCardsDealt": "_hole_cards_dealt",
    "CardBurned": "_card_burned",
    "BoardDealt": "_board_dealt",
    "PlayerActed": "_player_acted",
    "CardsDiscarded": "_cards_discarded",
    "HandShown": "_hand_shown",
    "HandMucked": "_hand_mucked",
    "MisdealDeclared": "_misdeal_declared",
    "HandVoided": "_hand_voided",
}
