"""An Open-Face Chinese round's events (bfsp 8): what the dealer terminal, the simulator or an importer reports,
and what the engine derives from it.

Conventions as for a hand (domain/hand/events.py): seats are the table's seat numbers, never positions; a
round is one deal of the game, played until every player has thirteen cards set, then settled. Positions are
counted from the button: position 1 is the first player clockwise after it, the button is the last.

Reported:

* :class:`OfcRoundStarted` — the players, the button, and who plays this round in fantasy;
* :class:`OfcCardsDealt` — one deal to one player: 5 cards on the first deal, 3 on each later one, 14 at once
  to a player in fantasy;
* :class:`OfcCardsSet` — that player's setting of the cards he was dealt: the cards added to each row, and the
  discard (none on the first deal, one on each later deal and in fantasy).

Derived:

* :class:`OfcRoundRedealt` — a player in fantasy was dealt the wrong number of cards: the round is dealt again
  (bfsp 8, fantasy);
* :class:`OfcRoundScored` — every player has thirteen cards: each hand's rows, foul and royalties, and each
  pair's settlement in the settlement order.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.cards import Card

OFC = "OFC"  #: the variant code, everywhere (the simulator's --variant, the schemas, the reads)


@dataclass(frozen=True, slots=True)
class OfcPlayer:
    seat: int
    player: str


@dataclass(frozen=True, slots=True)
class OfcRoundStarted:
    table_id: str
    round_number: int
    button: int
    players: tuple[OfcPlayer, ...]
    #: the players (by name) who play this round in fantasy: they earned it in the round before at this table
    fantasy: tuple[str, ...] = ()
    rulebook: str = "bfsp"
    variant: str = OFC


@dataclass(frozen=True, slots=True)
class OfcCardsDealt:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class OfcCardsSet:
    """The cards a player adds to each row from his last deal, and what he discards (sealed)."""

    seat: int
    bottom: tuple[Card, ...] = ()
    middle: tuple[Card, ...] = ()
    top: tuple[Card, ...] = ()
    discarded: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class OfcRoundRedealt:
    reason: str
    rule: str
    redeal: int  # how many redeals this round has had, this one included


@dataclass(frozen=True, slots=True)
class OfcHandResult:
    seat: int
    player: str
    position: int
    bottom: tuple[Card, ...]
    middle: tuple[Card, ...]
    top: tuple[Card, ...]
    fouled: bool
    foul: str  # why, in words ("the middle row is weaker than the top row"), or ""
    royalties: tuple[int, int, int]  # bottom, middle, top
    points: int
    fantasy: bool  # played this round in fantasy
    #: plays the next round in fantasy: QQ+ on top without a foul (bfsp 8)
    earns_fantasy: bool
    #: in fantasy now and may declare a repeat: trips on top or quads+ on the bottom (bfsp 8)
    may_repeat_fantasy: bool


@dataclass(frozen=True, slots=True)
class OfcPairResult:
    first: int  # seats; numbers are the first's gain
    second: int
    rows: tuple[int, int, int]
    row_points: int
    scoop: bool
    royalties: int
    points: int


@dataclass(frozen=True, slots=True)
class OfcRoundScored:
    hands: tuple[OfcHandResult, ...]  # by position
    pairs: tuple[OfcPairResult, ...]  # settlement order


OfcReported = OfcRoundStarted | OfcCardsDealt | OfcCardsSet
OfcDerived = OfcRoundRedealt | OfcRoundScored

#: the reported event types a record on the log may carry, by name
OFC_REPORTED: dict[str, type] = {cls.__name__: cls for cls in (OfcRoundStarted, OfcCardsDealt, OfcCardsSet)}
OFC_DERIVED: dict[str, type] = {cls.__name__: cls for cls in (OfcRoundRedealt, OfcRoundScored)}
