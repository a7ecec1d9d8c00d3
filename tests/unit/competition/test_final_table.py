"""The final table (bfsp 3.1; TDA 2022 RP-9, TDA 2017 D-11): formed by a new draw among the finalists when the
players left are its size, proved like the opening draw; 10-max events end 9-max under the federation; the
fixed-limit raise cap lifted once two players are left in the event (TDA 2022 48, TV-45)."""

from __future__ import annotations

import pytest

from competition.a_competition import CHIEF, JUDGE, SECRETARY, at, drawn, regulations
from domain.competition.aggregate import Competition
from domain.competition.draw import commitment, draw
from domain.competition.placings import Bust
from domain.competition.regulations import Format
from domain.errors import CompetitionError, RuleRef

pytestmark = pytest.mark.unit


def _down_to(competition: Competition, left: int) -> None:
    n = 0
    while competition.players_left > left:
        player = competition.remaining[n % 2 * (competition.players_left - 1)]
        competition.eliminate(f"h{n}", [Bust(player, competition.seats[player][0], 100)], at(10 + n), JUDGE)
        n += 1


def _final_draw(competition: Competition, seed: str = "final seed") -> None:
    competition.commit_final_table_draw(commitment(seed), at(200), SECRETARY)
    seats = draw(seed, competition.remaining, competition.regulations.final_table_size)
    competition.conduct_final_table_draw(seed, seats, CHIEF.person, at(201), SECRETARY)


@pytest.mark.parametrize(
    ("rulebook", "max_seats", "entries", "final"),
    [
        pytest.param("tda-2022", 9, 14, 9, id="TV-114-nine-max"),
        pytest.param("tda-2022", 6, 10, 7, id="TV-114-six-max"),
        pytest.param("tda-2017", 9, 14, 10, id="2017/TV-51-nine-max"),
        pytest.param("tda-2017", 6, 10, 7, id="2017/TV-51-six-max"),
        pytest.param("bfsp", 10, 14, 9, id="bfsp-3.1-ten-max-ends-nine-max"),
    ],
)
def test_the_final_table_forms_by_a_new_draw_when_its_size_is_left(
    rulebook: str, max_seats: int, entries: int, final: int
) -> None:
    competition = drawn(entries, regulations(rulebook=rulebook, max_seats=max_seats))
    _down_to(competition, final + 1)
    with pytest.raises(CompetitionError, match=f"forms when {final} players are left, and {final + 1} are"):
        competition.commit_final_table_draw(commitment("early"), at(150), SECRETARY)
    _down_to(competition, final)
    _final_draw(competition)
    assert competition.final_table
    assert sorted(competition.seats[p] for p in competition.remaining) == [
        (1, s) for s in range(1, final + 1)
    ]
    assert competition.buttons == {1: final}


def test_the_final_tables_seed_must_be_the_one_committed() -> None:
    competition = drawn(12)
    _down_to(competition, 9)
    competition.commit_final_table_draw(commitment("committed"), at(200), SECRETARY)
    with pytest.raises(CompetitionError, match="does not hash to the commitment") as refused:
        competition.conduct_final_table_draw(
            "other", draw("other", competition.remaining, 9), CHIEF.person, at(201), SECRETARY
        )
    assert refused.value.rule == RuleRef("bfsp", "3.1")
    with pytest.raises(CompetitionError, match="committed already"):
        competition.commit_final_table_draw(commitment("again"), at(202), SECRETARY)


def test_the_final_table_is_formed_once() -> None:
    competition = drawn(12)
    _down_to(competition, 9)
    with pytest.raises(CompetitionError, match="must be recorded before the final-table draw"):
        competition.conduct_final_table_draw(
            "s", draw("s", competition.remaining, 9), CHIEF.person, at(1), SECRETARY
        )
    _final_draw(competition)
    with pytest.raises(CompetitionError, match="formed once"):
        competition.commit_final_table_draw(commitment("again"), at(300), SECRETARY)


def test_an_olympic_competition_has_no_final_table_draw() -> None:
    competition = drawn(9, regulations(format=Format.OLYMPIC))
    with pytest.raises(CompetitionError, match="in the American format"):
        competition.commit_final_table_draw(commitment("s"), at(1), SECRETARY)


def test_a_ten_max_federation_event_seats_nine_at_its_last_two_tables() -> None:
    competition = drawn(25, regulations(max_seats=10))
    assert competition.seats_per_table == 10
    _down_to(competition, 18)
    assert competition.seats_per_table == 9


@pytest.mark.parametrize("tv", ["TV-45"])
def test_the_limit_raise_cap_lifts_when_the_event_is_down_to_two_players(tv: str) -> None:
    competition = drawn(4, regulations(rulebook="tda-2022"))
    _down_to(competition, 3)
    assert not competition.raise_cap_lifted
    _down_to(competition, 2)
    assert competition.raise_cap_lifted


def test_tv_45_a_table_heads_up_keeps_the_cap_while_the_event_has_more_than_two_players() -> None:
    competition = drawn(12, regulations(rulebook="tda-2022"))
    at_table_1 = [p for p in competition.remaining if competition.seats[p][0] == 1]
    for n, player in enumerate(at_table_1[2:]):
        competition.eliminate(f"t1-{n}", [Bust(player, 1, 100)], at(10 + n), JUDGE)
    assert sum(1 for p in competition.remaining if competition.seats[p][0] == 1) == 2
    assert competition.players_left > 2 and not competition.raise_cap_lifted


def test_the_final_table_forms_when_a_hand_busts_more_players_than_were_above_its_size() -> None:
    competition = drawn(12)
    _down_to(competition, 10)
    table = competition.seats[competition.remaining[0]][0]
    two = [p for p in competition.remaining if competition.seats[p][0] == table][:2]
    competition.eliminate("double", [Bust(two[0], table, 100), Bust(two[1], table, 200)], at(100), JUDGE)
    assert competition.players_left == 8
    _final_draw(competition)
    assert sorted(competition.seats[p] for p in competition.remaining) == [(1, s) for s in range(1, 9)]


def test_the_final_table_is_drawn_once_the_hands_have_ended() -> None:
    competition = drawn(12)
    _down_to(competition, 9)
    assert competition.floor is not None
    table = min(competition.floor.counts().items(), key=lambda count: count[1])[0]
    positions = competition.floor.next_positions(table)
    assert positions is not None
    competition.start_table_hand(table, positions.button, at(150), JUDGE)
    competition.commit_final_table_draw(commitment("final seed"), at(200), SECRETARY)
    seats = draw("final seed", competition.remaining, 9)
    with pytest.raises(CompetitionError, match="play stops after the current hand"):
        competition.conduct_final_table_draw("final seed", seats, CHIEF.person, at(201), SECRETARY)
    competition.end_table_hand(table, at(202), JUDGE)
    competition.conduct_final_table_draw("final seed", seats, CHIEF.person, at(203), SECRETARY)
