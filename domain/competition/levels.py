"""The level clock: which level's forced bets a hand is played at (bfsp 3.3, TDA 2022 23) and the hand-for-hand
charge (TDA 2022 RP-8-b)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from domain.competition.regulations import Level
from domain.errors import CompetitionError, RuleRef


@dataclass(frozen=True, slots=True)
class LevelStart:
    level: Level
    at: datetime


def level_in_force(starts: Sequence[LevelStart], at: datetime) -> LevelStart | None:
    """The level a hand started at ``at`` belongs to: the last one announced at or before it (a new level
    applies from the next hand, TDA 2022 23)."""
    current = None
    for start in starts:
        if start.at <= at:
            current = start
    return current


def verify_hand_level(
    starts: Sequence[LevelStart],
    hand_started_at: datetime,
    played_at: int,
    substantial_action: bool,
    rule: RuleRef,
) -> None:
    """A hand is played at the level in force when it started; one started at the old blinds by mistake is
    finished at them once there was substantial action (TDA 2022 23, TV-102), and corrected before."""
    current = level_in_force(starts, hand_started_at)
    if current is None:
        raise CompetitionError(
            f"the hand started at {hand_started_at:%H:%M:%S}, before the first level began", rule
        )
    level = current.level
    if played_at > level.number:
        raise CompetitionError(
            f"the hand is played at level {played_at}, which had not begun when it started at "
            f"{hand_started_at:%H:%M:%S}; level {level.number} ({level.stakes}) was in force",
            rule,
        )
    if played_at < level.number and not substantial_action:
        raise CompetitionError(
            f"the hand started at {hand_started_at:%H:%M:%S}, after level {level.number} began at "
            f"{current.at:%H:%M:%S}; it must be played at {level.stakes}, not at level {played_at}'s blinds",
            rule,
        )


def hand_for_hand_clock(seconds_left: int, charge: int) -> int:
    """The level clock at the start of the next hand-for-hand hand: a fixed charge per hand, taken after
    every hand, never in batches (TDA 2022 RP-8-b, c); at zero or below the next level starts (RP-8-d)."""
    return seconds_left - charge
