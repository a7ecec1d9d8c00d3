"""PokerKit 0.7.7 as a reference player for differential tests (test-only).

``play_reference_hand`` lets PokerKit deal, post, burn, show and push chips, and asks ``choose`` for every
player decision. It records, before each decision, the amounts PokerKit considers legal, and returns every
operation PokerKit applied, so the same hand can be replayed through our engine and compared.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pokerkit import (
    Automation,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    Mode,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
    State,
)

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


@dataclass(frozen=True)
class ReferenceGame:
    """One hand's game parameters, in PokerKit's player order (index 0 = first left of the button)."""

    code: str  # our variant code: NT, PO, F7S/8
    stacks: tuple[int, ...]
    antes: int = 0
    small_blind: int = 0
    big_blind: int = 0
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0

    def create_state(self) -> State:
        n = len(self.stacks)
        if self.code == "NT":
            return NoLimitTexasHoldem.create_state(
                AUTOMATIONS, True, self.antes, (self.small_blind, self.big_blind), self.big_blind,
                self.stacks, n, mode=Mode.TOURNAMENT,
            )
        if self.code == "PO":
            return PotLimitOmahaHoldem.create_state(
                AUTOMATIONS, True, self.antes, (self.small_blind, self.big_blind), self.big_blind,
                self.stacks, n, mode=Mode.TOURNAMENT,
            )
        if self.code == "F7S/8":
            return FixedLimitSevenCardStudHighLowSplitEightOrBetter.create_state(
                AUTOMATIONS, True, self.antes, self.bring_in, self.small_bet, self.big_bet,
                self.stacks, n, mode=Mode.TOURNAMENT,
            )
        raise ValueError(f"no reference game for {self.code}")


@dataclass(frozen=True)
class Decision:
    """What PokerKit allowed at a decision, and what was chosen."""

    player: int
    call_amount: int | None  # None: checking/calling not allowed
    min_to: int | None  # None: no bet/raise/complete allowed
    max_to: int | None
    can_fold: bool
    can_bring_in: bool
    chosen: str  # fold, check_or_call, raise_to, bring_in
    amount: int | None = None
    #: PokerKit's own reason for refusing a bet/raise here ("" when it allows one)
    refusal: str = ""
    #: PokerKit's street index and its record of the street's largest raise so far
    street_index: int | None = None
    raise_amount: int = 0


@dataclass
class ReferenceHand:
    game: ReferenceGame
    operations: list[Any] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    final_stacks: tuple[int, ...] = ()


def play_reference_hand(game: ReferenceGame, choose: Callable[[int], int], seed: int) -> ReferenceHand:
    """Play one hand in PokerKit; ``choose(n)`` returns a number in ``range(n)`` for each choice."""
    random.seed(seed)  # PokerKit shuffles its deck with the global generator
    state = game.create_state()
    hand = ReferenceHand(game)
    while state.status:
        if state.actor_index is None:
            raise AssertionError("PokerKit stopped with no actor while the hand is live")
        hand.decisions.append(_decide(state, choose))
    hand.operations = list(state.operations)
    hand.final_stacks = tuple(state.stacks)
    return hand


def _decide(state: State, choose: Callable[[int], int]) -> Decision:
    player = state.actor_index
    assert player is not None
    can_bring_in = state.can_post_bring_in()
    can_raise = state.can_complete_bet_or_raise_to()
    call_amount = state.checking_or_calling_amount if state.can_check_or_call() else None
    min_to = state.min_completion_betting_or_raising_to_amount if can_raise else None
    max_to = state.max_completion_betting_or_raising_to_amount if can_raise else None
    can_fold = state.can_fold()
    refusal = ""
    if not can_raise:
        try:
            state.verify_completion_betting_or_raising_to()
        except ValueError as err:
            refusal = str(err)
    street_index = state.street_index
    raise_amount = state.completion_betting_or_raising_amount
    options: list[tuple[str, int | None]] = []
    if can_fold:
        options.append(("fold", None))
    if can_bring_in:
        options.append(("bring_in", None))
    if call_amount is not None:
        options += [("check_or_call", None)] * 2  # calling is the commonest act at a table
    if min_to is not None and max_to is not None:
        options.append(("raise_to", min_to))
        options.append(("raise_to", max_to))
        if max_to > min_to:
            options.append(("raise_to", min_to + choose(max_to - min_to + 1)))
    chosen, amount = options[choose(len(options))]
    if chosen == "fold":
        state.fold()
    elif chosen == "bring_in":
        state.post_bring_in()
    elif chosen == "check_or_call":
        state.check_or_call()
    else:
        state.complete_bet_or_raise_to(amount)
    return Decision(
        player, call_amount, min_to, max_to, can_fold, can_bring_in, chosen, amount, refusal, street_index, raise_amount
    )
