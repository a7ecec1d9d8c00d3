"""The action clock on the record (TDA 2022 29, TDA 2017 D-28, bfsp 7.1.7 note): an official calls it on the
player to act (``ClockCalled``); when its seconds and countdown have passed by the events' times, its expiry
(``ClockExpired``) is judged by the engine from the hand itself: dead (folded) facing a bet, checked (TDA) or
folded (bfsp) facing none (``ClockExpiryApplied``). Worked examples TV-97, TV-98 and TDA 2017 TV-55."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import embedded_referee
import pytest
from federation_records import DEALER as RECORDS_DEALER
from federation_records import JUDGE as RECORDS_JUDGE
from federation_records import Records
from hand_table import C, X, start

from domain.errors import HandStateError, NotPermittedError, RuleRef
from domain.hand.aggregate import Hand, hand_id
from domain.hand.clock import clock_runs_out_at
from domain.hand.codec import decode, encode
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    CardBurned,
    ClockCalled,
    ClockExpired,
    ClockExpiryApplied,
    ForcedBetKind,
    ForcedBetPosted,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    ReportedEvent,
    SeatEntry,
    Stakes,
)
from domain.rulebooks import get_rulebook

pytestmark = pytest.mark.unit

CALLED = datetime(2026, 3, 14, 23, 0, 0, tzinfo=UTC)
JUDGE: dict[str, Any] = {"recorded_by": {"person": "j", "role": "judge"}}
DEALER: dict[str, Any] = {"recorded_by": {"person": "d", "role": "dealer"}}


@pytest.mark.parametrize(("rulebook", "seconds"), [("tda-2022", 30), ("bfsp", 40), ("tda-club", 60)])
def test_the_clock_runs_its_seconds_then_the_countdown(rulebook: str, seconds: int) -> None:
    assert clock_runs_out_at(CALLED, get_rulebook(rulebook)) == CALLED + timedelta(seconds=seconds)
    for event in (ClockCalled(3), ClockExpired(3)):
        assert decode(encode(event)) == event


def test_tv_97_facing_a_bet_when_the_clock_runs_out_the_hand_is_dead() -> None:
    tda = get_rulebook("tda-2022")
    table = start(stacks=(10_000,) * 3, rulebook=tda).post().deal()
    assert table.state.actor == 3  # facing the big blind
    table.apply(ClockCalled(3))
    derived = table.apply(ClockExpired(3))
    assert derived[0] == ClockExpiryApplied(
        3, ActionKind.FOLD, True, "tda-2022 29", "facing a bet when the clock ran out: his hand is dead"
    )
    assert 3 in table.state.folded and table.state.actor == 1 and table.state.clock is None


@pytest.mark.parametrize(("rulebook", "action"), [("tda-2022", ActionKind.CHECK), ("bfsp", ActionKind.FOLD)])
def test_tv_98_facing_no_bet_the_hand_is_checked_under_the_tda_and_folded_under_the_federation(
    rulebook: str, action: ActionKind
) -> None:
    book = get_rulebook(rulebook)
    table = start(stacks=(10_000,) * 3, rulebook=book).post().deal()
    table.acts((3, C), (1, C), (2, X))
    table.board("2c7d9h")
    table.apply(ClockCalled(1))
    (applied, *_) = table.apply(ClockExpired(1))
    assert isinstance(applied, ClockExpiryApplied)
    assert applied.action is action and not applied.facing_bet and applied.rule == str(book.cite("clock"))
    assert (1 in table.state.folded) is (action is ActionKind.FOLD)
    assert table.state.actor == 2


@pytest.mark.parametrize(("facing_bet", "action"), [(True, ActionKind.FOLD), (False, ActionKind.CHECK)])
def test_tv_55_2017_twenty_five_seconds_and_five_then_dead_facing_a_bet_or_checked(
    facing_bet: bool, action: ActionKind
) -> None:
    tda_2017 = get_rulebook("tda-2017")
    assert clock_runs_out_at(CALLED, tda_2017) - CALLED == timedelta(seconds=30)
    # seat 6 of a six-handed hand on the flop, on the clock, facing a bet of 200 or checked to
    table = start(stacks=(10_000,) * 6, rulebook=tda_2017).post().deal()
    table.acts((3, C), (4, C), (5, C), (6, C), (1, C), (2, X))
    table.board("2c7d9h")
    table.acts((1, X), (2, X), (3, X), (4, X))
    if facing_bet:
        table.apply(PlayerActed(5, ActionKind.BET, 200))
    else:
        table.acts((5, X))
    table.apply(ClockCalled(6))
    (applied, *_) = table.apply(ClockExpired(6))
    assert isinstance(applied, ClockExpiryApplied)
    assert applied.action is action and applied.facing_bet is facing_bet and applied.rule == "tda-2017 D-28"
    if facing_bet:  # his hand is dead; the action goes on to seat 1
        assert 6 in table.state.folded and table.state.actor == 1
    else:  # checked: the flop is checked through
        assert 6 not in table.state.folded and table.state.street_index == 2
    # the house's own 60 s + 10 s, dead when it runs out even facing no bet, is a rulebook of its own shape
    house = replace(tda_2017, clock_seconds=60, clock_countdown_seconds=10, clock_expired_checks=False)
    assert clock_runs_out_at(CALLED, house) - CALLED == timedelta(seconds=70)
    table = start(stacks=(10_000,) * 3, rulebook=house).post().deal()
    table.acts((3, C), (1, C), (2, X))
    table.board("2c7d9h")
    table.apply(ClockCalled(1))
    (applied, *_) = table.apply(ClockExpired(1))
    assert (
        isinstance(applied, ClockExpiryApplied)
        and applied.action is ActionKind.FOLD
        and not applied.facing_bet
    )


def test_the_clock_is_called_on_the_player_to_act_and_runs_only_for_his_turn() -> None:
    tda = get_rulebook("tda-2022")
    table = start(stacks=(10_000,) * 3, rulebook=tda).post().deal()
    with pytest.raises(HandStateError, match="seat 3 is to act, not seat 1") as wrong:
        table.apply(ClockCalled(1))
    assert wrong.value.rule == RuleRef("tda-2022", "29")
    with pytest.raises(HandStateError, match="no clock was called on seat 3"):
        table.apply(ClockExpired(3))
    table.apply(ClockCalled(3))
    with pytest.raises(HandStateError, match="already running on seat 3"):
        table.apply(ClockCalled(3))
    table.acts((3, C))  # he acted in time: the clock is gone
    with pytest.raises(HandStateError, match="no clock was called on seat 3|acted after the clock"):
        table.apply(ClockExpired(3))
    assert 3 not in table.state.folded and table.state.actor == 1


def test_an_expiry_after_the_seat_acted_and_came_round_again_is_refused() -> None:
    table = start(stacks=(10_000,) * 2, rulebook=get_rulebook("tda-2022")).post().deal()
    actor = table.state.actor
    assert actor is not None
    table.apply(ClockCalled(actor))
    table.acts((actor, C))
    other = table.state.actor
    assert other is not None and other != actor
    table.acts((other, X))
    table.board("2c7d9h")
    if table.state.actor != actor:
        table.acts((other, X))
    assert table.state.actor == actor
    with pytest.raises(HandStateError, match="acted after the clock was called"):
        table.apply(ClockExpired(actor))


# --- through the Hand aggregate: the recorder and the time ---------------------------------------------------


def _hand(rulebook: str = "tda-2022") -> Hand:
    started = HandStarted(
        "t",
        1,
        "NT",
        (SeatEntry(1, "A", 10_000), SeatEntry(2, "B", 10_000), SeatEntry(3, "C", 10_000)),
        3,
        Stakes(blinds=((1, 50), (2, 100))),
        rulebook=rulebook,
    )
    hand = Hand.start(started, CALLED - timedelta(minutes=1))
    events: list[ReportedEvent] = [
        ForcedBetPosted(1, ForcedBetKind.SMALL_BLIND, 50),
        ForcedBetPosted(2, ForcedBetKind.BIG_BLIND, 100),
        HoleCardsDealt(1, (None, None)),
        HoleCardsDealt(2, (None, None)),
        HoleCardsDealt(3, (None, None)),
    ]
    for e in events:
        hand.record(e, CALLED - timedelta(seconds=30), DEALER)
    assert hand.engine.actor == 3
    return hand


def test_the_expiry_before_the_seconds_and_the_countdown_have_passed_is_refused_with_the_rule() -> None:
    hand = _hand()
    hand.record(ClockCalled(3), CALLED, JUDGE)
    version = hand.version
    with pytest.raises(HandStateError, match="he still has 1 seconds to act") as early:
        hand.record(ClockExpired(3), CALLED + timedelta(seconds=29), DEALER)
    assert early.value.rule == RuleRef("tda-2022", "29")
    assert hand.version == version and 3 not in hand.engine.folded
    # at the very instant the countdown ends it is too late: the hand is dead, and the record shows why
    derived = hand.record(ClockExpired(3), CALLED + timedelta(seconds=30), DEALER)
    assert derived[0].action is ActionKind.FOLD  # type: ignore[union-attr]
    assert 3 in hand.engine.folded
    names = [type(e).__name__ for e in hand.collect_events()]
    assert names[-2:] == ["ClockExpired", "ClockExpiryApplied"] and "ClockCalled" in names


def test_the_service_clock_stamped_on_the_write_path_is_the_one_the_expiry_is_judged_by() -> None:
    hand = _hand()
    received = CALLED + timedelta(hours=1)
    hand.record(ClockCalled(3), CALLED, {**JUDGE, "received_at": received.isoformat()})
    # the table's time says 40 s later, the service's says 10 s: the service's clock is the authority
    later = {**DEALER, "received_at": (received + timedelta(seconds=10)).isoformat()}
    with pytest.raises(HandStateError, match="he still has 20 seconds"):
        hand.record(ClockExpired(3), CALLED + timedelta(seconds=40), later)


def test_the_clock_survives_a_replay_of_the_stored_events() -> None:
    hand = _hand()
    hand.record(ClockCalled(3), CALLED, JUDGE)
    replayed: Hand | None = None
    for stored in hand.collect_events():
        replayed = stored.mutate(replayed)
    assert replayed is not None and replayed.engine.clock == (3, 0)
    with pytest.raises(HandStateError, match="still has 5 seconds"):
        replayed.record(ClockExpired(3), CALLED + timedelta(seconds=25), DEALER)
    replayed.record(ClockExpired(3), CALLED + timedelta(seconds=31), DEALER)
    assert 3 in replayed.engine.folded


def test_a_dealer_or_a_player_may_not_call_the_clock_on_the_record() -> None:
    hand = _hand()
    for role, who in (("dealer", "a dealer"), ("participant", "a participant")):
        with pytest.raises(NotPermittedError, match=f"{who} may not call the clock; only a judge") as refused:
            hand.record(ClockCalled(3), CALLED, {"recorded_by": {"person": "x", "role": role}})
        assert refused.value.rule == RuleRef("tda-2022", "29")
    assert hand.engine.clock is None


def test_the_table_burns_and_deals_while_no_clock_can_run() -> None:
    table = start(stacks=(10_000,) * 3, rulebook=get_rulebook("tda-2022"), burns=True).post().deal()
    table.acts((3, C), (1, C), (2, X))
    with pytest.raises(HandStateError, match="nobody is to bet now"):
        table.apply(ClockCalled(1))
    table.apply(CardBurned())
    table.apply(BoardDealt((None, None, None)))
    table.apply(ClockCalled(1))


# --- through the write path: envelope → referee → Hand aggregate → stored events ------------------------------


def test_the_clock_travels_the_write_path_and_its_expiry_is_judged_by_the_service_clock(
    tmp_path: Path,
) -> None:
    """TV-97 on the record: the judge calls the clock on seat 3 facing the big blind; the dealer's expiry, received
    10 s later, is refused with the rule; received 30 s after the call it kills the hand, and the history keeps
    the call, the expiry and what the engine made of it."""
    pipeline = embedded_referee.Pipeline(tmp_path)
    records = Records("clock-cup")
    when = datetime.now(UTC) - timedelta(minutes=5)
    started = HandStarted(
        "t9", 1, "NT", tuple(SeatEntry(s, f"P{s}", 10_000) for s in (1, 2, 3)), 3,
        Stakes(blinds=((1, 50), (2, 100))), rulebook="tda-2022",
    )  # fmt: skip
    dealt: list[ReportedEvent] = [
        ForcedBetPosted(1, ForcedBetKind.SMALL_BLIND, 50),
        ForcedBetPosted(2, ForcedBetKind.BIG_BLIND, 100),
        *(HoleCardsDealt(s, (None, None)) for s in (1, 2, 3)),
    ]
    opening = [records.record(started, RECORDS_DEALER, when, "t9", "1", 0)]
    opening += [records.record(e, RECORDS_DEALER, when, "t9", "1", i) for i, e in enumerate(dealt, 1)]
    assert {v.outcome for v in pipeline.judge(opening)} == {"accepted"}
    seq = len(dealt) + 1
    by_a_dealer = pipeline.judge([records.record(ClockCalled(3), RECORDS_DEALER, when, "t9", "1", seq)])
    assert [v.outcome for v in by_a_dealer] == ["rejected"]
    assert (
        by_a_dealer[0].rejection is not None
        and "a dealer may not call the clock" in by_a_dealer[0].rejection.reason
    )
    assert by_a_dealer[0].rejection.rule == "tda-2022 29"
    assert [
        v.outcome
        for v in pipeline.judge([records.record(ClockCalled(3), RECORDS_JUDGE, when, "t9", "1", seq)])
    ] == ["accepted"]
    called_at = pipeline.log.read(0, pipeline.referee.resume_offset(0) - 1, 1)[0].received_at
    assert called_at is not None

    def expiry_received(seconds: int) -> list[Any]:
        pipeline.log.append([records.record(ClockExpired(3), RECORDS_DEALER, when, "t9", "1", seq + 1)])
        [record] = pipeline.log.read(0, pipeline.referee.resume_offset(0), 1)
        return pipeline.referee.judge(
            0, [replace(record, received_at=called_at + timedelta(seconds=seconds))]
        )

    early = expiry_received(10)
    assert [v.outcome for v in early] == ["rejected"] and early[0].rejection is not None
    assert (
        "he still has 20 seconds to act" in early[0].rejection.reason
        and early[0].rejection.rule == "tda-2022 29"
    )
    assert [v.outcome for v in expiry_received(30)] == ["accepted"]
    stored = list(pipeline.store.events.get(hand_id("t9", 1, "clock-cup")))
    assert [type(e).__name__ for e in stored[-3:]] == ["ClockCalled", "ClockExpired", "ClockExpiryApplied"]
    assert stored[-3].meta["recorded_by"]["role"] == "judge"
    applied = next(e for e in stored if type(e).__name__ == "ClockExpiryApplied")
    assert applied.payload == {
        "type": "ClockExpiryApplied", "seat": 3, "action": "fold", "facing_bet": True, "rule": "tda-2022 29",
        "reason": "facing a bet when the clock ran out: his hand is dead",
    }  # fmt: skip
    pipeline.restart()  # a new referee rebuilds the hand from the store: seat 3's hand is dead, seat 1 is to act
    more = pipeline.judge(
        [records.record(PlayerActed(3, ActionKind.CALL), RECORDS_DEALER, when, "t9", "1", seq + 2)]
    )
    assert [v.outcome for v in more] == ["rejected"] and more[0].rejection is not None
    assert "seat 1" in more[0].rejection.reason, more[0].rejection.reason
    assert [
        v.outcome
        for v in pipeline.judge(
            [records.record(PlayerActed(1, ActionKind.CALL), RECORDS_DEALER, when, "t9", "1", seq + 2)]
        )
    ] == ["accepted"]
