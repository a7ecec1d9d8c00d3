"""The action clock (bfsp 7.1.7 note; TDA 2022 29, TDA 2017 D-28).

An official calls the clock on a player who takes too long: he has ``clock_seconds``, then a counted-down
``clock_countdown_seconds``. If he has not acted when it runs out, facing a bet his hand is dead; facing none
it is checked (TDA) or folded (bfsp, tda-club) — ``Rulebook.clock_expired_checks``. The expiry is answered with
the action the dealer enters for him (a ``PlayerActed`` the hand's engine judges like any other). Time comes in
as arguments; acting at the very instant the countdown ends is too late.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from domain.errors import HandStateError
from domain.hand.events import ActionKind, PlayerActed
from domain.officials.permissions import Act, verify_permitted
from domain.roles import Role
from domain.rulebooks import Rulebook


@dataclass(frozen=True, slots=True)
class ClockCalled:
    hand: str
    seat: int
    called_by: Role
    called_at: datetime
    #: when the counted-down seconds begin, and when the time runs out
    countdown_at: datetime
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class ClockExpired:
    """Time ran out on ``seat``: facing a bet his hand is dead (``action`` fold), else ``action`` is the
    rulebook's: check or fold."""

    hand: str
    seat: int
    facing_bet: bool
    action: ActionKind
    expired_at: datetime
    rule: str

    @property
    def act(self) -> PlayerActed:
        return PlayerActed(self.seat, self.action)


CATALOG: dict[str, type] = {cls.__name__: cls for cls in (ClockCalled, ClockExpired)}


def call_clock(hand: str, seat: int, called_by: Role, at: datetime, rulebook: Rulebook) -> ClockCalled:
    verify_permitted(Act.CLOCK_CALLED, called_by)
    countdown_at = at + timedelta(seconds=rulebook.clock_seconds)
    return ClockCalled(
        hand, seat, called_by, at, countdown_at, countdown_at + timedelta(seconds=rulebook.clock_countdown_seconds)
    )


def expire(clock: ClockCalled, now: datetime, facing_bet: bool, rulebook: Rulebook) -> ClockExpired:
    """What the clock's expiry does to the player, refused while he still has time."""
    rule = rulebook.cite("clock")
    if now < clock.expires_at:
        left = (clock.expires_at - now).total_seconds()
        raise HandStateError(
            f"seat {clock.seat} still has {left:g} seconds on the clock; his hand is not dead yet", rule
        )
    checks = not facing_bet and rulebook.clock_expired_checks
    action = ActionKind.CHECK if checks else ActionKind.FOLD
    return ClockExpired(clock.hand, clock.seat, facing_bet, action, now, str(rule))
