"""What the read models answer: one pydantic model per view, the same words as the game's."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

HandStatus = Literal["in_progress", "ended", "voided"]


class Stakes(BaseModel):
    antes: list[list[int]] = Field(description="[seat, ante] pairs")
    blinds: list[list[int]] = Field(description="[seat, blind] pairs in posting order")
    bring_in: int
    small_bet: int
    big_bet: int
    min_bet: int


class Seat(BaseModel):
    seat: int
    player: str
    starting_stack: int
    stack: int = Field(description="chips behind after the hand's last projected event")
    committed: int = Field(description="chips the seat has put in the pot this hand")
    hole_cards: list[str] = Field(description="'??' for a card the record does not know or the caller may not see")
    face_up: list[bool]
    folded: bool
    shown: bool
    mucked: bool


class Hand(BaseModel):
    hand_id: str
    competition_id: str
    table_id: str
    number: int
    variant: str
    rulebook: str
    button: int | None
    level: int | None
    stakes: Stakes
    seats: list[Seat]
    board: list[str]
    status: HandStatus
    undetermined: bool = Field(description="a pot could not be decided: the record lacks the deciding cards")
    started_at: str
    ended_at: str | None
    version: int = Field(description="stored events of the hand so far")
    chain_head: str = Field(description="the hash-chain link of the hand's last event")
    imported: bool = Field(
        description="a hand history of a past event, recorded by the importer: its times are its own and no live "
        "deadline judged it"
    )


class Competition(BaseModel):
    competition_id: str
    tables: int = Field(description="the tables that played its hands or its OFC rounds")
    hands: int
    hands_in_progress: int
    rejections: int
    ofc_rounds: int = Field(default=0, description="its Open-Face Chinese rounds (bfsp 8), played for points")
    ofc_rounds_in_progress: int = 0


class TableSummary(BaseModel):
    table_id: str
    hands: int
    last_hand_number: int | None = Field(description="None at a table that has played OFC rounds only")
    ofc_rounds: int = Field(default=0, description="OFC rounds played at the table (bfsp 8)")
    last_ofc_round: int | None = None


class RulingRef(BaseModel):
    """The ruling that left a hand's chips where they are (one of the hand's ``…/rulings``)."""

    number: int = Field(description="the ruling's number among the hand's rulings")
    ruling: str = Field(description="the official's id for the ruling")
    kind: str = Field(description="finding_of_fact, chief_judge_decision or fairness_override")


def _unruled(value: object) -> bool:
    # a seat no ruling moved chips at is answered as it always was: seat, player, stack
    return value is None


class TableSeat(BaseModel):
    seat: int
    player: str
    stack: int = Field(description="as the latest ruling that moved the hand's chips left it, else the engine's")
    engine_stack: int | None = Field(
        default=None, exclude_if=_unruled,
        description="the stack the engine computed; present only when a ruling moved the hand's chips",
    )
    ruled_by: RulingRef | None = Field(
        default=None, exclude_if=_unruled,
        description="the latest ruling that moved the hand's chips; present only when one did",
    )


class TableState(BaseModel):
    """A table as its last hand leaves it: the stacks after it ended (as the latest ruling on it that moved
    chips left them), or as it began while it is played."""

    competition_id: str
    table_id: str
    hands: int
    last_hand_id: str
    last_hand_number: int
    last_hand_status: HandStatus
    button: int | None
    level: int | None
    seats: list[TableSeat]


class HistoryEntry(BaseModel):
    version: int
    type: str
    payload: dict[str, Any]
    recorded_by: str = Field(description="the person who recorded it; '' for what the engine derived")
    role: str
    event_id: str
    seq: int | None
    follows: str = Field(description="the event id of the reported act this one follows from mechanically")
    interprets: str = Field(description="the event id of the raw act this action is the engine's reading of")
    rule: str = Field(description="the rule the engine read a raw act by")
    reading: str = Field(description="the engine's reading of a raw act, in words")
    ruling: bool = Field(description="entered by an official (a judge or the chief judge)")
    at: str
    link: str


class SeatStack(BaseModel):
    seat: int
    stack: int
    committed: int


class StacksAfter(BaseModel):
    version: int
    type: str
    seats: list[SeatStack]


class Share(BaseModel):
    seat: int
    amount: int


class Pot(BaseModel):
    name: str = Field(description="main pot, side pot 1, …")
    pot_index: int
    half: str = Field(description="'high' or 'low' for a split-pot game's half, else ''")
    amount: int
    eligible: list[int]
    contributors: list[int]
    awarded: bool
    uncalled: bool = Field(description="a bet nobody has called yet: only its owner's chips, only he eligible")
    shares: list[Share]
    winning_hand: str
    odd_chip: str


class ShownHand(BaseModel):
    seat: int
    cards: list[str]


class MuckedHand(BaseModel):
    seat: int
    must_not_reveal: bool = Field(default=True, description="a hand mucked unshown is never revealed (bfsp 5.9.2)")
    cards: list[str] | None = Field(description="only for officials once the hand has ended")


class Showdown(BaseModel):
    hand_id: str
    order: list[int] = Field(description="the order the rules have the contesting seats table their cards")
    shown: list[ShownHand]
    mucked_unshown: list[MuckedHand]
    odd_chips: list[str]


class Rejection(BaseModel):
    number: int
    kind: str
    rule: str
    reason: str
    field: str
    event_id: str
    event_type: str
    table_id: str
    hand: str
    seq: int | None
    at: str


class Ruling(BaseModel):
    """An official's ruling on the hand (RulingIssued) or the Chief Judge's inspection of its mucked hands
    (MuckedCardsInspected), from the hand's review record."""

    number: int
    type: str
    payload: dict[str, Any]
    recorded_by: str
    role: str
    event_id: str
    at: str
    link: str


class Lag(BaseModel):
    position: int = Field(description="the last stored event projected (notification id)")
    head: int = Field(description="the last stored event")
    lag: int = Field(description="stored events not yet projected")
