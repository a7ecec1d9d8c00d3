"""Balancing: who moves, from where, to which seat; the tolerance; the exception for a player in a hand; halting."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.competition.floor import BalanceView, Floor
from domain.competition.floor_events import (
    BalanceToleranceWidened,
    MoveReason,
    MoverExceptionDecided,
    MoveRule,
    PlayerMoved,
    TableHalted,
)
from domain.competition.seating import Positions, Table, strictly_between
from domain.errors import CompetitionError, NotPermittedError, RuleRef
from domain.officials import Delegation
from domain.roles import Role

pytestmark = pytest.mark.unit

CJ = Role.CHIEF_JUDGE


#: a full table's last hand: button 9, small blind 1, big blind 2, so seat 3 is the next big blind
LAST_HAND_AT_FULL_TABLE = Positions(9, 1, 2)


def full_table(number: int = 1, last: Positions | None = LAST_HAND_AT_FULL_TABLE) -> Table:
    return Table(
        number, 9, tuple((s, f"t{number}s{s}") for s in range(1, 10)), last_hand=last, first_button=9
    )


def seated(number: int, seats: tuple[int, ...], last: Positions | None) -> Table:
    return Table(number, 9, tuple((s, f"t{number}s{s}") for s in seats), last_hand=last, first_button=9)


def floor_of(*tables: Table, rulebook: str = "tda-2022") -> Floor:
    return Floor(rulebook, 9, tables, 1)


def balance(
    participant: str, from_seat: int, to_seat: int, from_table: int = 1, to_table: int = 2
) -> PlayerMoved:
    return PlayerMoved(participant, from_table, from_seat, to_table, to_seat, MoveReason.BALANCE)


# --- who moves, and where to ------------------------------------------------------------------------------------

#: the short table's last hand: button 3, small blind 4, big blind 5; seats 6 and 7 are free, so the next big
#: blind falls on whoever sits in seat 6 first (dead button)
SHORT_WITH_FREE_BIG_BLIND = seated(2, (1, 2, 3, 4, 5, 8, 9), Positions(3, 4, 5))


def test_tv_107_the_next_big_blind_of_the_fullest_table_moves_to_the_big_blind_of_the_short_table() -> None:
    floor = floor_of(full_table(), SHORT_WITH_FREE_BIG_BLIND)
    move = floor.next_balancing_move("cj")
    assert move == PlayerMoved("t1s3", 1, 3, 2, 6, MoveReason.BALANCE, MoveRule.NEXT_BIG_BLIND, "cj")
    after = floor.apply_move(move, CJ)
    assert after.counts() == {1: 8, 2: 8}
    positions = after.next_positions(2)
    assert positions is not None and positions.big_blind == 6


def test_tv_107_a_player_is_never_moved_into_the_small_blind() -> None:
    # the last big blind (seat 5) has gone: the next small blind is dead on seat 5, the big blind is seat 8
    short = seated(2, (1, 2, 3, 4, 8, 9), Positions(3, 4, 5))
    floor = floor_of(full_table(), short)
    move = floor.next_balancing_move()
    assert move is not None and move.to_seat == 6
    with pytest.raises(CompetitionError) as refused:
        floor.verify_move(balance("t1s3", 3, 5), CJ)
    assert refused.value.rule == RuleRef("tda-2022", "11-A")
    assert "seat 5 is the small blind" in refused.value.reason
    assert "t1s3 takes table 2 seat 6" in refused.value.reason


def test_tv_106_a_player_is_never_moved_between_the_button_and_the_small_blind() -> None:
    # next hand: button on empty seat 3, small blind 8, big blind 9; seats 4 to 7 are behind the button
    short = seated(2, (1, 2, 8, 9), Positions(2, 3, 8))
    floor = floor_of(full_table(), short)
    move = floor.next_balancing_move()
    assert move is not None and move.to_seat == 3
    with pytest.raises(CompetitionError) as refused:
        floor.verify_move(balance("t1s3", 3, 5), CJ)
    assert refused.value.rule == RuleRef("tda-2022", "10-A")
    assert "between the button and the small blind" in refused.value.reason


def test_the_wrong_player_moved_is_refused_naming_who_must_move_where() -> None:
    floor = floor_of(full_table(), SHORT_WITH_FREE_BIG_BLIND, rulebook="bfsp")
    move = floor.next_balancing_move()
    assert move is not None
    with pytest.raises(CompetitionError) as refused:
        floor.verify_move(balance("t1s7", 7, move.to_seat), CJ)
    assert refused.value.rule == RuleRef("bfsp", "3.1")
    assert refused.value.reason.startswith(
        f"{move.participant} must move: he would be big blind next at table 1"
    )
    assert f"to table 2 seat {move.to_seat}" in refused.value.reason


def test_a_seat_further_from_the_big_blind_is_refused() -> None:
    floor = floor_of(full_table(), SHORT_WITH_FREE_BIG_BLIND)
    with pytest.raises(CompetitionError) as refused:
        floor.verify_move(balance("t1s3", 3, 7), CJ)
    assert "the free seat nearest the big blind is seat 6, not seat 7" in refused.value.reason
    with pytest.raises(CompetitionError, match="seat 8 is not free"):
        floor.verify_move(balance("t1s3", 3, 8), CJ)


def test_a_move_when_the_tables_are_balanced_is_refused() -> None:
    floor = floor_of(full_table(), seated(2, (1, 2, 3, 4, 5, 6, 7, 8), Positions(3, 4, 5)))
    assert floor.is_balanced()
    assert floor.next_balancing_move() is None
    with pytest.raises(CompetitionError) as refused:
        floor.verify_move(balance("t1s3", 3, 9), CJ)
    assert refused.value.rule == RuleRef("tda-2022", "11-C")
    assert "nobody needs to move" in refused.value.reason


def test_players_move_from_a_fullest_table_to_a_table_with_the_fewest() -> None:
    middle = seated(3, (1, 2, 3, 4, 5, 6, 7, 8), Positions(3, 4, 5))
    floor = floor_of(full_table(), SHORT_WITH_FREE_BIG_BLIND, middle)
    with pytest.raises(CompetitionError, match="table 3 has 8 players; players move from the fullest table"):
        floor.verify_move(balance("t3s6", 6, 6, from_table=3), CJ)
    with pytest.raises(
        CompetitionError, match="table 3 has 8 players; the player goes to the table that needs one"
    ):
        floor.verify_move(balance("t1s3", 3, 9, to_table=3), CJ)
    with pytest.raises(CompetitionError, match="does not sit at table 1 seat 4"):
        floor.verify_move(balance("t1s3", 4, 6), CJ)


def test_only_the_chief_judge_or_the_person_he_authorised_to_balance_moves_players() -> None:
    floor = floor_of(full_table(), SHORT_WITH_FREE_BIG_BLIND)
    move = floor.next_balancing_move()
    assert move is not None
    with pytest.raises(NotPermittedError):
        floor.verify_move(move, Role.DEALER)
    with pytest.raises(NotPermittedError):
        floor.verify_move(move, Role.AUTHORISED)
    floor.verify_move(move, Role.AUTHORISED, delegations=(Delegation.BALANCING,))


def test_a_fullest_table_owing_a_player_deals_no_hand_until_he_has_moved() -> None:
    floor = floor_of(full_table(), SHORT_WITH_FREE_BIG_BLIND)
    with pytest.raises(CompetitionError) as refused:
        floor.hand_started(1, 1)
    assert "table 1 owes a player before its next hand" in refused.value.reason
    assert "t1s3 moves to table 2 seat 6 first" in refused.value.reason
    floor.hand_started(2, 4)
    move = floor.next_balancing_move()
    assert move is not None
    floor.apply_move(move, CJ).hand_started(1, 1)


def test_when_every_free_seat_is_behind_the_button_the_move_waits_for_the_short_tables_next_hand() -> None:
    # next hand at table 2: button on seat 3, small blind 8, big blind 9; its free seats 4 to 7 are behind the button
    short = seated(2, (1, 2, 3, 8, 9), Positions(2, 3, 8))
    floor = floor_of(full_table(), short)
    assert floor.next_balancing_move() is None
    with pytest.raises(CompetitionError) as refused:
        floor.verify_move(balance("t1s3", 3, 4), CJ)
    assert "no free seat at table 2 can take t1s3 before its next hand" in refused.value.reason
    with pytest.raises(
        CompetitionError, match="its next big blind moves as soon as a short table has a seat"
    ):
        floor.hand_started(1, 1)
    moved_on = floor.hand_started(2, 3).hand_ended(2)
    assert moved_on.next_balancing_move() == PlayerMoved("t1s3", 1, 3, 2, 4, MoveReason.BALANCE)


def test_a_table_whose_first_button_is_still_to_be_drawn_deals_its_first_hand_and_then_owes_the_player() -> (
    None
):
    drawn_at_the_table = replace(full_table(last=None), first_button=None)
    floor = floor_of(drawn_at_the_table, SHORT_WITH_FREE_BIG_BLIND)
    assert floor.next_balancing_move() is None
    after_one = floor.hand_started(1, 5).hand_ended(1)
    move = after_one.next_balancing_move()
    assert move is not None and (move.participant, move.to_seat) == ("t1s8", 6)


def test_required_moves_balance_the_floor_in_order() -> None:
    floor = floor_of(full_table(), seated(2, (1, 2, 3, 4, 5, 8), Positions(3, 4, 5)))
    moves = floor.required_moves()
    assert [m.participant for m in moves] == ["t1s3"]
    for move in moves:
        floor = floor.apply_move(move, CJ)
    assert floor.counts() == {1: 8, 2: 7}


def test_the_balance_view_says_what_the_floor_must_do_now() -> None:
    view = floor_of(full_table(), SHORT_WITH_FREE_BIG_BLIND).balance_view()
    assert view == BalanceView(
        counts={1: 9, 2: 7},
        tolerance=1,
        balanced=False,
        next_move=PlayerMoved("t1s3", 1, 3, 2, 6, MoveReason.BALANCE),
        halts_due=(),
        table_to_break=None,
        final_table_due=False,
    )
    assert tv_108_floor().balance_view().halts_due == (1,)


# --- the tolerance -------------------------------------------------------------------------------------------


def test_the_chief_judge_may_let_tables_differ_by_two_and_the_decision_lapses_once_they_are_within_one() -> (
    None
):
    floor = floor_of(full_table(), SHORT_WITH_FREE_BIG_BLIND, rulebook="bfsp")
    widened = floor.widen_tolerance(
        BalanceToleranceWidened(2, "cj", "the short table's player is at a break"), CJ
    )
    assert widened.is_balanced()
    assert widened.next_balancing_move() is None
    widened.hand_started(1, 1)
    assert widened.eliminate("t1s5").tolerance == 1


def test_only_the_chief_judge_widens_the_tolerance_and_never_beyond_two() -> None:
    floor = floor_of(full_table(), SHORT_WITH_FREE_BIG_BLIND, rulebook="bfsp")
    with pytest.raises(NotPermittedError):
        floor.widen_tolerance(BalanceToleranceWidened(2, "judge", "why not"), Role.JUDGE)
    with pytest.raises(CompetitionError) as refused:
        floor.widen_tolerance(BalanceToleranceWidened(3, "cj", "a long break"), CJ)
    assert refused.value.rule == RuleRef("bfsp", "3.1")
    with pytest.raises(CompetitionError, match="says why"):
        floor.widen_tolerance(BalanceToleranceWidened(2, "cj", " "), CJ)


# --- the next player not in the hand (bfsp 3.1) ---------------------------------------------------------------

#: a short table three short: its last hand's button 7, so the next is button 1, small blind 2, big blind 3
THREE_SHORT = seated(2, (1, 2, 3, 5, 6, 7), Positions(7, 1, 2))


def hand_in_progress(folded: tuple[str, ...]) -> Floor:
    floor = floor_of(full_table(last=None), THREE_SHORT, rulebook="bfsp")
    floor = replace(floor, tolerance=3).hand_started(1, 9)
    floor = replace(floor, tolerance=1)
    for player in folded:
        floor = floor.left_hand(1, player)
    return floor


def test_the_next_big_blind_still_in_the_hand_waits_for_it_to_end() -> None:
    floor = hand_in_progress(folded=("t1s6",))
    assert floor.next_positions(1) == Positions(1, 2, 3)
    assert floor.next_balancing_move() is None
    with pytest.raises(CompetitionError) as refused:
        floor.verify_move(balance("t1s3", 3, 4), CJ)
    assert "t1s3, the next big blind at table 1, is still in the hand" in refused.value.reason


def test_the_chief_judge_moves_the_next_player_not_in_the_hand_to_a_seat_no_worse() -> None:
    floor = hand_in_progress(folded=("t1s6",))
    decided = floor.decide_mover_exception(MoverExceptionDecided(1, "t1s3", "t1s6", "cj"), CJ)
    move = decided.next_balancing_move("cj")
    # t1s6 was three hands from his big blind; seat 4 of table 2 is one hand from it, seat 8 four
    assert move == PlayerMoved("t1s6", 1, 6, 2, 8, MoveReason.BALANCE, MoveRule.NEXT_NOT_IN_HAND, "cj")
    with pytest.raises(CompetitionError) as refused:
        decided.verify_move(replace(move, to_seat=4), CJ)
    assert "seat 4 is worse than the seat t1s6 leaves" in refused.value.reason
    after = decided.apply_move(move, CJ)
    assert after.exceptions == ()


def test_the_exception_is_the_chief_judges_and_names_the_right_players() -> None:
    floor = hand_in_progress(folded=("t1s6",))
    with pytest.raises(NotPermittedError):
        floor.decide_mover_exception(MoverExceptionDecided(1, "t1s3", "t1s6", "judge"), Role.JUDGE)
    with pytest.raises(CompetitionError, match="next player clockwise not in the hand at table 1 is t1s6"):
        floor.decide_mover_exception(MoverExceptionDecided(1, "t1s3", "t1s7", "cj"), CJ)
    with pytest.raises(CompetitionError, match="t1s3 would be big blind next"):
        floor.decide_mover_exception(MoverExceptionDecided(1, "t1s4", "t1s6", "cj"), CJ)
    with pytest.raises(CompetitionError, match="needs the Chief Judge's decision"):
        floor.verify_move(replace(balance("t1s6", 6, 8), rule_applied=MoveRule.NEXT_NOT_IN_HAND), CJ)


def test_the_exception_needs_a_table_more_than_two_short() -> None:
    floor = hand_in_progress(folded=("t1s6",)).eliminate("t1s9")
    with pytest.raises(CompetitionError) as refused:
        floor.decide_mover_exception(MoverExceptionDecided(1, "t1s3", "t1s6", "cj"), CJ)
    assert refused.value.rule == RuleRef("bfsp", "3.1")
    assert "2 players short" in refused.value.reason


def test_the_tda_has_no_such_exception() -> None:
    floor = replace(hand_in_progress(folded=("t1s6",)), rulebook="tda-2022")
    with pytest.raises(CompetitionError, match="the tda-2022 rules move the next big blind only"):
        floor.decide_mover_exception(MoverExceptionDecided(1, "t1s3", "t1s6", "cj"), CJ)


# --- halting a short table (TDA 2022 11-D) ----------------------------------------------------------------------


def tv_108_floor(rulebook: str = "tda-2022", size: int = 9) -> Floor:
    short = Table(1, size, tuple((s, f"t1s{s}") for s in (1, 2, 3, 4, 7)), last_hand=Positions(3, 4, 5))
    big = Table(2, size, tuple((s, f"t2s{s}") for s in range(1, 9)), last_hand=Positions(1, 2, 3))
    return Floor(rulebook, size, (short, big), 1)


def test_tv_108_a_table_three_short_halts_when_its_big_blind_reaches_an_empty_seat() -> None:
    floor = tv_108_floor()
    assert floor.halts_due("cj") == (TableHalted(1, 5, 2, 8, 6, "cj"),)
    halted = floor.halt(TableHalted(1, 5, 2, 8, 6, "cj"), CJ)
    with pytest.raises(CompetitionError) as refused:
        halted.hand_started(1, 4)
    assert refused.value.rule == RuleRef("tda-2022", "11-D")
    move = halted.next_balancing_move()
    assert move is not None and move.to_table == 1 and move.to_seat == 6
    resumed = halted.apply_move(move, CJ)
    assert not resumed.table(1).halted


def test_tv_108_a_table_whose_big_blind_reaches_a_player_plays_on() -> None:
    floor = tv_108_floor()
    short = replace(floor.table(1), last_hand=Positions(7, 1, 2))
    floor = replace(floor, tables=(short, floor.table(2)))
    assert floor.halts_due() == ()
    with pytest.raises(CompetitionError, match="table 1 does not halt"):
        floor.halt(TableHalted(1, 5, 2, 8, 3, "cj"), CJ)


def test_tv_108_two_short_or_a_six_max_event_does_not_halt() -> None:
    two_short = tv_108_floor().eliminate("t2s8")
    assert two_short.halts_due() == ()
    assert tv_108_floor(size=6).halts_due() == ()
    assert tv_108_floor(rulebook="tda-2017", size=10).halts_due() == ()


def test_a_halted_table_resumes_when_it_is_no_longer_three_short() -> None:
    halted = tv_108_floor().halt(TableHalted(1, 5, 2, 8, 6, "cj"), CJ)
    assert not halted.eliminate("t2s8").table(1).halted


# --- from any legal floor, the balancing moves reach a balanced floor -------------------------------------------


@st.composite
def legal_floors(draw: st.DrawFn) -> Floor:
    rulebook = draw(st.sampled_from(["bfsp", "tda-2022"]))
    size = draw(st.sampled_from([8, 9, 10]))
    count = draw(st.integers(2, 4))
    # a 10-max event's last two tables play 9-max under the federation (bfsp 3.1): seat 10 is closed
    highest = 9 if rulebook == "bfsp" and size == 10 and count == 2 else size
    seating: dict[str, tuple[int, int]] = {}
    buttons: dict[int, int] = {}
    for number in range(1, count + 1):
        seats = draw(st.lists(st.integers(1, highest), min_size=2, max_size=highest, unique=True))
        seating.update({f"t{number}s{seat}": (number, seat) for seat in seats})
        buttons[number] = max(seats)
    floor = Floor.open(seating, size, rulebook, buttons)
    for _ in range(draw(st.integers(0, 20))):
        number = draw(st.integers(1, count))
        table = floor.table(number)
        if draw(st.booleans()) and len(table.seats) > 2:
            floor = floor.eliminate(draw(st.sampled_from(table.players)))
            continue
        positions = floor.next_positions(number)
        assert positions is not None
        # while the floor is being built, hands are dealt whatever the balance: any floor of seats is legal
        floor = replace(floor, tolerance=size).hand_started(number, positions.button).hand_ended(number)
    return replace(floor, tolerance=floor.book.balance_tolerance)


@settings(max_examples=150, deadline=None)
@given(legal_floors())
def test_next_balancing_move_reaches_a_balanced_floor_and_never_seats_anyone_behind_the_button(
    floor: Floor,
) -> None:
    players = sum(floor.counts().values())
    for _ in range(60):
        if floor.is_balanced():
            break
        move = floor.next_balancing_move("cj")
        if move is None:
            for table in floor.tables:
                positions = floor.next_positions(table.number)
                assert positions is not None
                try:
                    floor = floor.hand_started(table.number, positions.button).hand_ended(table.number)
                except CompetitionError as owing:
                    assert "owes a player" in owing.reason
            continue
        before = floor.table(move.to_table)
        floor = floor.apply_move(move, CJ)
        destination = floor.table(move.to_table)
        positions = floor.next_positions(move.to_table)
        assert positions is not None
        assert not strictly_between(
            positions.button, move.to_seat, positions.small_blind, destination.max_seats
        )
        assert move.to_seat != positions.small_blind or positions.small_blind == positions.button
        if before.last_hand is not None:
            assert destination.occupant(positions.big_blind) != before.occupant(before.last_hand.big_blind)
        assert move.participant in floor.dealt_in(move.to_table)
    assert floor.is_balanced()
    assert sum(floor.counts().values()) == players
