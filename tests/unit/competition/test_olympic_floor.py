"""An Olympic stage's tables on the floor (bfsp 3.2): the stage's draw opens a floor of its tables, whose hands'
buttons are judged by the floor's rules (bfsp 5.3.1, 5.3.2); nobody is moved and no table is halted or broken
there, so a short table owes nothing; eliminations leave its seats, the next stage's draw replaces it, and a
Competition read back from its stored events has the same floor."""

from __future__ import annotations

from uuid import UUID

import pytest
from eventsourcing.application import Application

from competition.a_competition import CHIEF, DEALER, JUDGE, SECRETARY, at, drawn, regulations
from domain.competition.aggregate import Competition, competition_stream_id
from domain.competition.draw import commitment, draw
from domain.competition.floor import Floor
from domain.competition.floor_events import (
    BalanceToleranceWidened,
    MoverExceptionDecided,
    TableBreakCommitted,
    TableHalted,
)
from domain.competition.placings import Bust
from domain.competition.regulations import Format
from domain.errors import CompetitionError, RuleRef

pytestmark = pytest.mark.unit

OLYMPIC = RuleRef("bfsp", "3.2")


def _semi_final() -> Competition:
    """18 players at two tables of 9: the semi-final."""
    return drawn(18, regulations(format=Format.OLYMPIC))


def _at_table(competition: Competition, table: int) -> list[str]:
    return [p for p in competition.remaining if competition.seats[p][0] == table]


def _bust(competition: Competition, players: list[str], table: int, minutes: float) -> None:
    for n, player in enumerate(players):
        competition.eliminate(f"T{table}/{n}", [Bust(player, table, 100)], at(minutes + n), JUDGE)


def _american_floor_of(competition: Competition) -> Floor:
    """The same seats as an American competition's floor would hold them."""
    assert competition.floor is not None
    seating = {p: (t.number, seat) for t in competition.floor.tables for seat, p in t.seats}
    return Floor.open(seating, 9, "bfsp", competition.buttons)


def test_the_stage_draw_opens_a_floor_of_its_tables_with_the_buttons_it_drew() -> None:
    competition = _semi_final()
    floor = competition.floor
    assert floor is not None and floor.olympic
    assert {t.number: t.first_button for t in floor.tables} == competition.buttons
    assert {t.number: set(t.players) for t in floor.tables} == {t: set(_at_table(competition, t)) for t in (1, 2)}


def test_an_olympic_tables_button_is_where_the_floor_puts_it_and_moves_a_seat_a_hand() -> None:
    competition = _semi_final()
    drawn_button = competition.buttons[1]
    elsewhere = min(seat for p, (t, seat) in competition.seats.items() if t == 1 and seat != drawn_button)
    with pytest.raises(CompetitionError) as refused:
        competition.start_table_hand(1, elsewhere, at(1), DEALER)
    assert refused.value.rule == RuleRef("bfsp", "5.3.2")
    assert str(refused.value.reason) == f"the button at table 1 belongs on seat {drawn_button}, not seat {elsewhere}"
    competition.start_table_hand(1, drawn_button, at(1), DEALER)
    competition.end_table_hand(1, at(2), DEALER)
    assert competition.floor is not None
    moved_to = competition.floor.next_positions(1)
    assert moved_to is not None and moved_to.button != drawn_button
    with pytest.raises(CompetitionError, match=f"belongs on seat {moved_to.button}"):
        competition.start_table_hand(1, drawn_button, at(3), DEALER)
    competition.start_table_hand(1, moved_to.button, at(3), DEALER)


def test_a_short_olympic_table_owes_nothing_and_no_player_is_moved_nor_table_broken() -> None:
    competition = _semi_final()
    _bust(competition, _at_table(competition, 1)[:5], 1, 5)
    american = _american_floor_of(competition)
    move = american.next_balancing_move(CHIEF.person)
    assert move is not None and move.from_table == 2  # the American floor would move a player to table 1
    with pytest.raises(CompetitionError, match="owes a player"):
        american.hand_started(2, competition.buttons[2])
    competition.start_table_hand(2, competition.buttons[2], at(20), DEALER)
    with pytest.raises(CompetitionError, match="each table plays down to its own winner") as refused:
        competition.move_player(move, at(21), CHIEF)
    assert refused.value.rule == OLYMPIC
    with pytest.raises(CompetitionError) as refused:
        competition.commit_table_break(TableBreakCommitted(1, commitment("break")), at(22), CHIEF)
    assert refused.value.rule == OLYMPIC
    with pytest.raises(CompetitionError) as refused:
        competition.widen_tolerance(BalanceToleranceWidened(2, CHIEF.person, "a long hand"), at(22), CHIEF)
    assert refused.value.rule == OLYMPIC
    in_hand, instead = _at_table(competition, 2)[:2]
    with pytest.raises(CompetitionError) as refused:
        competition.decide_mover_exception(MoverExceptionDecided(2, in_hand, instead, CHIEF.person), at(22), CHIEF)
    assert refused.value.rule == OLYMPIC
    with pytest.raises(CompetitionError) as refused:
        competition.halt_table(TableHalted(1, 4, 2, 9, 1, CHIEF.person), at(22), CHIEF)
    assert refused.value.rule == OLYMPIC
    assert competition.floor is not None and competition.floor.balance_view().next_move is None


def test_eliminations_leave_the_floor_and_the_next_stage_draw_replaces_it() -> None:
    competition = _semi_final()
    winners = []
    for table in (1, 2):
        players = _at_table(competition, table)
        _bust(competition, players[1:], table, 10 * table)
        winners.append(players[0])
        assert competition.floor is not None and competition.floor.table(table).players == (players[0],)
    competition.commit_draw(commitment("final seed"), at(60), SECRETARY)
    seats = draw("final seed", tuple(winners), 9)
    competition.conduct_draw("final seed", seats, CHIEF.person, at(61), SECRETARY)
    floor = competition.floor
    assert floor is not None and floor.olympic
    assert [(t.number, set(t.players), t.first_button) for t in floor.tables] == [
        (1, set(winners), max(a.seat for a in seats))
    ]


def test_a_competition_read_back_from_its_events_has_the_same_olympic_floor() -> None:
    competition = _semi_final()
    _bust(competition, _at_table(competition, 1)[1:3], 1, 5)
    competition.start_table_hand(1, competition.buttons[1], at(10), DEALER)
    competition.end_table_hand(1, at(11), DEALER)
    competition.start_table_hand(2, competition.buttons[2], at(12), DEALER)
    app: Application[UUID] = Application()
    app.save(competition)
    again: object = app.repository.get(competition_stream_id("minsk-open-2026"))
    assert isinstance(again, Competition)
    assert again.floor == competition.floor and again.floor is not None and again.floor.olympic
    assert again.floor.table(2).hand_running and again.floor.table(1).last_hand is not None
