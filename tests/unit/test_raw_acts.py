"""Raw acts end to end through the Hand aggregate (DESIGN decision 4): the words and chips are stored as they
happened, then the rulebook's reading of them — the action, an obligation the next action must meet, or a
ruling the hand waits for — and an out-of-turn act binds or is released when the seat's turn comes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Snapshot
from hand_table import Table as EngineTable
from hand_table import start as start_engine

from domain.cards import parse_cards
from domain.chained import first_broken_link_in
from domain.errors import HandStateError, IllegalActionError, OutOfTurnError
from domain.hand.aggregate import Hand
from domain.hand.codec import decode, encode
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    ChipsPlaced,
    Declaration,
    Declared,
    ForcedBetKind,
    ForcedBetPosted,
    HandStarted,
    HoleCardsDealt,
    MisdealDeclared,
    PlayerActed,
    RawAct,
    RawActReported,
    SeatEntry,
    Stakes,
    Timing,
)
from domain.hand.interpretation import BettingContext, parse_declaration
from domain.variants import BettingStructure

pytestmark = pytest.mark.unit

AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
DEALER = {"person": "dealer-1", "role": "dealer"}
JUDGE = {"person": "floor-2", "role": "judge"}
FOLD, CHECK, CALL, BET, RAISE = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BET,
    ActionKind.RAISE,
)


class Table:
    """A four-handed no-limit hand: seat 1 the button, 2 the small blind, 3 the big blind, 4 first to act."""

    def __init__(self, sb: int, bb: int, rulebook: str = "tda-2022", short: dict[int, int] | None = None) -> None:
        stacks = {1: 100_000, 2: 100_000, 3: 100_000, 4: 100_000, **(short or {})}
        start = HandStarted(
            "t9",
            1,
            "NT",
            tuple(SeatEntry(s, f"P{s}", stacks[s]) for s in (1, 2, 3, 4)),
            1,
            Stakes(blinds=((2, sb), (3, bb)), min_bet=bb),
            rulebook=rulebook,
            burns_recorded=False,
        )
        self.n = 0
        self.hand = Hand.start(start, AT, {"event_id": "e0"})
        self.record(ForcedBetPosted(2, ForcedBetKind.SMALL_BLIND, sb))
        self.record(ForcedBetPosted(3, ForcedBetKind.BIG_BLIND, bb))
        for seat in (1, 2, 3, 4):
            self.record(HoleCardsDealt(seat, (None, None)))

    def record(self, event: Any, by: dict[str, str] = DEALER) -> str:
        self.n += 1
        event_id = f"e{self.n}"
        self.hand.record(event, AT + timedelta(seconds=self.n), {"event_id": event_id, "recorded_by": by})
        return event_id

    def act(self, seat: int, action: ActionKind, amount: int | None = None) -> None:
        self.record(PlayerActed(seat, action, amount))

    def raw(self, seat: int, act: RawAct, by: dict[str, str] = DEALER) -> str:
        return self.record(RawActReported(seat, act), by)

    def events(self) -> list[Any]:
        return list(self.hand.collect_events())

    def flop(self) -> None:
        self.record(BoardDealt(parse_cards("Ah9c4d")))


def said(text: str, **kw: Any) -> RawAct:
    return RawAct(declaration=parse_declaration(text), **kw)


def pushed(*denominations: int, **kw: Any) -> RawAct:
    return RawAct(chips=ChipsPlaced.one_motion(*denominations), **kw)


def stored_after(events: list[Any], version: int) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    return [(type(e).__name__, e.payload, e.meta) for e in events if e.originator_version > version]


# --- an act read into an action ---------------------------------------------------------------------------


def test_tv_08_a_single_oversized_chip_facing_a_bet_is_stored_then_read_as_a_call() -> None:
    table = Table(1000, 2000)
    before = table.hand.version
    raw_id = table.raw(4, pushed(5000))
    stored = stored_after(table.events(), before)
    assert [name for name, _, _ in stored] == ["RawActReported", "PlayerActed"]
    assert stored[0][1]["act"]["chips"]["motions"] == [[5000]]
    assert stored[1][1] == {"type": "PlayerActed", "seat": 4, "action": "call", "amount": 2000}
    assert stored[1][2] == {
        "interprets": raw_id,
        "rule": "tda-2022 44",
        "reading": "a single 5,000 chip without a declaration is a call",
        "follows": raw_id,
        "returned": 3000,
    }
    assert table.hand.engine.stacks[4] == 98_000 and table.hand.engine.actor == 1
    assert len(table.hand.reported) == table.n  # the reading is not a reported event


def test_tv_10_with_no_bet_a_single_chip_is_a_bet_of_its_value() -> None:
    table = Table(50, 100)
    for seat in (4, 1, 2):
        table.act(seat, CALL)
    table.act(3, CHECK)
    table.flop()
    table.raw(2, pushed(5000))
    assert table.hand.readings[0].event == PlayerActed(2, BET, 5000)  # type: ignore[union-attr]
    assert table.hand.engine.round is not None and table.hand.engine.round.call_level == 5000


@pytest.mark.parametrize(
    ("chips", "reads_as", "returned"),
    [
        pytest.param((1000, 100, 100, 100, 100, 100), PlayerActed(1, RAISE, 1700), 0, id="TV-15"),
        pytest.param((1000, 100, 100, 100), PlayerActed(1, CALL, 1100), 200, id="TV-16"),
    ],
)
def test_tv_15_16_several_chips_past_the_one_chip_test_follow_the_fifty_percent_rule(
    chips: tuple[int, ...], reads_as: PlayerActed, returned: int
) -> None:
    table = Table(250, 500)
    table.act(4, RAISE, 1100)  # the last full raise is 600
    table.raw(1, pushed(*chips))
    stored = table.events()[-1]
    assert decode(stored.payload) == reads_as
    assert stored.meta["rule"] == "tda-2022 43-A" and stored.meta.get("returned", 0) == returned
    assert table.hand.engine.bets[1] == reads_as.amount


def test_tv_21_call_with_no_bet_to_call_is_a_check() -> None:
    table = Table(50, 100)
    for seat in (4, 1, 2):
        table.act(seat, CALL)
    table.act(3, CHECK)
    table.flop()
    table.raw(2, said("call"))
    last = table.events()[-1]
    assert decode(last.payload) == PlayerActed(2, CHECK)
    assert last.meta["rule"] == "tda-2022 55" and table.hand.engine.actor == 3


def test_a_string_bet_is_read_on_its_first_motion_only() -> None:
    table = Table(50, 100, "bfsp")
    table.raw(4, RawAct(chips=ChipsPlaced(((100,), (100, 100)))))
    last = table.events()[-1]
    assert decode(last.payload) == PlayerActed(4, CALL, 100)
    assert last.meta["rule"].startswith("bfsp 4.1")
    assert table.hand.engine.bets[4] == 100


def test_an_interpreted_action_the_rules_refuse_is_refused_with_its_rule_and_nothing_is_stored() -> None:
    table = Table(50, 100, short={2: 400})
    table.act(4, RAISE, 300)
    table.act(1, CALL)
    table.act(2, RAISE, 400)  # all-in for 100 more: less than a full raise, the betting is not re-opened
    table.act(3, FOLD)
    version, reported = table.hand.version, len(table.hand.reported)
    with pytest.raises(IllegalActionError) as refused:
        table.raw(4, said("raise, one thousand"))
    assert "not re-opened" in refused.value.reason and str(refused.value.rule).startswith("tda-2022 ")
    assert table.hand.version == version and len(table.hand.reported) == reported
    table.raw(4, pushed(100))
    assert table.hand.engine.bets[4] == 400


# --- an obligation the next action must meet -----------------------------------------------------------------


def test_tv_23_check_facing_a_bet_obliges_a_call_or_fold_and_then_a_raise_is_refused() -> None:
    table = Table(150, 300)
    before = table.hand.version
    table.raw(4, said("check"))
    stored = stored_after(table.events(), before)
    assert [name for name, _, _ in stored] == ["RawActReported", "ActionObliged"]
    obliged = stored[1][1]
    assert obliged["seat"] == 4 and obliged["options"] == ["call", "fold"] and obliged["rule"] == "tda-2022 55"
    assert table.hand.engine.actor == 4  # the hand waits for him
    legal = table.hand.engine.legal_actions()
    assert legal.can_call and legal.can_fold and not legal.can_raise and legal.min_bet_or_raise_to is None
    with pytest.raises(IllegalActionError) as refused:
        table.act(4, RAISE, 900)
    assert str(refused.value.rule) == "tda-2022 55" and "may only call or fold" in refused.value.reason
    with pytest.raises(IllegalActionError):
        table.raw(4, said("raise, nine hundred"))
    table.act(4, CALL)
    assert table.hand.engine.obligation is None and table.hand.engine.bets[4] == 300


def test_raise_without_an_amount_binds_a_raise_within_the_limits() -> None:
    table = Table(50, 100)
    table.raw(4, said("raise"))
    obliged = table.events()[-1].payload
    assert obliged["options"] == ["raise"] and obliged["minimum"] == 200
    legal = table.hand.engine.legal_actions()
    assert legal.can_raise and not (legal.can_call or legal.can_fold) and legal.min_bet_or_raise_to == 200
    with pytest.raises(IllegalActionError):
        table.act(4, CALL)
    table.act(4, RAISE, 250 * 2)
    assert table.hand.engine.bets[4] == 500


# --- a ruling the hand waits for -------------------------------------------------------------------------------


def test_tv_05_a_silent_undercall_multiway_asks_the_director_and_the_hand_waits_for_an_official() -> None:
    table = Table(2000, 4000)
    table.act(4, RAISE, 50_000)
    before = table.hand.version
    table.raw(1, pushed(1000))
    stored = stored_after(table.events(), before)
    assert [name for name, _, _ in stored] == ["RawActReported", "RulingRequested"]
    assert stored[1][1]["seat"] == 1 and stored[1][1]["rule"] == "tda-2022 41"
    with pytest.raises(HandStateError, match="only a judge or the chief judge"):
        table.act(1, CALL)
    with pytest.raises(HandStateError, match="ruling"):
        table.raw(1, pushed(50_000))
    table.record(PlayerActed(1, CALL), JUDGE)  # the director holds him to the full call
    assert table.hand.engine.ruling is None and table.hand.engine.bets[1] == 50_000
    table.act(2, FOLD)  # the table goes on as usual


def test_tv_30_unclear_words_and_a_different_chip_ask_for_a_ruling() -> None:
    table = Table(500, 1000)
    for seat in (4, 1, 2):
        table.act(seat, CALL)
    table.act(3, CHECK)
    table.flop()
    act = RawAct(
        parse_declaration("forty-two thousand", clear=False), ChipsPlaced.one_motion(5000), Timing.VERBAL_FIRST
    )
    table.raw(2, act)
    assert type(table.events()[-1]).__name__ == "RulingRequested"
    table.record(PlayerActed(2, BET, 42_000), JUDGE)
    assert table.hand.engine.bets[2] == 42_000


def test_tv_29_a_call_before_the_amount_is_stated_is_stored_then_ruled_by_the_director_once_it_is() -> None:
    table = Table(50, 100)
    table.raw(4, said("raise"))
    before = table.hand.version
    table.raw(1, said("call"))  # seat 4 has not said how much
    assert [n for n, _, _ in stored_after(table.events(), before)] == ["RawActReported"]
    table.raw(4, said("raise, six hundred"))
    asked = table.events()[-1]
    assert type(asked).__name__ == "RulingRequested" and asked.payload["seat"] == 1
    assert asked.payload["rule"] == "tda-2022 59-B" and "600" in asked.payload["reason"]
    with pytest.raises(HandStateError, match="only a judge or the chief judge"):
        table.act(1, FOLD)
    table.record(PlayerActed(1, CALL), JUDGE)  # the director holds him to his word
    assert table.hand.engine.bets[1] == 600 and table.hand.engine.actor == 2


# --- out of turn ---------------------------------------------------------------------------------------------


def test_an_out_of_turn_raise_waits_and_binds_when_the_skipped_seat_only_calls() -> None:
    table = Table(50, 100)
    before = table.hand.version
    raw_id = table.raw(1, said("raise, eight hundred"))  # seat 4 is to act: seat 1 is out of turn
    assert [n for n, _, _ in stored_after(table.events(), before)] == ["RawActReported"]
    assert table.hand.engine.bets[1] == 0 and table.hand.engine.actor == 4
    with pytest.raises(OutOfTurnError):
        table.raw(1, said("fold"))  # his act stands until his turn
    call_id = table.record(PlayerActed(4, CALL))
    last = table.events()[-1]
    assert decode(last.payload) == PlayerActed(1, RAISE, 800)
    assert last.meta["interprets"] == raw_id and last.meta["follows"] == call_id
    assert last.meta["rule"] == "tda-2022 53" and "did not change" in last.meta["reading"]
    assert table.hand.engine.actor == 2


def test_an_out_of_turn_act_is_released_when_the_skipped_seat_raises() -> None:
    table = Table(50, 100)
    table.raw(1, said("call"))
    table.act(4, RAISE, 300)
    obliged = table.events()[-1]
    assert type(obliged).__name__ == "ActionObliged"
    assert obliged.payload["seat"] == 1 and set(obliged.payload["options"]) == {"fold", "call", "raise"}
    table.act(1, RAISE, 900)
    assert table.hand.engine.bets[1] == 900


def test_bfsp_keeps_released_out_of_turn_chips_in_the_pot_when_he_folds() -> None:
    table = Table(50, 100, "bfsp")
    table.raw(1, pushed(100))  # a call out of turn
    table.act(4, RAISE, 300)
    obliged = table.events()[-1].payload
    assert obliged["rule"] == "bfsp 4.10" and obliged["forfeit_on_fold"] == 100
    table.act(1, FOLD)
    engine = table.hand.engine
    assert engine.stacks[1] == 99_900 and engine.contributions[1] == 100


def test_an_out_of_turn_check_is_released_when_a_skipped_seat_bets() -> None:
    table = Table(50, 100)
    for seat in (4, 1, 2):
        table.act(seat, CALL)
    table.act(3, CHECK)
    table.flop()
    table.raw(4, said("check"))  # seat 2 is first after the flop
    table.act(2, BET, 100)
    table.act(3, RAISE, 300)
    obliged = table.events()[-1]
    assert type(obliged).__name__ == "ActionObliged" and obliged.payload["seat"] == 4
    with pytest.raises(IllegalActionError):
        table.act(4, CHECK)
    table.act(4, CALL)
    assert table.hand.engine.bets[4] == 300


def test_an_out_of_turn_act_lapses_when_the_round_ends_before_his_turn() -> None:
    table = Table(50, 100)
    table.raw(3, said("check"))  # the big blind, out of turn
    for seat in (4, 1, 2):
        table.act(seat, FOLD)
    assert table.hand.is_over and not table.hand.engine.out_of_turn
    names = [type(e).__name__ for e in table.events()[-4:]]
    assert names == ["PlayerActed", "UncalledBetReturned", "PotAwarded", "HandEnded"]
    assert not any("interprets" in e.meta for e in table.events())


# --- the engine's context and the record ------------------------------------------------------------------


def test_the_engine_builds_the_betting_context_for_a_seat() -> None:
    table = Table(250, 500)
    table.act(4, RAISE, 1100)
    assert table.hand.engine.betting_context(1) == BettingContext(
        BettingStructure.NO_LIMIT, 1100, 0, 100_000, 600, 500, 1850, False, False
    )
    assert table.hand.engine.betting_context(3).committed == 500


def stud() -> EngineTable:
    """Seven-card stud under bfsp: seat 2's 4c is the lowest up-card and brings in for 5; the small bet is 10."""
    table = start_engine(
        "F7S", stacks=(1000, 1000, 1000), antes=((1, 5), (2, 5), (3, 5)), bring_in=5, small_bet=10, big_bet=20
    ).post()
    return table.deal(s1="AsKdQh", s2="2s3d4c", s3="5s6d4h")


def test_in_stud_a_raw_act_facing_only_the_bring_in_reads_against_the_completion() -> None:
    table = stud()
    table.act(2, ActionKind.BRING_IN)  # 5; the completion is to 10
    context = table.state.betting_context(3)
    assert (context.current_bet, context.last_full_raise, context.completing, context.opening_bet_only) == (
        5,
        10,
        True,
        True,
    )
    table.apply(RawActReported(3, pushed(10)))  # a single chip: a call of the bring-in, 5 back
    assert table.state.readings[0].event == PlayerActed(3, CALL, 5)  # type: ignore[union-attr]
    table.apply(RawActReported(1, said("raise")))  # "raise" facing the bring-in completes it
    assert table.state.readings[0].event == PlayerActed(1, ActionKind.COMPLETE, 10)  # type: ignore[union-attr]


def test_raw_acts_replay_from_the_store_and_a_snapshot_to_the_same_hand_with_a_valid_chain() -> None:
    table = Table(50, 100)
    table.raw(1, said("raise, eight hundred"))
    table.raw(4, pushed(100))
    table.raw(2, said("check"))
    table.act(2, FOLD)
    app: Application = Application()
    app.save(table.hand)
    stored = list(app.repository.event_store.get(table.hand.id))
    assert first_broken_link_in(stored) is None
    again = app.repository.get(table.hand.id)
    assert isinstance(again, Hand)
    assert again.engine.bets == table.hand.engine.bets and again.engine.actor == table.hand.engine.actor == 3
    restored = Snapshot.take(table.hand).mutate(None)
    assert isinstance(restored, Hand)
    restored.record(PlayerActed(3, CALL), AT)
    assert restored.engine.bets[3] == 800


def test_a_raw_act_survives_the_json_codec() -> None:
    act = RawActReported(
        3,
        RawAct(Declaration(Declared.RAISE, 800), ChipsPlaced(((1000,), (100, 100)), 0, 1000), Timing.CHIPS_FIRST),
    )
    assert decode(encode(act)) == act


# --- misdeal until substantial action (TDA 2022 35-D, 36) or before the first action (bfsp 6.3) -----------


def test_tda_2022_allows_a_misdeal_until_substantial_action() -> None:
    early = Table(50, 100, "tda-2022")
    early.act(4, FOLD)
    early.act(1, FOLD)  # two folds put no chips in: not substantial action (TV-67)
    early.record(MisdealDeclared("two cards exposed", "35"))
    assert early.hand.is_over
    late = Table(50, 100, "tda-2022")
    for seat in (4, 1, 2):  # a third action is substantial action
        late.act(seat, CALL if seat == 2 else FOLD)
    with pytest.raises(HandStateError) as refused:
        late.record(MisdealDeclared("two cards exposed", "35"))
    assert str(refused.value.rule) == "tda-2022 35" and "substantial action" in refused.value.reason


def test_bfsp_allows_a_misdeal_only_before_the_first_action() -> None:
    early = Table(50, 100, "bfsp")
    early.record(MisdealDeclared("a card exposed", "6.3"))
    assert early.hand.is_over
    late = Table(50, 100, "bfsp")
    late.act(4, FOLD)
    with pytest.raises(HandStateError) as refused:
        late.record(MisdealDeclared("a card exposed", "6.3"))
    assert str(refused.value.rule) == "bfsp 6.3" and "first action" in refused.value.reason


@pytest.mark.parametrize(
    "act",
    [
        pytest.param(RawAct(), id="nothing"),
        pytest.param(RawAct(Declaration()), id="words-without-action-or-amount"),
        pytest.param(RawAct(Declaration(Declared.BET, -100)), id="negative-amount"),
        pytest.param(RawAct(chips=ChipsPlaced(())), id="no-motion"),
        pytest.param(RawAct(chips=ChipsPlaced(((100,), ()))), id="empty-motion"),
        pytest.param(RawAct(chips=ChipsPlaced.one_motion(100, 0)), id="worthless-chip"),
        pytest.param(RawAct(chips=ChipsPlaced.one_motion(100, pulled_back=-5)), id="negative-pull-back"),
    ],
)
def test_a_raw_act_that_records_nothing_readable_is_refused_and_nothing_is_stored(act: RawAct) -> None:
    table = Table(50, 100)
    version = table.hand.version
    with pytest.raises(IllegalActionError):
        table.raw(4, act)
    assert table.hand.version == version
