"""A penalised player's hand at the table: dealt in, forced bets posted, hand killed (the federation digest §3.7,
bfsp 6.4.4 by analogy; TDA 2022 71), or killed outright for a violation (bfsp 7.1.5)."""

from __future__ import annotations

import pytest
from hand_table import C, F, R, X, start

from domain.errors import HandStateError, IllegalActionError, RuleRef
from domain.hand.events import PenaltyHandKilled, PlayerActed, UncalledBetReturned

pytestmark = pytest.mark.unit


def test_the_big_blind_serving_a_penalty_is_dealt_in_and_killed_and_his_blind_stays_the_bet_to_call() -> None:
    table = start().post().deal()
    assert table.apply(PenaltyHandKilled(2, "bfsp 7.1.2", penalty="p-1")) == ()
    state = table.state
    assert state.betting_context(3).current_bet == 100  # the killed big blind is still the bet to call
    assert 2 in state.folded
    assert state.contributions[2] == 100  # the big blind stays in the pot: dead money
    table.acts((3, F), (4, F), (5, F), (6, F))
    ended = table.derived
    # the small blind is the only live hand: he wins the blind he matched; the half nobody matched goes back
    assert state.is_over
    assert state.final_stacks() == {1: 10_000 + 50, 2: 10_000 - 50, 3: 10_000, 4: 10_000, 5: 10_000, 6: 10_000}
    assert any(getattr(e, "final_stacks", None) for e in ended)


def test_a_kill_on_the_seat_whose_turn_it_is_passes_the_action_on() -> None:
    table = start().post().deal()
    assert table.state.actor == 3
    table.apply(PenaltyHandKilled(3, "bfsp 7.1.5"))
    assert table.state.actor == 4


def test_a_killed_raisers_chips_stay_while_the_others_face_his_raise_and_what_nobody_called_goes_back() -> None:
    table = start(stacks=(10_000,) * 3).post().deal()
    table.acts((3, R, 300))
    assert table.apply(PenaltyHandKilled(3, "bfsp 7.1.5")) == ()
    assert table.state.contributions[3] == 300
    assert table.state.stacks[3] == 10_000 - 300
    assert table.state.betting_context(1).current_bet == 300  # the others still face his raise
    out = table.act(1, F)  # the big blind is the only live hand left
    assert table.state.is_over
    # as with every bet nobody called, the part of the raise the big blind never matched goes back
    assert UncalledBetReturned(3, 200) in out
    assert table.state.final_stacks() == {1: 10_000 - 50, 2: 10_000 + 50 + 100, 3: 10_000 - 100}


def test_a_penalised_player_is_dealt_in_before_his_hand_is_killed() -> None:
    table = start().post()
    with pytest.raises(HandStateError) as caught:
        table.state.apply(PenaltyHandKilled(4, "bfsp 7.1.2"))
    assert caught.value.rule == RuleRef("bfsp", "6.4.4")
    assert 4 not in table.state.folded


def test_the_kill_names_the_rule_it_applies() -> None:
    table = start().post().deal()
    with pytest.raises(HandStateError) as caught:
        table.state.apply(PenaltyHandKilled(4, "  "))
    assert caught.value.rule == RuleRef("bfsp", "7.2.1")


def test_a_folded_hand_cannot_be_killed_again() -> None:
    table = start().post().deal()
    table.acts((3, F))
    with pytest.raises(IllegalActionError):
        table.state.apply(PenaltyHandKilled(3, "bfsp 7.1.2"))
    table.apply(PlayerActed(4, C))
    table.apply(PenaltyHandKilled(4, "bfsp 7.1.2"))
    table.acts((5, F), (6, F), (1, C), (2, X))
    assert not table.state.is_over
