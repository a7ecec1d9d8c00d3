"""The Olympic format (bfsp 3.2): each table plays to one winner, the winners are drawn to the next stage's
tables and restart with equal stacks; the stages are named from the final back."""

from __future__ import annotations

import pytest

from competition.a_competition import CHIEF, JUDGE, SECRETARY, at, drawn, regulations
from domain.competition.aggregate import Competition
from domain.competition.draw import commitment, draw
from domain.competition.events import decode
from domain.competition.olympic import Stage, stage_plan
from domain.competition.placings import Bust
from domain.competition.regulations import Format
from domain.errors import CompetitionError, RuleRef

pytestmark = pytest.mark.unit

RULE = RuleRef("bfsp", "3.2")


def test_the_stages_are_named_from_the_final_back() -> None:
    assert stage_plan(9, 9, RULE) == (Stage("final", 9, 1),)
    assert stage_plan(18, 9, RULE) == (Stage("semi-final", 18, 2), Stage("final", 2, 1))
    assert [s.name for s in stage_plan(9**5, 9, RULE)] == ["1/16", "1/8", "1/4", "semi-final", "final"]
    assert [s.tables for s in stage_plan(100, 10, RULE)] == [10, 1]


def test_more_stages_than_the_rules_name_are_refused() -> None:
    with pytest.raises(CompetitionError, match="need 7 stages; the rules name 6") as refused:
        stage_plan(9**6 + 1, 9, RULE)
    assert refused.value.rule == RULE


def _play_table_down(competition: Competition, table: int) -> str:
    players = [p for p in competition.remaining if competition.seats[p][0] == table]
    for n, player in enumerate(players[1:]):
        competition.eliminate(f"t{table}-h{n}", [Bust(player, table, 100)], at(10 + n), JUDGE)
    return players[0]


def test_table_winners_advance_to_a_new_draw_and_restart_with_equal_stacks() -> None:
    competition = drawn(18, regulations(format=Format.OLYMPIC))
    assert competition.stage is not None and competition.stage.stage == "semi-final"
    assert competition.stage.tables == 2
    first = _play_table_down(competition, 1)
    assert competition.table_winners == {1: first}
    with pytest.raises(CompetitionError, match="conducted already"):
        competition.commit_draw(commitment("too early"), at(50), SECRETARY)
    second = _play_table_down(competition, 2)
    assert competition.table_winners == {1: first, 2: second}
    competition.commit_draw(commitment("final seed"), at(60), SECRETARY)
    seats = draw("final seed", (first, second), 9)
    competition.conduct_draw("final seed", seats, CHIEF.person, at(61), SECRETARY)
    events = [decode(e.payload) for e in competition.collect_events()[-3:]]
    assert [type(e).__name__ for e in events] == ["SeatDrawConducted", "OlympicStageStarted", "StacksReset"]
    assert events[0].stage == "final"
    assert (events[1].stage, events[1].tables, set(events[1].participants)) == ("final", 1, {first, second})
    assert (events[2].stack, set(events[2].participants)) == (10_000, {first, second})
    competition.eliminate("final-h1", [Bust(second, 1, 10_000)], at(70), JUDGE)
    assert competition.winner == first


def test_the_next_stage_draw_is_among_the_table_winners_only() -> None:
    competition = drawn(18, regulations(format=Format.OLYMPIC))
    winners = [_play_table_down(competition, t) for t in (1, 2)]
    competition.commit_draw(commitment("s"), at(60), SECRETARY)
    everyone = draw("s", (*winners, next(iter(competition.eliminated))), 9)
    with pytest.raises(CompetitionError, match="not the ones the seed gives"):
        competition.conduct_draw("s", everyone, CHIEF.person, at(61), SECRETARY)


def test_a_table_plays_down_to_one_winner_who_keeps_its_chips() -> None:
    competition = drawn(18, regulations(format=Format.OLYMPIC))
    players = [p for p in competition.remaining if competition.seats[p][0] == 1]
    for n, player in enumerate(players[1:-1]):
        competition.eliminate(f"h{n}", [Bust(player, 1, 100)], at(10 + n), JUDGE)
    with pytest.raises(CompetitionError, match="table 1 plays down to one winner"):
        competition.eliminate("h", [Bust(players[0], 1, 50), Bust(players[-1], 1, 60)], at(30), JUDGE)


def test_a_table_winner_waits_for_the_next_stage() -> None:
    competition = drawn(18, regulations(format=Format.OLYMPIC))
    winner = _play_table_down(competition, 1)
    with pytest.raises(CompetitionError, match=f"{winner} has won his table and waits for the next stage"):
        competition.eliminate("h", [Bust(winner, 1, 100)], at(40), JUDGE)
