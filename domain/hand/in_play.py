"""A hand in play as its rule helpers see it: the state they read and change, and the few steps of the hand
they call back.

:class:`domain.hand.state.HandState` holds a hand; the checks and applications of its acts live beside it in
:mod:`~domain.hand.deal_acts`, :mod:`~domain.hand.raw_acts`, :mod:`~domain.hand.tabling`,
:mod:`~domain.hand.corrections`, :mod:`~domain.hand.incorrect_bets`, :mod:`~domain.hand.misdeals` and
:mod:`~domain.hand.show_requests`. They are written against :class:`HandInPlay` here, not against the class,
so that the engine's modules import in one direction (state → helpers → this module) and a helper can reach
only what this interface names: mypy checks that ``HandState`` provides it wherever a helper is handed one.
The records of what a hand keeps pending between acts (corrections, out-of-turn acts, incorrect bets) are
defined here because the interface names them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from domain.cards import Card, MaybeCard
from domain.errors import RuleRef, RulingRequired
from domain.hand.betting import BettingRound
from domain.hand.dealing import Deck
from domain.hand.events import (
    ActionKind,
    ActionObliged,
    DerivedEvent,
    HandStarted,
    HandVoided,
    MisdealDeclared,
    PlayerActed,
    PotAwarded,
    RulingRequested,
)
from domain.hand.phase import Phase
from domain.rulebooks import Rulebook
from domain.variants import Street, Variant

if TYPE_CHECKING:
    from domain.hand.interpretation import Correction, Reading

__all__ = [
    "Corrections",
    "ErrorKind",
    "HandInPlay",
    "HandReading",
    "InterpretedAct",
    "PendingError",
    "PendingOutOfTurn",
]


@dataclass(slots=True)
class Corrections:
    """What the corrections so far leave pending in a hand."""

    #: seat → cards it was dealt short and has not been given (TDA 2022 37)
    short: dict[int, int] = field(default_factory=dict)
    #: the card the judge picked from a four-card flop is the next burn (bfsp 6.6.3)
    burn_picked: bool = False
    picked: MaybeCard = None
    #: the flop on the board was dealt without its burn (bfsp 6.6.2)
    unburned_flop: bool = False
    #: board cards dealt early, not yet back in the stub, and the burn dealt before them (bfsp 6.6.5-6.6.7)
    premature: tuple[MaybeCard, ...] = ()
    premature_burn: tuple[MaybeCard, ...] = ()
    #: the street the premature cards were dealt for
    premature_street: int = 0
    #: the street before whose deal the premature cards go back into the stub
    return_street: int | None = None
    #: the street whose burn is already down (TDA 2022 RP-5: no new burn)
    burn_down_street: int | None = None
    #: which card that burn is, in words, and the rule that made it so
    burn_down_card: str = ""
    burn_down_rule: RuleRef | None = None
    #: the premature cards were a flop (bfsp 6.6.5: its burn goes back with it)
    premature_flop: bool = False
    #: stud: the earlier burns were shuffled into a short stub (bfsp 6.5.3; TDA 2022 RP-10-h)
    burns_back: bool = False
    #: stud: the folded hands too (bfsp 6.5.3)
    muck_back: bool = False
    #: hole cards the dealer exposed in the first deal, still to be replaced (bfsp 6.6.1)
    exposed: dict[int, Card] = field(default_factory=dict)
    #: how many hole cards were exposed in the first deal
    exposures: int = 0


@dataclass(frozen=True, slots=True)
class InterpretedAct:
    """The action a raw act amounts to, with the rule that reads it so and the reading in words."""

    event: PlayerActed
    rule: RuleRef
    reason: str
    returned: int = 0


@dataclass(slots=True)
class PendingOutOfTurn:
    """An out-of-turn act waiting for the seat's turn, and the actions of the seats it skipped since.

    ``premature``: the act came before the previous player stated his amount (TDA 2022 50-B); it is not out of
    turn, and ``reading`` is what it binds him to, or the director's question (TDA 2022 59-B)."""

    reading: Reading | RulingRequired
    skipped: list[ActionKind] = field(default_factory=list)
    premature: bool = False


#: a raw act's reading, as the aggregate stores it
HandReading = InterpretedAct | ActionObliged | RulingRequested


class ErrorKind(StrEnum):
    #: a bet or raise below the legal minimum, not all-in (TDA 2022 52-A)
    UNDER_MINIMUM = "under_minimum"
    #: a pot-limit bet or raise above the pot (TDA 2022 52-B, too large)
    OVER_POT = "over_pot"
    #: a "pot" bet of less than the pot, from a miscount (TDA 2022 52-B, too small)
    UNDER_POT = "under_pot"


@dataclass(slots=True)
class PendingError:
    """An accepted incorrect bet whose window is open."""

    seat: int
    kind: ErrorKind
    #: the seat's street total as made, and what the rule gives
    made: int
    due: int
    #: the street it was made on, and how many actions in turn the hand had counted after it
    street: int
    actions_at: int
    #: the round's bet to call and full raise before it, to size the round again when it is corrected
    call_before: int
    increment_before: int
    #: the rule it breaks
    broken: RuleRef


class HandInPlay(Protocol):
    """What the rule helpers may read and change of a hand in play, and the hand's own steps they call."""

    started: HandStarted
    rulebook: Rulebook
    variant: Variant
    seats: tuple[int, ...]
    next_seat: dict[int, int]
    from_button: tuple[int, ...]
    stacks: dict[int, int]
    contributions: dict[int, int]
    folded: set[int]
    mucked: set[int]
    shown: set[int]
    hole: dict[int, list[MaybeCard]]
    face_up: dict[int, list[bool]]
    board: list[MaybeCard]
    deck: Deck
    phase: Phase
    street_index: int
    bets: dict[int, int]
    owed_hole: dict[int, int]
    owed_board: int
    burned: bool
    burn_due: bool
    dealt_on_street: bool
    draw_order: list[int]
    round: BettingRound | None
    table_round: BettingRound | None
    open_bring_in: bool
    last_aggressor_final: int | None
    undetermined: bool
    acted: bool
    awards: list[PotAwarded]
    dead: dict[int, int]
    actions: list[ActionKind]
    obligation: tuple[ActionObliged, RuleRef] | None
    ruling: tuple[RulingRequested, RuleRef] | None
    ruling_forfeit: int
    out_of_turn: dict[int, PendingOutOfTurn]
    readings: list[HandReading]
    corrections: Corrections | None
    incorrect: list[PendingError]
    stood: list[tuple[PendingError, Correction]]
    boxed: int
    extra: dict[int, int]
    show_owed: set[int]
    #: (seat, actions recorded when it was called): the action clock running on the seat to act
    clock: tuple[int, int] | None

    @property
    def street(self) -> Street: ...

    @property
    def actor(self) -> int | None:
        """The seat to act now, if any."""
        ...

    @property
    def in_hand(self) -> tuple[int, ...]: ...

    def burn_owed(self) -> bool:
        """This street's burn is still to come (none is, once a correction put it down already)."""
        ...

    def waiting_for(self) -> str:
        """What the table must do next, in words, for a refusal of an act that came too early or too late."""
        ...

    def check_act(self, e: PlayerActed) -> int:
        """Refuse ``e`` if it is not a legal action now; otherwise the seat's street total after it."""
        ...

    def do_act(self, e: PlayerActed, total: int) -> tuple[DerivedEvent, ...]:
        """Apply an action :meth:`check_act` passed, and what follows from it."""
        ...

    def begin_betting(self) -> tuple[DerivedEvent, ...]:
        """Open this street's betting, once its cards are dealt."""
        ...

    def end_round(self) -> tuple[DerivedEvent, ...]:
        """Close the betting round: the uncalled bet back, then the next street, the showdown or the award."""
        ...

    def void(self, e: MisdealDeclared | HandVoided, _: None = None) -> tuple[DerivedEvent, ...]:
        """Every chip back where it started, and the hand over."""
        ...
