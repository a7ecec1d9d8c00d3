"""Breaking a table by the two-step random draw, the final table's seating, and the floor's events as JSON."""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from domain.cards import SUIT_SENIORITY, parse_card
from domain.competition.breaking import commitment, seat_cards
from domain.competition.draw import draw, shuffled, starting_buttons
from domain.competition.floor import Floor
from domain.competition.floor_events import (
    CATALOG,
    BalanceToleranceWidened,
    DrawCard,
    MoveReason,
    MoverExceptionDecided,
    MoveRule,
    PlayerMoved,
    TableBreakCommitted,
    TableBroken,
    TableHalted,
    decode,
    encode,
)
from domain.competition.seating import Positions, Table, free_seats, outlook, strictly_between
from domain.errors import CompetitionError, NotPermittedError, RuleRef
from domain.roles import Role

pytestmark = pytest.mark.unit

CJ = Role.CHIEF_JUDGE


def table(number: int, seats: tuple[int, ...], last: Positions | None, size: int = 9) -> Table:
    return Table(number, size, tuple((s, f"t{number}s{s}") for s in seats), last_hand=last, first_button=size)


def breaking_floor(rulebook: str = "tda-2017") -> Floor:
    """Tables 1 and 2 have room; table 3's four players break into them. At table 1 the next hand's button is on
    seat 4 and its small blind on seat 7 (dead button), so seats 5 and 6 are behind the button."""
    return Floor(
        rulebook,
        9,
        (
            table(1, (1, 2, 3, 4, 7, 8), Positions(3, 4, 7)),
            table(2, (1, 2, 3, 4, 5, 6), Positions(6, 1, 2)),
            table(3, (2, 4, 6, 9), Positions(9, 2, 4)),
        ),
        1,
    )


SEED = "table 3 breaks at 21:40, seed 0f5c"


def test_2017_tv_52_the_two_step_draw_never_seats_a_player_between_the_button_and_the_small_blind() -> None:
    floor = breaking_floor()
    broken = floor.break_table(3, SEED, "cj")
    assert sorted(m.participant for m in broken.moves) == ["t3s2", "t3s4", "t3s6", "t3s9"]
    after = floor.commit_break(TableBreakCommitted(3, commitment(SEED)), CJ).apply_break(broken, CJ)
    assert after.counts() == {1: 7, 2: 9}
    for move in broken.moves:
        destination = after.table(move.to_table)
        positions = after.next_positions(move.to_table)
        assert positions is not None
        assert destination.occupant(move.to_seat) == move.participant
        assert not strictly_between(
            positions.button, move.to_seat, positions.small_blind, destination.max_seats
        )
        assert move.participant in after.dealt_in(move.to_table)
        assert (move.reason, move.rule_applied) == (MoveReason.TABLE_BROKEN, MoveRule.BREAK_DRAW)
    # table 1 had one seat where a newcomer is dealt in at once; it takes its last player by balancing once the
    # button has moved on past its other free seats
    assert after.next_balancing_move() is None
    positions = after.next_positions(1)
    assert positions is not None
    moved_on = after.hand_started(1, positions.button).hand_ended(1)
    move = moved_on.next_balancing_move()
    assert move is not None and (move.from_table, move.to_table) == (2, 1)
    assert moved_on.apply_move(move, CJ).is_balanced()


def test_2017_tv_52_cards_are_dealt_from_seat_1_and_the_highest_card_takes_the_first_seat_card() -> None:
    floor = breaking_floor()
    broken = floor.break_table(3, SEED, "cj")
    assert [card.seat for card in broken.cards] == [2, 4, 6, 9]
    assert len({card.card for card in broken.cards}) == 4
    pile = shuffled(SEED, seat_cards(floor.tables, floor.table(3), floor.book, 9), "seat-cards")
    highest = max(broken.cards, key=lambda c: (c.card.rank, SUIT_SENIORITY[c.card.suit]))
    first = next(m for m in broken.moves if m.participant == highest.participant)
    assert (first.to_table, first.to_seat) == pile[0]


def test_2017_tv_52_the_draw_is_recomputed_from_its_seed() -> None:
    floor = breaking_floor()
    assert floor.break_table(3, SEED, "cj") == floor.break_table(3, SEED, "cj")
    draws = {floor.break_table(3, f"seed {n}", "cj").moves for n in range(12)}
    assert len(draws) > 1


def test_a_break_draw_needs_the_seed_committed_before_it() -> None:
    floor = breaking_floor()
    broken = floor.break_table(3, SEED, "cj")
    with pytest.raises(CompetitionError) as uncommitted:
        floor.apply_break(broken, CJ)
    assert uncommitted.value.rule == RuleRef("tda-2017", "D-09")
    assert "no commitment" in uncommitted.value.reason
    committed = floor.commit_break(TableBreakCommitted(3, commitment("another seed")), CJ)
    with pytest.raises(CompetitionError, match="not the one committed to"):
        committed.apply_break(broken, CJ)


def test_a_break_draw_that_is_not_the_seeds_is_refused_naming_the_seeds_seating() -> None:
    floor = breaking_floor().commit_break(TableBreakCommitted(3, commitment(SEED)), CJ)
    broken = floor.break_table(3, SEED, "cj")
    first, second, *rest = broken.moves
    swapped = (
        replace(first, to_table=second.to_table, to_seat=second.to_seat),
        replace(second, to_table=first.to_table, to_seat=first.to_seat),
        *rest,
    )
    with pytest.raises(CompetitionError) as refused:
        floor.apply_break(replace(broken, moves=swapped), CJ)
    assert f"seats {first.participant} at table {first.to_table} seat {first.to_seat}" in refused.value.reason
    other = next(c for c in (parse_card("2c"), parse_card("3c")) if c != broken.cards[0].card)
    other_cards = (replace(broken.cards[0], card=other), *broken.cards[1:])
    with pytest.raises(CompetitionError, match="not the ones its seed deals"):
        floor.apply_break(replace(broken, cards=other_cards), CJ)


def test_only_the_chief_judge_or_his_delegate_breaks_a_table() -> None:
    floor = breaking_floor()
    with pytest.raises(NotPermittedError) as refused:
        floor.commit_break(TableBreakCommitted(3, commitment(SEED)), Role.SECRETARY)
    assert refused.value.reason.startswith("the secretary may not commit the draw that breaks a table;")
    assert refused.value.rule == RuleRef("bfsp", "3.1")
    committed = floor.commit_break(TableBreakCommitted(3, commitment(SEED)), CJ)
    with pytest.raises(NotPermittedError, match="the secretary may not break a table;"):
        committed.apply_break(committed.break_table(3, SEED, "cj"), Role.SECRETARY)


def test_a_table_breaks_only_between_hands_and_when_its_players_fit_the_others() -> None:
    floor = breaking_floor()
    running = replace(floor, tables=(*floor.tables[:2], replace(floor.table(3), hand_running=True)))
    with pytest.raises(CompetitionError, match="table 3 is playing a hand"):
        running.verify_break(3)
    two = replace(floor, tables=floor.tables[:2])
    with pytest.raises(CompetitionError) as too_many:
        two.verify_break(2)
    assert "its 6 players need 6 seats and the other tables have 3 open" in too_many.value.reason
    alone = Floor("tda-2022", 9, (floor.table(1),), 1)
    with pytest.raises(CompetitionError, match="last table in play"):
        alone.verify_break(1)
    with pytest.raises(CompetitionError, match="no table 5"):
        floor.verify_break(5)


def test_the_table_to_break_is_the_highest_numbered_one_that_fits_once_fewer_tables_will_do() -> None:
    floor = breaking_floor()
    assert floor.table_to_break() == 3
    crowded = replace(floor, tables=(*floor.tables[:2], table(3, (1, 2, 3, 4, 5, 6, 7), Positions(9, 1, 2))))
    assert crowded.table_to_break() is None


def test_a_ten_max_events_last_two_tables_play_nine_max_under_the_federation() -> None:
    tables = (
        table(1, (1, 2, 3, 4, 5, 6), Positions(10, 1, 2), size=10),
        table(2, (1, 2, 3, 4, 5, 6), Positions(10, 1, 2), size=10),
        table(3, (1, 2, 3, 4, 5, 6), Positions(10, 1, 2), size=10),
    )
    federation = Floor("bfsp", 10, tables, 1)
    assert federation.seat_limit == 10
    seed = "pre-final"
    assert federation.seat_limit_after_a_break == 9
    broken = federation.break_table(3, seed, "cj")
    assert all(move.to_seat <= 9 for move in broken.moves)
    after = federation.commit_break(TableBreakCommitted(3, commitment(seed)), CJ).apply_break(broken, CJ)
    assert after.seat_limit == 9
    assert Floor("tda-2022", 10, tables[:2], 1).seat_limit == 10


def test_at_a_ten_max_events_last_two_tables_seat_10_is_closed_under_the_federation() -> None:
    tables = (
        table(1, (1, 2, 3, 4, 5, 6, 7, 10), Positions(7, 10, 1), size=10),
        table(2, (1, 2, 3, 4, 5, 6, 7, 8), Positions(8, 1, 2), size=10),
    )
    federation = Floor("bfsp", 10, tables, 1)
    with pytest.raises(CompetitionError) as refused:
        federation.hand_started(1, 10)
    assert refused.value.rule == RuleRef("bfsp", "3.1")
    assert "seat 10 is closed; t1s10 is seated again before the next hand" in refused.value.reason
    reseat = federation.next_balancing_move("cj")
    assert reseat is not None
    assert (reseat.participant, reseat.rule_applied) == ("t1s10", MoveRule.CLOSED_SEAT)
    # both tables have eight without him; his own is taken first, at the free seat nearest its big blind
    assert (reseat.to_table, reseat.to_seat) == (1, 8)
    assert "he moves to table 1 seat 8" in refused.value.reason
    with pytest.raises(
        CompetitionError, match="goes to the free seat nearest the big blind .* table 1 seat 8"
    ):
        federation.verify_move(replace(reseat, to_table=2, to_seat=9), CJ)
    with pytest.raises(CompetitionError, match="seat 7 is open: t1s7 keeps it"):
        federation.verify_move(replace(reseat, participant="t1s7", from_seat=7), CJ)
    reseated = federation.apply_move(reseat, CJ)
    # the small blind left seat 10, so the button passes to the next player (bfsp 5.3.2)
    reseated.hand_started(1, 1)
    Floor("tda-2022", 10, tables, 1).hand_started(1, 10)


# --- the final table ------------------------------------------------------------------------------------------


def pre_final(players_per_table: int = 4) -> Floor:
    seats = tuple(range(1, players_per_table + 1))
    return Floor("bfsp", 10, (table(1, seats, None, 10), table(2, seats, None, 10)), 1)


def final_seating(floor: Floor) -> dict[str, tuple[int, int]]:
    players = sorted(p for t in floor.tables for p in t.players)
    return {player: (1, seat) for seat, player in enumerate(players, start=1)}


def test_the_final_table_forms_when_the_players_left_fit_it_nine_max_in_a_ten_max_event() -> None:
    floor = pre_final(4)
    assert floor.final_table_due()
    assert not pre_final(5).final_table_due()
    seating = final_seating(floor)
    final = floor.form_final_table(seating, button=8)
    assert [t.number for t in final.tables] == [1]
    assert final.table(1).max_seats == 9
    assert final.next_positions(1) == Positions(8, 1, 2)
    moves = floor.final_table_moves(seating, "cj")
    assert {(m.participant, m.to_seat) for m in moves} == {(p, s) for p, (_, s) in seating.items()}
    assert all(m.reason is MoveReason.FINAL_TABLE for m in moves)


def test_a_final_table_seating_that_breaks_the_rules_is_refused() -> None:
    floor = pre_final(4)
    seating = final_seating(floor)
    cases: list[tuple[dict[str, tuple[int, int]], str]] = [
        ({p: s for p, s in seating.items() if p != "t2s4"}, "leaves out t2s4"),
        ({**seating, "zed": (1, 9)}, "zed is not among the players left"),
        ({**seating, "t2s4": (2, 9)}, "the final table is one table"),
        ({**seating, "t2s4": (1, 1)}, "seat 1 of the final table is given twice"),
        ({**seating, "t2s4": (1, 10)}, "the final table has seats 1 to 9; there is no seat 10"),
    ]
    for bad, reason in cases:
        with pytest.raises(CompetitionError) as refused:
            floor.verify_final_table(bad)
        assert refused.value.rule == RuleRef("bfsp", "3.1")
        assert reason in refused.value.reason
    with pytest.raises(CompetitionError, match="the final table forms when 9 remain"):
        pre_final(5).verify_final_table(final_seating(pre_final(5)))
    running = replace(floor, tables=(replace(floor.table(1), hand_running=True), floor.table(2)))
    with pytest.raises(CompetitionError, match="play stops after the current hand"):
        running.verify_final_table(seating)


def test_under_the_tda_a_ten_max_final_table_seats_ten() -> None:
    seats = tuple(range(1, 6))
    floor = Floor("tda-2022", 10, (table(1, seats, None, 10), table(2, seats, None, 10)), 1)
    assert floor.final_table_due()
    final = floor.form_final_table(final_seating(floor))
    assert final.table(1).max_seats == 10


# --- the events as JSON -----------------------------------------------------------------------------------------

MOVE = PlayerMoved("ann", 3, 4, 1, 6, MoveReason.BALANCE, MoveRule.NEXT_BIG_BLIND, "cj")
EVENTS = [
    MOVE,
    BalanceToleranceWidened(2, "cj", "a player is at the cashier"),
    MoverExceptionDecided(1, "bob", "cat", "cj"),
    TableBreakCommitted(3, commitment(SEED)),
    TableBroken(
        3,
        SEED,
        (DrawCard("ann", 4, parse_card("As")),),
        (replace(MOVE, reason=MoveReason.TABLE_BROKEN, rule_applied=MoveRule.BREAK_DRAW),),
        "cj",
    ),
    TableHalted(1, 5, 2, 8, 6, "cj"),
]


@pytest.mark.parametrize("event", EVENTS, ids=[type(e).__name__ for e in EVENTS])
def test_every_floor_event_goes_to_json_and_back(event: object) -> None:
    payload = encode(event)  # type: ignore[arg-type]
    assert payload["type"] in CATALOG
    assert decode(payload) == event


def test_the_catalog_names_every_floor_event() -> None:
    assert set(CATALOG) == {type(e).__name__ for e in EVENTS}
    assert encode(EVENTS[4])["cards"] == [{"participant": "ann", "seat": 4, "card": "As"}]


# --- from any floor where a table may break, the draw seats everyone and can be audited ------------------------


@st.composite
def floors_with_a_table_to_break(draw: st.DrawFn) -> Floor:
    rulebook = draw(st.sampled_from(["bfsp", "tda-2022", "tda-2017"]))
    size = draw(st.sampled_from([8, 9, 10]))
    count = draw(st.integers(2, 4))
    # a 10-max event's last two tables play 9-max under the federation (bfsp 3.1): seat 10 is closed
    highest = 9 if rulebook == "bfsp" and size == 10 and count == 2 else size
    tables = []
    for number in range(1, count + 1):
        picked = st.lists(st.integers(1, highest), min_size=2, max_size=highest, unique=True)
        seats = tuple(sorted(draw(picked)))
        tables.append(table(number, seats, None, size))
    floor = Floor(rulebook, size, tuple(tables), size)
    for _ in range(draw(st.integers(0, 12))):
        number = draw(st.integers(1, count))
        positions = floor.next_positions(number)
        assert positions is not None
        floor = floor.hand_started(number, positions.button).hand_ended(number)
    floor = replace(floor, tolerance=floor.book.balance_tolerance)
    assume(floor.table_to_break() is not None)
    return floor


@settings(max_examples=120, deadline=None)
@given(floors_with_a_table_to_break(), st.text(min_size=1, max_size=16))
def test_a_break_draw_seats_every_player_once_and_its_seed_reproduces_it(floor: Floor, seed: str) -> None:
    number = floor.table_to_break()
    assert number is not None
    broken = floor.break_table(number, seed, "cj")
    after = floor.commit_break(TableBreakCommitted(number, commitment(seed)), CJ).apply_break(broken, CJ)
    assert number not in after.counts()
    assert sum(after.counts().values()) == sum(floor.counts().values())
    for move in broken.moves:
        assert after.table(move.to_table).occupant(move.to_seat) == move.participant
        assert move.to_seat <= after.seat_limit
    assert floor.break_table(number, seed, "cj") == broken
    others = [t for t in floor.tables if t.number != number]
    settled = all(t.last_hand is not None and t.last_hand.button != t.last_hand.small_blind for t in others)
    if floor.book.dead_button and settled:
        # with the dead button, the seats behind the next button are the same whoever else sits down (a table
        # leaving heads-up aside), so: behind the button only when no table had a seat dealt in at once (TV-52)
        legal = sum(
            1
            for t in others
            for seat in free_seats(t, floor.seat_limit)
            if not outlook(t, seat, "newcomer", floor.book).waits
        )
        waiting = [m for m in broken.moves if m.participant not in after.dealt_in(m.to_table)]
        assert len(waiting) <= max(0, len(broken.moves) - legal)


# --- a whole event's floor, from the seat draw to the final table ----------------------------------------------


@pytest.mark.parametrize(("rulebook", "seats_per_table", "final"), [("bfsp", 10, 9), ("tda-2022", 9, 9)])
def test_an_events_floor_from_the_draw_to_the_final_table_keeps_every_rule(
    rulebook: str, seats_per_table: int, final: int
) -> None:
    players = [f"p{n:02d}" for n in range(45)]
    assignments = draw(f"{rulebook} opening", players, seats_per_table)
    floor = Floor.from_draw(assignments, starting_buttons(assignments), seats_per_table, rulebook)
    busts = Random(f"{rulebook} busts")
    left = len(players)
    moved = broken = 0
    for round_number in range(400):
        if floor.final_table_due():
            break
        for number in [t.number for t in floor.tables]:
            positions = floor.next_positions(number)
            assert positions is not None
            dealt = floor.dealt_in(number)
            table_now = floor.table(number)
            try:
                floor = floor.hand_started(
                    number, positions.button, seats=[s for s in table_now.seats if s[1] in dealt]
                )
            except CompetitionError as waiting:
                assert any(why in waiting.reason for why in ("owes a player", "halted", "seat 10 is closed"))
                continue
            assert all(
                not strictly_between(positions.button, seat, positions.small_blind, table_now.max_seats)
                for seat, player in table_now.seats
                if player in floor.table(number).in_hand
            )
            floor = floor.hand_ended(number)
            if busts.random() < 0.4 and len(floor.table(number).seats) > 2 and left > final:
                floor = floor.eliminate(busts.choice(sorted(dealt)))
                left -= 1
        for halt in floor.halts_due("cj"):
            floor = floor.halt(halt, CJ)
        for move in floor.required_moves("cj"):
            floor = floor.apply_move(move, CJ)
            moved += 1
        number = floor.table_to_break()
        if number is not None:
            seed = f"break {number} in round {round_number}"
            floor = floor.commit_break(TableBreakCommitted(number, commitment(seed)), CJ)
            floor = floor.apply_break(floor.break_table(number, seed, "cj"), CJ)
            broken += 1
        assert sum(floor.counts().values()) == left
    assert floor.final_table_due()
    assert (broken, len(floor.tables)) == (3, 2)
    assert moved > 0
    with pytest.raises(CompetitionError, match="the final table is drawn, every table breaking into it"):
        floor.verify_break(2)
    seating = final_seating(floor)
    final_table = floor.form_final_table(
        {p: (1, seat) for p, (_, seat) in seating.items()}, button=len(seating)
    )
    assert final_table.table(1).max_seats == final
    assert len(final_table.table(1).seats) == left <= final


def big_blind_twice_floor(table_2_seats: tuple[int, ...]) -> Floor:
    """Under the federation's moving button table 1's only free seat, 5, lies between its last small blind (4)
    and big blind (6): a newcomer there would post the small blind and t1s6 the big blind again. Table 3's four
    players break into tables 1 and 2."""
    return Floor(
        "bfsp",
        9,
        (
            table(1, (1, 2, 3, 4, 6, 7, 8, 9), Positions(3, 4, 6)),
            table(2, table_2_seats, Positions(5, 1, 2)),
            table(3, (2, 4, 6, 9), Positions(9, 2, 4)),
        ),
        1,
    )


def test_a_break_draw_never_takes_a_tables_only_free_seat_when_it_makes_a_player_big_blind_twice() -> None:
    floor = big_blind_twice_floor((1, 2, 3, 4, 5))
    assert outlook(floor.table(1), 5, "newcomer", floor.book).big_blind_twice == "t1s6"
    broken = floor.break_table(3, SEED, "cj")
    assert {(m.to_table, m.to_seat) for m in broken.moves} == {(2, 6), (2, 7), (2, 8), (2, 9)}
    after = floor.commit_break(TableBreakCommitted(3, commitment(SEED)), CJ).apply_break(broken, CJ)
    assert after.counts() == {1: 8, 2: 9}


def test_a_table_whose_players_have_no_seat_but_one_making_a_player_big_blind_twice_breaks_later() -> None:
    floor = big_blind_twice_floor((1, 2, 3, 4, 5, 6))
    with pytest.raises(CompetitionError, match=r"table 1 seat 5: t1s6") as refused:
        floor.verify_break(3)
    assert "big blind twice" in refused.value.reason
    assert floor.table_to_break() is None
    # once table 1 has played its next hand the button has moved on, and the seat is an ordinary one
    moved_on = Floor(
        "bfsp", 9, (replace(floor.tables[0], last_hand=Positions(4, 6, 7)), *floor.tables[1:]), 1,
    )
    assert moved_on.table_to_break() == 3


def short_table_floor(halted: bool = False) -> Floor:
    """Table 2 is three short; its big blind (seat 5) has just busted. Under the moving button its next hand's
    button is seat 4, and a newcomer in any free seat (5, 6, 7) would be its small blind, which no mover may be
    (TDA 2022 11-A): no player can be moved in before it deals again (the state seed 99 of a 600-player
    simulation stopped in, every other table waiting for it)."""
    short = Table(2, 9, tuple((s, f"t2s{s}") for s in (1, 2, 3, 4, 8, 9)), last_hand=Positions(3, 4, 5), halted=halted)
    return Floor("bfsp", 9, (table(1, tuple(range(1, 10)), Positions(1, 2, 3)), short), 1)


def test_a_short_table_no_player_can_be_moved_into_is_not_halted_but_plays_on_until_its_button_frees_a_seat() -> None:
    floor = short_table_floor()
    assert floor.next_balancing_move("cj") is None
    assert floor.halts_due("cj") == ()
    with pytest.raises(CompetitionError, match="does not halt"):
        floor.halt(TableHalted(2, 6, 1, 9, 6, "cj"), CJ)
    played = floor.hand_started(2, 4).hand_ended(2)
    move = played.next_balancing_move("cj")
    assert move is not None and (move.from_table, move.to_table) == (1, 2)


def test_a_halted_table_no_player_can_be_moved_into_resumes() -> None:
    floor = short_table_floor(halted=True)._settled()
    assert not floor.table(2).halted
