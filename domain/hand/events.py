"""The Hand aggregate's event catalog: what a dealer terminal, a floor app or an importer reports.

These are plain, immutable values: the engine (:mod:`domain.hand.state`) replays them one by one, refusing
an illegal one with a :class:`domain.errors.HandError`, and answers each accepted one with the events that
follow mechanically from it (an uncalled bet returned, pots awarded, the hand ended).

Conventions:

* Seats are the table's seat numbers (1-based), never positions (DESIGN decision 6).
* Chip amounts are integers in the table's smallest chip unit. An importer whose source has fractional
  amounts scales them (and says by how much) before they reach the domain.
* Bets and raises are written as the player's **total** commitment on the street after the act ("raise to"),
  the way a dealer announces them.
* A card nobody saw is ``None``. The engine never guesses it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from domain.cards import Card, MaybeCard

if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    # the same classes, made without compiling five of each one's six methods (~40 ms of every start, 52 classes:
    # domain/frozen.py; tests/unit/test_frozen_values.py holds each class to the standard decorator's)
    from domain.frozen import frozen_dataclass as dataclass


class ForcedBetKind(StrEnum):
    ANTE = "ante"
    SMALL_BLIND = "small_blind"
    BIG_BLIND = "big_blind"
    STRADDLE = "straddle"
    #: A blind owed by a seat out of its normal place (returning player, dead blind). It is dead money.
    DEAD_BLIND = "dead_blind"


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    #: Stud: raising the bring-in to the full small bet.
    COMPLETE = "complete"
    #: Stud: the forced opening by the lowest (razz: highest) up-card.
    BRING_IN = "bring_in"


@dataclass(frozen=True, slots=True)
class SeatEntry:
    """Who sits in a seat at the start of a hand and with how many chips."""

    seat: int
    player: str
    stack: int


@dataclass(frozen=True, slots=True)
class Stakes:
    """The forced bets and bet sizes of a hand, as the level and the seating decide them.

    ``antes`` and ``blinds`` map seat → amount owed this hand (blinds include straddles, in posting
    order). ``bring_in``, ``small_bet`` and ``big_bet`` are for stud and fixed-limit games; ``min_bet`` is the
    minimum opening bet in no-limit and pot-limit (normally the big blind, bfsp 4.9.3).
    """

    antes: tuple[tuple[int, int], ...] = ()
    blinds: tuple[tuple[int, int], ...] = ()
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0
    min_bet: int = 0


# --- what physically happened at the table: the raw act (DESIGN decision 4) ------------------------------


class Declared(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all-in"
    POT = "pot"
    COMPLETE = "complete"


@dataclass(frozen=True, slots=True)
class Declaration:
    """What the player said. ``kind`` is ``None`` for an amount alone ("two hundred", TDA 2022 40-C).

    ``bare`` marks a number said without its scale ("I bet five"): it may mean 5, 500 or 5,000 (TDA 2022 57).
    ``clear`` is False when the table did not clearly hear or understand it (TDA 2022 40-A).
    """

    kind: Declared | None = None
    amount: int | None = None
    bare: bool = False
    clear: bool = True


@dataclass(frozen=True, slots=True)
class ChipsPlaced:
    """Chips pushed forward, by denomination, one tuple per motion (a string bet has several, bfsp 4.11).

    ``pulled_back`` is how much of his earlier bet the player drew back before pushing (TDA 2022 46);
    ``in_front`` is the value of the earlier chips lying in front of him when it exceeds his commitment
    because change is due (a big blind posted with one 1,000 chip); by default it equals the commitment.
    """

    motions: tuple[tuple[int, ...], ...]
    pulled_back: int = 0
    in_front: int | None = None

    @classmethod
    def one_motion(
        cls, *denominations: int, pulled_back: int = 0, in_front: int | None = None
    ) -> ChipsPlaced:
        return cls((tuple(denominations),), pulled_back, in_front)


class Timing(StrEnum):
    """Which came first when a player both spoke and pushed chips (TDA 2022 40-A)."""

    VERBAL_FIRST = "verbal_first"
    CHIPS_FIRST = "chips_first"
    SIMULTANEOUS = "simultaneous"


@dataclass(frozen=True, slots=True)
class RawAct:
    declaration: Declaration | None = None
    chips: ChipsPlaced | None = None
    timing: Timing = Timing.VERBAL_FIRST
    out_of_turn: bool = False


# --- events reported at the table -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandStarted:
    table_id: str
    hand_number: int
    variant: str  # a code of domain.variants (PHH's: "NT", "PO", "FT", "F7S", "F7S/8", "FR", "F2L3D", ...)
    seats: tuple[SeatEntry, ...]
    button: int | None  # None in stud, where no button decides the order of action
    stakes: Stakes
    rulebook: str = "bfsp"
    level: int | None = None
    #: False for imported histories (PHH) that do not record burns: a burn is then optional, never owed
    burns_recorded: bool = True
    #: the competition has two players left: a limit round is uncapped (TDA 2022 48, TV-45; the competition
    #: knows it, see domain/competition Competition.raise_cap_lifted, and the referee checks the start against it)
    raise_cap_lifted: bool = False


@dataclass(frozen=True, slots=True)
class ForcedBetPosted:
    seat: int
    kind: ForcedBetKind
    amount: int


@dataclass(frozen=True, slots=True)
class HoleCardsDealt:
    """Cards dealt to one seat in one pass or street; ``face_up`` has one flag per card (stud up-cards)."""

    seat: int
    cards: tuple[MaybeCard, ...]
    face_up: tuple[bool, ...] = ()


@dataclass(frozen=True, slots=True)
class CardBurned:
    card: MaybeCard = None


@dataclass(frozen=True, slots=True)
class BoardDealt:
    cards: tuple[MaybeCard, ...]


@dataclass(frozen=True, slots=True)
class PlayerActed:
    """An interpreted betting action. ``amount`` is the total on the street after the act (raise-to) for
    bet, raise, complete and bring-in; for call it may be given (and is then checked) or left ``None``."""

    seat: int
    action: ActionKind
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class RawActReported:
    """What a player physically did at his turn or out of it: the words, the chips by denomination and motion.

    The engine reads it under the rulebook (:func:`domain.hand.interpretation.interpret`) into the action it is,
    an obligation still to be met, or a ruling for the director; the aggregate stores the raw act and then that
    reading as their own events. Whether it was out of turn is the engine's to see (the seat is not the actor).
    """

    seat: int
    act: RawAct


@dataclass(frozen=True, slots=True)
class CardsDiscarded:
    """A draw: the seat throws ``discarded`` and is dealt ``drawn`` (both empty: standing pat)."""

    seat: int
    discarded: tuple[MaybeCard, ...] = ()
    drawn: tuple[MaybeCard, ...] = ()


@dataclass(frozen=True, slots=True)
class HandShown:
    seat: int
    cards: tuple[MaybeCard, ...]


@dataclass(frozen=True, slots=True)
class HandMucked:
    seat: int


@dataclass(frozen=True, slots=True)
class MisdealDeclared:
    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class HandVoided:
    reason: str
    rule: str


# --- events that follow mechanically from the ones above (the engine emits them) --------------------------


@dataclass(frozen=True, slots=True)
class UncalledBetReturned:
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class PotShare:
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class PotAwarded:
    """One pot (0 = main, then side pots in order) or one half of it (``half`` = "high"/"low")."""

    pot_index: int
    amount: int
    eligible: tuple[int, ...]
    shares: tuple[PotShare, ...]
    half: str = ""
    #: the hand that won, in words ("flush, ace high"), or "" when uncontested
    winning_hand: str = ""
    #: who received the odd chip(s) and why, or ""
    odd_chip: str = ""


@dataclass(frozen=True, slots=True)
class HandEnded:
    final_stacks: tuple[tuple[int, int], ...]  # (seat, chips)
    #: True when a pot could not be decided because the record lacks cards (imported histories)
    undetermined: bool = False


# --- a raw act's reading when it is not an action yet (the engine emits them) ------------------------------


@dataclass(frozen=True, slots=True)
class ActionObliged:
    """A raw act binds the seat to one of ``options`` without fixing which or how much (TDA 2022 55, 53).

    The seat's next action must be one of them, a bet or raise between ``minimum`` and ``maximum`` (totals)
    when given. ``forfeit_on_fold`` is what stays in the pot if he folds; ``returned`` is handed back now.
    """

    seat: int
    options: tuple[ActionKind, ...]
    rule: str
    reason: str
    minimum: int | None = None
    maximum: int | None = None
    forfeit_on_fold: int = 0
    returned: int = 0


@dataclass(frozen=True, slots=True)
class RulingRequested:
    """The rules leave a raw act's reading to the director: the hand waits for an official's entry."""

    seat: int
    rule: str
    reason: str


# --- corrections of dealing errors and other irregularities (domain/hand/corrections.py) ---------------


@dataclass(frozen=True, slots=True)
class DealtShort:
    """The deal ended with ``seat`` given ``missing`` card(s) fewer than the game deals (TDA 2022 37, 35-A)."""

    seat: int
    missing: int


@dataclass(frozen=True, slots=True)
class MissingCardDealt:
    """The button dealt short is given his missing card(s) before he acts (TDA 2022 37)."""

    seat: int
    cards: tuple[MaybeCard, ...]


@dataclass(frozen=True, slots=True)
class HandKilled:
    """A hand found with the wrong number of cards (``cards_held``) is ruled dead; its chips stay in the pot
    (bfsp 6.3.7-6.3.9; TDA 2022 37, 38)."""

    seat: int
    cards_held: int


@dataclass(frozen=True, slots=True)
class PenaltyHandKilled:
    """An official kills a penalised player's hand: one serving a missed-round penalty is dealt in, his forced
    bets posted and his hand killed (the federation digest §3.7, by analogy with bfsp 6.4.4; TDA 2022 71), or a
    violation kills it outright (bfsp 7.1.5). His chips stay in the pot, as a dead hand's do; what nobody called goes back when the betting ends.
    ``rule`` is the penalty's rule, ``penalty`` the id of the penalty being served (empty for an outright kill)."""

    seat: int
    rule: str
    penalty: str = ""


@dataclass(frozen=True, slots=True)
class FourCardFlopDealt:
    """Four cards came on the flop; the judge picked ``next_burn`` among them at random (an input, not a
    computation): it is the next burn card and the other three are the flop (bfsp 6.6.3; TDA 2022 39-A)."""

    cards: tuple[MaybeCard, ...]
    next_burn: MaybeCard


@dataclass(frozen=True, slots=True)
class FlopDealtUnburned:
    """The flop was dealt without a burn before it (bfsp 6.6.2; TDA 2022 39-B)."""

    cards: tuple[MaybeCard, ...]


@dataclass(frozen=True, slots=True)
class FlopReformed:
    """An unburned flop is re-formed before any action on it: under bfsp 6.6.2 it goes back into the stub
    (``burn`` None) and is burned and dealt again; under TDA 2022 39-B the floor's pick among the three
    (``burn``) is the burn and one card from the stub joins the other two."""

    burn: MaybeCard = None


@dataclass(frozen=True, slots=True)
class HandMuckedByMistake:
    """A player mucks his hand believing he has won (TDA 2022 15-B): his called bets stay in the pot, the part
    nobody called goes back to him (TDA 2022 65-A)."""

    seat: int


@dataclass(frozen=True, slots=True)
class ForeignCardFound:
    """A card that is not of the game's deck (a joker, a 2-5 in short deck, a blank) is found in the hand:
    before substantial action it is a misdeal, after it a scrap of paper passed over (TDA 2022 35-A, 35-D)."""

    description: str


@dataclass(frozen=True, slots=True)
class PrematureCardsDealt:
    """Board cards of the next street (with the ``burn`` before them, when burns are recorded) were dealt
    before the betting on this street was over (bfsp 6.6.5-6.6.7; TDA 2022 RP-5)."""

    cards: tuple[MaybeCard, ...]
    burn: MaybeCard = None


@dataclass(frozen=True, slots=True)
class PrematureCardsReturned:
    """The premature cards are shuffled back into the stub, at the point the rulebook's procedure says."""


@dataclass(frozen=True, slots=True)
class BurnsShuffledIntoStub:
    """Stud, the last street: the stub is short, so the earlier burns are scrambled into it (bfsp 6.5.3; TDA
    2022 RP-10-h)."""


@dataclass(frozen=True, slots=True)
class CommunityCardDealt:
    """Stud, the last street: too few cards for one each, so one card is turned up in the middle for every
    player (TDA 2022 RP-10-h)."""

    card: MaybeCard


@dataclass(frozen=True, slots=True)
class HoleCardExposed:
    """The dealer exposed ``card``, dealt to ``seat``, during the first deal of a flop game: the first or second
    card of the deal, or a second exposed card, is a misdeal (bfsp 6.3.6; TDA 2022 35-A); otherwise the deal
    is completed and the card replaced (bfsp 6.6.1)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class ExposedCardReplaced:
    """The deal complete, the exposed card is replaced by the card that would have been the first burn, and
    becomes that burn (bfsp 6.6.1)."""

    seat: int
    card: MaybeCard


@dataclass(frozen=True, slots=True)
class MuckShuffledIntoStub:
    """Stud, the last street: the stub is short even with the burns, so the folded hands' cards are shuffled
    into it too (bfsp 6.5.3)."""


# --- errors that stand unless corrected in time (TDA 2022 52; domain/hand/incorrect_bets.py) ----------------


@dataclass(frozen=True, slots=True)
class IncorrectBetAccepted:
    """The dealer accepted a bet or raise the rules do not allow, as it was made: below the minimum (TDA 2022
    52-A), above the pot-limit maximum, or a "pot" bet (``pot_declared``) of a miscounted amount (52-B).

    ``amount`` is the seat's total on the street, as for :class:`PlayerActed`. The engine records the rule it
    breaks and what the rule gives; the error is corrected by :class:`IncorrectBetCorrected` while the rulebook
    allows it, and stands once its window closes (the next card, the showdown, or substantial action)."""

    seat: int
    action: ActionKind
    amount: int
    pot_declared: bool = False


@dataclass(frozen=True, slots=True)
class IncorrectBetCorrected:
    """The error in ``seat``'s accepted bet is noticed and corrected: the engine brings every bet that matched it
    to what the rule gives (TDA 2022 52-A: all bettors brought up; 52-B: cut for every caller)."""

    seat: int


@dataclass(frozen=True, slots=True)
class ExtraCardDealt:
    """``seat`` was found holding ``card`` as a card more than the game deals (TDA 2022 35-A-5, 38; bfsp 6.3.5,
    6.3.7): before substantial action the deal is a misdeal; after it the hand is dead and is killed holding
    the count the deal gave it."""

    seat: int
    card: MaybeCard = None


@dataclass(frozen=True, slots=True)
class BoxedCardFound:
    """A card was found face up in the deck during the first deal (TDA 2022 35-A-1; bfsp 6.4.5): it is not a
    playing card and the next card replaces it; under the TDA a second one makes the deal a misdeal."""

    card: MaybeCard = None


@dataclass(frozen=True, slots=True)
class ShowRequested:
    """At the showdown, ``seat`` asks to see ``target``'s hand (TDA 2022 18; bfsp 5.9.2)."""

    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class ClockCalled:
    """The floor started the action clock on ``seat``, the player to act (TDA 2022 29; bfsp 7.1.7 note): he has
    the rulebook's ``clock_seconds``, then its counted-down ``clock_countdown_seconds``."""

    seat: int


@dataclass(frozen=True, slots=True)
class ClockExpired:
    """The clock called on ``seat`` ran out before he acted. The engine works out what follows from the hand:
    facing a bet his hand is dead (folded); facing none it is checked or folded, as the rulebook says
    (``ClockExpiryApplied``)."""

    seat: int


# --- what the engine rules on an incorrect bet and on a deal that is a misdeal (the engine emits them) --------


@dataclass(frozen=True, slots=True)
class IncorrectBetNoted:
    """An accepted bet breaks ``rule``: ``made`` stands in play, flagged, until it is corrected to ``due`` or
    its window (``closes``: "the next card", "substantial action", "the showdown") closes."""

    seat: int
    made: int
    due: int
    rule: str
    reason: str
    closes: str


@dataclass(frozen=True, slots=True)
class BetCorrected:
    """A seat's street total moved from ``was`` to ``to`` by the correction of an incorrect bet."""

    seat: int
    was: int
    to: int
    rule: str
    reason: str


@dataclass(frozen=True, slots=True)
class IncorrectBetStood:
    """The window to correct ``seat``'s incorrect bet closed: ``amount`` stands and play went on from it."""

    seat: int
    amount: int
    rule: str
    reason: str


@dataclass(frozen=True, slots=True)
class ShowRequestAnswered:
    """The engine's answer to a show request: ``answer`` is "granted" (the hand must be tabled), "refused", or
    "director" (no right either way: the director may allow it), with the rule and the reason."""

    seat: int
    target: int
    answer: str
    rule: str
    reason: str


@dataclass(frozen=True, slots=True)
class ClockExpiryApplied:
    """What the clock's expiry did to ``seat``: ``action`` (fold: his hand is dead; or check), worked out from
    the hand (``facing_bet``) under ``rule``."""

    seat: int
    action: ActionKind
    facing_bet: bool
    rule: str
    reason: str


@dataclass(frozen=True, slots=True)
class MisdealRecognised:
    """The deal itself shows a misdeal (TDA 2022 35-A; bfsp 6.3): every chip goes back, as for a declared one."""

    reason: str
    rule: str


ReportedEvent = (
    HandStarted
    | ForcedBetPosted
    | HoleCardsDealt
    | CardBurned
    | BoardDealt
    | PlayerActed
    | RawActReported
    | CardsDiscarded
    | HandShown
    | HandMucked
    | MisdealDeclared
    | HandVoided
    | DealtShort
    | MissingCardDealt
    | HandKilled
    | PenaltyHandKilled
    | FourCardFlopDealt
    | FlopDealtUnburned
    | FlopReformed
    | HandMuckedByMistake
    | ForeignCardFound
    | PrematureCardsDealt
    | PrematureCardsReturned
    | BurnsShuffledIntoStub
    | CommunityCardDealt
    | HoleCardExposed
    | ExposedCardReplaced
    | MuckShuffledIntoStub
    | IncorrectBetAccepted
    | IncorrectBetCorrected
    | ExtraCardDealt
    | BoxedCardFound
    | ShowRequested
    | ClockCalled
    | ClockExpired
)
DerivedEvent = (
    UncalledBetReturned
    | PotAwarded
    | HandEnded
    | IncorrectBetNoted
    | BetCorrected
    | IncorrectBetStood
    | MisdealRecognised
    | ShowRequestAnswered
    | ClockExpiryApplied
)
ReadingEvent = ActionObliged | RulingRequested
HandEvent = ReportedEvent | DerivedEvent | ReadingEvent

__all__ = [
    "ActionKind",
    "ActionObliged",
    "BetCorrected",
    "BoardDealt",
    "BoxedCardFound",
    "BurnsShuffledIntoStub",
    "Card",
    "CardBurned",
    "CardsDiscarded",
    "ChipsPlaced",
    "ClockCalled",
    "ClockExpired",
    "ClockExpiryApplied",
    "CommunityCardDealt",
    "DealtShort",
    "Declaration",
    "Declared",
    "DerivedEvent",
    "ExposedCardReplaced",
    "ExtraCardDealt",
    "FlopDealtUnburned",
    "FlopReformed",
    "ForcedBetKind",
    "ForcedBetPosted",
    "ForeignCardFound",
    "FourCardFlopDealt",
    "HandEnded",
    "HandEvent",
    "HandKilled",
    "HandMucked",
    "HandMuckedByMistake",
    "HandShown",
    "HandStarted",
    "HandVoided",
    "HoleCardExposed",
    "HoleCardsDealt",
    "IncorrectBetAccepted",
    "IncorrectBetCorrected",
    "IncorrectBetNoted",
    "IncorrectBetStood",
    "MisdealDeclared",
    "MisdealRecognised",
    "MissingCardDealt",
    "MuckShuffledIntoStub",
    "PenaltyHandKilled",
    "PlayerActed",
    "PotAwarded",
    "PotShare",
    "PrematureCardsDealt",
    "PrematureCardsReturned",
    "RawAct",
    "RawActReported",
    "ReadingEvent",
    "ReportedEvent",
    "RulingRequested",
    "SeatEntry",
    "ShowRequestAnswered",
    "ShowRequested",
    "Stakes",
    "Timing",
    "UncalledBetReturned",
]
