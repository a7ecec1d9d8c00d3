"""The Competition aggregate's event catalog, in the federation's words (its §3.2 event list), and their JSON form.

Each event is a plain immutable value. The aggregate (:mod:`domain.competition.aggregate`) judges an act, then
records the event that says what was decided, derived results included (a draw's assignments, a chip race's
exchanges, a finishing place), so the stored record can be read, and recomputed, without the code.

:func:`encode` and :func:`decode` read and write them with the federation's codec (``domain/officials/codec.py``):
enums by value, dates and times as ISO strings, nested values as objects.
:data:`CATALOG` names every event type, so the envelope can accept them the way it accepts the hand's; the
floor's events (moves, halts, breaks), recorded on the same stream, are in ``floor_events.CATALOG``.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum
from typing import Any

from domain.competition.prizes import DealShare
from domain.competition.regulations import Break, Level, Regulations
from domain.officials import codec
from domain.roles import Role

JSON = dict[str, Any]


class EliminationReason(StrEnum):
    #: lost all his chips (bfsp 5.10.2)
    NO_CHIPS = "no_chips"
    #: disqualified from the competition by the Chief Judge: chips removed, no prize (bfsp 7.2.2, 5.10.2)
    DISQUALIFIED = "disqualified"


@dataclass(frozen=True, slots=True)
class SeatAssignment:
    participant: str
    table: int
    seat: int


@dataclass(frozen=True, slots=True)
class StartingButton:
    table: int
    seat: int


@dataclass(frozen=True, slots=True)
class RaceEntry:
    """One seat in a chip race: its chips of the removed denomination and all its other chips."""

    seat: int
    participant: str
    #: chips of the removed denomination the seat holds before the exchange
    removed_chips: int
    #: every other chip it holds, by value
    other_chips: int


@dataclass(frozen=True, slots=True)
class RaceResult:
    seat: int
    participant: str
    #: chips of the next denomination given for its removed chips at full value
    exchanged: int
    #: the race cards it was dealt, one per odd chip, dealt from seat 1 (``"As"``)
    cards: tuple[str, ...]
    #: won one chip in the race (never more than one, TDA 2022 24-A), or had his odd chips rounded up to one
    #: (tda-club 24-A)
    won_race_chip: bool
    #: lost all his chips in the race and got one chip of the smallest denomination (TDA 2022 24-A)
    given_minimum_chip: bool
    #: value of his odd chips taken out of play without compensation (TDA 2022 24-C)
    removed_value: int
    stack_after: int


# --- the competition's life ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RegulationsAdopted:
    competition_id: str
    regulations: Regulations


@dataclass(frozen=True, slots=True)
class OfficialAppointed:
    person: str
    role: Role
    #: what the Chief Judge delegates to an authorised person: "balancing", "draw", "misdeal" (bfsp 3.1, 5.2, 6.3)
    delegations: tuple[str, ...] = ()
    #: the tables a dealer is assigned to: he conducts the game there and nowhere else (bfsp 2.1.1, 2.4.1)
    tables: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class OfficialRemoved:
    person: str
    reason: str


@dataclass(frozen=True, slots=True)
class ParticipantRegistered:
    participant: str
    person: str
    birth_date: date
    #: 1 for the first entry, 2 for the first re-entry … (bfsp 3.1)
    entry: int = 1
    #: where a re-entry after the draw sits (``None`` before the draw: the draw seats everyone)
    seat: SeatAssignment | None = None
    membership_valid: bool = True
    entry_fee_paid: bool = True
    consent_personal_data: bool = True
    consent_media: bool = False


@dataclass(frozen=True, slots=True)
class SeatDrawCommitted:
    """The seed's SHA-256, recorded before the draw, so the seed cannot be chosen after it (bfsp 5.2)."""

    seed_sha256: str
    #: "" for the opening draw; an Olympic stage's name for that stage's draw
    stage: str = ""


@dataclass(frozen=True, slots=True)
class SeatDrawConducted:
    seed: str
    assignments: tuple[SeatAssignment, ...]
    buttons: tuple[StartingButton, ...]
    ordered_by: str
    stage: str = ""


@dataclass(frozen=True, slots=True)
class LevelStarted:
    level: Level
    #: when the level was announced: a hand started before it is played at the level before (TDA 2022 23)
    at: datetime


@dataclass(frozen=True, slots=True)
class BreakStarted:
    after_level: int
    minutes: int


@dataclass(frozen=True, slots=True)
class BreakEnded:
    after_level: int


@dataclass(frozen=True, slots=True)
class LevelClockPaused:
    """The Chief Judge stops the level clock (bfsp 2.1.5: he announces a break outside the schedule): no hand starts
    until it runs again, and the level or break in play keeps what was left of it."""

    reason: str


@dataclass(frozen=True, slots=True)
class LevelClockResumed:
    """The level clock runs again, with what was left when the Chief Judge stopped it (bfsp 2.1.5)."""

    #: when the pause this ends began (the record names the pause it ends)
    paused_at: datetime


@dataclass(frozen=True, slots=True)
class ScheduleChanged:
    """The Chief Judge's change of the level schedule or the breaks (bfsp 2.1.5)."""

    levels: tuple[Level, ...]
    breaks: tuple[Break, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class ChipRaceConducted:
    table: int
    removed_denomination: int
    next_denomination: int
    entries: tuple[RaceEntry, ...]
    #: the race cards in the order they came off the deck
    dealt: tuple[str, ...]
    results: tuple[RaceResult, ...]
    race_chips: int


@dataclass(frozen=True, slots=True)
class PlayerEliminated:
    participant: str
    hand: str
    reason: EliminationReason
    #: the best place of the places he shares (one place when he shares none)
    place: int
    #: the others busted in the same hand who share his places and their prizes
    shared_with: tuple[str, ...] = ()
    #: the chips he started the hand with (how simultaneous busts are ranked, bfsp 5.10.2)
    starting_stack: int = 0
    #: why the Chief Judge disqualified him (bfsp 7.2.2)
    ruling: str = ""


@dataclass(frozen=True, slots=True)
class HandForHandStarted:
    players_left: int
    #: level clock left at the announcement; each hand from the current one is charged a fixed time
    level_seconds_left: int


@dataclass(frozen=True, slots=True)
class HandForHandHandStarted:
    """Every table starts its next hand together; the level clock is set to what is left after the charge."""

    round: int
    level_seconds_left: int


@dataclass(frozen=True, slots=True)
class HandForHandEnded:
    players_left: int


@dataclass(frozen=True, slots=True)
class FinalTableDrawCommitted:
    seed_sha256: str


@dataclass(frozen=True, slots=True)
class FinalTableDrawConducted:
    seed: str
    assignments: tuple[SeatAssignment, ...]
    buttons: tuple[StartingButton, ...]
    ordered_by: str


@dataclass(frozen=True, slots=True)
class DealAgreed:
    """The players left share out the prizes still to pay, approved by the Chief Judge (TDA 2017 Part G)."""

    shares: tuple[DealShare, ...]
    #: what the winner takes on top of his amount; 0: play ends with the deal
    left_to_play_for: int


@dataclass(frozen=True, slots=True)
class TableHandStarted:
    """A hand started at a table: the floor's button and blinds move on (bfsp 5.3.2), and a table owing a player
    to a short one may not start it (bfsp 3.1)."""

    table: int
    button: int
    #: a misdeal is dealt again with the same button (bfsp 6.3)
    after_misdeal: bool = False


@dataclass(frozen=True, slots=True)
class TableHandEnded:
    table: int


@dataclass(frozen=True, slots=True)
class OfcPoints:
    """One player's result in an OFC round of the competition (bfsp 8): his points, his foul, his royalties."""

    participant: str
    points: int
    fouled: bool = False
    royalties: int = 0


@dataclass(frozen=True, slots=True)
class OfcRoundCounted:
    """An OFC round of the competition scored at its table, counted towards the places by points (bfsp 8).
    Recorded by the referee when the round's last setting is accepted, as the floor records a table's hand."""

    table: int
    round_number: int
    button: int
    points: tuple[OfcPoints, ...]


@dataclass(frozen=True, slots=True)
class CompetitionWinnerDeclared:
    participant: str


@dataclass(frozen=True, slots=True)
class CompetitionEnded:
    """The Chief Judge closes the competition once play is over (bfsp 2.1.1, 5.10.1): from then on its play is
    not amended, the Secretary compiles the final protocol (2.3.3) and the Chief Judge signs it (2.1.4)."""

    competition_id: str
    #: who won it, as the record has it (the winner declared; "" when the players left ended it by a deal)
    winner: str = ""


@dataclass(frozen=True, slots=True)
class OlympicStageStarted:
    stage: str
    tables: int
    participants: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TableWinnerDeclared:
    stage: str
    table: int
    participant: str


@dataclass(frozen=True, slots=True)
class StacksReset:
    """Every player of a new Olympic stage restarts with the same stack (bfsp 3.2)."""

    stage: str
    stack: int
    participants: tuple[str, ...]


CompetitionEvent = (
    RegulationsAdopted
    | OfficialAppointed
    | OfficialRemoved
    | ParticipantRegistered
    | SeatDrawCommitted
    | SeatDrawConducted
    | LevelStarted
    | BreakStarted
    | BreakEnded
    | LevelClockPaused
    | LevelClockResumed
    | ScheduleChanged
    | ChipRaceConducted
    | PlayerEliminated
    | HandForHandStarted
    | HandForHandHandStarted
    | HandForHandEnded
    | FinalTableDrawCommitted
    | FinalTableDrawConducted
    | TableHandStarted
    | TableHandEnded
    | OfcRoundCounted
    | DealAgreed
    | CompetitionWinnerDeclared
    | CompetitionEnded
    | OlympicStageStarted
    | TableWinnerDeclared
    | StacksReset
)

CATALOG: dict[str, type] = {cls.__name__: cls for cls in typing.get_args(CompetitionEvent)}


def encode(event: Any) -> JSON:
    """``{"type": "LevelStarted", "level": {"number": 2, ...}}``."""
    return codec.encode(event)


def decode(payload: JSON) -> Any:
    return codec.decode(payload, CATALOG)
