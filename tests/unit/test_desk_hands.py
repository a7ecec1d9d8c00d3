"""A competition's hands judged against the competition in the embedded referee: the floor's seating and button,
the level's forced bets, the raise cap, the chips the hands left each player, missed rounds served with the hand
killed, a broken table; the floor's record of each table's hand made by the desk from the hand; equal stacks
busted together sharing their place; an Olympic table's button judged by the floor; and a whole simulated
American or Olympic competition still accepted."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from embedded_referee import Pipeline
from federation_records import (
    CARDS,
    CHIEF,
    COMPETITION,
    DEALER,
    JUDGE,
    LEVEL_1,
    REGULATIONS,
    STACK,
    Records,
    all_in_hand,
    at,
    hand,
    opening,
    play_to_the_end,
    seats,
    table,
    three_way_hand,
)

from api.cli_simulate import CompetitionPublisher
from domain.cards import parse_cards
from domain.competition.aggregate import competition_stream_id
from domain.competition.events import (
    EliminationReason,
    LevelClockPaused,
    LevelClockResumed,
    LevelStarted,
    PlayerEliminated,
)
from domain.competition.regulations import Format
from domain.discipline import PenaltyKind
from domain.discipline.events import PenaltyHandServed, PenaltyImposed, ViolationRecorded
from domain.hand.events import (
    ActionKind,
    ForcedBetKind,
    ForcedBetPosted,
    HandStarted,
    HoleCardsDealt,
    MisdealDeclared,
    PenaltyHandKilled,
    PlayerActed,
    ReportedEvent,
    SeatEntry,
    Stakes,
)
from domain.rejections import Rejection
from domain.roles import Role
from domain.variants import BettingStructure
from ingest.envelope import RecordedBy
from ingest.publish import hand_records
from ingest.referee import Verdict
from ingest.runners import drain_embedded
from ingest.simulator import simulate_competition

pytestmark = pytest.mark.unit

Record = tuple[bytes, bytes]


@pytest.fixture
def pipeline(tmp_path: Path) -> Pipeline:
    return Pipeline(tmp_path)


def accepted(verdicts: list[Verdict]) -> None:
    assert {v.outcome for v in verdicts} == {"accepted"}, [v.rejection for v in verdicts if v.rejection]


def refusal(verdicts: list[Verdict]) -> Rejection:
    assert [v.outcome for v in verdicts] == ["rejected"], [v.rejection for v in verdicts]
    rejection = verdicts[0].rejection
    assert rejection is not None and rejection.kind == "illegal"
    return rejection


def start(records: Records, started: HandStarted, minutes: float, by: RecordedBy = DEALER) -> Record:
    """A hand's start alone, with an event id of its own (a refused start is not the retry of a right one)."""
    return records.record(started, by, at(minutes), started.table_id, str(started.hand_number))


def first_start(**changes: object) -> HandStarted:
    started = all_in_hand(1, "p01", "p02")[0]
    assert isinstance(started, HandStarted)
    return replace(started, **changes)  # type: ignore[arg-type]


def opened(pipeline: Pipeline, records: Records) -> None:
    accepted(pipeline.judge(list(opening(records))))


# --- the floor's seating and button ----------------------------------------------------------------------------


def test_a_hand_deals_in_exactly_the_players_the_floor_seats_at_the_table(pipeline: Pipeline) -> None:
    records = Records()
    opened(pipeline, records)
    where = seats()
    entries = first_start().seats
    heads_up = [e for e in entries if e.player != "p03"]
    left_out = refusal(pipeline.judge([start(records, first_start(seats=tuple(heads_up)), 10)]))
    assert (left_out.rule, left_out.reason) == (
        "bfsp 5.2", f"p03 sits at table 1 seat {where['p03'][1]} and is dealt in, present or not"
    )
    stranger = tuple(sorted((*entries, SeatEntry(7, "p09", STACK)), key=lambda e: e.seat))
    absent = refusal(pipeline.judge([start(records, first_start(seats=stranger), 10)]))
    assert (absent.rule, absent.reason) == ("bfsp 5.2", "table 1 seat 7 is empty, not p09's")
    moved = tuple(SeatEntry(8, e.player, e.stack) if e.player == "p02" else e for e in entries)
    elsewhere = refusal(pipeline.judge([start(records, first_start(seats=moved), 10)]))
    assert elsewhere.reason == f"table 1 seat 8 is empty, not p02's; p02 sits at table 1 seat {where['p02'][1]}"
    accepted(pipeline.judge(list(hand(records, 1, "p01", "p02", 10))))


def test_the_button_starts_on_the_highest_seat_drawn_and_moves_one_seat_a_hand(pipeline: Pipeline) -> None:
    records = Records()
    opened(pipeline, records)
    wrong = refusal(pipeline.judge([start(records, first_start(button=1), 10)]))
    assert (wrong.rule, wrong.reason) == ("bfsp 5.3.2", "the button at table 1 belongs on seat 3, not seat 1")
    accepted(pipeline.judge(list(hand(records, 1, "p01", "p02", 10))))
    floor = pipeline.competition().floor
    assert floor is not None and floor.table(1).last_hand is not None and floor.table(1).last_hand.button == 3


def test_an_olympic_tables_button_is_the_floors_too_not_where_the_dealer_puts_it(pipeline: Pipeline) -> None:
    records = Records()
    accepted(pipeline.judge(list(opening(records, replace(REGULATIONS, format=Format.OLYMPIC)))))
    where = seats()
    dealt = sorted(seat for _, seat in where.values())
    button = dealt[0]  # the draw puts it on the highest seat (bfsp 5.3.1); the blinds follow this one
    stakes = Stakes(blinds=((dealt[1], LEVEL_1.small_blind), (dealt[2], LEVEL_1.big_blind)), min_bet=LEVEL_1.big_blind)
    wrong = refusal(pipeline.judge([start(records, first_start(button=button, stakes=stakes), 10)]))
    assert (wrong.rule, wrong.reason) == ("bfsp 5.3.2", f"the button at table 1 belongs on seat {dealt[-1]}, not seat {button}")
    accepted(pipeline.judge(list(hand(records, 1, "p01", "p02", 10))))
    floor = pipeline.competition().floor
    assert floor is not None and floor.olympic and floor.table(1).last_hand is not None
    assert floor.table(1).last_hand.button == dealt[-1]


def test_a_misdealt_hand_keeps_the_button_and_returns_the_chips(pipeline: Pipeline) -> None:
    records = Records()
    opened(pipeline, records)
    dealt = list(hand(records, 1, "p01", "p02", 10))[:4]
    misdeal = records.record(MisdealDeclared("a card was exposed in the deal", "6.3.1"), JUDGE, at(11), table(), "1", 4)
    accepted(pipeline.judge([*dealt, misdeal]))
    assert not pipeline.competition().floor.table(1).hand_running  # type: ignore[union-attr]
    redeal = replace(first_start(), hand_number=2)
    moved_on = replace(
        redeal, button=1, stakes=Stakes(blinds=((2, 25), (3, 50)), min_bet=50)
    )
    refused = refusal(pipeline.judge([start(records, moved_on, 12)]))
    assert (refused.rule, refused.reason) == (
        "bfsp 6.3",
        "the button at table 1 belongs on seat 3, not seat 1 (a misdeal is dealt again with the same button)",
    )
    accepted(pipeline.judge([start(records, redeal, 13)]))


def test_a_broken_table_deals_no_more_hands(pipeline: Pipeline) -> None:
    simulation = simulate_competition(1, players=45, format="american")
    records = list(simulation.records())
    broken_at = next(n for n, (_, value) in enumerate(records) if json.loads(value)["type"] == "TableBroken")
    accepted(pipeline.judge(records[: broken_at + 1]))
    broken = json.loads(records[broken_at][1])["payload"]
    competition = pipeline.competition(simulation.competition_id)
    mover = broken["moves"][0]
    started = HandStarted(
        f"T{broken['table']}", 900, "NT", (SeatEntry(mover["from_seat"], mover["participant"], 5000),), 1,
        Stakes(blinds=((1, 25), (2, 50)), min_bet=50),
    )
    dealer = simulation.dealers[f"T{broken['table']}"].recorded_by
    hand_start = Records(simulation.competition_id).record(started, dealer, competition.level_starts[-1].at,
                                                           started.table_id, "900")  # fmt: skip
    refused = refusal(pipeline.judge([hand_start]))
    assert (refused.rule, refused.reason) == (
        "tda-2022 10-B",
        f"table {broken['table']} is not in play: it was broken or never drawn, and its players sit elsewhere",
    )


def test_a_hand_started_by_somebody_not_appointed_to_the_competition_is_refused(pipeline: Pipeline) -> None:
    records = Records()
    opened(pipeline, records)
    stranger = RecordedBy(person="dealer-unknown", role=Role.DEALER)
    refused = refusal(pipeline.judge([start(records, first_start(), 10, stranger)]))
    assert (refused.rule, refused.reason) == (
        "bfsp 2.1.1",
        f"dealer-unknown is not appointed dealer of {COMPETITION}: an official may record HandStarted only where "
        "the competition's records appointed him",
    )


# --- the level's forced bets and the raise cap -------------------------------------------------------------------


def test_a_hand_started_after_the_level_changed_posts_the_new_blinds(pipeline: Pipeline) -> None:
    records = Records()
    opened(pipeline, records)
    level_2 = REGULATIONS.levels[1]
    accepted(pipeline.judge([records.record(LevelStarted(level_2, at(30)), JUDGE, at(30))]))
    old_blinds = refusal(pipeline.judge([start(records, first_start(), 31)]))
    assert (old_blinds.rule, old_blinds.reason) == (
        "bfsp 3.3",
        "hand 1/1 posts blinds 25 on seat 1, 50 on seat 2; level 2 (50/100; in force by the clock at 12:31:00, since "
        "12:30:00) puts 50 on seat 1 (the small blind) and 100 on seat 2 (the big blind)",
    )
    new_blinds = Stakes(blinds=((1, 50), (2, 100)), min_bet=100)
    said_level_1 = refusal(pipeline.judge([start(records, first_start(stakes=new_blinds, level=1), 31)]))
    assert said_level_1.rule == "bfsp 3.3" and "level" in said_level_1.reason
    wrong_seats = Stakes(blinds=((2, 50), (3, 100)), min_bet=100)
    misplaced = refusal(pipeline.judge([start(records, first_start(stakes=wrong_seats), 31)]))
    assert misplaced.rule == "bfsp 5.4.1"
    antes = Stakes(antes=((1, 10), (2, 10), (3, 10)), blinds=((1, 50), (2, 100)), min_bet=100)
    no_ante = refusal(pipeline.judge([start(records, first_start(stakes=antes), 31)]))
    assert no_ante.reason == (
        "hand 1/1 posts antes 10 on seat 1, 10 on seat 2, 10 on seat 3; level 2 (50/100; in force by the clock at "
        "12:31:00, since 12:30:00) has no ante"
    )
    accepted(pipeline.judge([start(records, first_start(stakes=new_blinds, level=2), 32)]))


def test_no_hand_is_dealt_on_a_break_nor_once_the_competition_has_its_winner(pipeline: Pipeline) -> None:
    records = Records()
    opened(pipeline, records)
    # a break the Chief Judge announces stops the level clock (bfsp 2.1.5; the schedule's own: test_level_clock.py)
    accepted(pipeline.judge([records.record(LevelClockPaused("a break announced by the Chief Judge"), CHIEF, at(5))]))
    on_break = refusal(pipeline.judge([start(records, first_start(), 6)]))
    assert (on_break.rule, on_break.reason) == (
        "bfsp 2.1.5",
        "hand 1/1 starts at 12:06:00, while the Chief Judge has stopped the level clock (a break announced by the "
        "Chief Judge): no hand is dealt until it runs again",
    )
    resumed = records.record(LevelClockResumed(at(5)), CHIEF, at(8))
    accepted(pipeline.judge([resumed, *play_to_the_end(records)]))
    after_the_end = refusal(pipeline.judge([start(records, replace(first_start(), hand_number=3), 30)]))
    assert (after_the_end.rule, after_the_end.reason) == ("bfsp 5.10.1", f"{COMPETITION} is over: p01 won it")


def test_a_limit_hand_lifts_the_raise_cap_only_when_two_players_are_left_in_the_event(pipeline: Pipeline) -> None:
    records = Records("minsk-limit-2026")
    limit = replace(REGULATIONS, variant="FT", betting=BettingStructure.FIXED_LIMIT)
    accepted(pipeline.judge(list(opening(records, limit))))
    limit_start = first_start(variant="FT", stakes=Stakes(blinds=((1, 25), (2, 50)), small_bet=50, big_bet=100))
    lifted = refusal(pipeline.judge([start(records, replace(limit_start, raise_cap_lifted=True), 10)]))
    assert (lifted.rule, lifted.reason) == (
        "bfsp 4.7.3", "3 players are left in the event: the limit raise cap is in force, lifted only when two are left"
    )
    other_game = refusal(pipeline.judge([start(records, first_start(), 10)]))
    assert other_game.reason == "minsk-limit-2026 plays FT by its Regulations, not NT"
    accepted(pipeline.judge([start(records, limit_start, 11)]))


# --- the chips the hands left -------------------------------------------------------------------------------------


def test_a_player_sits_down_with_the_chips_the_competitions_hands_left_him(pipeline: Pipeline) -> None:
    records = Records()
    opened(pipeline, records)
    entries = first_start().seats
    richer = tuple(SeatEntry(e.seat, e.player, 12_000) if e.player == "p01" else e for e in entries)
    refused = refusal(pipeline.judge([start(records, first_start(seats=richer), 10)]))
    assert (refused.rule, refused.reason) == (
        "bfsp 5.1",
        "p01 sits down to hand 1/1 with 12,000; his entry left him 10,000: chips come into play with an entry and "
        "move only through the hands",
    )
    accepted(pipeline.judge(list(hand(records, 1, "p01", "p02", 10))))
    out = PlayerEliminated("p02", f"{table()}/1", EliminationReason.NO_CHIPS, 3, starting_stack=STACK)
    accepted(pipeline.judge([records.record(out, JUDGE, at(12))]))
    second = all_in_hand(2, "p01", "p03")[0]
    assert isinstance(second, HandStarted)
    untouched = tuple(replace(e, stack=STACK) for e in second.seats)
    pipeline.restart()  # the count of chips is read again from the stored competition
    carried = refusal(pipeline.judge([start(records, replace(second, seats=untouched), 20)]))
    assert carried.reason.startswith("p03 sits down to hand 1/2 with 10,000; hand 1/1 left him 9,950")
    accepted(pipeline.judge(list(hand(records, 2, "p01", "p03", 21))))
    stream = [type(e).__name__ for e in pipeline.store.events.get(pipeline.competition().id)]
    assert stream.count("TableHandStarted") == stream.count("TableHandEnded") == 2


# --- missed rounds ----------------------------------------------------------------------------------------------


def serving_p03(pipeline: Pipeline, records: Records) -> None:
    opened(pipeline, records)
    violation = ViolationRecorded("p03", "7.1.6", "", False, 1, "named his hand aloud while two were betting")
    penalty = PenaltyImposed("p03", 1, PenaltyKind.MISSED_ROUNDS, Role.JUDGE, rounds=1, players_at_table=3, hands_to_miss=3)
    accepted(pipeline.judge([records.record(violation, JUDGE, at(2)), records.record(penalty, JUDGE, at(3))]))


@pytest.mark.parametrize("restarted", [False, True], ids=["", "after-a-restart"])
def test_a_player_serving_missed_rounds_is_dealt_in_and_his_hand_killed_before_he_acts(
    pipeline: Pipeline, restarted: bool
) -> None:
    records = Records()
    serving_p03(pipeline, records)
    events = all_in_hand(1, "p01", "p02")
    fold = next(n for n, e in enumerate(events) if isinstance(e, PlayerActed) and e.action is ActionKind.FOLD)
    played = list(hand_records(events, COMPETITION, DEALER, at(10)))
    accepted(pipeline.judge(played[:fold]))
    if restarted:
        pipeline.restart()  # who is still to be killed is recalled from the cases and the hand
    acted = refusal(pipeline.judge([played[fold]]))
    assert (acted.rule, acted.reason) == (
        "bfsp 7.1.2",
        "p03 is serving penalty-1 (missed rounds): he is dealt in and posts his forced bets, and his hand is killed "
        "before he acts",
    )
    p03 = seats()["p03"][1]
    killed = records.record(PenaltyHandKilled(p03, "bfsp 7.1.6", "penalty-1"), DEALER, at(11), table(), "1", fold)
    accepted(pipeline.judge([killed, *played[fold + 1 :]]))
    served = PenaltyHandServed("p03", 1, f"{table()}/1", False, 2)
    accepted(pipeline.judge([records.record(served, DEALER, at(12))]))


def test_a_hand_that_ends_without_his_kill_does_not_count_towards_missed_rounds(pipeline: Pipeline) -> None:
    records = Records()
    serving_p03(pipeline, records)
    where = seats()
    started = first_start()
    walk: list[ReportedEvent] = [
        started,
        ForcedBetPosted(where["p02"][1], ForcedBetKind.SMALL_BLIND, LEVEL_1.small_blind),
        ForcedBetPosted(where["p03"][1], ForcedBetKind.BIG_BLIND, LEVEL_1.big_blind),
        *(HoleCardsDealt(where[p][1], parse_cards(CARDS[p])) for p in ("p02", "p03", "p01")),
        PlayerActed(where["p01"][1], ActionKind.FOLD),
        PlayerActed(where["p02"][1], ActionKind.FOLD),
    ]
    accepted(pipeline.judge(list(hand_records(walk, COMPETITION, DEALER, at(10)))))
    served = PenaltyHandServed("p03", 1, f"{table()}/1", False, 2)
    refused = refusal(pipeline.judge([records.record(served, DEALER, at(12))]))
    assert refused.reason == (
        "p03's hand was not killed at hand 1/1: a hand counts towards missed rounds when he is dealt in, posts his "
        "forced bets and his hand is killed"
    )


# --- placings -----------------------------------------------------------------------------------------------------


def test_two_busted_in_one_hand_with_equal_stacks_share_their_place_in_one_record(pipeline: Pipeline) -> None:
    records = Records()
    opened(pipeline, records)
    accepted(pipeline.judge(list(three_way_hand(records, 1, 10))))
    name = f"{table()}/1"
    alone = PlayerEliminated("p02", name, EliminationReason.NO_CHIPS, 3, starting_stack=STACK)
    refused = refusal(pipeline.judge([records.record(alone, JUDGE, at(12))]))
    assert (refused.rule, refused.reason) == (
        "bfsp 5.10.2",
        "p03 also busted in hand 1/1 and started it with as many chips (10,000): they share the place, eliminated "
        "in one record that names them both",
    )
    together = replace(alone, place=2, shared_with=("p03",))
    accepted(pipeline.judge([records.record(together, JUDGE, at(13))]))
    competition = pipeline.competition()
    assert {p: (e.place, e.shared_with) for p, e in competition.eliminated.items()} == {
        "p02": (2, ("p03",)), "p03": (2, ("p02",)),
    }
    assert competition.winner == "p01"


# --- the whole competition, and hands that are no competition's ------------------------------------------------


@pytest.mark.parametrize("format", ["american", "olympic"])
def test_a_simulated_competition_is_still_accepted_the_floor_following_its_hands(pipeline: Pipeline, format: str) -> None:
    simulation = simulate_competition(3, players=27, format=format)
    verdicts: list[Verdict] = []
    # published as ``pokeraudit simulate`` does: a forwarding names the snapshot the store takes then
    publisher = CompetitionPublisher(
        pipeline.log, lambda: pipeline.store, lambda: verdicts.extend(drain_embedded(pipeline.log, pipeline.referee))
    )
    published = publisher.publish(simulation)
    verdicts.extend(drain_embedded(pipeline.log, pipeline.referee))
    assert Counter(v.outcome for v in verdicts) == {"accepted": published}
    stream = Counter(type(e).__name__ for e in pipeline.store.events.get(competition_stream_id(simulation.competition_id)))
    assert stream["TableHandStarted"] == stream["TableHandEnded"] == len(simulation.hands)
    assert pipeline.competition(simulation.competition_id).winner == simulation.winner


def test_a_table_hand_reported_by_a_client_is_of_no_known_type(pipeline: Pipeline) -> None:
    records = Records()
    opened(pipeline, records)
    key, value = records.record(LevelStarted(REGULATIONS.levels[1], at(10)), DEALER, at(10))
    reported = {**json.loads(value), "type": "TableHandStarted", "payload": {"table": 1, "button": 3}}
    verdicts = pipeline.judge([(key, json.dumps(reported).encode())])
    assert [v.outcome for v in verdicts] == ["rejected"]
    assert verdicts[0].rejection is not None and verdicts[0].rejection.kind == "malformed"


def test_the_hands_of_a_competition_the_service_does_not_keep_are_judged_as_before(pipeline: Pipeline) -> None:
    records = Records()
    opened(pipeline, records)
    heads_up = all_in_hand(2, "p01", "p03")  # at the competition's table p02 would be left out
    refused = refusal(pipeline.judge([start(records, replace(heads_up[0], hand_number=1), 10)]))  # type: ignore[arg-type]
    assert refused.rule == "bfsp 5.3.2"
    accepted(pipeline.judge(list(hand_records(heads_up, "an-imported-final-table", DEALER, at(10)))))


@pytest.mark.parametrize("format", ["american", "olympic"])
def test_a_referee_restarted_mid_competition_finds_the_chips_again_in_the_store(pipeline: Pipeline, format: str) -> None:
    """The desk's count of chips lives in memory: a new referee rebuilds it from the Competition's stream (and an
    Olympic table's from its last hand), so the hands after the restart are judged the same."""
    simulation = simulate_competition(4, players=20, format=format, protests=False)
    records = list(simulation.records())
    half = len(records) // 2
    first = pipeline.judge(records[:half])
    pipeline.restart()
    second = pipeline.judge(records[half:])
    assert Counter(v.outcome for v in [*first, *second]) == {"accepted": len(records)}
    assert pipeline.competition(simulation.competition_id).winner == simulation.winner
