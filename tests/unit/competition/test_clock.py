"""The action clock: called by an official, then the countdown; at expiry the hand is dead facing a bet, and
checked (TDA) or folded (bfsp) facing none (TDA 2022 29, TDA 2017 D-28, bfsp 7.1.7 note)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hand_table import C, X, start

from domain.errors import HandStateError, NotPermittedError, RuleRef
from domain.hand.events import ActionKind, PlayerActed
from domain.officials.clock import CATALOG, call_clock, expire
from domain.officials.codec import decode, encode
from domain.roles import Role
from domain.rulebooks import get_rulebook

pytestmark = pytest.mark.unit

CALLED = datetime(2026, 3, 14, 23, 0, 0, tzinfo=UTC)


@pytest.mark.parametrize(("rulebook", "seconds", "countdown"), [("tda-2022", 25, 5), ("bfsp", 30, 10)])
def test_the_clock_runs_its_seconds_then_the_countdown(rulebook: str, seconds: int, countdown: int) -> None:
    clock = call_clock("hand-5", 3, Role.JUDGE, CALLED, get_rulebook(rulebook))
    assert clock.countdown_at == CALLED + timedelta(seconds=seconds)
    assert clock.expires_at == CALLED + timedelta(seconds=seconds + countdown)
    assert decode(encode(clock), CATALOG) == clock


def test_tv_97_facing_a_bet_when_the_clock_runs_out_the_hand_is_dead() -> None:
    tda = get_rulebook("tda-2022")
    table = start(stacks=(10_000,) * 3, rulebook=tda).post().deal()
    clock = call_clock("hand-5", 3, Role.JUDGE, CALLED, tda)
    with pytest.raises(HandStateError, match="still has 1 seconds") as early:
        expire(clock, CALLED + timedelta(seconds=29), facing_bet=True, rulebook=tda)
    assert early.value.rule == RuleRef("tda-2022", "29")
    expired = expire(clock, CALLED + timedelta(seconds=30), facing_bet=True, rulebook=tda)
    assert expired.action is ActionKind.FOLD
    table.apply(expired.act)
    assert 3 in table.state.folded and table.state.actor == 1


@pytest.mark.parametrize(("rulebook", "action"), [("tda-2022", ActionKind.CHECK), ("bfsp", ActionKind.FOLD)])
def test_tv_98_facing_no_bet_the_hand_is_checked_under_the_tda_and_folded_under_the_federation(
    rulebook: str, action: ActionKind
) -> None:
    book = get_rulebook(rulebook)
    table = start(stacks=(10_000,) * 3, rulebook=book).post().deal()
    table.acts((3, C), (1, C), (2, X))
    table.board("2c7d9h")
    clock = call_clock("hand-5", 1, Role.CHIEF_JUDGE, CALLED, book)
    expired = expire(clock, clock.expires_at, facing_bet=False, rulebook=book)
    assert expired.action is action and expired.rule == str(book.cite("clock"))
    table.apply(expired.act)
    assert (1 in table.state.folded) is (action is ActionKind.FOLD)
    assert table.state.actor == 2


@pytest.mark.parametrize(("facing_bet", "action"), [(True, ActionKind.FOLD), (False, ActionKind.CHECK)])
def test_tv_55_2017_twenty_five_seconds_and_five_then_dead_facing_a_bet_or_checked(
    facing_bet: bool, action: ActionKind
) -> None:
    tda_2017 = get_rulebook("tda-2017")
    clock = call_clock("hand-5", 6, Role.JUDGE, CALLED, tda_2017)
    assert clock.expires_at - CALLED == timedelta(seconds=30)
    expired = expire(clock, CALLED + timedelta(seconds=31), facing_bet=facing_bet, rulebook=tda_2017)
    assert expired.action is action and expired.rule == "tda-2017 D-28"
    # the expiry's action, entered for seat 6 of a six-handed hand on the flop, is judged by the engine
    table = start(stacks=(10_000,) * 6, rulebook=tda_2017).post().deal()
    table.acts((3, C), (4, C), (5, C), (6, C), (1, C), (2, X))
    table.board("2c7d9h")
    table.acts((1, X), (2, X), (3, X), (4, X))
    if facing_bet:
        table.apply(PlayerActed(5, ActionKind.BET, 200))
    else:
        table.acts((5, X))
    table.apply(expired.act)
    if facing_bet:  # his hand is dead; the action goes on to seat 1
        assert 6 in table.state.folded and table.state.actor == 1
    else:  # checked: the flop is checked through
        assert 6 not in table.state.folded and table.state.street_index == 2
    # the house's own 60 s + 10 s, dead when it runs out, is a rulebook of its own shape
    house = replace(tda_2017, clock_seconds=60, clock_countdown_seconds=10, clock_expired_checks=False)
    clock = call_clock("hand-5", 6, Role.JUDGE, CALLED, house)
    assert clock.expires_at - CALLED == timedelta(seconds=70)
    assert expire(clock, clock.expires_at, facing_bet=False, rulebook=house).action is ActionKind.FOLD


def test_a_player_does_not_call_the_clock_on_the_record() -> None:
    with pytest.raises(NotPermittedError, match="a participant may not call the clock"):
        call_clock("hand-5", 3, Role.PARTICIPANT, CALLED, get_rulebook("bfsp"))
