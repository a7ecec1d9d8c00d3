"""Levels by the clock (bfsp 3.3, 2.1.5; TDA 2022 23, RP-8), judged by the referee: the level in force at a time is
the Regulations' schedule run from level 1's start, scheduled breaks in their place and the Chief Judge's pauses
aside; a hand is judged against the level in force at its start by the service's clock, a hand on a break or
while the clock is stopped is refused, and the announcements of levels and breaks are recorded when they agree
with the clock and refused, with the level in force, when they do not."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from embedded_referee import Pipeline
from federation_records import (
    CHIEF,
    DEALER,
    FEDERATION,
    JUDGE,
    PLAYERS,
    REGULATIONS,
    SECRETARY,
    SEED,
    Records,
    all_in_hand,
    table,
)

from api.cli_simulate import CompetitionPublisher
from domain.competition.draw import commitment, draw, starting_buttons
from domain.competition.events import (
    BreakEnded,
    BreakStarted,
    LevelClockPaused,
    LevelClockResumed,
    LevelStarted,
    OfficialAppointed,
    ParticipantRegistered,
    RegulationsAdopted,
    SeatDrawCommitted,
    SeatDrawConducted,
)
from domain.competition.levels import LevelClock
from domain.competition.regulations import Break, Level, Regulations
from domain.hand.events import HandStarted, Stakes
from domain.rejections import Rejection
from domain.roles import Role
from ingest.referee import Verdict
from ingest.runners import drain_embedded
from ingest.simulator import simulate_competition
from ingest.simulator.clock import simulation_clock
from projections import federation

pytestmark = pytest.mark.unit

#: the issue's competition: 20-minute levels from 10:00
TEN = datetime(2026, 5, 9, 10, 0, tzinfo=UTC)
LEVELS = tuple(Level(n, 20, 25 * n, 50 * n) for n in range(1, 21))
TWENTY_MINUTES = replace(REGULATIONS, levels=LEVELS)


def clock(hours: int, minutes: float = 0) -> datetime:
    return datetime(2026, 5, 9, hours, 0, tzinfo=UTC) + timedelta(minutes=minutes)


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


def opened_at_ten(pipeline: Pipeline, records: Records, regulations: Regulations) -> None:
    """Regulations, officials, players and the draw before 10:00, and level 1 started at 10:00."""
    early = clock(8)
    opening = [
        records.record(RegulationsAdopted(records.competition_id, regulations), FEDERATION, early),
        records.record(OfficialAppointed(CHIEF.person, Role.CHIEF_JUDGE), FEDERATION, early + timedelta(minutes=1)),
        *(records.record(OfficialAppointed(o.person, o.role), CHIEF, early + timedelta(minutes=2))
          for o in (SECRETARY, JUDGE)),
        records.record(OfficialAppointed(DEALER.person, DEALER.role, tables=(int(table()),)), CHIEF,
                       early + timedelta(minutes=2)),
        *(records.record(ParticipantRegistered(p, f"person-{p}", date(1990, 1, 1)), SECRETARY,
                         early + timedelta(minutes=10 + n)) for n, p in enumerate(PLAYERS)),
        records.record(SeatDrawCommitted(commitment(SEED)), SECRETARY, clock(9, 30)),
    ]  # fmt: skip
    seats = draw(SEED, PLAYERS, regulations.max_seats)
    conducted = SeatDrawConducted(SEED, seats, starting_buttons(seats), CHIEF.person)
    opening.append(records.record(conducted, SECRETARY, clock(9, 40)))
    opening.append(records.record(LevelStarted(regulations.levels[0], TEN), JUDGE, TEN))
    accepted(pipeline.judge(opening))


def first_hand(level: Level, number: int = 1) -> HandStarted:
    """Hand ``number`` of the draw's table, three-handed from the starting button, posting ``level``'s blinds."""
    started = all_in_hand(1, "p01", "p02")[0]
    assert isinstance(started, HandStarted)
    (small, _), (big, _) = started.stakes.blinds
    stakes = Stakes(blinds=((small, level.small_blind), (big, level.big_blind)), min_bet=level.big_blind)
    return replace(started, hand_number=number, stakes=stakes)


def start(records: Records, started: HandStarted, when: datetime) -> tuple[bytes, bytes]:
    return records.record(started, DEALER, when, started.table_id, str(started.hand_number))


def test_the_issues_hand_at_14_45_at_level_1_is_refused_naming_the_level_in_force(pipeline: Pipeline) -> None:
    records = Records("minsk-clock-2026")
    opened_at_ten(pipeline, records, TWENTY_MINUTES)
    at_level_1 = refusal(pipeline.judge([start(records, first_hand(LEVELS[0]), clock(14, 45))]))
    seat_sb, seat_bb = (seat for seat, _ in first_hand(LEVELS[0]).stakes.blinds)
    assert (at_level_1.rule, at_level_1.reason) == (
        "bfsp 3.3",
        f"hand 1/1 posts blinds 25 on seat {seat_sb}, 50 on seat {seat_bb}; level 15 (375/750; in force by the "
        f"clock at 14:45:00, since 14:40:00) puts 375 on seat {seat_sb} (the small blind) and 750 on seat {seat_bb} "
        "(the big blind)",
    )
    said_level_1 = refusal(pipeline.judge([start(records, replace(first_hand(LEVELS[14]), level=1), clock(14, 45))]))
    assert said_level_1.reason == (
        "the hand started at 14:45:00, after level 15 began at 14:40:00 by the clock; it must be played at 375/750, "
        "not at level 1's blinds"
    )
    accepted(pipeline.judge([start(records, replace(first_hand(LEVELS[14]), level=15), clock(14, 45))]))
    assert pipeline.competition("minsk-clock-2026").level_at(clock(14, 45)) == LEVELS[14]


def test_a_level_announced_against_the_clock_is_refused_and_one_that_agrees_is_recorded(pipeline: Pipeline) -> None:
    records = Records("minsk-clock-2026")
    opened_at_ten(pipeline, records, TWENTY_MINUTES)
    early = refusal(pipeline.judge([records.record(LevelStarted(LEVELS[1], clock(10, 15)), JUDGE, clock(10, 15))]))
    assert (early.rule, early.reason) == (
        "bfsp 3.3",
        "level 2 is not the level in force: at 10:15:00 the clock is in level 1 (25/50), 10:00:00–10:20:00 by the clock",
    )
    late = refusal(pipeline.judge([records.record(LevelStarted(LEVELS[1], clock(10, 45)), JUDGE, clock(10, 45))]))
    assert late.reason.startswith("level 2 is not the level in force: at 10:45:00 the clock is in level 3 (75/150)")
    accepted(pipeline.judge([records.record(LevelStarted(LEVELS[2], clock(10, 45)), JUDGE, clock(10, 45))]))
    competition = pipeline.competition("minsk-clock-2026")
    assert [(s.level.number, s.at) for s in competition.level_starts] == [(1, TEN), (3, clock(10, 45))]


def test_a_hand_on_the_scheduled_break_is_refused_and_the_break_is_announced_by_the_clock(pipeline: Pipeline) -> None:
    records = Records("minsk-clock-2026")
    opened_at_ten(pipeline, records, replace(TWENTY_MINUTES, breaks=(Break(2, 15),)))
    on_break = refusal(pipeline.judge([start(records, first_hand(LEVELS[1]), clock(10, 45))]))
    assert (on_break.rule, on_break.reason) == (
        "bfsp 3.3",
        "hand 1/1 starts at 10:45:00, during the 15-minute break after level 2, 10:40:00–10:55:00 by the clock: no "
        "hand is dealt on a break",
    )
    early = refusal(pipeline.judge([records.record(BreakStarted(2, 15), CHIEF, clock(10, 30))]))
    assert (early.rule, early.reason) == (
        "bfsp 2.1.5",
        "no scheduled break is due: at 10:30:00 the clock is in level 2 (50/100), 10:20:00–10:40:00 by the clock; a "
        "break the schedule does not have is a pause of the clock (LevelClockPaused)",
    )
    accepted(pipeline.judge([records.record(BreakStarted(2, 15), CHIEF, clock(10, 41))]))
    not_over = refusal(pipeline.judge([records.record(BreakEnded(2), CHIEF, clock(10, 50))]))
    assert not_over.reason.startswith("the break has not ended: at 10:50:00 the clock is in the 15-minute break")
    accepted(pipeline.judge([records.record(BreakEnded(2), CHIEF, clock(10, 55))]))
    old_blinds = refusal(pipeline.judge([start(records, first_hand(LEVELS[1]), clock(10, 56))]))
    assert "level 3 (75/150; in force by the clock at 10:56:00, since 10:55:00)" in old_blinds.reason
    accepted(pipeline.judge([start(records, first_hand(LEVELS[2]), clock(10, 56))]))


def test_the_chief_judges_pause_stops_the_clock_and_the_level_keeps_what_was_left(pipeline: Pipeline) -> None:
    records = Records("minsk-clock-2026")
    opened_at_ten(pipeline, records, TWENTY_MINUTES)
    by_a_judge = pipeline.judge([records.record(LevelClockPaused("the fire alarm"), JUDGE, clock(10, 10))])
    assert [v.outcome for v in by_a_judge] == ["rejected"]
    assert by_a_judge[0].rejection is not None and by_a_judge[0].rejection.rule == "bfsp 2.1.5"
    accepted(pipeline.judge([records.record(LevelClockPaused("the fire alarm"), CHIEF, clock(10, 10))]))
    stopped = refusal(pipeline.judge([start(records, first_hand(LEVELS[0]), clock(10, 15))]))
    assert (stopped.rule, stopped.reason) == (
        "bfsp 2.1.5",
        "hand 1/1 starts at 10:15:00, while the Chief Judge has stopped the level clock (the fire alarm): no hand "
        "is dealt until it runs again",
    )
    wrong_pause = refusal(pipeline.judge([records.record(LevelClockResumed(clock(10, 5)), CHIEF, clock(10, 30))]))
    assert wrong_pause.reason == (
        "paused_at: the clock was stopped at 2026-05-09T10:10:00+00:00, not 2026-05-09T10:05:00+00:00"
    )
    accepted(pipeline.judge([records.record(LevelClockResumed(clock(10, 10)), CHIEF, clock(10, 30))]))
    # level 1 had 10 of its 20 minutes left when the clock stopped: it runs until 10:40, not 10:20
    accepted(pipeline.judge([start(records, first_hand(LEVELS[0]), clock(10, 35))]))
    competition = pipeline.competition("minsk-clock-2026")
    assert competition.level_at(clock(10, 39)) == LEVELS[0] and competition.level_at(clock(10, 40)) == LEVELS[1]


def test_the_clock_runs_the_schedule_through_breaks_pauses_hand_for_hand_and_a_schedule_change() -> None:
    levels = LEVELS[:4]
    running = LevelClock.start(levels, (Break(2, 15),), TEN)
    assert [(p.on_break is not None, p.level.number, f"{p.began:%H:%M}") for p, _ in running.history(clock(11, 30))] == [
        (False, 1, "10:00"), (False, 2, "10:20"), (True, 2, "10:40"), (False, 3, "10:55"), (False, 4, "11:15"),
    ]
    paused = running.stop(clock(10, 5), "a dispute at table 3").run(clock(10, 25))
    phase = paused.phase_at(clock(10, 30))
    assert phase is not None and (phase.level.number, phase.ends) == (1, clock(10, 40))
    assert paused.pauses(clock(12)) == ((clock(10, 5), clock(10, 25), "a dispute at table 3"),)
    # the last level runs on past its minutes
    last = running.phase_at(clock(15))
    assert last is not None and (last.level.number, last.ends, last.left) == (4, None, timedelta(0))
    # a schedule change at 10:30 drops the break: level 3 follows level 2 at 10:40
    changed = running.reschedule(clock(10, 30), levels, ())
    after = changed.phase_at(clock(10, 41))
    assert after is not None and after.on_break is None and (after.level.number, after.began) == (3, clock(10, 40))


def test_a_simulated_competition_deals_every_hand_at_the_level_the_clock_has_in_force(tmp_path: Path) -> None:
    simulation = simulate_competition(3, players=45, format="american")
    pipeline = Pipeline(tmp_path)
    verdicts: list[Verdict] = []
    publisher = CompetitionPublisher(
        pipeline.log, lambda: pipeline.store, lambda: verdicts.extend(drain_embedded(pipeline.log, pipeline.referee))
    )
    published = publisher.publish(simulation)
    verdicts.extend(drain_embedded(pipeline.log, pipeline.referee))
    assert Counter(v.outcome for v in verdicts) == {"accepted": published}
    competition = pipeline.competition(simulation.competition_id)
    assert competition.clock is not None
    breaks = [p for p, _ in competition.clock.history(competition.last_at) if p.on_break is not None]
    assert breaks, "the schedule's break came by the clock"
    played: Counter[int] = Counter()
    for hand in simulation.hands:
        phase = competition.phase_at(hand.started_at)
        assert phase is not None and phase.on_break is None and not phase.paused, hand.started_at
        level = phase.level
        blinds = sorted(amount for _, amount in hand.started.stakes.blinds)
        assert blinds == [level.small_blind, level.big_blind], (hand.started_at, level)
        played[level.number] += 1
    assert len(played) >= 5, played
    # the clock stops with play: read 90 days later, it reads as it stood when the winner was declared
    assert competition.ended_at is not None
    stood = competition.phase_at(competition.ended_at)
    later = federation.clock(pipeline.store, simulation.competition_id, competition.ended_at + timedelta(days=90))
    assert stood is not None and later is not None and later.level is not None
    assert later.play_ended_at == competition.ended_at.isoformat()
    assert (later.level.number, later.seconds_remaining) == (stood.level.number, int(stood.left.total_seconds()))
    # no hand starts on a break: every break's minutes are free of hands
    for phase in breaks:
        assert phase.ends is not None
        assert not [h for h in simulation.hands if phase.began <= h.started_at < phase.ends]


def test_a_hand_is_judged_at_its_recorded_start_within_the_skew_the_service_allows(pipeline: Pipeline) -> None:
    records = Records("minsk-clock-2026")
    opened_at_ten(pipeline, records, TWENTY_MINUTES)
    pipeline.referee.clock_skew = timedelta(seconds=60)
    late = timedelta(seconds=30)
    pipeline.log.clock = lambda value: simulation_clock(value) + late  # the log receives each record 30 s late
    # dealt at 10:19:50 in level 1, received at 10:20:20 in level 2's minutes: judged at its start, by level 1
    accepted(pipeline.judge([start(records, first_hand(LEVELS[0]), clock(10, 19 + 50 / 60))]))
    late = timedelta(minutes=5)
    untimely = pipeline.judge([start(records, first_hand(LEVELS[1], number=2), clock(10, 30))])
    assert [v.outcome for v in untimely] == ["rejected"]
    assert untimely[0].rejection is not None and "more than the clock skew allowed" in untimely[0].rejection.reason
