"""The action clock (TDA 2022 29; TDA 2017 D-28; bfsp 7.1.7 note; tda-club 27).

``ClockCalled`` records that the floor started the clock on the player to act; ``ClockExpired`` that it ran out
before he acted. What the expiry does is worked out here from the hand, not taken from whoever recorded it:
facing a bet (he cannot check) his hand is dead, so it is folded; facing none it is checked (TDA) or folded
(bfsp, tda-club) as ``Rulebook.clock_expired_checks`` says. The resulting action goes through the betting like
any other, and ``ClockExpiryApplied`` records it with its rule.

The clock runs on the seat only for the turn it was called in: once the seat acts, the clock is gone, and an
expiry recorded after that is refused. Whether the time has run out is the Hand aggregate's to judge (it sees
the events' times; :func:`clock_runs_out_at`); the engine sees only the order of events.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from domain.errors import HandStateError
from domain.hand.events import (
    ActionKind,
    ClockCalled,
    ClockExpired,
    ClockExpiryApplied,
    DerivedEvent,
    PlayerActed,
)
from domain.hand.in_play import HandInPlay
from domain.hand.phase import Phase
from domain.rulebooks import Rulebook


def clock_runs_out_at(called_at: datetime, rulebook: Rulebook) -> datetime:
    """When the clock called at ``called_at`` has run out: its seconds, then the countdown. Acting at that very
    instant is too late."""
    return called_at + timedelta(seconds=rulebook.clock_seconds + rulebook.clock_countdown_seconds)


def check_clock_called(hand: HandInPlay, e: ClockCalled) -> None:
    rule = hand.rulebook.cite("clock")
    actor = hand.actor
    if hand.phase is not Phase.BETTING or actor is None:
        raise HandStateError(f"the clock was called on seat {e.seat}, but nobody is to bet now", rule)
    if e.seat != actor:
        raise HandStateError(
            f"the clock is called on the player to act: seat {actor} is to act, not seat {e.seat}", rule
        )
    if hand.clock == (e.seat, len(hand.actions)):
        raise HandStateError(f"the clock is already running on seat {e.seat}", rule)


def do_clock_called(hand: HandInPlay, e: ClockCalled, _: None) -> tuple[DerivedEvent, ...]:
    # the clock belongs to this turn: the count of actions tells a later turn of the same seat apart
    hand.clock = (e.seat, len(hand.actions))
    return ()


def check_clock_expired(hand: HandInPlay, e: ClockExpired) -> tuple[PlayerActed, int, ClockExpiryApplied]:
    rulebook = hand.rulebook
    rule = rulebook.cite("clock")
    clock = hand.clock
    if clock is None or clock[0] != e.seat:
        raise HandStateError(f"no clock was called on seat {e.seat}, so none can run out on him", rule)
    if clock[1] != len(hand.actions) or hand.actor != e.seat or hand.round is None:
        raise HandStateError(f"seat {e.seat} acted after the clock was called: it no longer runs on him", rule)
    facing_bet = not hand.round.legal(e.seat).can_check
    if facing_bet:
        action, reason = ActionKind.FOLD, "facing a bet when the clock ran out: his hand is dead"
    elif rulebook.clock_expired_checks:
        action, reason = ActionKind.CHECK, "facing no bet when the clock ran out: his hand is checked"
    else:
        action, reason = ActionKind.FOLD, "the clock ran out: under this rulebook his hand is folded"
    act = PlayerActed(e.seat, action)
    total = hand.check_act(act)
    return act, total, ClockExpiryApplied(e.seat, action, facing_bet, str(rule), reason)


def do_clock_expired(
    hand: HandInPlay, e: ClockExpired, prepared: tuple[PlayerActed, int, ClockExpiryApplied]
) -> tuple[DerivedEvent, ...]:
    act, total, applied = prepared
    hand.clock = None
    return (applied, *hand.do_act(act, total))
