"""The seeded field's players: a style each (nits, regulars, loose-aggressive players, calling stations,
maniacs, weak-passive players), and the colluders' one change of play each when a partner shares the pot.

A bot sees what a player sees: its own cards, the board, the pot, the price, who is still in, and, for a
colluder, its partners' cards (colluders signal). It decides honestly first; a colluder's behaviour then
may change that decision, and the change is counted, so the field knows which pairs changed how many
decisions (the ceiling of what the hands can reveal).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from domain.cards import Card
from domain.evaluation import EvaluationKind, evaluate
from domain.hand.events import ActionKind, PlayerActed
from domain.hand.legal import LegalActions
from domain.integrity.strength import postflop_bucket, preflop_percentile


class Behaviour(StrEnum):
    SOFT_PLAY = "soft_play"
    CHIP_DUMPING = "chip_dumping"
    TEAM_PLAY = "team_play"


@dataclass(frozen=True, slots=True)
class Style:
    name: str
    #: share of starting hands played
    play: float
    #: of the hands played, the share raised
    raise_share: float
    #: readiness to bet or raise after the flop
    aggression: float
    #: readiness to call a bet after the flop
    stickiness: float
    #: readiness to bet with nothing
    bluff: float

    def jittered(self, rng: random.Random) -> Style:
        def j(x: float) -> float:
            return min(0.95, max(0.01, x * rng.uniform(0.8, 1.2)))

        return Style(self.name, j(self.play), j(self.raise_share), j(self.aggression), j(self.stickiness),
                     j(self.bluff))


STYLES = (
    (Style("nit", 0.12, 0.75, 0.45, 0.30, 0.03), 0.15),
    (Style("regular", 0.22, 0.70, 0.55, 0.40, 0.06), 0.30),
    (Style("loose_aggressive", 0.35, 0.75, 0.70, 0.45, 0.12), 0.15),
    (Style("calling_station", 0.50, 0.12, 0.15, 0.80, 0.02), 0.15),
    (Style("maniac", 0.60, 0.85, 0.85, 0.55, 0.30), 0.07),
    (Style("weak_passive", 0.40, 0.25, 0.25, 0.55, 0.05), 0.18),
)

_AGGRESSION_BY_BUCKET = (0.10, 0.30, 0.60, 0.85, 0.95)
_CONTINUE_BY_BUCKET = (0.20, 0.60, 0.90, 1.0, 1.0)


@dataclass(frozen=True, slots=True)
class View:
    """What the player to act knows."""

    legal: LegalActions
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    pot: int
    stack: int
    big_blind: int
    in_front: int  # the actor's chips already bet on this street
    raises: int  # bets and raises so far on this street
    opponents: frozenset[int]  # seats still in the hand, the actor's excluded
    bettor: int | None  # the seat of the street's last bet or raise


def strength(hole: tuple[Card, ...], board: tuple[Card, ...]) -> float:
    """0..1: the starting hand's percentile before the flop, the bucket (0..4) over four after it."""
    return postflop_bucket(hole, board) / 4 if board else preflop_percentile(hole)


def honest(view: View, style: Style, rng: random.Random) -> ActionKind:
    """The player's own decision, as a class of act: fold, check/call (passive), or bet/raise."""
    legal = view.legal
    facing = legal.call_amount > 0
    multiway = len(view.opponents) > 1
    if not view.board:
        pct = preflop_percentile(view.hole) + rng.uniform(-0.04, 0.04)
        need = 1 - style.play * (0.55 if view.raises >= 2 else 1.0)
        if pct < need:
            return ActionKind.CHECK if legal.can_check else ActionKind.FOLD
        raise_bar = 1 - style.play * style.raise_share * (0.35 if view.raises >= 2 else 1.0)
        if pct >= raise_bar and legal.aggressive_action is not None and view.raises < 4:
            return ActionKind.RAISE
        return ActionKind.CHECK if legal.can_check else ActionKind.CALL
    bucket = postflop_bucket(view.hole, view.board)
    p_aggr = style.aggression * _AGGRESSION_BY_BUCKET[bucket] + (style.bluff if bucket == 0 else 0.0)
    if facing:
        p_aggr *= 0.45
    if multiway:
        p_aggr *= 0.75
    if legal.aggressive_action is not None and view.raises < 4 and rng.random() < p_aggr:
        return ActionKind.RAISE
    if not facing:
        return ActionKind.CHECK
    price = legal.call_amount / max(view.pot + legal.call_amount, 1)
    if rng.random() < style.stickiness * _CONTINUE_BY_BUCKET[bucket] * 1.6 - price * 0.6:
        return ActionKind.CALL
    return ActionKind.FOLD


def _behind(mine: tuple[Card, ...], theirs: tuple[Card, ...], board: tuple[Card, ...]) -> bool:
    """Whether the hand ``mine`` is worse than ``theirs`` on this board (three to five cards)."""
    ours = evaluate(EvaluationKind.STANDARD_HIGH, mine, board)
    his = evaluate(EvaluationKind.STANDARD_HIGH, theirs, board)
    return ours is not None and his is not None and ours < his


def act(view: View, kind: ActionKind, rng: random.Random, size: float | None = None) -> PlayerActed:
    """The decision as a legal act of the engine, with a bet size (a share of the pot) for bets and raises."""
    legal = view.legal
    seat = legal.seat
    if kind is ActionKind.RAISE and legal.aggressive_action is not None:
        low, high = legal.min_bet_or_raise_to, legal.max_bet_or_raise_to
        assert low is not None and high is not None, "an aggressive act always has its range"
        level = view.in_front + legal.call_amount
        if not view.board:
            to = 3 * level
        else:
            share = size if size is not None else rng.uniform(0.45, 1.0)
            to = level + round((view.pot + legal.call_amount) * share)
        to = max(low, min(high, to))
        if to > high * 0.8:
            to = high
        return PlayerActed(seat, legal.aggressive_action, to)
    if kind is ActionKind.FOLD and legal.can_fold and not legal.can_check:
        return PlayerActed(seat, ActionKind.FOLD)
    if legal.can_check:
        return PlayerActed(seat, ActionKind.CHECK)
    if kind is ActionKind.FOLD:
        return PlayerActed(seat, ActionKind.FOLD)
    return PlayerActed(seat, ActionKind.CALL)


def colluding(
    view: View,
    decision: ActionKind,
    behaviour: Behaviour,
    partners: dict[int, tuple[Card, ...]],
    role: str,
) -> tuple[ActionKind, float | None]:
    """A colluder's change to ``decision`` where a partner (seat → his hole cards) is in the pot; the size
    of a bet it makes; ``role`` is ``dumper``/``receiver`` for chip dumping, else empty."""
    legal = view.legal
    in_pot = {s: c for s, c in partners.items() if s in view.opponents}
    if not in_pot:
        return decision, None
    only_partners = view.opponents <= set(in_pot)
    partner_bet = view.bettor in in_pot
    can_raise = legal.aggressive_action is not None and view.raises < 4
    if behaviour is Behaviour.SOFT_PLAY:
        # never attack a partner; give up to a partner known to hold the better hand
        ahead = view.bettor in in_pot and strength(in_pot[view.bettor], view.board) > strength(view.hole, view.board)
        if partner_bet and decision is not ActionKind.FOLD and ahead:
            return ActionKind.FOLD, None
        if decision is ActionKind.RAISE and (only_partners or partner_bet):
            return (ActionKind.CHECK if legal.can_check else ActionKind.CALL), None
        return decision, None
    if behaviour is Behaviour.CHIP_DUMPING:
        # a dump moves chips one way: heads-up with the receiver, the dumper (who sees the receiver's cards)
        # bets into him while behind and pays off his bets, and gives the pot up when ahead; the receiver bets
        # whenever he is checked to, calls or raises when ahead and lets a bet go when behind
        heads_up = only_partners
        if not view.board:
            if role == "dumper" and partner_bet and decision is ActionKind.FOLD:
                return ActionKind.CALL, None
            return decision, None
        if not heads_up:
            return decision, None
        partner = next(iter(in_pot.values()))
        behind = _behind(view.hole, partner, view.board)
        if role == "dumper":
            if legal.call_amount == 0:
                return (ActionKind.RAISE, 1.0) if behind and can_raise else (ActionKind.CHECK, None)
            return (ActionKind.CALL if behind else ActionKind.FOLD), None
        if role == "receiver":
            if legal.call_amount == 0:
                return (ActionKind.RAISE, 0.5) if can_raise else (ActionKind.CHECK, None)
            if behind:
                return ActionKind.FOLD, None
            return (ActionKind.RAISE if can_raise and view.raises < 2 else ActionKind.CALL), None
        return decision, None
    # team play: squeeze a third player between the partners while a partner holds the strong hand
    third = not only_partners
    partner_strong = any(strength(c, view.board) >= (0.85 if not view.board else 0.75) for c in in_pot.values())
    if third and partner_strong and can_raise and view.raises < 3:
        return ActionKind.RAISE, None
    if only_partners and decision is ActionKind.RAISE:
        return (ActionKind.CHECK if legal.can_check else ActionKind.FOLD), None
    return decision, None
