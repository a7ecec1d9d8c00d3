"""The Competition's levels and breaks (bfsp 2.1.5, 3.3; TDA 2022 23), its level clock and schedule, and the
chip race (TDA 2022 24)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from domain.chained import JSON
from domain.competition import chip_race, levels
from domain.competition.competition_state import CompetitionState, Recorder, recorded_meta
from domain.competition.events import (
    BreakEnded,
    BreakStarted,
    ChipRaceConducted,
    LevelClockPaused,
    LevelClockResumed,
    LevelStarted,
    RaceEntry,
    ScheduleChanged,
)
from domain.competition.regulations import Break, Level, cite, verify_schedule
from domain.errors import CompetitionError, chips
from domain.officials import Act


class LevelActs(CompetitionState):
    # --- levels and breaks (bfsp 2.1.5, 3.3; TDA 2022 23) -----------------------------------------------------

    def start_level(
        self, at: datetime, by: Recorder, meta: JSON | None = None, number: int | None = None
    ) -> Level:
        """Level 1 starts the level clock; every later level starts by the clock (bfsp 3.3; TDA 2022 23), and its
        announcement (level ``number``; None: the one the clock has in force) is recorded when it agrees with the
        clock, refused with the level in force when it does not."""
        self._authorise(Act.LEVEL_STARTED, by)
        self._verify_not_over()
        rule = cite(self.rulebook, "levels")
        if not self.drawn:
            raise CompetitionError("play starts after the seat draw", cite(self.rulebook, "seat_draw"))
        phase = self.phase_at(at)
        if phase is None:
            if self.clock is not None:
                raise CompetitionError(
                    f"the level clock started at {self.clock.started_at:%H:%M:%S}; {at:%H:%M:%S} is before it", rule
                )
            if number not in (None, 1):
                raise CompetitionError(
                    f"the level clock starts with level 1, not level {number}: no level has been played", rule
                )
            return self._start_next_level(at, recorded_meta(by, meta))
        clock = f"at {at:%H:%M:%S} the clock is in {phase.describe()}"
        if phase.on_break is not None or phase.paused:
            raise CompetitionError(f"no level starts now: {clock}", rule)
        level = phase.level
        if number is not None and number != level.number:
            raise CompetitionError(f"level {number} is not the level in force: {clock}", rule)
        if any(s.level.number == level.number for s in self.level_starts):
            raise CompetitionError(f"level {level.number} has started already: {clock}", rule)
        self._record(LevelStarted(level, at), at, recorded_meta(by, meta))
        return level

    def _start_next_level(self, at: datetime, meta: JSON) -> Level:
        current = self.level_at(at)
        number = current.number + 1 if current else 1
        if number > len(self.levels):
            raise CompetitionError(
                f"the schedule has {len(self.levels)} levels; there is no level {number}",
                cite(self.rulebook, "levels"),
            )
        level = self.levels[number - 1]
        self._record(LevelStarted(level, at), at, meta)
        return level

    def start_break(
        self, minutes: int, at: datetime, by: Recorder, meta: JSON | None = None, after_level: int | None = None
    ) -> None:
        """A scheduled break comes by the clock (bfsp 2.1.5, 3.3): its announcement (after level ``after_level``,
        of ``minutes``) is recorded when the clock is in it, and refused with the schedule's break otherwise. A
        break outside the schedule is the Chief Judge's pause of the clock (:meth:`pause_clock`)."""
        self._authorise(Act.BREAK_STARTED, by)
        rule = cite(self.rulebook, "schedule")
        phase = self.phase_at(at)
        if phase is None or minutes <= 0:
            raise CompetitionError("a break of some minutes follows a level being played", rule)
        due = phase.on_break
        clock = f"at {at:%H:%M:%S} the clock is in {phase.describe()}"
        if due is None:
            raise CompetitionError(
                f"no scheduled break is due: {clock}; a break the schedule does not have is a pause of the clock "
                "(LevelClockPaused)",
                rule,
            )
        if (after_level is not None and after_level != due.after_level) or minutes != due.minutes:
            raise CompetitionError(
                f"the break in force is the {due.minutes}-minute break after level {due.after_level}, not "
                f"{minutes} minutes after level {after_level if after_level is not None else phase.level.number}: "
                f"{clock}",
                rule,
            )
        if self.on_break is not None and self.on_break.after_level == due.after_level:
            raise CompetitionError(f"the break after level {due.after_level} has started already", rule)
        self._record(BreakStarted(due.after_level, due.minutes), at, recorded_meta(by, meta))

    def end_break(self, at: datetime, by: Recorder, meta: JSON | None = None) -> None:
        """The end of a scheduled break, recorded once the clock has run it out (bfsp 2.1.5, 3.3)."""
        self._authorise(Act.BREAK_ENDED, by)
        rule = cite(self.rulebook, "schedule")
        if self.on_break is None:
            raise CompetitionError("there is no break to end", rule)
        phase = self.phase_at(at)
        if phase is not None and phase.on_break is not None:
            raise CompetitionError(
                f"the break has not ended: at {at:%H:%M:%S} the clock is in {phase.describe()}; the Chief Judge "
                "shortens a break by changing the schedule (ScheduleChanged)",
                rule,
            )
        ended = BreakEnded(self.on_break.after_level)
        self._record(ended, at, recorded_meta(by, meta))

    def pause_clock(self, reason: str, at: datetime, by: Recorder, meta: JSON | None = None) -> None:
        """The Chief Judge stops the level clock (bfsp 2.1.5: a break he announces): no hand starts until it runs
        again, and the level in play keeps what was left of it."""
        self._authorise(Act.LEVEL_CLOCK_PAUSED, by)
        self._verify_not_over()
        rule = cite(self.rulebook, "schedule")
        phase = self.phase_at(at)
        if phase is None or self.clock is None:
            raise CompetitionError("the level clock has not started: level 1 starts it", rule)
        if self.clock.stopped:
            raise CompetitionError(f"the level clock is stopped already ({self.clock.stopped})", rule)
        if not reason.strip():
            raise CompetitionError("reason: the Chief Judge says why he stops the clock", rule)
        self._record(LevelClockPaused(reason), at, recorded_meta(by, meta))

    def resume_clock(self, paused_at: datetime, at: datetime, by: Recorder, meta: JSON | None = None) -> None:
        """The level clock runs again with what was left when the Chief Judge stopped it (bfsp 2.1.5)."""
        self._authorise(Act.LEVEL_CLOCK_RESUMED, by)
        rule = cite(self.rulebook, "schedule")
        clock = self.clock
        if clock is None or not clock.stopped or clock.stopped == levels.HAND_FOR_HAND:
            raise CompetitionError("the Chief Judge has not stopped the level clock", rule)
        since = clock.anchors[-1].at
        if paused_at != since:
            raise CompetitionError(
                f"paused_at: the clock was stopped at {since.isoformat()}, not {paused_at.isoformat()}", rule
            )
        self._record(LevelClockResumed(since), at, recorded_meta(by, meta))

    def change_schedule(
        self,
        new_levels: tuple[Level, ...],
        breaks: tuple[Break, ...],
        reason: str,
        at: datetime,
        by: Recorder,
        meta: JSON | None = None,
    ) -> None:
        """The Chief Judge changes the schedule (bfsp 2.1.5); the levels already played stay as they were."""
        self._authorise(Act.SCHEDULE_CHANGED, by)
        verify_schedule(new_levels, breaks, self.rulebook)
        in_force = self.level_at(at)
        played = in_force.number if in_force else 0
        if new_levels[:played] != self.levels[:played]:
            raise CompetitionError(
                f"levels 1 to {played} have been played; a schedule change cannot rewrite them",
                cite(self.rulebook, "schedule"),
            )
        changed = ScheduleChanged(new_levels, breaks, reason)
        self._record(changed, at, recorded_meta(by, meta))

    # --- chip race (TDA 2022 24) ----------------------------------------------------------------------------

    def conduct_chip_race(
        self,
        table: int,
        removed: int,
        entries: Iterable[RaceEntry],
        dealt: Iterable[str],
        at: datetime,
        by: Recorder,
        meta: JSON | None = None,
    ) -> ChipRaceConducted:
        """Colour up ``removed`` at ``table``: exchange, race the odd chips from seat 1, one chip at most per
        player, nobody raced out, what wins nothing removed (:mod:`domain.competition.chip_race`)."""
        self._authorise(Act.CHIP_RACE_CONDUCTED, by)
        rule = cite(self.rulebook, "chip_race")
        entries = tuple(entries)
        if removed not in self.regulations.denominations or (table, removed) in self.races:
            raise CompetitionError(f"chips of {chips(removed)} are not in play at table {table}", rule)
        larger = [d for d in self.regulations.denominations if d > removed]
        if not larger:
            raise CompetitionError(
                f"chips of {chips(removed)} are the largest in play and cannot be coloured up", rule
            )
        seated = {p: seat for p, (t, seat) in self.seats.items() if t == table and p not in self.eliminated}
        listed = {e.participant: e.seat for e in entries}
        if listed != seated:
            raise CompetitionError(
                f"a chip race takes in every player at table {table} in his own seat: "
                f"{_seating(seated)}, not {_seating(listed)}",
                rule,
            )
        rounds_up = self.rulebook.chip_race_rounds_up
        results, raced = chip_race.race(removed, larger[0], entries, tuple(dealt), rule, rounds_up)
        conducted = ChipRaceConducted(table, removed, larger[0], entries, tuple(dealt), results, raced)
        self._record(conducted, at, recorded_meta(by, meta))
        return conducted


def _seating(seats: dict[str, int]) -> str:
    return ", ".join(f"{p} in seat {s}" for p, s in sorted(seats.items(), key=lambda i: i[1])) or "nobody"
