"""One hand of the seeded field, dealt and played through the rules engine by the field's bots.

Every event is applied to :class:`HandState` before it is kept, so every hand is legal by construction.
A colluder's changed decisions are counted per pair of partners sharing the pot.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from domain.cards import Card
from domain.evaluation import EvaluationKind, evaluate
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    CardBurned,
    ForcedBetPosted,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    ReportedEvent,
)
from domain.hand.legal import NextActKind
from domain.hand.state import HandState
from domain.hand.tabling import tabling_allowed
from domain.rulebooks import Rulebook
from ingest.simulator.field_bots import Behaviour, Style, View, act, colluding, honest

_PASSIVE = {ActionKind.CHECK: ActionKind.CALL}


@dataclass(frozen=True, slots=True)
class Collusion:
    """A colluder's part in this hand: its behaviour, its partners' seats and its chip-dumping role."""

    behaviour: Behaviour
    partners: frozenset[int]
    role: str = ""


@dataclass(slots=True)
class FieldHandPlayed:
    events: list[ReportedEvent]
    final_stacks: dict[int, int]
    #: (seat, partner seat) → decisions the collusion changed in this hand
    changed: Counter[tuple[int, int]] = field(default_factory=Counter)


def play_field_hand(
    started: HandStarted,
    rulebook: Rulebook,
    deck: Sequence[Card],
    styles: Mapping[int, Style],
    collusion: Mapping[int, Collusion],
    rng: random.Random,
) -> FieldHandPlayed:
    hand = HandState.start(started, rulebook)
    deck = list(deck)
    rng.shuffle(deck)
    events: list[ReportedEvent] = [started]
    hole: dict[int, tuple[Card, ...]] = {}
    board: list[Card] = []
    changed: Counter[tuple[int, int]] = Counter()
    big_blind = max(amount for _, amount in started.stakes.blinds)
    raises, bettor = 0, None

    def report(event: ReportedEvent) -> None:
        hand.apply(event)
        events.append(event)

    while not hand.is_over:
        nxt = hand.expected_next()
        kind = nxt.kind
        if kind is NextActKind.FORCED_BET:
            assert nxt.seat is not None and nxt.forced_bet is not None
            report(ForcedBetPosted(nxt.seat, nxt.forced_bet, nxt.amount))
        elif kind in (NextActKind.BURN, NextActKind.DEAL_BOARD) and tabling_allowed(hand) and any(
            s not in hand.shown for s in hand.in_hand
        ):
            seat = next(s for s in hand.in_hand if s not in hand.shown)
            report(HandShown(seat, hole[seat]))
        elif kind is NextActKind.BURN:
            report(CardBurned(deck.pop()))
        elif kind is NextActKind.DEAL_HOLE:
            assert nxt.seat is not None
            hole[nxt.seat] = tuple(deck.pop() for _ in range(nxt.count))
            report(HoleCardsDealt(nxt.seat, hole[nxt.seat]))
        elif kind is NextActKind.DEAL_BOARD:
            cards = tuple(deck.pop() for _ in range(nxt.count))
            board.extend(cards)
            raises, bettor = 0, None
            report(BoardDealt(cards))
        elif kind is NextActKind.PLAYER_ACTION:
            legal = hand.legal_actions()
            seat = legal.seat
            view = View(
                legal, hole[seat], tuple(board), hand.pot_total(), hand.stacks[seat], big_blind,
                hand.bets.get(seat, 0), raises, frozenset(s for s in hand.in_hand if s != seat), bettor,
            )
            decision = honest(view, styles[seat], rng)
            size = None
            mine = collusion.get(seat)
            if mine is not None:
                partners = {s: hole[s] for s in mine.partners if s in hole}
                wanted, size = colluding(view, decision, mine.behaviour, partners, mine.role)
                if _class(wanted) != _class(decision):
                    for partner in partners:
                        if partner in view.opponents:
                            changed[(seat, partner)] += 1
                decision = wanted
            acted = act(view, decision, rng, size)
            if acted.action in (ActionKind.BET, ActionKind.RAISE):
                raises, bettor = raises + 1, seat
            report(acted)
        elif kind is NextActKind.SHOWDOWN:
            seat = nxt.seats[0]
            report(_table_or_muck(hand, seat, hole, board))
        else:
            raise ValueError(f"the field plays no-limit hold'em only: it cannot {kind}")
    return FieldHandPlayed(events, hand.final_stacks(), changed)


def _class(kind: ActionKind) -> ActionKind:
    return _PASSIVE.get(kind, kind)


def _table_or_muck(
    hand: HandState, seat: int, hole: Mapping[int, tuple[Card, ...]], board: list[Card]
) -> HandShown | HandMucked:
    """Shows unless a hand already shown, covering this one, beats it."""
    mine = evaluate(EvaluationKind.STANDARD_HIGH, hole[seat], board)
    for other in hand.shown:
        if hand.contributions[other] >= hand.contributions[seat]:
            theirs = evaluate(EvaluationKind.STANDARD_HIGH, hole[other], board)
            if mine is not None and theirs is not None and theirs > mine:
                return HandMucked(seat)
    return HandShown(seat, hole[seat])
