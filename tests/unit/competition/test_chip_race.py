"""The chip race at a colour-up (TDA 2022 24): exchange at full value, race the odd chips from seat 1, one chip
at most per player, nobody raced out, odd chips that win nothing removed without compensation."""

from __future__ import annotations

import pytest

from competition.a_competition import DEALER, JUDGE, SECRETARY, at, drawn, regulations
from domain.competition.aggregate import Competition
from domain.competition.events import RaceEntry, RaceResult
from domain.errors import CompetitionError, NotPermittedError, RuleRef

pytestmark = pytest.mark.unit

RACE_RULE = RuleRef("tda-2022", "24")


def _table_one() -> tuple[Competition, list[tuple[int, str]]]:
    competition = drawn(12)
    seated = sorted((seat, p) for p, (table, seat) in competition.seats.items() if table == 1)
    return competition, seated


def _entries(
    seated: list[tuple[int, str]], chips_25: dict[int, int], others: dict[int, int]
) -> list[RaceEntry]:
    return [RaceEntry(seat, p, chips_25.get(seat, 0), others.get(seat, 10_000)) for seat, p in seated]


def _by_seat(results: tuple[RaceResult, ...]) -> dict[int, RaceResult]:
    return {r.seat: r for r in results}


def test_tv_104_the_race_is_dealt_from_seat_1_and_nobody_wins_more_than_one_chip() -> None:
    competition, seated = _table_one()
    entries = _entries(seated, {1: 3, 2: 3, 3: 3}, {})
    dealt = ["As", "2c", "3c", "Ah", "4c", "Kd", "5c", "6c", "7c"]
    race = competition.conduct_chip_race(1, 25, entries, dealt, at(60), DEALER)
    results = _by_seat(race.results)
    assert (race.removed_denomination, race.next_denomination, race.race_chips) == (25, 100, 2)
    assert results[1].cards == ("As", "Ah", "5c")
    assert results[2].cards == ("2c", "4c", "6c")
    assert results[3].cards == ("3c", "Kd", "7c")
    assert [s for s, r in results.items() if r.won_race_chip] == [1, 3]
    assert results[1].stack_after == 10_100 and results[2].stack_after == 10_000
    assert all(r.cards == () and not r.won_race_chip for s, r in results.items() if s > 3)


def test_tv_103_a_player_cannot_be_raced_out() -> None:
    competition, seated = _table_one()
    entries = _entries(seated, {1: 3, 2: 1}, {1: 0, 2: 5_000})
    race = competition.conduct_chip_race(1, 25, entries, ["Kc", "As", "2d", "3d"], at(60), DEALER)
    loser = _by_seat(race.results)[1]
    assert race.race_chips == 1 and _by_seat(race.results)[2].won_race_chip
    assert (loser.won_race_chip, loser.given_minimum_chip, loser.stack_after) == (False, True, 100)


def test_tv_105_odd_chips_worth_less_than_the_smallest_chip_that_win_nothing_are_removed() -> None:
    competition, seated = _table_one()
    entries = _entries(seated, {1: 1}, {})
    race = competition.conduct_chip_race(1, 25, entries, ["Ac"], at(60), DEALER)
    result = _by_seat(race.results)[1]
    assert race.race_chips == 0
    assert (result.won_race_chip, result.removed_value, result.stack_after) == (False, 25, 10_000)


def test_removed_chips_are_exchanged_at_full_value_before_the_race() -> None:
    competition, seated = _table_one()
    entries = _entries(seated, {1: 10, 2: 2}, {1: 1_000, 2: 1_000})
    race = competition.conduct_chip_race(1, 25, entries, ["2c", "3c", "4c", "Ah"], at(60), DEALER)
    first, second = _by_seat(race.results)[1], _by_seat(race.results)[2]
    assert (first.exchanged, first.cards) == (2, ("2c", "4c"))
    assert race.race_chips == 1 and second.won_race_chip
    assert (first.stack_after, first.removed_value) == (1_200, 50)
    assert second.stack_after == 1_100


@pytest.mark.parametrize(
    ("dealt", "words"),
    [
        (["As", "Kd"], "needs 3 cards, one per odd chip, and 2 were dealt"),
        (["As", "Kd", "As"], "dealt twice"),
    ],
)
def test_race_cards_that_do_not_fit_the_race_are_refused(dealt: list[str], words: str) -> None:
    competition, seated = _table_one()
    with pytest.raises(CompetitionError, match=words) as refused:
        competition.conduct_chip_race(1, 25, _entries(seated, {1: 2, 2: 1}, {}), dealt, at(60), DEALER)
    assert refused.value.rule == RACE_RULE


def test_the_race_takes_in_every_player_of_the_table_in_his_own_seat() -> None:
    competition, seated = _table_one()
    entries = _entries(seated, {}, {})
    with pytest.raises(CompetitionError, match="takes in every player at table 1 in his own seat"):
        competition.conduct_chip_race(1, 25, entries[1:], [], at(60), DEALER)
    moved = [RaceEntry(e.seat + 1, e.participant, 0, 100) for e in entries]
    with pytest.raises(CompetitionError, match="in his own seat"):
        competition.conduct_chip_race(1, 25, moved, [], at(60), DEALER)


def test_a_denomination_is_raced_once_per_table_and_only_into_a_larger_one() -> None:
    competition, seated = _table_one()
    competition.conduct_chip_race(1, 25, _entries(seated, {}, {}), [], at(60), DEALER)
    with pytest.raises(CompetitionError, match="chips of 25 are not in play at table 1"):
        competition.conduct_chip_race(1, 25, _entries(seated, {}, {}), [], at(61), DEALER)
    with pytest.raises(CompetitionError, match="5,000 are the largest in play"):
        competition.conduct_chip_race(1, 5_000, _entries(seated, {}, {}), [], at(61), DEALER)
    with pytest.raises(CompetitionError, match="chips of 30 are not in play"):
        competition.conduct_chip_race(1, 30, _entries(seated, {}, {}), [], at(61), DEALER)


def test_the_dealer_or_a_judge_conducts_the_race() -> None:
    competition, seated = _table_one()
    competition.conduct_chip_race(1, 25, _entries(seated, {}, {}), [], at(60), JUDGE)
    with pytest.raises(NotPermittedError, match="the secretary may not conduct a chip race"):
        competition.conduct_chip_race(1, 100, _entries(seated, {}, {}), [], at(61), SECRETARY)


def test_where_the_rulebook_rounds_up_odd_chips_there_is_no_race() -> None:
    competition = drawn(12, regulations(rulebook="tda-club"))
    seated = sorted((seat, p) for p, (table, seat) in competition.seats.items() if table == 1)
    entries = _entries(seated, {1: 3, 2: 1, 3: 4}, {})
    with pytest.raises(CompetitionError, match="no race cards are dealt") as refused:
        competition.conduct_chip_race(1, 25, entries, ["As"], at(60), DEALER)
    assert refused.value.rule == RuleRef("tda-club", "24")
    race = competition.conduct_chip_race(1, 25, entries, [], at(60), DEALER)
    results = _by_seat(race.results)
    assert race.race_chips == 2
    assert [(results[s].exchanged, results[s].won_race_chip, results[s].stack_after) for s in (1, 2, 3)] == [
        (0, True, 10_100),
        (0, True, 10_100),
        (1, False, 10_100),
    ]
