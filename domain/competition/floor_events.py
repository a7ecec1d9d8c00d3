"""The floor's events: players moved between tables, tables broken and halted, the balance tolerance widened.

Each is a plain immutable value, named in the federation's words (its digest §3.2) and in the roles table's
(:class:`domain.officials.Act`): the Competition aggregate records them after :class:`domain.competition.floor.Floor`
has judged them, and replays them through :meth:`Floor.apply`.

Tables and seats are numbers (seat 1 is left of the dealer, seats run clockwise), players are participant ids.
:func:`encode` and :func:`decode` turn the events into JSON values and back; :data:`CATALOG` names them all, so
the Competition's catalog and the envelope can take them in.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from domain.cards import Card
from domain.officials import codec

JSON = dict[str, Any]


class MoveReason(StrEnum):
    BALANCE = "balance"
    TABLE_BROKEN = "table_broken"
    FINAL_TABLE = "final_table"


class MoveRule(StrEnum):
    """Which rule chose the player who moved and his seat."""

    #: the player who would be big blind next at the fullest table, to the worst free seat (bfsp 3.1, TDA 11-A)
    NEXT_BIG_BLIND = "next_big_blind"
    #: the next player clockwise not in the hand, by the Chief Judge's decision, to a seat no worse (bfsp 3.1)
    NEXT_NOT_IN_HAND = "next_not_in_hand"
    #: the two-step random draw of a broken table (TDA 2022 10-B, TDA 2017 D-09)
    BREAK_DRAW = "break_draw"
    #: the final table's draw (bfsp 3.1)
    FINAL_TABLE_DRAW = "final_table_draw"
    #: off a seat the table no longer has (a 10-max event's last two tables play 9-max, bfsp 3.1), to the free
    #: seat nearest the big blind at the table with the fewest players
    CLOSED_SEAT = "closed_seat"


@dataclass(frozen=True, slots=True)
class PlayerMoved:
    participant: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: MoveReason
    rule_applied: MoveRule = MoveRule.NEXT_BIG_BLIND
    #: the official who moved him (the Chief Judge or the person he authorised, bfsp 3.1)
    authorised_by: str = ""


@dataclass(frozen=True, slots=True)
class BalanceToleranceWidened:
    """The Chief Judge lets table counts differ by two at the start of a hand (bfsp 3.1)."""

    tolerance: int
    decided_by: str
    reason: str


@dataclass(frozen=True, slots=True)
class MoverExceptionDecided:
    """The next big blind of the fullest table is still in the hand: the Chief Judge moves ``instead``, the next
    player clockwise not in the hand (bfsp 3.1)."""

    table: int
    in_hand: str
    instead: str
    decided_by: str


@dataclass(frozen=True, slots=True)
class DrawCard:
    """Step 2 of the break draw: the card a player of the broken table was dealt face up."""

    participant: str
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TableBreakCommitted:
    """The seed's SHA-256, recorded before a table's break draw, so the seed cannot be chosen after it."""

    table: int
    seed_sha256: str


@dataclass(frozen=True, slots=True)
class TableBroken:
    """A table broken by the two-step random draw: its seed, the cards dealt, and where everyone went.

    Anyone can recompute ``cards`` and ``moves`` from ``seed`` and the floor before the break
    (:func:`domain.competition.breaking.break_draw`)."""

    table: int
    seed: str
    cards: tuple[DrawCard, ...]
    moves: tuple[PlayerMoved, ...]
    authorised_by: str


@dataclass(frozen=True, slots=True)
class TableHalted:
    """Play stops at a table three or more short when its big blind reaches an empty seat (TDA 2022 11-D)."""

    table: int
    players: int
    fullest_table: int
    fullest_players: int
    empty_big_blind_seat: int
    authorised_by: str


FloorEvent = (
    PlayerMoved
    | BalanceToleranceWidened
    | MoverExceptionDecided
    | TableBreakCommitted
    | TableBroken
    | TableHalted
)

CATALOG: dict[str, type] = {cls.__name__: cls for cls in typing.get_args(FloorEvent)}


def encode(event: FloorEvent) -> JSON:
    """``{"type": "PlayerMoved", "participant": "p07", "from_table": 3, ...}``; cards by name (``"As"``)."""
    return codec.encode(event)


def decode(payload: JSON) -> FloorEvent:
    event: FloorEvent = codec.decode(payload, CATALOG)
    return event
