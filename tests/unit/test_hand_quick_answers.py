"""``HandState.may_check`` and ``HandState.aggressive_action`` answer what ``legal_actions()`` says of checking and
of raising the stakes, and ``HandState.forced_bet_due`` what ``expected_next()`` says of the forced bet owed, without
building the whole view (the PHH importer asks them of every ``cc``, ``cbr`` and forced bet; issue 17). Checked against ``legal_actions()`` at every state of every shared hand, for every seat, and where a raw
act holds the seat to an obligation (which narrows the view)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from domain.errors import HandError
from domain.hand.events import (
    ActionKind,
    ForcedBetKind,
    ForcedBetPosted,
    HandStarted,
    HoleCardsDealt,
    RawActReported,
    SeatEntry,
    Stakes,
)
from domain.hand.interpretation import RawAct, parse_declaration
from domain.hand.replay import Replayer
from domain.hand.state import HandState
from domain.rulebooks import get_rulebook
from ingest.phh import load_hands
from ingest.phh_events import PhhEvents

pytestmark = [pytest.mark.unit]

ROOT = Path(__file__).resolve().parents[2]
PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT / ".." / "shared" / "data" / "phh"))


def from_the_view(state: HandState, seat: int) -> tuple[bool, ActionKind | None]:
    """What the importer read off ``legal_actions()`` before the two questions existed."""
    if state.actor != seat:
        return False, None
    try:
        legal = state.legal_actions()
    except HandError:
        return False, None
    return legal.can_check, legal.aggressive_action


def test_the_answers_are_the_views_at_every_state_of_every_shared_hand() -> None:
    assert PHH_DIR.is_dir(), f"the shared hands are not at {PHH_DIR} (set POKERAUDIT_PHH_DIR)"
    rulebook = get_rulebook("bfsp")
    states = kinds = 0
    seen: set[ActionKind | None] = set()
    for hand in load_hands([PHH_DIR / "data"]):
        replayer = Replayer(rulebook)
        for event in PhhEvents(hand, lambda r=replayer: r.state):  # type: ignore[misc]
            state = replayer.state
            if state is not None:
                states += 1
                for seat in state.seats:
                    answers = (state.may_check(seat), state.aggressive_action(seat))
                    assert answers == from_the_view(state, seat), (hand.file, hand.index, seat, event)
                    seen.add(answers[1])
                    kinds += answers[1] is not None
            try:
                replayer.apply(event)
            except HandError:
                break
    assert states > 40_000 and kinds > 10_000
    # every answer the view gives was met: bet, raise, complete (stud), and none (capped, all-in, not his turn)
    assert seen == {ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE, None}


def test_the_forced_bet_due_is_the_views_at_every_state_of_every_shared_hand() -> None:
    """``forced_bet_due()`` is ``expected_next()``'s seat and forced bet while forced bets are owed, else None (the
    importer puts the record's forced bets in the order the engine asks for them by it)."""
    from domain.hand.legal import NextActKind

    rulebook = get_rulebook("bfsp")
    due = 0
    for hand in load_hands([PHH_DIR / "data"]):
        replayer = Replayer(rulebook)
        for event in PhhEvents(hand, lambda r=replayer: r.state):  # type: ignore[misc]
            state = replayer.state
            if state is not None:
                wanted = state.expected_next()
                if wanted.kind is NextActKind.FORCED_BET:
                    assert state.forced_bet_due() == (wanted.seat, wanted.forced_bet), (hand.file, event)
                    due += 1
                else:
                    assert state.forced_bet_due() is None, (hand.file, hand.index, event)
            try:
                replayer.apply(event)
            except HandError:
                break
    assert due > 4_000


def four_handed() -> HandState:
    """No-limit, blinds 50/100: seat 4 is first to act, facing the big blind."""
    started = HandStarted(
        "t1", 1, "NT", tuple(SeatEntry(s, f"P{s}", 10_000) for s in (1, 2, 3, 4)), 1,
        Stakes(blinds=((2, 50), (3, 100)), min_bet=100), rulebook="tda-2022", burns_recorded=False,
    )  # fmt: skip
    state = HandState.start(started, get_rulebook("tda-2022"))
    state.apply(ForcedBetPosted(2, ForcedBetKind.SMALL_BLIND, 50))
    state.apply(ForcedBetPosted(3, ForcedBetKind.BIG_BLIND, 100))
    for seat in (1, 2, 3, 4):
        state.apply(HoleCardsDealt(seat, (None, None)))
    return state


def test_a_seat_held_to_call_or_fold_may_not_raise_though_the_round_would_let_him() -> None:
    state = four_handed()
    assert (state.may_check(4), state.aggressive_action(4)) == (False, ActionKind.RAISE)
    state.apply(RawActReported(4, RawAct(declaration=parse_declaration("check"))))  # TV-23: call or fold
    assert state.obligation is not None and ActionKind.RAISE not in state.obligation[0].options
    assert (state.may_check(4), state.aggressive_action(4)) == (False, None) == from_the_view(state, 4)


def test_a_seat_held_to_raise_may_not_check_or_call_and_raises() -> None:
    state = four_handed()
    state.apply(RawActReported(4, RawAct(declaration=parse_declaration("raise"))))  # a raise without its amount
    assert state.obligation is not None and state.obligation[0].options == (ActionKind.RAISE,)
    assert (state.may_check(4), state.aggressive_action(4)) == (False, ActionKind.RAISE) == from_the_view(state, 4)
    assert (state.may_check(1), state.aggressive_action(1)) == (False, None)  # not his turn
