"""One simulated hand, dealt and played through the rules engine.

The engine says what the table owes next (:meth:`HandState.expected_next`) and what the player to act may
do (:meth:`HandState.legal_actions`); the dealer and the bots supply the cards and the choices. Every
reported event is applied to the engine before it is kept, so a simulated hand is legal by construction,
and any mistake is reported beside it, refused, and followed by the legal act.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from domain.cards import Card
from domain.evaluation import HandValue, evaluate
from domain.hand.events import (
    BoardDealt,
    CardBurned,
    DerivedEvent,
    ForcedBetPosted,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PenaltyHandKilled,
    PlayerActed,
    PotAwarded,
    ReportedEvent,
)
from domain.hand.legal import NextActKind
from domain.hand.state import HandState
from domain.hand.tabling import tabling_allowed
from domain.rulebooks import Rulebook
from ingest.simulator.bots import Situation, Temperament, choose
from ingest.simulator.mistakes import Mistake, make_mistake
from ingest.simulator.shoe import Shoe

#: how often a player whose hand is beaten shows it anyway instead of mucking
SHOWS_A_LOSER = 0.15


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """A hand as the table reported it (``events``, the start first), what the engine derived from it, and
    the mistakes reported along the way."""

    events: tuple[ReportedEvent, ...]
    derived: tuple[DerivedEvent, ...]
    mistakes: tuple[Mistake, ...]
    final_stacks: Mapping[int, int]
    #: the seats that put their last chip in during the hand
    all_in: frozenset[int]

    @property
    def started(self) -> HandStarted:
        start = self.events[0]
        assert isinstance(start, HandStarted)
        return start

    @property
    def pots(self) -> tuple[PotAwarded, ...]:
        return tuple(e for e in self.derived if isinstance(e, PotAwarded))


class _Dealer:
    """The table's dealer for one hand: applies each event to the engine, then keeps it."""

    def __init__(self, started: HandStarted, rulebook: Rulebook, shoe: Shoe, rng: random.Random) -> None:
        self.hand = HandState.start(started, rulebook)
        self.shoe = shoe
        self.rng = rng
        self.events: list[ReportedEvent] = [started]
        self.derived: list[DerivedEvent] = []
        self.mistakes: list[Mistake] = []
        self.hole: dict[int, tuple[Card, ...]] = {}
        self.board: list[Card] = []
        self.all_in: set[int] = set()
        self.big_blind = max((amount for _, amount in started.stakes.blinds), default=started.stakes.min_bet)

    def report(self, event: ReportedEvent) -> None:
        hand = self.hand
        self.derived.extend(hand.apply(event))
        self.events.append(event)
        if isinstance(event, PlayerActed | ForcedBetPosted) and hand.stacks[event.seat] == 0:
            self.all_in.add(event.seat)

    def next_act(
        self, temperaments: Mapping[int, Temperament], mistake_rate: float, killed: dict[int, PenaltyHandKilled]
    ) -> None:
        hand, nxt = self.hand, self.hand.expected_next()
        kind = nxt.kind
        if killed and kind not in (NextActKind.FORCED_BET, NextActKind.DEAL_HOLE):
            # a penalised player is dealt in, posts his forced bets, and then his hand is killed
            self.report(killed.pop(min(killed)))
        elif kind is NextActKind.FORCED_BET:
            assert nxt.seat is not None and nxt.forced_bet is not None
            self.report(ForcedBetPosted(nxt.seat, nxt.forced_bet, nxt.amount))
        elif kind in (NextActKind.BURN, NextActKind.DEAL_BOARD) and self._untabled_all_in():
            seat = self._untabled_all_in()[0]
            self.report(HandShown(seat, self.hole[seat]))
        elif kind is NextActKind.BURN:
            self.report(CardBurned(self.shoe.deal()[0]))
        elif kind is NextActKind.DEAL_HOLE:
            assert nxt.seat is not None
            cards = self.shoe.deal(nxt.count)
            self.hole[nxt.seat] = self.hole.get(nxt.seat, ()) + cards
            self.report(HoleCardsDealt(nxt.seat, cards, nxt.face_up))
        elif kind is NextActKind.DEAL_BOARD:
            cards = self.shoe.deal_board(nxt.count)
            self.board += cards
            self.report(BoardDealt(cards))
        elif kind is NextActKind.PLAYER_ACTION:
            self._turn(temperaments, mistake_rate)
        elif kind is NextActKind.SHOWDOWN:
            self._table_or_muck(nxt.seats[0])
        else:
            raise ValueError(f"the simulator does not play {hand.variant.name}: it cannot {kind}")

    def _untabled_all_in(self) -> list[int]:
        """Once no more betting is possible the all-in hands are tabled before the board is run out (TDA 16)."""
        hand = self.hand
        if not tabling_allowed(hand):
            return []
        return [s for s in hand.in_hand if s not in hand.shown]

    def _turn(self, temperaments: Mapping[int, Temperament], mistake_rate: float) -> None:
        hand = self.hand
        legal = hand.legal_actions()
        if mistake_rate and self.rng.random() < mistake_rate:
            mistake = make_mistake(hand, legal, len(self.events), self.rng)
            if mistake is not None:
                self.mistakes.append(mistake)
        seat = legal.seat
        at = Situation(self.hole[seat], self.board, hand.stacks[seat], self.big_blind)
        self.report(choose(legal, at, temperaments[seat], self.rng))

    def _table_or_muck(self, seat: int) -> None:
        """Shows in the showdown order; a hand beaten by one already shown, for every pot it could win, is
        mucked (mostly)."""
        hand = self.hand
        kind = hand.variant.high or hand.variant.low
        assert kind is not None
        mine = evaluate(kind, self.hole[seat], self.board)
        covering = [
            v
            for s in hand.shown
            if hand.contributions[s] >= hand.contributions[seat]
            and (v := evaluate(kind, self.hole[s], self.board)) is not None
        ]
        if _beaten(mine, covering) and self.rng.random() >= SHOWS_A_LOSER:
            self.report(HandMucked(seat))
        else:
            self.report(HandShown(seat, self.hole[seat]))


def _beaten(mine: HandValue | None, shown: list[HandValue]) -> bool:
    if not shown:
        return False
    return mine is None or mine < max(shown)


def play_hand(
    started: HandStarted,
    rulebook: Rulebook,
    shoe: Shoe,
    temperaments: Mapping[int, Temperament],
    rng: random.Random,
    mistake_rate: float = 0.0,
    killed: Mapping[int, PenaltyHandKilled] | None = None,
) -> PlayedHand:
    """Deal and play ``started`` to its end; the hands of the seats in ``killed`` are killed once dealt."""
    dealer = _Dealer(started, rulebook, shoe, rng)
    to_kill = dict(killed or {})
    while not dealer.hand.is_over:
        dealer.next_act(temperaments, mistake_rate, to_kill)
    return PlayedHand(
        tuple(dealer.events),
        tuple(dealer.derived),
        tuple(dealer.mistakes),
        dealer.hand.final_stacks(),
        frozenset(dealer.all_in),
    )
