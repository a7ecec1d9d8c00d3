"""The seat draw: the seed's hash first, then the seed and seats anyone can recompute (bfsp 2.3.2, 5.2, 5.3.1)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.a_competition import CHIEF, JUDGE, SECRETARY, at, players, registered
from domain.competition.aggregate import Recorder, recorded_event
from domain.competition.draw import commitment, draw, seat_cards, starting_buttons, verify_draw
from domain.competition.events import SeatAssignment, SeatDrawCommitted, SeatDrawConducted
from domain.errors import CompetitionError, NotPermittedError, RuleRef
from domain.officials import Delegation
from domain.roles import Role

pytestmark = pytest.mark.unit

RULE = RuleRef("bfsp", "5.2")
T = TypeVar("T")


def shuffle_as_documented(stem: str, items: Sequence[T]) -> list[T]:
    """Steps 3 and 4 of the module docstring (``stem`` is the seed), written again from the text alone."""
    cards = list(items)
    counter = 0
    for i in range(len(cards) - 1, 0, -1):
        while True:
            v = int.from_bytes(hashlib.sha256(f"{stem}:{counter}".encode()).digest()[:8], "big")
            counter += 1
            if v < 2**64 - 2**64 % (i + 1):
                break
        j = v % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _draw_as_documented(
    seed: str, participants: list[str], seats_per_table: int
) -> set[tuple[str, int, int]]:
    """The module docstring's procedure, written again from the text alone."""
    names = sorted(participants)
    tables = -(-len(names) // seats_per_table)
    base, extra = divmod(len(names), tables)
    cards = [(t, s) for t in range(1, tables + 1) for s in range(1, base + (1 if t <= extra else 0) + 1)]
    shuffled_cards = shuffle_as_documented(seed, cards)
    return {(name, t, s) for name, (t, s) in zip(names, shuffled_cards, strict=True)}


def test_the_draw_is_the_documented_procedure_and_anyone_can_recompute_it() -> None:
    seats = draw("seed 42", players(20), 9)
    assert {(a.participant, a.table, a.seat) for a in seats} == _draw_as_documented("seed 42", players(20), 9)
    assert commitment("seed 42") == hashlib.sha256(b"seed 42").hexdigest()


def test_players_are_spread_as_evenly_as_the_tables_allow() -> None:
    cards = seat_cards(20, 9)
    per_table = [sum(1 for t, _ in cards if t == table) for table in (1, 2, 3)]
    assert per_table == [7, 7, 6]
    assert seat_cards(18, 9) == [(t, s) for t in (1, 2) for s in range(1, 10)]


def test_each_tables_button_starts_at_its_highest_seat() -> None:
    seats = draw("seed", players(20), 9)
    assert {(b.table, b.seat) for b in starting_buttons(seats)} == {(1, 7), (2, 7), (3, 6)}


def test_a_competition_records_the_commitment_before_the_draw_and_the_seed_after() -> None:
    competition = registered(12)
    competition.commit_draw(commitment("opening"), at(-30), SECRETARY)
    seats = draw("opening", competition.remaining, 9)
    competition.conduct_draw("opening", seats, CHIEF.person, at(-20), SECRETARY)
    events = competition.collect_events()
    committed, conducted = events[-2], events[-1]
    assert recorded_event(committed) == SeatDrawCommitted(commitment("opening"), stage="")
    drawn = recorded_event(conducted)
    assert isinstance(drawn, SeatDrawConducted)
    assert drawn.seed == "opening" and drawn.ordered_by == CHIEF.person
    assert conducted.meta["recorded_by"] == {"person": SECRETARY.person, "role": "secretary"}
    assert competition.seats == {a.participant: (a.table, a.seat) for a in seats}
    assert competition.buttons == {1: 6, 2: 6}


def test_a_draw_without_a_commitment_is_refused() -> None:
    competition = registered(12)
    with pytest.raises(CompetitionError, match="hash must be recorded before") as refused:
        competition.conduct_draw("s", draw("s", competition.remaining, 9), CHIEF.person, at(-20), SECRETARY)
    assert refused.value.rule == RULE


def test_a_seed_that_does_not_hash_to_the_commitment_is_refused_and_nothing_is_stored() -> None:
    competition = registered(12)
    competition.commit_draw(commitment("the real seed"), at(-30), SECRETARY)
    version = competition.version
    with pytest.raises(CompetitionError, match="does not hash to the commitment"):
        competition.conduct_draw(
            "another", draw("another", competition.remaining, 9), CHIEF.person, at(-20), SECRETARY
        )
    assert competition.version == version
    assert not competition.drawn


def test_seats_other_than_the_seeds_are_refused() -> None:
    competition = registered(12)
    competition.commit_draw(commitment("s"), at(-30), SECRETARY)
    seats = list(draw("s", competition.remaining, 9))
    seats[0], seats[1] = replace(seats[0], seat=seats[1].seat), replace(seats[1], seat=seats[0].seat)
    with pytest.raises(CompetitionError, match="not the ones the seed gives"):
        competition.conduct_draw("s", seats, CHIEF.person, at(-20), SECRETARY)


def test_the_draw_is_ordered_by_the_chief_judge() -> None:
    competition = registered(12)
    competition.commit_draw(commitment("s"), at(-30), SECRETARY)
    with pytest.raises(NotPermittedError, match="decision of the Chief Judge") as refused:
        competition.conduct_draw("s", draw("s", competition.remaining, 9), JUDGE.person, at(-20), SECRETARY)
    assert refused.value.rule == RuleRef("bfsp", "2.3.2")


def test_a_judge_may_not_conduct_the_draw_but_a_person_authorised_for_it_may() -> None:
    competition = registered(12)
    with pytest.raises(NotPermittedError, match="a judge may not commit the seat draw"):
        competition.commit_draw(commitment("s"), at(-30), JUDGE)
    helper = Recorder("clerk", Role.AUTHORISED)
    with pytest.raises(NotPermittedError):
        competition.commit_draw(commitment("s"), at(-30), helper)
    competition.appoint(helper.person, Role.AUTHORISED, at(-40), CHIEF, delegations=[Delegation.DRAW])
    competition.commit_draw(commitment("s"), at(-30), helper)
    competition.conduct_draw("s", draw("s", competition.remaining, 9), CHIEF.person, at(-20), helper)
    assert competition.drawn


def test_the_draw_is_conducted_once() -> None:
    competition = registered(12)
    competition.commit_draw(commitment("s"), at(-30), SECRETARY)
    with pytest.raises(CompetitionError, match="committed already"):
        competition.commit_draw(commitment("t"), at(-29), SECRETARY)
    competition.conduct_draw("s", draw("s", competition.remaining, 9), CHIEF.person, at(-20), SECRETARY)
    with pytest.raises(CompetitionError, match="conducted already"):
        competition.commit_draw(commitment("t"), at(-10), SECRETARY)


def test_a_commitment_must_be_a_sha256_digest() -> None:
    competition = registered(12)
    with pytest.raises(CompetitionError, match="not a SHA-256 digest"):
        competition.commit_draw("the seed itself", at(-30), SECRETARY)


@settings(max_examples=60, deadline=None)
@given(seed=st.text(max_size=40), count=st.integers(2, 60), seats_per_table=st.sampled_from([9, 10]))
def test_any_seed_gives_a_valid_draw_equal_to_its_recomputation(
    seed: str, count: int, seats_per_table: int
) -> None:
    names = players(count)
    seats = draw(seed, names, seats_per_table)
    assert sorted(a.participant for a in seats) == names
    assert len({(a.table, a.seat) for a in seats}) == count
    assert all(1 <= a.seat <= seats_per_table for a in seats)
    sizes = [sum(1 for a in seats if a.table == t) for t in {a.table for a in seats}]
    assert max(sizes) - min(sizes) <= 1
    assert {(a.participant, a.table, a.seat) for a in seats} == _draw_as_documented(
        seed, names, seats_per_table
    )
    verify_draw(seed, commitment(seed), reversed(names), seats_per_table, seats, RULE)
    with pytest.raises(CompetitionError):
        verify_draw(seed + "x", commitment(seed), names, seats_per_table, seats, RULE)


@settings(max_examples=40, deadline=None)
@given(seed=st.text(max_size=40), count=st.integers(3, 40), data=st.data())
def test_any_tampered_assignment_is_refused(seed: str, count: int, data: st.DataObject) -> None:
    seats = list(draw(seed, players(count), 9))
    i = data.draw(st.integers(0, count - 1))
    j = data.draw(st.integers(0, count - 1).filter(lambda k: k != i))
    seats[i], seats[j] = (
        SeatAssignment(seats[j].participant, seats[i].table, seats[i].seat),
        SeatAssignment(seats[i].participant, seats[j].table, seats[j].seat),
    )
    with pytest.raises(CompetitionError, match="not the ones the seed gives"):
        verify_draw(seed, commitment(seed), players(count), 9, tuple(seats), RULE)
