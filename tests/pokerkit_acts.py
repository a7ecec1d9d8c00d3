"""The acts the differential tests draw for PokerKit's players (PokerKit is a test-only reference)."""

from __future__ import annotations

from hypothesis import strategies as st
from pokerkit import State


def act(state: State, choices: st.DataObject) -> None:
    """Fold, call, min-raise or shove, as drawn, whichever of them is legal: a check or call where the drawn act
    is not, so every hand goes on to its end."""
    choice = choices.draw(st.sampled_from(["fold", "call", "min_raise", "shove"]))
    if choice == "fold" and state.can_fold():
        state.fold()
    elif choice in ("min_raise", "shove") and state.can_complete_bet_or_raise_to():
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        state.complete_bet_or_raise_to(low if choice == "min_raise" else high)
    else:
        state.check_or_call()
