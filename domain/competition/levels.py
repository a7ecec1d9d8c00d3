"""The level clock: which level's forced bets a hand is played at (bfsp 3.3, TDA 2022 23) and the hand-for-hand
charge (TDA 2022 RP-8-b)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

from domain.competition.regulations import Break, Level
from domain.errors import CompetitionError, RuleRef


@dataclass(frozen=True, slots=True)
class LevelStart:
    """A level's announcement (``LevelStarted``): which level, and when it was announced."""

    level: Level
    at: datetime


def verify_hand_level(
    clock: LevelClock | None,
    hand_started_at: datetime,
    played_at: int,
    substantial_action: bool,
    rule: RuleRef,
) -> None:
    """A hand is played at the level in force by the clock when it started; one started at the old blinds by
    mistake is finished at them once there was substantial action (TDA 2022 23, TV-102), and corrected before."""
    phase = clock.phase_at(hand_started_at) if clock is not None else None
    if phase is None:
        raise CompetitionError(
            f"the hand started at {hand_started_at:%H:%M:%S}, before the first level began", rule
        )
    level = phase.level
    if played_at > level.number:
        raise CompetitionError(
            f"the hand is played at level {played_at}, which had not begun when it started at "
            f"{hand_started_at:%H:%M:%S}; {phase.describe()} was in force",
            rule,
        )
    if played_at < level.number and not substantial_action:
        raise CompetitionError(
            f"the hand started at {hand_started_at:%H:%M:%S}, after level {level.number} began at "
            f"{phase.began:%H:%M:%S} by the clock; it must be played at {level.stakes}, not at level {played_at}'s "
            "blinds",
            rule,
        )


def hand_for_hand_clock(seconds_left: int, charge: int) -> int:
    """The level clock at the start of the next hand-for-hand hand: a fixed charge per hand, taken after
    every hand, never in batches (TDA 2022 RP-8-b, c); at zero or below the next level starts (RP-8-d)."""
    return seconds_left - charge


# --- the level clock: levels and breaks by the schedule, from the clock's start, pauses aside -----------------
#
# Levels change by the clock (bfsp 3.3: each level lasts the minutes the Regulations give; TDA 2022 23), not by
# anybody's record: the clock starts with level 1 and runs through the schedule, each scheduled break in its place
# (bfsp 2.1.5). It stops only where the rules stop it: the Chief Judge's pause (an announced break, bfsp 2.1.5)
# and hand-for-hand play, where each hand is charged a fixed time instead (TDA 2022 RP-8). A schedule change
# (bfsp 2.1.5) re-times what is still to come. The clock is a list of anchors: from each one's time, the phase it
# names with some of it already run, running or stopped; what follows is computed from the schedule.


@dataclass(frozen=True, slots=True)
class Anchor:
    """From ``at`` on: phase number ``phase`` of the schedule (``levels``, ``breaks``), begun at ``began`` with
    ``elapsed`` of it already run; the clock runs unless ``stopped`` names why it does not."""

    at: datetime
    phase: int
    began: datetime
    elapsed: timedelta
    levels: tuple[Level, ...]
    breaks: tuple[Break, ...]
    #: "" while the clock runs; the Chief Judge's reason for a pause; HAND_FOR_HAND while play is hand-for-hand
    stopped: str = ""


#: why the clock stands still while play is hand-for-hand: each hand is charged a fixed time (TDA 2022 RP-8)
HAND_FOR_HAND = "hand-for-hand: each hand is charged a fixed time"


@dataclass(frozen=True, slots=True)
class Phase:
    """Where the clock is at a time: the level being played, or a scheduled break after ``level``."""

    level: Level
    #: the scheduled break being taken after ``level``, or None while ``level`` is played
    on_break: Break | None
    #: when this level (or break) began by the clock
    began: datetime
    #: when it ends by the clock: None while the clock is stopped, or for the last level (it runs to the end)
    ends: datetime | None
    #: what is left of it (while stopped: what will be left when the clock runs again; the last level, which runs
    #: on, has none left once its minutes are out)
    left: timedelta
    #: "" while the clock runs; why it is stopped (the Chief Judge's pause, or hand-for-hand play)
    stopped: str = ""

    @property
    def paused(self) -> bool:
        """Stopped by the Chief Judge: no hand is dealt until the clock runs again (hand-for-hand hands are)."""
        return bool(self.stopped) and self.stopped != HAND_FOR_HAND

    def describe(self) -> str:
        """``"level 3 (100/200, ante 25), 10:40:00–11:00:00 by the clock"``."""
        when = f"{self.began:%H:%M:%S}–{self.ends:%H:%M:%S}" if self.ends else f"since {self.began:%H:%M:%S}"
        if self.on_break is not None:
            what = f"the {self.on_break.minutes}-minute break after level {self.level.number}"
        else:
            what = f"level {self.level.number} ({self.level.stakes})"
        stopped = f", the clock stopped ({self.stopped})" if self.stopped else ""
        return f"{what}, {when} by the clock{stopped}"


@lru_cache(maxsize=256)
def schedule_phases(levels: tuple[Level, ...], breaks: tuple[Break, ...]) -> tuple[Level | Break, ...]:
    """The schedule in the order it is played: each level, then the breaks after it (bfsp 3.3, 2.1.5)."""
    out: list[Level | Break] = []
    for level in levels:
        out.append(level)
        out.extend(b for b in breaks if b.after_level == level.number)
    return tuple(out)


def _length(item: Level | Break) -> timedelta:
    return timedelta(minutes=item.minutes)


def _phase_of(anchor: Anchor, at: datetime) -> tuple[int, Phase]:
    phases = schedule_phases(anchor.levels, anchor.breaks)
    index, began, left = anchor.phase, anchor.began, _length(phases[anchor.phase]) - anchor.elapsed
    if anchor.stopped:
        return index, _phase(phases, index, began, None, left, anchor.stopped)
    start_of_rest = anchor.at  # the time from which ``left`` of phase ``index`` remains
    while start_of_rest + left <= at:
        if index + 1 == len(phases):
            if isinstance(phases[index], Level):
                break  # the last level runs on to the end
            # a break after the last level is over: the last level is played on
            return index + 1, Phase(anchor.levels[-1], None, start_of_rest + left, None, timedelta(0))
        start_of_rest += left
        index, began, left = index + 1, start_of_rest, _length(phases[index + 1])
    ends = start_of_rest + left
    return index, _phase(phases, index, began, ends, ends - at, "")


def _phase(
    phases: tuple[Level | Break, ...], index: int, began: datetime, ends: datetime | None, left: timedelta, stopped: str
) -> Phase:
    item = phases[index]
    last = index == len(phases) - 1
    if isinstance(item, Break):
        level = next(p for p in reversed(phases[:index]) if isinstance(p, Level))
        return Phase(level, item, began, ends, left, stopped)
    if last and ends is not None:
        # the last level runs on past its minutes (to the end): no end, and nothing left of it once they are out
        return Phase(item, None, began, None, max(left, timedelta(0)), stopped)
    return Phase(item, None, began, ends, left, stopped)


@dataclass(frozen=True, slots=True)
class LevelClock:
    """The competition's level clock (bfsp 3.3, 2.1.5; TDA 2022 23, RP-8): started with level 1, anchored again
    at each pause, resumption, hand-for-hand charge and schedule change."""

    anchors: tuple[Anchor, ...]

    @classmethod
    def start(cls, levels: tuple[Level, ...], breaks: tuple[Break, ...], at: datetime) -> LevelClock:
        return cls((Anchor(at, 0, at, timedelta(0), levels, breaks),))

    @property
    def started_at(self) -> datetime:
        return self.anchors[0].at

    @property
    def stopped(self) -> str:
        """Why the clock stands still now ("" while it runs)."""
        return self.anchors[-1].stopped

    def phase_at(self, at: datetime) -> Phase | None:
        """Where the clock is at ``at``; None before it started."""
        anchor = self._anchor_at(at)
        return None if anchor is None else _phase_of(anchor, at)[1]

    def _anchor_at(self, at: datetime) -> Anchor | None:
        found = None
        for anchor in self.anchors:
            if anchor.at > at:
                break
            found = anchor
        return found

    def _here(self, at: datetime, **changes: object) -> LevelClock:
        """A new anchor at ``at`` where the clock is then, with ``changes``."""
        anchor = self.anchors[-1]
        index, phase = _phase_of(anchor, at)
        phases = schedule_phases(anchor.levels, anchor.breaks)
        if index >= len(phases):  # past the schedule's end: the last level, played on
            index = max(i for i, p in enumerate(phases) if isinstance(p, Level))
        length = _length(phases[index])
        elapsed = max(length - phase.left, timedelta(0))
        fields: dict[str, object] = {
            "at": at, "phase": index, "began": phase.began, "elapsed": elapsed, "levels": anchor.levels,
            "breaks": anchor.breaks, "stopped": anchor.stopped,
        }
        fields.update(changes)
        return LevelClock((*self.anchors, Anchor(**fields)))  # type: ignore[arg-type]

    def stop(self, at: datetime, why: str) -> LevelClock:
        """The clock stops at ``at`` (the Chief Judge's pause, or hand-for-hand play) with what is left kept."""
        return self._here(at, stopped=why)

    def run(self, at: datetime) -> LevelClock:
        """The clock runs again from ``at`` with what was left when it stopped."""
        return self._here(at, stopped="")

    def charge(self, at: datetime, level: int, left: timedelta) -> LevelClock:
        """Hand-for-hand: level ``level`` has ``left`` to run (a new level all of it), the clock still stopped."""
        anchor = self.anchors[-1]
        phases = schedule_phases(anchor.levels, anchor.breaks)
        index = next(i for i, p in enumerate(phases) if isinstance(p, Level) and p.number == level)
        began = anchor.began if index == anchor.phase else at
        return self._here(at, phase=index, began=began, elapsed=_length(phases[index]) - left)

    def reschedule(self, at: datetime, levels: tuple[Level, ...], breaks: tuple[Break, ...]) -> LevelClock:
        """The schedule from ``at`` is ``levels`` and ``breaks`` (bfsp 2.1.5): the level or break in play goes on
        with what of it has run; a break the new schedule drops ends, and the next level begins."""
        anchor = self.anchors[-1]
        index, phase = _phase_of(anchor, at)
        new = schedule_phases(levels, breaks)
        item = phase.on_break if phase.on_break is not None else phase.level
        if item in new:
            position = new.index(item)
            elapsed = _length(item) - phase.left
            return self._here(at, phase=position, elapsed=min(elapsed, _length(new[position])), levels=levels,
                              breaks=breaks)
        following = next(i for i, p in enumerate(new) if isinstance(p, Level) and p.number == phase.level.number + 1)
        return self._here(at, phase=following, began=at, elapsed=timedelta(0), levels=levels, breaks=breaks)

    def history(self, until: datetime) -> tuple[tuple[Phase, datetime | None], ...]:
        """The levels and breaks as the clock ran them up to ``until``, each with when it ended (None: still in
        play), a level stopped and run again shown once."""
        out: list[tuple[Phase, datetime | None]] = []
        seen: set[tuple[int, int]] = set()
        for i, anchor in enumerate(self.anchors):
            end = self.anchors[i + 1].at if i + 1 < len(self.anchors) else until
            moments = [anchor.at]
            if not anchor.stopped:
                probe = anchor.at
                while True:
                    phase = _phase_of(anchor, probe)[1]
                    if phase.ends is None or phase.ends >= end:
                        break
                    probe = phase.ends
                    moments.append(probe)
            for moment in moments:
                phase = _phase_of(anchor, moment)[1]
                key = (phase.level.number, 1 if phase.on_break is not None else 0)
                if key in seen:
                    continue
                seen.add(key)
                if out:
                    out[-1] = (out[-1][0], phase.began)
                out.append((phase, None))
        return tuple(out)

    def pauses(self, until: datetime) -> tuple[tuple[datetime, datetime | None, str], ...]:
        """Each stop of the clock: from, to (None: still stopped at ``until``), and why."""
        out: list[tuple[datetime, datetime | None, str]] = []
        for i, anchor in enumerate(self.anchors):
            previous = self.anchors[i - 1].stopped if i else ""
            if anchor.stopped and anchor.stopped != previous:
                out.append((anchor.at, None, anchor.stopped))
            elif not anchor.stopped and previous and out:
                out[-1] = (out[-1][0], anchor.at, out[-1][2])
        return tuple(out)
