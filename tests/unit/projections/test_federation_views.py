"""The federation's views of a competition judged by the embedded referee (tests/federation_views_scenario.py):
the penalty register, protests with the federation's deadline judged at the time asked, the balance the floor
calls for, the level clock, the standings with the hands' chip counts, and the rulings with their pots."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from federation_records import (
    CHIEF,
    COMPETITION,
    FEDERATION,
    JUDGE,
    LEVEL_1,
    SECRETARY,
    STACK,
    Records,
    at,
    table,
)
from federation_views_scenario import (
    FORWARDED_AT,
    GOMEL,
    GROUNDS,
    Record,
    forwarded,
    gomel_cup,
    gomel_seating,
    minsk_open,
)

from domain.competition import balancing
from domain.competition.aggregate import Competition, competition_stream_id
from domain.competition.events import BreakStarted, EliminationReason, PlayerEliminated
from domain.discipline.events import (
    PenaltyImposed,
    SeasonDisqualificationDecided,
    ViolationEnteredInProtocol,
    ViolationRecorded,
)
from domain.discipline.ladder import PenaltyKind
from domain.roles import Role
from ingest.log import EmbeddedLog
from ingest.protocol_acts import snapshot_request
from ingest.referee import Referee
from ingest.simulator.clock import simulation_clock
from ingest.store import Store, store_env
from projections import federation
from projections.database import SqliteReadDatabase
from projections.protocol import compile_snapshot, snapshots
from projections.read_models import ReadModels
from projections.runner import Projector

pytestmark = pytest.mark.unit


class Judged:
    def __init__(self, folder: Path) -> None:
        self.log = EmbeddedLog(folder / "log.sqlite", "events", partitions=1, clock=simulation_clock)
        self.store = Store(env=store_env(None, str(folder / "store.sqlite")))
        self.referee = Referee(self.store, "events", protocols=compile_snapshot)
        self.read_path = folder / "read.sqlite"

    def judge(self, records: Iterable[Record]) -> None:
        self.log.append(list(records))
        verdicts = self.referee.judge(0, self.log.read(0, self.referee.resume_offset(0), 10_000))
        assert [v.rejection for v in verdicts if v.outcome != "accepted"] == []

    def read_models(self) -> ReadModels:
        projector = Projector(self.store, SqliteReadDatabase(self.read_path))
        projector.catch_up()
        projector.database.close()
        return ReadModels(SqliteReadDatabase(self.read_path))


@pytest.fixture
def judged(tmp_path: Path) -> Iterator[Judged]:
    pipeline = Judged(tmp_path)
    records = Records()
    pipeline.judge(minsk_open(records))
    pipeline.judge([snapshot_request(COMPETITION, SECRETARY, at(30))])
    [snapshot] = snapshots(pipeline.store, COMPETITION)
    pipeline.judge([forwarded(records, snapshot.name, snapshot.chain_head)])
    pipeline.judge(gomel_cup(Records(GOMEL)))
    yield pipeline
    pipeline.store.close()
    pipeline.log.close()


def test_the_penalty_register_names_each_violation_penalty_and_the_hands_left(judged: Judged) -> None:
    register = federation.penalty_register(judged.store, COMPETITION)
    assert register is not None
    assert [r.participant for r in register] == ["p01", "p03"]
    p01, p03 = register
    [warned] = p01.violations
    assert (warned.code, warned.rule, warned.occurrence, warned.hand) == ("7.1.2", "bfsp 7.1.2", 1, f"{table()}/1")
    assert warned.description == "kept his cards after announcing a fold"
    [warning] = p01.penalties
    assert (warning.reference, warning.kind, warning.imposed_by.person, warning.imposed_by.role) == (
        "penalty-1", "warning", "cj-ivanov", "chief_judge",
    )
    assert warning.in_force and p01.serving is None and not p01.disqualified_from_competition
    [missing] = p03.penalties
    assert (missing.kind, missing.hands_to_miss, missing.hands_remaining) == ("missed_rounds", 2, 2)
    assert p03.serving == missing and p03.hands_to_sit_out == 2
    assert missing.rule.startswith("bfsp")


def test_a_viewers_register_keeps_the_sanctions_and_drops_the_grounds(judged: Judged) -> None:
    register = federation.penalty_register(judged.store, COMPETITION, grounds=False)
    assert register is not None
    [warned] = register[0].violations
    assert (warned.code, warned.description, warned.hand, warned.intentional) == ("7.1.2", None, None, None)
    assert register[0].penalties[0].kind == "warning"


def test_protests_show_their_state_deadline_and_overdue_at_the_time_asked(judged: Judged) -> None:
    on_time = federation.protests(judged.store, COMPETITION, FORWARDED_AT + timedelta(days=29))
    assert [(p.protest, p.tier, p.filer, p.state) for p in on_time] == [
        ("protest-2", "chief_judge", "p02", "decided"),
        ("protest-1", "federation", "p01", "forwarded"),
    ]
    decided, to_federation = on_time
    assert decided.decision is not None and decided.decision.decision == "dismissed"
    assert decided.against == {"reference": "r-1", "kind": "finding_of_fact", "decided_by": "judge", "sanctioned": ""}
    assert to_federation.decision_days == 30
    assert to_federation.deadline == (FORWARDED_AT + timedelta(days=30)).isoformat()
    assert not to_federation.overdue and to_federation.grounds == GROUNDS
    late = federation.protests(judged.store, COMPETITION, FORWARDED_AT + timedelta(days=30, seconds=1))
    assert [p.overdue for p in late] == [False, True]
    hidden = federation.protests(judged.store, COMPETITION, FORWARDED_AT, grounds=False)
    assert [p.grounds for p in hidden] == ["the flop came off the bottom", None]


def test_the_balance_is_the_floors_next_big_blind_to_the_short_table(judged: Judged) -> None:
    view = federation.balance(judged.store, GOMEL)
    assert view is not None and view.judged_by_the_floor
    assert sorted(t.players for t in view.tables) == [2, 4]
    assert not view.balanced and view.tolerance == 1
    competition = judged.store.repository.get(competition_stream_id(GOMEL))
    assert isinstance(competition, Competition) and competition.floor is not None
    full = next(t for t in competition.floor.tables if len(t.seats) == 4)
    mover = balancing.next_big_blind(full, competition.floor.book)
    assert view.next_move is not None and view.next_move.participant == mover
    assert (view.next_move.from_table, view.next_move.from_seat) == gomel_seating()[mover]
    assert view.next_move.to_table != full.number and view.required_moves[0] == view.next_move
    assert next(t for t in view.tables if t.table == full.number).next_big_blind == mover
    one_table = federation.balance(judged.store, COMPETITION)
    assert one_table is not None and one_table.balanced and one_table.next_move is None


def test_the_clock_counts_down_the_level_from_its_start(judged: Judged) -> None:
    view = federation.clock(judged.store, COMPETITION, at(10))
    assert view is not None and view.level is not None
    assert (view.level.number, view.level.small_blind, view.level.big_blind) == (1, 25, 50)
    assert view.level_started_at == at(0).isoformat() and view.level_ends_at == at(30).isoformat()
    assert view.seconds_remaining == 20 * 60
    assert view.next_level is not None and view.next_level.number == 2
    # p01 won at 22 minutes: the clock stopped with play, so at 45 it still reads level 1 with the 8 minutes it had
    # left (a running clock reaching level 2 by itself, announced or not: tests/unit/test_level_clock.py)
    over = federation.clock(judged.store, COMPETITION, at(45))
    assert over is not None and over.level is not None and over.level.number == 1
    assert (over.play_ended_at, over.seconds_remaining) == (at(22).isoformat(), 8 * 60)
    assert [(t.level, t.announced_at) for t in over.timeline] == [(1, at(0).isoformat())]
    assert federation.clock(judged.store, "no-such-cup", at(0)) is None


def test_the_standings_give_the_chips_the_eliminations_in_order_and_the_winner(judged: Judged) -> None:
    models = judged.read_models()
    try:
        view = federation.standings(judged.store, models, COMPETITION)
        assert view is not None
        assert view.winner == "p01" and view.players_left == 1
        assert [(r.participant, r.chips) for r in view.remaining] == [("p01", 3 * STACK)]  # every chip of the three entries
        assert [(e.order, e.participant, e.place) for e in view.eliminations] == [(1, "p02", 3), (2, "p03", 2)]
        gomel = federation.standings(judged.store, models, GOMEL)
        assert gomel is not None and gomel.winner is None and gomel.players_left == 6
        assert all(r.chips is None for r in gomel.remaining), "no hand has been dealt at the cup"
    finally:
        models.database.close()


def test_each_ruling_says_which_pots_were_mechanical(judged: Judged) -> None:
    [ruling] = federation.rulings(judged.store, COMPETITION)
    assert (ruling.ruling, ruling.kind, ruling.official, ruling.rule) == (
        "r-1", "finding_of_fact", "judge-sidorov", "bfsp 2.2.3",
    )
    assert ruling.in_force and ruling.hand == f"{table()}/1"
    [main] = ruling.pots
    assert (main.amount, main.discretionary) == (2 * STACK + LEVEL_1.big_blind, False)  # p03's big blind folded
    assert main.awarded_shares == main.mechanical_shares
    assert federation.rulings(judged.store, GOMEL) == []


def test_the_last_hands_challenge_window_closes_a_minute_after_the_competition_ends(judged: Judged) -> None:
    """No next hand closes the last hand's window: the end does (p03 eliminated second at 22 min, p01 the
    winner), as at a break (issue 13: it showed open months later)."""
    models = judged.read_models()
    try:
        [open_] = federation.challenge_windows(judged.store, models, COMPETITION, at(22.5))
        [closed] = federation.challenge_windows(judged.store, models, COMPETITION, at(23.1))
    finally:
        models.database.close()
    assert (open_.table_id, open_.hand_number, open_.closes_at, open_.open) == (table(), 2, at(23).isoformat(), True)
    assert (closed.closes_at, closed.open) == (at(23).isoformat(), False)
    assert open_.rule.startswith("bfsp")


def test_disqualifications_from_the_competition_and_for_the_season_are_on_the_register(judged: Judged) -> None:
    gomel = Records(GOMEL)
    gomel.count = 1_000  # after the cup's own records
    seating = gomel_seating()
    short = min(seating[p][0] for p in seating)
    colluder = next(p for p in sorted(seating) if seating[p][0] == short and p not in ("g1", "g2")
                    and p in _remaining(judged))
    judged.judge([
        gomel.record(ViolationRecorded(colluder, "7.1.4", "", True, 1, "soft play with his neighbour"), JUDGE, at(7)),
        gomel.record(PenaltyImposed(colluder, 1, PenaltyKind.MISSED_ROUNDS, Role.JUDGE, rounds=2,
                                    players_at_table=2, hands_to_miss=4), JUDGE, at(8)),
        gomel.record(ViolationRecorded(colluder, "7.1.4", "", True, 2, "soft play again"), JUDGE, at(9)),
        gomel.record(PenaltyImposed(colluder, 2, PenaltyKind.COMPETITION_DISQUALIFICATION, Role.CHIEF_JUDGE,
                                    chips_removed=10_000), CHIEF, at(10)),
        gomel.record(PlayerEliminated(colluder, "", EliminationReason.DISQUALIFIED, 0, ruling="collusion"), CHIEF,
                     at(10)),
        gomel.record(ViolationEnteredInProtocol(colluder, 2), CHIEF, at(11)),
        gomel.record(SeasonDisqualificationDecided(f"person-{colluder}", "2026", GOMEL, 2, "7.1.4", at(12)),
                     FEDERATION, at(12)),
    ])
    register = federation.penalty_register(judged.store, GOMEL)
    assert register is not None
    [record] = register
    assert record.participant == colluder and record.disqualified_from_competition
    assert [(v.occurrence, v.entered_in_protocol) for v in record.violations] == [(1, False), (2, True)]
    assert [(p.kind, p.hands_to_miss) for p in record.penalties] == [
        ("missed_rounds", 4), ("competition_disqualification", 0),
    ]
    [season] = record.season_disqualifications
    assert (season.season, season.competition, season.code, season.violation) == ("2026", GOMEL, "7.1.4", 2)


def test_a_break_shows_on_the_clock_with_its_time_left(judged: Judged) -> None:
    gomel = Records(GOMEL)
    gomel.count = 2_000
    judged.judge([gomel.record(BreakStarted(1, 15), CHIEF, at(30))])
    view = federation.clock(judged.store, GOMEL, at(35))
    assert view is not None and view.on_break is not None
    assert (view.on_break.after_level, view.on_break.started_at, view.on_break.seconds_remaining) == (
        1, at(30).isoformat(), 10 * 60,
    )
    assert view.seconds_remaining == 0, "level 1 ran its 30 minutes before the break"
    assert [(t.kind, t.level, t.started_at, t.ended_at) for t in view.timeline] == [
        ("level", 1, at(0).isoformat(), at(30).isoformat()), ("break", 1, at(30).isoformat(), None),
    ]
    later = federation.clock(judged.store, GOMEL, at(50))
    assert later is not None and later.on_break is None and later.level is not None and later.level.number == 2
    assert (later.level_started_at, later.seconds_remaining) == (at(45).isoformat(), 25 * 60)


def _remaining(judged: Judged) -> tuple[str, ...]:
    competition = federation.competition(judged.store, GOMEL)
    assert competition is not None
    return competition.remaining


def test_a_view_read_again_replays_only_the_streams_that_moved_and_shows_what_they_hold_now(judged: Judged) -> None:
    # the replays are kept between reads while the store holds nothing newer of their streams (projections/replays.py)
    from projections.replays import cache_of

    kept = cache_of(judged.store)
    assert federation.clock(judged.store, GOMEL, at(35)) is not None
    misses = kept.misses
    assert federation.clock(judged.store, GOMEL, at(35)) is not None
    assert kept.misses == misses, "the competition's stream had not moved: its replay was read again"
    before = federation.clock(judged.store, GOMEL, at(35))
    # the break comes by the clock; the Chief Judge's announcement of it is what the stream holds anew
    assert before is not None and before.on_break is not None and before.on_break.announced_at is None
    gomel = Records(GOMEL)
    gomel.count = 3_000
    judged.judge([gomel.record(BreakStarted(1, 15), CHIEF, at(30))])
    view = federation.clock(judged.store, GOMEL, at(35))
    assert kept.misses == misses + 1, "the competition's stream moved: it is read again"
    assert view is not None and view.on_break is not None and view.on_break.seconds_remaining == 10 * 60
    assert view.on_break.announced_at == at(30).isoformat()
