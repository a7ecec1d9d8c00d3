"""One hand as the integrity statistics read it: who sat, what each was dealt, what each did, what each won.

It is built from the stored events (projections) or from a hand-history file (the CLI), so both paths feed the
same counters. Players are listed in the order they act before the flop ends, the button last; ``net`` is
each player's result in chips (what he took from the pots less what he put in).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NamedTuple

from domain.cards import Card, parse_card
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    ForcedBetKind,
    ForcedBetPosted,
    HandEnded,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
)


class Street(IntEnum):
    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3


class Act(NamedTuple):
    """One betting act: ``to`` is the player's street total after a bet or raise (0 otherwise). A named
    tuple, not a dataclass: a field of 40,000 hands makes half a million of them."""

    street: int  # a Street
    player: int  # index into HandRecord.players
    kind: ActionKind
    to: int = 0


@dataclass(frozen=True, slots=True)
class HandRecord:
    hand_id: str
    players: tuple[str, ...]
    big_blind: int
    #: chips each player had at the start of the hand
    stacks: tuple[int, ...]
    #: chips each player put in before acting: blinds, straddles and antes
    posted: tuple[int, ...]
    #: of ``posted``, the part that counts towards the first betting round's bet (blinds, not antes)
    blinds: tuple[int, ...]
    #: each player's hole cards, () when the record does not know them
    hole: tuple[tuple[Card, ...], ...]
    board: tuple[Card, ...]
    acts: tuple[Act, ...]
    net: tuple[int, ...]
    #: the players who showed down (still in the hand when the betting ended with two or more left)
    showdown: tuple[bool, ...]
    session: str = ""
    table: str = ""

    def board_on(self, street: int) -> tuple[Card, ...]:
        return self.board[: (0, 3, 4, 5)[street]]


_HOLDEM = frozenset({"NT", "FT", "PT"})


def is_holdem(variant: str) -> bool:
    """The statistics read two hole cards and a five-card board: Texas hold'em in any betting structure."""
    return variant in _HOLDEM


def record_from_events(
    events: Iterable[object], hand_id: str = "", session: str = "", table: str = ""
) -> HandRecord | None:
    """The hand as integrity reads it from its stored events (reported and derived, in order); None for a
    hand that is not hold'em or did not end."""
    reading: _Reading | None = None
    for event in events:
        # the event types are disjoint: the commonest (acts, cards) are asked for first
        if isinstance(event, HandStarted):
            if not is_holdem(event.variant):
                return None
            reading = _Reading(event)
        elif reading is None:
            continue
        elif isinstance(event, PlayerActed):
            reading.acted(event.seat, event.action, event.amount)
        elif isinstance(event, HoleCardsDealt):
            reading.dealt(event.seat, event.cards)
        elif isinstance(event, ForcedBetPosted):
            reading.forced(event.seat, event.amount, event.kind is ForcedBetKind.ANTE)
        elif isinstance(event, BoardDealt):
            reading.boarded(event.cards)
        elif isinstance(event, HandShown):
            reading.shown(event.seat, event.cards)
        elif isinstance(event, HandEnded):
            reading.final = dict(event.final_stacks)
    if reading is None:
        return None
    return reading.record(hand_id, session, table)


def record_from_payloads(
    started: HandStarted, payloads: Iterable[Mapping[str, Any]], hand_id: str = "", session: str = "",
    table: str = ""
) -> HandRecord | None:
    """As :func:`record_from_events`, from the hand's start (decoded) and the stored JSON payloads of its later
    events as the store holds them (each names its ``type``): the projector has them parsed already, and
    decoding each into its event object only for it to be read field by field here was most of this step's
    time. Payloads of types integrity does not read are passed over. The same record as
    :func:`record_from_events` gives for the decoded events (tests/unit/projections/test_integrity_payloads.py holds
    it to that on every shared hand)."""
    if not is_holdem(started.variant):
        return None
    reading = _Reading(started)
    for p in payloads:
        kind = p["type"]
        if kind == "PlayerActed":
            reading.acted(p["seat"], _ACTIONS[p["action"]], p.get("amount"))
        elif kind == "HoleCardsDealt":
            reading.dealt(p["seat"], _cards(p["cards"]))
        elif kind == "ForcedBetPosted":
            reading.forced(p["seat"], p["amount"], p["kind"] == _ANTE)
        elif kind == "BoardDealt":
            reading.boarded(_cards(p["cards"]))
        elif kind == "HandShown":
            if p["seat"] not in reading.hole:
                reading.shown(p["seat"], _cards(p["cards"]))
        elif kind == "HandEnded":
            reading.final = {int(seat): int(chips) for seat, chips in p["final_stacks"]}
    return reading.record(hand_id, session, table)


class _Reading:
    """A hand's record as its events are read, whichever form they come in (decoded events or stored payloads):
    the seats in the order PHH lists players, what each posted, was dealt and did, the board, the final stacks."""

    __slots__ = ("started", "order", "index", "posted", "blinds", "hole", "board", "acts", "folded", "final",
                 "street")

    def __init__(self, started: HandStarted) -> None:
        self.started = started
        self.order = order = _from_button(started)
        #: seat → its player's index in the record
        self.index = {seat: i for i, seat in enumerate(order)}
        self.posted = [0] * len(order)
        self.blinds = [0] * len(order)
        self.hole: dict[int, tuple[Card, ...]] = {}
        self.board: list[Card] = []
        self.acts: list[Act] = []
        self.folded: set[int] = set()
        #: seat → chips at the end; None until the hand ended
        self.final: dict[int, int] | None = None
        self.street = 0

    def acted(self, seat: int, action: ActionKind, amount: int | None) -> None:
        if action is ActionKind.FOLD:
            self.folded.add(seat)
        to = (amount or 0) if action in _AGGRESSIVE else 0
        self.acts.append(_act(Act, (self.street, self.index[seat], action, to)))

    def dealt(self, seat: int, dealt: Sequence[Card | None]) -> None:
        """Hole cards dealt to a seat, kept when every one of them is known."""
        cards = tuple([c for c in dealt if c is not None])
        if len(cards) == len(dealt):
            self.hole[seat] = self.hole.get(seat, ()) + cards

    def forced(self, seat: int, amount: int, ante: bool) -> None:
        i = self.index[seat]
        self.posted[i] += amount
        if not ante:
            self.blinds[i] += amount

    def boarded(self, dealt: Iterable[Card | None]) -> None:
        board = self.board
        board.extend([c for c in dealt if c is not None])
        self.street = _STREET_OF_BOARD.get(len(board), self.street)

    def shown(self, seat: int, shown: Iterable[Card | None]) -> None:
        """Cards shown at the end: the seat's hole cards where the deal did not say them (two known cards)."""
        if seat in self.hole:
            return
        cards = tuple([c for c in shown if c is not None])
        if len(cards) == 2:
            self.hole[seat] = cards

    def record(self, hand_id: str, session: str, table: str) -> HandRecord | None:
        """The hand's record; None when it did not end."""
        final = self.final
        if final is None:
            return None
        started, order, folded, hole = self.started, self.order, self.folded, self.hole
        starting = {e.seat: e.stack for e in started.seats}
        named = {e.seat: e.player for e in started.seats}
        remaining = [s for s in order if s not in folded]
        big_blind = max((a for _, a in started.stakes.blinds), default=started.stakes.min_bet) or 1
        return HandRecord(
            hand_id or f"{started.table_id}#{started.hand_number}",
            tuple(named[s] for s in order),
            big_blind,
            tuple(starting[s] for s in order),
            tuple(self.posted),
            tuple(self.blinds),
            tuple(hole.get(s, ()) for s in order),
            tuple(self.board),
            tuple(self.acts),
            tuple(final.get(s, starting[s]) - starting[s] for s in order),
            tuple(len(remaining) > 1 and s in remaining for s in order),
            session,
            table or started.table_id,
        )


def _cards(stored: Iterable[str | None]) -> list[Card | None]:
    """Cards as the codec reads them: a card's text, or null (or ``??``) for one not known."""
    return [None if c is None else parse_card(c) for c in stored]


_AGGRESSIVE = frozenset({ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE})
_ACTIONS = {kind.value: kind for kind in ActionKind}
_ANTE = ForcedBetKind.ANTE.value
_STREET_OF_BOARD = {3: 1, 4: 2, 5: 3}
#: an Act made as the tuple it is (a named tuple's own constructor costs a Python call per act)
_act = tuple.__new__


def _from_button(started: HandStarted) -> list[int]:
    """Seats in the order PHH lists players: the first left of the button first, the button last."""
    seats = sorted(e.seat for e in started.seats)
    if started.button in seats:
        at = seats.index(started.button)
        seats = seats[at + 1 :] + seats[: at + 1]
    return seats
