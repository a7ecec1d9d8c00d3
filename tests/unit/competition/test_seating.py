"""A table's button and blinds from hand to hand, who is dealt in, and newcomers' seats."""

from __future__ import annotations

import pytest

from domain.competition.draw import draw, starting_buttons
from domain.competition.floor import Floor
from domain.competition.seating import Positions, Table
from domain.errors import CompetitionError, RuleRef

pytestmark = pytest.mark.unit


def one_table(seats: dict[int, str], rulebook: str = "bfsp", button: int | None = 9, size: int = 9) -> Floor:
    seating = {player: (1, seat) for seat, player in seats.items()}
    return Floor.open(seating, size, rulebook, buttons={} if button is None else {1: button})


def play(floor: Floor, *buttons: int, table: int = 1) -> Floor:
    for button in buttons:
        floor = floor.hand_started(table, button).hand_ended(table)
    return floor


FULL = {seat: f"p{seat}" for seat in range(1, 10)}


def test_under_the_federation_the_first_button_is_the_last_seat_and_the_blinds_follow_it() -> None:
    floor = one_table(FULL)
    assert floor.next_positions(1) == Positions(button=9, small_blind=1, big_blind=2)


def test_under_the_federation_the_button_moves_one_player_each_hand() -> None:
    floor = play(one_table(FULL), 9, 1, 2)
    assert floor.next_positions(1) == Positions(button=3, small_blind=4, big_blind=5)


def test_a_button_that_skips_a_player_is_refused_with_the_rule() -> None:
    floor = play(one_table(FULL), 9)
    with pytest.raises(CompetitionError) as refused:
        floor.hand_started(1, 2)
    assert refused.value.rule == RuleRef("bfsp", "5.3.2")
    assert "belongs on seat 1, not seat 2" in refused.value.reason


def test_after_a_misdeal_the_hand_is_dealt_again_with_the_same_button() -> None:
    floor = play(one_table(FULL), 9, 1)
    again = floor.hand_started(1, 1, after_misdeal=True)
    assert again.table(1).last_hand == Positions(1, 2, 3)
    with pytest.raises(CompetitionError) as refused:
        floor.hand_started(1, 2, after_misdeal=True)
    assert refused.value.rule == RuleRef("bfsp", "6.3")


def test_under_the_federation_the_button_passes_to_the_small_blind_even_when_the_button_busts() -> None:
    floor = play(one_table(FULL), 9, 1).eliminate("p1")
    assert floor.next_positions(1) == Positions(button=2, small_blind=3, big_blind=4)


def test_under_the_dead_button_a_busted_big_blind_leaves_a_dead_small_blind_and_the_button_follows() -> None:
    floor = play(one_table(FULL, "tda-2022"), 9, 1).eliminate("p3")
    positions = floor.next_positions(1)
    assert positions == Positions(button=2, small_blind=3, big_blind=4)
    assert floor.table(1).occupant(positions.small_blind) is None


def test_under_the_dead_button_the_big_blind_moves_to_the_next_player() -> None:
    floor = play(one_table(FULL, "tda-2022"), 9).eliminate("p3")
    assert floor.next_positions(1) == Positions(button=1, small_blind=2, big_blind=4)


@pytest.mark.parametrize("rulebook", ["bfsp", "tda-2022"])
def test_tv_109_heads_up_the_button_is_the_small_blind_and_nobody_is_big_blind_twice_in_a_row(
    rulebook: str,
) -> None:
    floor = play(one_table({3: "ann", 5: "bob", 7: "cat"}, rulebook, button=3), 3)
    assert floor.table(1).last_hand == Positions(button=3, small_blind=5, big_blind=7)
    floor = floor.eliminate("ann")
    positions = floor.next_positions(1)
    assert positions == Positions(button=7, small_blind=7, big_blind=5)
    heads_up = floor.hand_started(1, 7).hand_ended(1)
    assert heads_up.next_positions(1) == Positions(button=5, small_blind=5, big_blind=7)


def test_tv_109_a_heads_up_button_that_would_make_a_player_big_blind_twice_is_refused() -> None:
    floor = play(one_table({3: "ann", 5: "bob", 7: "cat"}, button=3), 3).eliminate("ann")
    with pytest.raises(CompetitionError) as refused:
        floor.hand_started(1, 5)
    assert "belongs on seat 7" in refused.value.reason


def test_a_table_whose_button_is_drawn_takes_the_first_button_it_is_given() -> None:
    floor = one_table(FULL, "tda-2022", button=None)
    assert floor.next_positions(1) is None
    started = floor.hand_started(1, 4)
    assert started.table(1).last_hand == Positions(4, 5, 6)


def test_tv_106_a_newcomer_between_the_button_and_the_small_blind_is_seated_but_not_dealt_in() -> None:
    # dead button: the last hand's small blind was seat 3 and its big blind seat 8, so the next button is on
    # seat 3 and the next small blind on seat 8; zoe, seated on 5 since, sits between them
    table = Table(1, 9, ((1, "ann"), (2, "bob"), (5, "zoe"), (8, "cat")), last_hand=Positions(2, 3, 8))
    floor = Floor("tda-2022", 9, (table,), 1)
    assert floor.next_positions(1) == Positions(button=3, small_blind=8, big_blind=1)
    assert floor.dealt_in(1) == ("ann", "bob", "cat")
    started = floor.hand_started(1, 3)
    assert "zoe" not in started.table(1).in_hand
    after = started.hand_ended(1)
    assert after.next_positions(1) == Positions(button=8, small_blind=1, big_blind=2)
    assert "zoe" in after.dealt_in(1)


def test_tv_106_a_hand_that_deals_in_a_player_behind_the_button_is_refused() -> None:
    table = Table(1, 9, ((1, "ann"), (2, "bob"), (5, "zoe"), (8, "cat")), last_hand=Positions(2, 3, 8))
    floor = Floor("tda-2022", 9, (table,), 1)
    with pytest.raises(CompetitionError) as refused:
        floor.hand_started(1, 3, seats=[(1, "ann"), (2, "bob"), (5, "zoe"), (8, "cat")])
    assert refused.value.rule == RuleRef("tda-2022", "10-A")
    assert "zoe sits between the button and the small blind" in refused.value.reason
    floor.hand_started(1, 3, seats=[(1, "ann"), (2, "bob"), (8, "cat")])


def test_a_hand_deals_in_everyone_where_the_floor_seats_them() -> None:
    floor = one_table({1: "ann", 2: "bob", 3: "cat"}, button=3)
    with pytest.raises(CompetitionError) as wrong_seat:
        floor.hand_started(1, 3, seats=[(1, "bob"), (2, "ann"), (3, "cat")])
    assert wrong_seat.value.rule == RuleRef("bfsp", "5.2")
    assert "table 1 seat 1 is ann's, not bob's; bob sits at table 1 seat 2" in wrong_seat.value.reason
    with pytest.raises(CompetitionError, match="cat sits at table 1 seat 3 and is dealt in, present or not"):
        floor.hand_started(1, 3, seats=[(1, "ann"), (2, "bob")])
    with pytest.raises(CompetitionError, match="table 1 seat 4 is empty, not dan's"):
        floor.hand_started(1, 3, seats=[(1, "ann"), (2, "bob"), (3, "cat"), (4, "dan")])


def test_a_stud_hand_has_no_button_and_deals_everyone_in() -> None:
    floor = one_table({1: "ann", 2: "bob", 3: "cat"}, button=3)
    floor = floor.hand_started(1, None, seats=[(1, "ann"), (2, "bob"), (3, "cat")])
    assert floor.table(1).in_hand == {"ann", "bob", "cat"}
    assert floor.table(1).last_hand is None


def test_tv_106_a_late_registrant_anywhere_else_is_dealt_in_at_once() -> None:
    floor = play(one_table({1: "ann", 2: "bob", 3: "cat", 6: "dan"}, "tda-2022", button=6), 6)
    assert floor.next_positions(1) == Positions(button=1, small_blind=2, big_blind=3)
    for seat in (4, 5, 7, 8, 9):
        assert "zoe" in floor.seat_newcomer("zoe", 1, seat).dealt_in(1)


def test_a_newcomer_cannot_take_a_seat_that_is_taken_or_a_second_seat() -> None:
    floor = one_table({1: "ann", 2: "bob"})
    with pytest.raises(CompetitionError) as taken:
        floor.seat_newcomer("cat", 1, 2)
    assert taken.value.rule == RuleRef("tda-2022", "10-A")
    with pytest.raises(CompetitionError):
        floor.seat_newcomer("ann", 1, 5)


def test_a_table_cannot_start_a_hand_while_its_last_one_is_running() -> None:
    floor = one_table(FULL).hand_started(1, 9)
    with pytest.raises(CompetitionError, match="still playing"):
        floor.hand_started(1, 1)


def test_who_is_in_the_hand_follows_the_folds_and_ends_with_the_hand() -> None:
    floor = one_table(FULL).hand_started(1, 9).left_hand(1, "p4")
    assert "p4" not in floor.table(1).in_hand
    assert "p5" in floor.table(1).in_hand
    assert floor.hand_ended(1).table(1).in_hand == frozenset()


def test_the_floor_opens_from_the_seat_draw_with_each_tables_button_on_its_last_seat_taken() -> None:
    assignments = draw("opening draw", [f"p{n:02d}" for n in range(23)], 9)
    floor = Floor.from_draw(assignments, starting_buttons(assignments), 9)
    assert floor.counts() == {1: 8, 2: 8, 3: 7}
    assert floor.is_balanced()
    assert floor.next_positions(3) == Positions(button=7, small_blind=1, big_blind=2)
    assert floor.seat_of(assignments[0].participant) == (assignments[0].table, assignments[0].seat)
