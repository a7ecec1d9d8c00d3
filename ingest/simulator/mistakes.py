"""Mistakes a dealer terminal reports now and then: an act the rules forbid, which the referee must refuse.

Each mistake is made on purpose against one rule: a bet or raise below the minimum, a check facing a bet, an
act out of turn. The engine is asked before it is reported: a mistake it would not refuse for that very rule
is not made, so every mistake on the log is a refusal the referee owes, with the rule it cites.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from domain.errors import HandError, RuleRef
from domain.hand.events import ActionKind, PlayerActed
from domain.hand.legal import LegalActions
from domain.hand.state import HandState


@dataclass(frozen=True, slots=True)
class Mistake:
    """An illegal act reported just before the legal act at ``seq`` (the hand's sequence number)."""

    seq: int
    act: PlayerActed
    rule: RuleRef
    reason: str


_Attempt = Callable[[HandState, LegalActions, random.Random], tuple[PlayerActed, str] | None]


def _below_minimum(
    hand: HandState, legal: LegalActions, rng: random.Random
) -> tuple[PlayerActed, str] | None:
    kind, low = legal.aggressive_action, legal.min_bet_or_raise_to
    if kind not in (ActionKind.BET, ActionKind.RAISE) or low is None:
        return None
    seat = legal.seat
    called_to = hand.bets[seat] + legal.call_amount
    all_in_to = hand.bets[seat] + hand.stacks[seat]
    if low - 1 <= called_to or low >= all_in_to:
        return None
    topic = "min_bet" if kind is ActionKind.BET else "min_raise"
    return PlayerActed(seat, kind, rng.randint(called_to + 1, low - 1)), topic


def _check_facing_a_bet(
    hand: HandState, legal: LegalActions, rng: random.Random
) -> tuple[PlayerActed, str] | None:
    if legal.can_check:
        return None
    return PlayerActed(legal.seat, ActionKind.CHECK), "check"


def _out_of_turn(hand: HandState, legal: LegalActions, rng: random.Random) -> tuple[PlayerActed, str] | None:
    waiting = [s for s in hand.in_hand if s != legal.seat and hand.stacks[s] > 0]
    if not waiting:
        return None
    return PlayerActed(rng.choice(waiting), ActionKind.FOLD), "turn_order"


ATTEMPTS: tuple[_Attempt, ...] = (_below_minimum, _check_facing_a_bet, _out_of_turn)


def make_mistake(hand: HandState, legal: LegalActions, seq: int, rng: random.Random) -> Mistake | None:
    """One illegal act at this turn, or None when the drawn kind of mistake cannot be made here."""
    attempt = rng.choice(ATTEMPTS)(hand, legal, rng)
    if attempt is None:
        return None
    act, topic = attempt
    meant = hand.rulebook.cite(topic)
    try:
        hand.verify(act)
    except HandError as refusal:
        if refusal.rule == meant:
            return Mistake(seq, act, meant, refusal.reason)
    return None
