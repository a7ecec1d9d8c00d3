"""The simulator's OFC tables: the same seed the same records, every round legal, fouls now and then, fantasy
reached and a miscounted fantasy deal redealt."""

from __future__ import annotations

from pathlib import Path

import pytest
from embedded_referee import Pipeline

from domain.ofc.game import OfcGame
from domain.rulebooks import get_rulebook
from ingest.simulator.ofc import simulate_ofc, simulate_ofc_competition

pytestmark = pytest.mark.unit


def test_the_same_seed_gives_the_same_records() -> None:
    assert list(simulate_ofc(4, rounds=3).records()) == list(simulate_ofc(4, rounds=3).records())
    assert list(simulate_ofc(4, rounds=3).records()) != list(simulate_ofc(5, rounds=3).records())


def test_the_bots_foul_now_and_then_reach_fantasy_and_every_round_replays_legal() -> None:
    simulation = simulate_ofc(10, tables=2, seats=3, rounds=40, miscount=0.5)
    summary = simulation.summary()
    hands = summary["rounds"] * 3
    assert 0 < summary["fouls"] < hands / 2
    assert summary["fantasies"] > 0 and summary["redeals"] > 0
    assert sum(summary["points"].values()) == 0
    book = get_rulebook("bfsp")
    for table_round in simulation.rounds:
        played = table_round.played
        game = OfcGame(played.started, book)
        for event in played.events[1:]:
            game.apply(event)
        assert game.scored == played.scored


def test_the_button_moves_one_seat_each_round() -> None:
    simulation = simulate_ofc(2, tables=1, seats=3, rounds=4)
    assert [r.played.started.button for r in simulation.rounds] == [1, 2, 3, 1]


@pytest.mark.parametrize("seats", [1, 4])
def test_an_ofc_table_seats_two_or_three(seats: int) -> None:
    with pytest.raises(ValueError, match="2 to 3 players"):
        simulate_ofc(1, seats=seats)


def test_an_ofc_competition_is_judged_whole_and_placed_by_points(tmp_path: Path) -> None:
    simulation = simulate_ofc_competition(5, players=7, seats=3, rounds=3)
    pipeline = Pipeline(tmp_path)
    assert {v.outcome for v in pipeline.judge(simulation.records())} == {"accepted"}
    competition = pipeline.competition(simulation.competition_id)
    assert competition.regulations.variant == "OFC" and competition.is_over
    assert competition.ofc_points == simulation.points()
    placed = [s.participant for s in competition.standings()]
    assert placed == sorted(simulation.points(), key=lambda p: -simulation.points()[p])
    # tables of 3, 2 and 2: every table played its three rounds, the button one seat on each time
    tables = {r.table_id for r in simulation.rounds}
    assert len(tables) == 3 and len(simulation.rounds) == 9
