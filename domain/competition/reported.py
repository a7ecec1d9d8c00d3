"""What a competition's record reports that the rules derive from the competition as it stands — a draw's
buttons, the next level, the level a break follows, a finishing place, the players left — must be the rules'
own: the record is refused with the rule that fixes the value, never trusted (:func:`domain.errors.verify_agrees`).
The handler hands each check the record and the Competition it loaded."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from domain.competition import draw
from domain.competition.aggregate import Competition
from domain.competition.events import (
    BreakStarted,
    HandForHandStarted,
    LevelStarted,
    PlayerEliminated,
    SeatDrawConducted,
)
from domain.competition.regulations import cite
from domain.errors import verify_agrees


def verify_starting_buttons(c: Competition, e: SeatDrawConducted) -> None:
    verify_agrees(e.buttons, draw.starting_buttons(e.assignments), "starting buttons", cite(c.rulebook, "starting_button"))


def verify_next_level(c: Competition, e: LevelStarted) -> None:
    """The level announced is the schedule's level of its number, its stakes and minutes as the Regulations give
    them (which number the level clock has in force, the act itself judges, naming the level in force)."""
    number = e.level.number
    if 1 <= number <= len(c.levels):
        verify_agrees(e.level, c.levels[number - 1], f"level {number} is", cite(c.rulebook, "levels"))


def verify_break_after(c: Competition, e: BreakStarted, at: datetime | None = None) -> None:
    """The break announced at ``at`` follows the level the level clock's break in force follows (a break the clock
    does not have, the act itself refuses, saying when the schedule's is due)."""
    phase = c.phase_at(at if at is not None else c.last_at)
    if phase is not None and phase.on_break is not None:
        verify_agrees(e.after_level, phase.on_break.after_level, "the break follows level", cite(c.rulebook, "schedule"))


def verify_place(c: Competition, e: PlayerEliminated, group: Sequence[str]) -> None:
    """The players busted together take the last places still open (bfsp 5.10.2), the best of them named."""
    verify_agrees(e.place, c.players_left - len(group) + 1, f"{e.participant} finished in place", cite(c.rulebook, "placings"))


def verify_players_left(c: Competition, e: HandForHandStarted) -> None:
    verify_agrees(e.players_left, c.players_left, "players left", cite(c.rulebook, "hand_for_hand"))
