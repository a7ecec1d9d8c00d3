"""Simple bots: each player's choice among the acts the engine says are legal, drawn from a seeded random.

A bot has a temperament (how often it plays on against a bet, bets, and moves all in) and reads its cards
only roughly: pairs and high cards before the flop, a pair with the board after it. That is enough for
varied, plausible play: folds, checks, calls, bets, raises, re-raises, all-ins and showdowns.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from domain.cards import Card
from domain.hand.events import ActionKind, PlayerActed
from domain.hand.legal import LegalActions


@dataclass(frozen=True, slots=True)
class Temperament:
    #: how readily the bot goes on against a bet (0 never, 1 always)
    looseness: float
    #: how readily it bets or raises
    aggression: float
    #: how readily a bet or raise is all in
    shove: float

    @classmethod
    def drawn(cls, rng: random.Random) -> Temperament:
        return cls(rng.uniform(0.3, 0.8), rng.uniform(0.1, 0.4), rng.uniform(0.01, 0.06))


@dataclass(frozen=True, slots=True)
class Situation:
    """What the bot knows when its turn comes: its cards, the board, its stack and the big blind."""

    hole: Sequence[Card]
    board: Sequence[Card]
    stack: int
    big_blind: int


def strength(hole: Sequence[Card], board: Sequence[Card]) -> float:
    """A rough 0..1 reading of a hand: high cards and pairs, and a pair made with the board."""
    ranks = sorted((c.rank for c in hole), reverse=True)
    score = sum(ranks[:2]) / 28
    if len(set(ranks)) < len(ranks):
        score += 0.3
    board_ranks = {c.rank for c in board}
    if board_ranks & set(ranks):
        score += 0.25 + max(board_ranks & set(ranks)) / 56
    return min(score, 1.0)


def choose(legal: LegalActions, at: Situation, temperament: Temperament, rng: random.Random) -> PlayerActed:
    """The bot's act: always one of ``legal``."""
    seat = legal.seat
    power = strength(at.hole, at.board)
    aggressive = legal.aggressive_action
    # raising a bet takes more than opening the betting
    eagerness = temperament.aggression * (0.4 + power) * (1.0 if legal.can_check else 0.5)
    if aggressive is not None and rng.random() < eagerness:
        return PlayerActed(seat, aggressive, _size(legal, at, power, temperament, rng))
    if legal.can_check:
        return PlayerActed(seat, ActionKind.CHECK)
    # the price of going on, as a share of what the bot has left
    price = legal.call_amount / max(at.stack, 1)
    if rng.random() < temperament.looseness * (0.5 + power) - price / 3:
        return PlayerActed(seat, ActionKind.CALL)
    return PlayerActed(seat, ActionKind.FOLD)


def _size(
    legal: LegalActions, at: Situation, power: float, temperament: Temperament, rng: random.Random
) -> int:
    """A bet or raise total between the legal minimum and maximum: mostly small, sometimes the most."""
    if legal.allowed_to:
        return rng.choice(legal.allowed_to)
    low, high = legal.min_bet_or_raise_to, legal.max_bet_or_raise_to
    assert low is not None and high is not None, "an aggressive act always has its range"
    short = at.stack < 10 * at.big_blind
    if rng.random() < temperament.shove + (0.3 if short else 0.0) + power / 20:
        return high
    step = max(at.big_blind // 2, 1)
    amount = low + round((high - low) * rng.random() ** 3 / step) * step
    return max(low, min(amount, high))
