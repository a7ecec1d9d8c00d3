"""A whole small competition, from its Regulations to its winner: stored, read back, and its chain verified."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from eventsourcing.application import Application
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.a_competition import CHIEF, DEALER, JUDGE, SECRETARY, at, drawn, regulations
from domain.chained import first_broken_link_in
from domain.competition.aggregate import STREAM_CATALOG, Competition, competition_stream_id, recorded_event
from domain.competition.draw import commitment, draw
from domain.competition.events import CATALOG, RaceEntry
from domain.competition.placings import Bust
from domain.competition.regulations import Prize
from domain.errors import CompetitionError, NotPermittedError, RuleRef

pytestmark = pytest.mark.unit


def _bust(competition: Competition, player: str, hand: str, minute: float) -> None:
    competition.eliminate(hand, [Bust(player, competition.seats[player][0], 300)], at(minute), JUDGE)


def _a_whole_competition() -> Competition:
    competition = drawn(12, regulations(prizes=(Prize(1, 6_000), Prize(2, 3_500), Prize(3, 2_000))))
    for table in (1, 2):
        seated = sorted((s, p) for p, (t, s) in competition.seats.items() if t == table)
        entries = [RaceEntry(s, p, 1 if s == 1 else 0, 9_975 if s == 1 else 10_000) for s, p in seated]
        competition.conduct_chip_race(table, 25, entries, ["Ks"], at(28), DEALER)
    competition.start_level(at(30), JUDGE)
    for n in range(3):
        _bust(competition, competition.remaining[n], f"hand-{n}", 31 + n)
    competition.commit_final_table_draw(commitment("final table"), at(40), SECRETARY)
    finalists = draw("final table", competition.remaining, 9)
    competition.conduct_final_table_draw("final table", finalists, CHIEF.person, at(41), SECRETARY)
    competition.start_level(at(60), JUDGE)
    while competition.players_left > 4:
        _bust(competition, competition.remaining[0], f"hand-{competition.version}", 61)
    competition.start_hand_for_hand(1200, at(70), CHIEF)  # level 3 (60–90) has 20 minutes left by the clock
    competition.start_hand_for_hand_hand(at(71), CHIEF)
    _bust(competition, competition.remaining[-1], "bubble", 72)
    competition.end_hand_for_hand(at(73), CHIEF)
    while competition.winner is None:
        _bust(competition, competition.remaining[0], f"hand-{competition.version}", 80)
    return competition


def test_a_competition_runs_from_its_regulations_to_its_winner() -> None:
    competition = _a_whole_competition()
    places = sorted((e.place, p) for p, e in competition.eliminated.items())
    assert [place for place, _ in places] == list(range(2, 13))
    assert competition.winner not in competition.eliminated
    assert [p.gross for p in competition.payouts()[:4]] == [6_000, 3_500, 2_000, 0]
    assert competition.current_level is not None and competition.current_level.number == 3


def test_every_event_of_the_competition_is_in_the_catalog_and_its_chain_verifies() -> None:
    competition = _a_whole_competition()
    events = competition.collect_events()
    assert {type(e).__name__ for e in events} <= set(CATALOG)
    assert {"SeatDrawConducted", "ChipRaceConducted", "HandForHandHandStarted"} <= {
        type(e).__name__ for e in events
    }
    assert all(type(recorded_event(e)).__name__ == type(e).__name__ for e in events)
    assert first_broken_link_in(events) is None
    assert competition.chain_head == events[-1].link


def test_a_stored_competition_reads_back_the_same_and_tampering_breaks_its_chain() -> None:
    app: Application[object] = Application()
    competition = _a_whole_competition()
    app.save(competition)
    again = app.repository.get(competition_stream_id("minsk-open-2026"))
    assert isinstance(again, Competition)
    assert (again.winner, again.seats, again.eliminated) == (
        competition.winner,
        competition.seats,
        competition.eliminated,
    )
    assert again.level_starts == competition.level_starts and again.chain_head == competition.chain_head
    stored = list(app.events.get(competition.id))
    assert first_broken_link_in(stored) is None
    draw_at = next(n for n, e in enumerate(stored) if type(e).__name__ == "SeatDrawConducted")
    stored[draw_at].payload["seed"] = "a seed chosen afterwards"
    broken = first_broken_link_in(stored)
    assert broken is not None and broken.position == draw_at


def test_a_refused_act_stores_nothing() -> None:
    competition = drawn(6)
    version, head = competition.version, competition.chain_head
    with pytest.raises(CompetitionError):
        competition.eliminate("h", [Bust("nobody", 1, 1)], at(5), JUDGE)
    assert (competition.version, competition.chain_head) == (version, head)


def _short_table_one() -> Competition:
    """Two tables of six; table 1 loses two players, so table 2 owes it one (bfsp 3.1)."""
    competition = drawn(12)
    for n, player in enumerate([p for p in competition.remaining if competition.seats[p][0] == 1][:2]):
        _bust(competition, player, f"t1-hand-{n}", 5 + n)
    return competition


def test_a_hand_at_a_table_that_owes_a_player_waits_for_the_floors_move() -> None:
    competition = _short_table_one()
    with pytest.raises(CompetitionError, match="table 2 owes a player before its next hand"):
        competition.start_table_hand(2, competition.buttons[2], at(10), DEALER)
    move = competition.floor.next_balancing_move(CHIEF.person)
    assert move is not None and (move.from_table, move.to_table) == (2, 1)
    competition.move_player(move, at(10), CHIEF)
    assert competition.seats[move.participant] == (1, move.to_seat)
    competition.start_table_hand(2, competition.buttons[2], at(11), DEALER)
    with pytest.raises(CompetitionError, match="still playing its hand"):
        competition.start_table_hand(2, competition.buttons[2], at(12), DEALER)
    competition.end_table_hand(2, at(13), DEALER)


def test_a_move_the_floor_refuses_is_not_recorded() -> None:
    competition = _short_table_one()
    move = competition.floor.next_balancing_move(CHIEF.person)
    assert move is not None
    version = competition.version
    wrong = next(p for p in competition.remaining if competition.seats[p][0] == 2 and p != move.participant)
    with pytest.raises(CompetitionError):
        competition.move_player(
            replace(move, participant=wrong, from_seat=competition.seats[wrong][1]), at(10), CHIEF
        )
    with pytest.raises(NotPermittedError, match="a judge may not move a player"):
        competition.move_player(move, at(10), JUDGE)
    assert competition.version == version


def _refusal(act: Callable[..., object], *args: object) -> CompetitionError:
    with pytest.raises(CompetitionError) as refused:
        act(*args)
    return refused.value


def test_a_move_that_breaks_a_balancing_rule_is_refused_by_the_aggregate_with_the_floors_rule() -> None:
    competition = _short_table_one()
    floor = competition.floor
    move = floor.next_balancing_move(CHIEF.person)
    assert move is not None
    wrong_player = next(
        p for p in competition.remaining if competition.seats[p][0] == 2 and p != move.participant
    )
    worse_seat = next(
        s for s in range(1, 10) if s != move.to_seat and all(seat != s for seat, _ in floor.table(1).seats)
    )
    for breaking in (
        replace(move, participant=wrong_player, from_seat=competition.seats[wrong_player][1]),
        replace(move, to_seat=worse_seat),
        replace(
            move,
            participant=floor.table(1).seats[0][1],
            from_table=1,
            from_seat=floor.table(1).seats[0][0],
            to_table=2,
        ),
    ):
        by_the_floor = _refusal(floor.verify_move, breaking, CHIEF.role)
        by_the_aggregate = _refusal(competition.move_player, breaking, at(10), CHIEF)
        assert by_the_aggregate.rule == by_the_floor.rule == RuleRef("bfsp", "3.1")
        assert by_the_aggregate.reason == by_the_floor.reason
    assert competition.floor == floor and competition.seats[move.participant][0] == 2


def test_every_event_the_competition_stores_is_in_its_stream_catalog() -> None:
    competition = _short_table_one()
    move = competition.floor.next_balancing_move(CHIEF.person)
    assert move is not None
    competition.move_player(move, at(10), CHIEF)
    competition.start_table_hand(1, competition.buttons[1], at(11), DEALER)
    events = competition.collect_events()
    assert "PlayerMoved" in {type(e).__name__ for e in events}
    for stored in events:
        kind = STREAM_CATALOG[type(stored).__name__]
        assert type(recorded_event(stored)) is kind


def test_the_floor_reads_back_the_same_from_the_store() -> None:
    app: Application[object] = Application()
    competition = _short_table_one()
    move = competition.floor.next_balancing_move(CHIEF.person)
    assert move is not None
    competition.move_player(move, at(10), CHIEF)
    competition.start_table_hand(1, competition.buttons[1], at(11), DEALER)
    app.save(competition)
    again = app.repository.get(competition.id)
    assert again.floor == competition.floor and again.seats == competition.seats


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_any_order_of_busts_gives_every_place_once_and_pays_out_the_prize_pool(data: st.DataObject) -> None:
    prizes = (Prize(1, 5_000), Prize(2, 3_000), Prize(3, 2_000), Prize(4, 1_000))
    competition = drawn(9, regulations(prizes=prizes))
    while competition.winner is None:
        left = list(competition.remaining)
        busted = data.draw(st.lists(st.sampled_from(left), min_size=1, max_size=len(left) - 1, unique=True))
        stacks = data.draw(st.lists(st.integers(1, 3), min_size=len(busted), max_size=len(busted)))
        busts = [Bust(p, 1, s) for p, s in zip(busted, stacks, strict=True)]
        competition.eliminate(f"hand-{competition.version}", busts, at(competition.version), JUDGE)
    spans = {(e.place, len(e.shared_with) + 1) for e in competition.eliminated.values()}
    assert sorted(p for place, size in spans for p in range(place, place + size)) == list(range(2, 10))
    assert sum(p.gross for p in competition.payouts()) == 11_000
    assert first_broken_link_in(competition.collect_events()) is None


def test_the_competitions_events_take_the_chained_direct_path_told_their_time_and_replay_the_same() -> None:
    from domain.chained import _event_body

    assert _event_body(Competition.PlayerEliminated) == (Competition._recorded, True)
    app: Application[object] = Application()
    competition = _a_whole_competition()
    declared = competition.pending_events[-1]
    assert type(declared).__name__ == "CompetitionWinnerDeclared"
    assert competition.ended_at == declared.timestamp
    app.save(competition)
    again = app.repository.get(competition.id)
    assert again.ended_at == competition.ended_at and again.winner == competition.winner
    assert again.eliminated == competition.eliminated and again.chain_head == competition.chain_head
