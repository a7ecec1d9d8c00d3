"""The Hand aggregate: one hand at one table, its accepted events, and the rules engine that judged them.

Each reported act is an event named for what happened (``PlayerActed``, ``HoleCardsDealt`` ...), and each
consequence the engine derives from it is one too (``UncalledBetReturned``, ``PotAwarded``, ``HandEnded``),
so the stored record shows what the table reported and what followed mechanically.
:meth:`Hand.record` asks the engine first: an illegal act raises its :class:`domain.errors.HandError` and
nothing is triggered, so the aggregate never stores a refused act (the referee stores the rejection
elsewhere). Event bodies drive the :class:`HandState` on replay exactly as they did live.

A raw act (``RawActReported``: the words said, the chips pushed) is stored as it happened, then its reading
under the rulebook as its own event: the ``PlayerActed`` it amounts to (its meta names the raw act it
``interprets``, the ``rule`` and the ``reading`` in words), an ``ActionObliged`` the seat's next action must
meet, or a ``RulingRequested``. An interpreted action the rules refuse is refused with its rule, and nothing
is stored. While a ruling is pending the hand waits for an action (or a void) recorded by an official: the
meta's ``recorded_by.role`` must be ``judge`` or ``chief_judge``. An out-of-turn act binds, or is released,
when the seat's turn comes: its interpreted ``PlayerActed`` then follows the act that brought the turn.
``reported`` keeps the reported events only (raw acts included, their readings not): replaying them reads
the raw acts again, to the same result.

The action clock's acts (``ClockCalled``, ``ClockExpired``) are checked here for what the engine cannot see: the
recorder's role against the roles table, and whether the clock's seconds and countdown have passed, by the
events' times (the service's ``received_at`` in the meta where the write path stamped it, else the table's).

Every event carries ``meta`` (who recorded it, when, the log position: filled at the edge) and a link of the
hand's hash chain (:mod:`domain.chained`).

The id is ``uuid5`` of the table and the hand number, so a redelivered record lands on the same aggregate.
The engine's state lives in a slot, outside the aggregate's stored state; the accepted acts (as JSON values)
are in the stored state, so a snapshot rebuilds the engine when it is first needed.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.chained import JSON
from domain.errors import HandStateError
from domain.hand.clock import clock_runs_out_at
from domain.hand.codec import decode, encode, encode_any
from domain.hand.events import (
    ClockCalled,
    ClockExpired,
    DerivedEvent,
    HandStarted,
    HandVoided,
    MisdealDeclared,
    PlayerActed,
    ReportedEvent,
)
from domain.hand.in_play import HandReading, InterpretedAct
from domain.hand.state import HandState
from domain.judged import JudgedAggregate
from domain.officials.permissions import verify_permitted
from domain.roles import Role
from domain.rulebooks import get_rulebook

HAND_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/hand")
#: who may enter the action a pending ruling decides (envelope roles, ingest/envelope.py)
OFFICIALS = frozenset({"judge", "chief_judge"})


@lru_cache(maxsize=4096)  # asked once per event of a hand: computed once per hand while it is being played
def hand_id(table_id: str, hand_number: int, competition_id: str = "") -> UUID:
    """A hand's natural key: its competition, its table and its number (table ids repeat across events)."""
    return uuid5(HAND_NAMESPACE, f"{competition_id}/{table_id}/{hand_number}")


class Hand(JudgedAggregate[HandState]):
    __slots__ = ("_readings",)
    #: the officials' acts on a hand whose recorder the aggregate checks against the roles table itself (the
    #: desk checks every hand event's recorder on the write path; a Hand recorded outside it is checked too)
    _OFFICIALS_ACTS = (ClockCalled, ClockExpired)

    @staticmethod
    def create_id(table_id: str, hand_number: int, **_: Any) -> UUID:
        return hand_id(table_id, hand_number)  # start() passes the id, with the competition, explicitly

    @classmethod
    def new_engine(cls, start: Any) -> HandState:
        assert isinstance(start, HandStarted)
        return HandState.start(start, get_rulebook(start.rulebook))

    decode = staticmethod(decode)
    encode = staticmethod(encode_any)

    @event("HandStarted")
    def __init__(
        self, table_id: str, hand_number: int, payload: JSON, meta: JSON, prev_link: str, link: str
    ) -> None:
        self.table_id = table_id
        self.hand_number = hand_number
        self._begin(payload, link)
        self._readings: tuple[HandReading, ...] = ()
        #: seat → the event id of its last raw act, which a later interpreted action names
        self.raw_acts: dict[str, Any] = {}

    @classmethod
    def start(cls, started: HandStarted, at: datetime, meta: JSON | None = None) -> Hand:
        """A new hand; :class:`domain.errors.HandError` if its start breaks the rules (nothing is created:
        the creation event's body starts the engine, which refuses before the aggregate exists)."""
        meta = meta or {}
        stream = hand_id(started.table_id, started.hand_number, str(meta.get("competition_id", "")))
        hand: Hand = cls._start_judged(
            "HandStarted", stream, at, started, meta, table_id=started.table_id, hand_number=started.hand_number
        )
        return hand

    def record(self, reported: ReportedEvent, at: datetime, meta: JSON | None = None) -> tuple[DerivedEvent, ...]:
        """Judge ``reported`` and, if legal, record it and what follows from it (uncalled bet, pots, end).

        ``at`` is when it happened at the table and ``meta`` who recorded it and where it came from: both are
        stored with the event and covered by its chain link.
        """
        meta = meta or {}
        self._check_official(reported, meta)
        if isinstance(reported, self._OFFICIALS_ACTS):
            self._check_recorder(reported, meta)
        if isinstance(reported, ClockExpired):
            self._check_clock_time(reported, at, meta)
        derived: tuple[DerivedEvent, ...] = self._judge(reported, at, meta)
        follows = {"follows": meta.get("event_id")}
        raw_ids = getattr(self, "raw_acts", {})
        for reading in self._readings:
            if isinstance(reading, InterpretedAct):
                why: JSON = {
                    "interprets": raw_ids.get(str(reading.event.seat)),
                    "rule": str(reading.rule),
                    "reading": reading.reason,
                    **follows,
                }
                if reading.returned:
                    why["returned"] = reading.returned
                self._trigger_chained("PlayerActed", encode(reading.event), at, why)
            else:
                self._trigger_chained(type(reading).__name__, encode_any(reading), at, follows)
        self._follow_with(derived, at, meta)
        return derived

    @property
    def readings(self) -> tuple[HandReading, ...]:
        """What the last recorded raw act (or the turn it brought) was read as."""
        return getattr(self, "_readings", ())

    def _check_official(self, reported: ReportedEvent, meta: JSON) -> None:
        """A pending ruling is answered only by an official's entry (the engine refuses every other event)."""
        pending = self.engine.ruling
        if pending is None or not isinstance(reported, PlayerActed | HandVoided | MisdealDeclared):
            return
        role = (meta.get("recorded_by") or {}).get("role")
        if role not in OFFICIALS:
            asked, rule = pending
            who = f"a {role}" if role else "nobody named"
            raise HandStateError(
                f"the director's ruling on seat {asked.seat}'s act is pending ({asked.reason}); only a judge or "
                f"the chief judge may enter what follows, and this was recorded by {who}",
                rule,
            )

    def _check_recorder(self, reported: ReportedEvent, meta: JSON) -> None:
        """Who may call the clock, or record that it ran out: the roles table's answer, with its rule."""
        role = (meta.get("recorded_by") or {}).get("role")
        if role is None:
            return  # a hand judged outside the write path (an import, a test): no recorder to check
        try:
            recorder = Role(role)
        except ValueError:
            raise HandStateError(
                f"{type(reported).__name__} was recorded by {role!r}, which is no role",
                self.engine.rulebook.cite("clock"),
            ) from None
        verify_permitted(type(reported).__name__, recorder)

    def _check_clock_time(self, reported: ClockExpired, at: datetime, meta: JSON) -> None:
        """The clock has run out only once its seconds and its countdown have passed since it was called, by
        the events' times: the service's clock where the write path stamped it (``received_at``, DESIGN 9),
        else the table's. Which seat it runs on is the engine's to judge."""
        clock = getattr(self, "clock_called", None)
        engine = self.engine
        if clock is None or engine.clock is None or clock[0] != reported.seat or engine.clock[0] != reported.seat:
            return  # no clock on the seat: the engine refuses it with its rule
        called_at = datetime.fromisoformat(clock[1])
        now = _event_time(at, meta)
        runs_out = clock_runs_out_at(called_at, engine.rulebook)
        if now < runs_out:
            left = (runs_out - now).total_seconds()
            raise HandStateError(
                f"the clock on seat {reported.seat} was called at {called_at.isoformat()} and runs out at "
                f"{runs_out.isoformat()} ({engine.rulebook.clock_seconds} s, then a "
                f"{engine.rulebook.clock_countdown_seconds} s countdown): he still has {left:g} seconds to act",
                engine.rulebook.cite("clock"),
            )

    def _apply(self, payload: JSON, link: str) -> None:
        super()._apply(payload, link)
        self._readings = tuple(self.engine.readings)

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
        if "interprets" in meta:  # a raw act's reading: replaying the raw act applied it
            self._follow(link)
        else:
            self._apply(payload, link)

    @event("RawActReported")
    def _raw_act_reported(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)
        if not hasattr(self, "raw_acts"):
            self.raw_acts = {}
        self.raw_acts[str(payload["seat"])] = meta.get("event_id")

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

    # --- corrections of dealing errors and other irregularities (domain/hand/corrections.py) ----------------

    @event("DealtShort")
    def _dealt_short(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("MissingCardDealt")
    def _missing_card_dealt(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("HandKilled")
    def _hand_killed(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("PenaltyHandKilled")
    def _penalty_hand_killed(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("FourCardFlopDealt")
    def _four_card_flop_dealt(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("FlopDealtUnburned")
    def _flop_dealt_unburned(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("FlopReformed")
    def _flop_reformed(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("HandMuckedByMistake")
    def _hand_mucked_by_mistake(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("ForeignCardFound")
    def _foreign_card_found(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("PrematureCardsDealt")
    def _premature_cards_dealt(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("PrematureCardsReturned")
    def _premature_cards_returned(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("BurnsShuffledIntoStub")
    def _burns_shuffled_into_stub(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("CommunityCardDealt")
    def _community_card_dealt(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("HoleCardExposed")
    def _hole_card_exposed(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("ExposedCardReplaced")
    def _exposed_card_replaced(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("MuckShuffledIntoStub")
    def _muck_shuffled_into_stub(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    # --- errors that stand unless corrected, and what else the deal itself shows ------------------------------

    @event("IncorrectBetAccepted")
    def _incorrect_bet_accepted(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("IncorrectBetCorrected")
    def _incorrect_bet_corrected(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("ExtraCardDealt")
    def _extra_card_dealt(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("BoxedCardFound")
    def _boxed_card_found(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    @event("ShowRequested")
    def _show_requested(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    # --- the action clock (domain/hand/clock.py) ---------------------------------------------------------------

    @event("ClockCalled")
    def _clock_called(
        self, payload: JSON, meta: JSON, prev_link: str, link: str, timestamp: datetime
    ) -> None:
        self._apply(payload, link)
        # when it was called, for the expiry's check (``timestamp`` is the event's ``at``, on replay too); as
        # text, like the rest of the stored state
        self.clock_called: tuple[int, str] = (payload["seat"], _event_time(timestamp, meta).isoformat())

    @event("ClockExpired")
    def _clock_expired(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._apply(payload, link)

    # --- what follows mechanically (the engine derived it; replay derives it again) ------------------------

    @event("IncorrectBetNoted")
    def _incorrect_bet_noted(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._follow(link)

    @event("BetCorrected")
    def _bet_corrected(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._follow(link)

    @event("IncorrectBetStood")
    def _incorrect_bet_stood(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._follow(link)

    @event("MisdealRecognised")
    def _misdeal_recognised(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._follow(link)

    @event("ClockExpiryApplied")
    def _clock_expiry_applied(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._follow(link)

    @event("ShowRequestAnswered")
    def _show_request_answered(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._follow(link)

    @event("UncalledBetReturned")
    def _uncalled_bet_returned(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._follow(link)

    @event("PotAwarded")
    def _pot_awarded(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._follow(link)

    @event("HandEnded")
    def _hand_ended(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._follow(link)

    # --- a raw act's reading when it is not an action yet --------------------------------------------------

    @event("ActionObliged")
    def _action_obliged(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._follow(link)

    @event("RulingRequested")
    def _ruling_requested(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self._follow(link)


def _event_time(at: datetime, meta: JSON) -> datetime:
    """When an event happened by the service's clock (``received_at``, stamped by the write path), else the
    table's ``at``."""
    received = meta.get("received_at")
    return datetime.fromisoformat(received) if isinstance(received, str) else at
