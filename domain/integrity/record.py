"""One hand as the integrity statistics read it: who sat, what each was dealt, what each did, what each won.

It is built from the stored events (projections) or from a hand-history file (the CLI), so both paths feed the
same counters. Players are listed in the order they act before the flop ends, the button last; ``net`` is
each player's result in chips (what he took from the pots less what he put in).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from typing import NamedTuple

from domain.cards import Card
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
