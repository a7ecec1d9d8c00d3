"""One hand as the integrity statistics read it: who sat, what each was dealt, what each did, what each won.

It is built from the stored events (projections) or from a hand-history file (the CLI), so both paths feed the
same counters. Players are listed in the order they act before the flop ends, the button last; ``net`` is
each player's result in chips (what he took from the pots less what he put in).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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
    started: HandStarted | None = None
    order: list[int] = []
    index: dict[int, int] = {}
    posted: list[int] = []
    blinds: list[int] = []
    hole: dict[int, tuple[Card, ...]] = {}
    board: list[Card] = []
    acts: list[Act] = []
    folded: set[int] = set()
    final: dict[int, int] | None = None
    street = 0
    for event in events:
        # the event types are disjoint: the commonest (acts, cards) are asked for first
        if isinstance(event, HandStarted):
            if not is_holdem(event.variant):
                return None
            started = event
            order = _from_button(event)
            index = {seat: i for i, seat in enumerate(order)}
            posted, blinds = [0] * len(order), [0] * len(order)
        elif started is None:
            continue
        elif isinstance(event, PlayerActed):
            if event.action is ActionKind.FOLD:
                folded.add(event.seat)
            to = (event.amount or 0) if event.action in _AGGRESSIVE else 0
            acts.append(_act(Act, (street, index[event.seat], event.action, to)))
        elif isinstance(event, HoleCardsDealt):
            cards = tuple(c for c in event.cards if c is not None)
            if len(cards) == len(event.cards):
                hole[event.seat] = hole.get(event.seat, ()) + cards
        elif isinstance(event, ForcedBetPosted):
            posted[index[event.seat]] += event.amount
            if event.kind is not ForcedBetKind.ANTE:
                blinds[index[event.seat]] += event.amount
        elif isinstance(event, BoardDealt):
            board.extend(c for c in event.cards if c is not None)
            street = _STREET_OF_BOARD.get(len(board), street)
        elif isinstance(event, HandShown) and event.seat not in hole:
            cards = tuple(c for c in event.cards if c is not None)
            if len(cards) == 2:
                hole[event.seat] = cards
        elif isinstance(event, HandEnded):
            final = dict(event.final_stacks)
    if started is None or final is None:
        return None
    return _record(started, order, posted, blinds, hole, board, acts, folded, final, hand_id, session, table)


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
    order = _from_button(started)
    index = {seat: i for i, seat in enumerate(order)}
    posted, blinds = [0] * len(order), [0] * len(order)
    hole: dict[int, tuple[Card, ...]] = {}
    board: list[Card] = []
    acts: list[Act] = []
    folded: set[int] = set()
    final: dict[int, int] | None = None
    street = 0
    for p in payloads:
        kind = p["type"]
        if kind == "PlayerActed":
            seat: int = p["seat"]
            action = _ACTIONS[p["action"]]
            if action is ActionKind.FOLD:
                folded.add(seat)
            to = (p.get("amount") or 0) if action in _AGGRESSIVE else 0
            acts.append(_act(Act, (street, index[seat], action, to)))
        elif kind == "HoleCardsDealt":
            seat = p["seat"]
            dealt = _cards(p["cards"])
            cards = tuple(c for c in dealt if c is not None)
            if len(cards) == len(dealt):
                hole[seat] = hole.get(seat, ()) + cards
        elif kind == "ForcedBetPosted":
            i = index[p["seat"]]
            amount: int = p["amount"]
            posted[i] += amount
            if p["kind"] != _ANTE:
                blinds[i] += amount
        elif kind == "BoardDealt":
            board.extend(c for c in _cards(p["cards"]) if c is not None)
            street = _STREET_OF_BOARD.get(len(board), street)
        elif kind == "HandShown":
            seat = p["seat"]
            if seat not in hole:
                cards = tuple(c for c in _cards(p["cards"]) if c is not None)
                if len(cards) == 2:
                    hole[seat] = cards
        elif kind == "HandEnded":
            final = {int(seat): int(chips) for seat, chips in p["final_stacks"]}
    if final is None:
        return None
    return _record(started, order, posted, blinds, hole, board, acts, folded, final, hand_id, session, table)


def _cards(stored: Iterable[str | None]) -> list[Card | None]:
    """Cards as the codec reads them: a card's text, or null (or ``??``) for one not known."""
    return [None if c is None else parse_card(c) for c in stored]


def _record(
    started: HandStarted, order: list[int], posted: list[int], blinds: list[int], hole: dict[int, tuple[Card, ...]],
    board: list[Card], acts: list[Act], folded: set[int], final: dict[int, int], hand_id: str, session: str,
    table: str,
) -> HandRecord:
    starting = {e.seat: e.stack for e in started.seats}
    named = {e.seat: e.player for e in started.seats}
    remaining = [s for s in order if s not in folded]
    big_blind = max((a for _, a in started.stakes.blinds), default=started.stakes.min_bet) or 1
    return HandRecord(
        hand_id or f"{started.table_id}#{started.hand_number}",
        tuple(named[s] for s in order),
        big_blind,
        tuple(starting[s] for s in order),
        tuple(posted),
        tuple(blinds),
        tuple(hole.get(s, ()) for s in order),
        tuple(board),
        tuple(acts),
        tuple(final.get(s, starting[s]) - starting[s] for s in order),
        tuple(len(remaining) > 1 and s in remaining for s in order),
        session,
        table or started.table_id,
    )


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
