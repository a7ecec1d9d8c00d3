"""How long a missed-round penalty lasts, and what its validation needs besides the ladder."""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from typing import Any

from domain.errors import DisciplineError, RuleRef, verify_agrees

#: the most seats a table of the federation's events has (bfsp 3.1: 10-max)
MOST_SEATS = 10

MISSED_ROUND_RULE = RuleRef("bfsp", "7.1.2")


def hands_to_miss(players_at_table: int, rounds: int) -> int:
    """A missed round is one hand for each player at the table when the penalty is imposed, the offender
    included (bfsp 7.1.2 note; TDA 2022 71-A, TDA 2017 D-70): 9 seated, 1 round → 9 hands; 7 seated, 2 → 14."""
    if not 2 <= players_at_table <= MOST_SEATS:
        raise DisciplineError(
            f"a missed-round penalty is counted from the players at the offender's table, himself included; "
            f"{players_at_table} is not a table's count (2 to {MOST_SEATS})",
            MISSED_ROUND_RULE,
        )
    if rounds < 1:
        raise DisciplineError(f"a missed-round penalty of {rounds} rounds misses nothing", MISSED_ROUND_RULE)
    return players_at_table * rounds


def players_at_table(participant: str, seats: Mapping[str, tuple[int, int]], eliminated: Container[str]) -> int:
    """The players at the offender's table when a missed-round penalty is imposed, himself included (bfsp 7.1.2
    note): the count the penalty's hands are reckoned from. ``seats``: participant → (table, seat)."""
    if participant not in seats:
        raise DisciplineError(f"{participant} has no seat to miss rounds at", MISSED_ROUND_RULE)
    table = seats[participant][0]
    return sum(1 for p, (t, _) in seats.items() if t == table and p not in eliminated)


def verify_killed(participant: str, named: str, played: Sequence[Any]) -> None:
    """A hand counts towards missed rounds when he was dealt in and his hand killed in it (the federation digest
    §3.7): a hand that ended without the kill recorded does not count, and the penalty goes on. ``played``:
    the stored events of hand ``named``."""
    seat = next((s["seat"] for s in played[0].payload["seats"] if s["player"] == participant), None)
    if seat is None:
        raise DisciplineError(f"{participant} was not dealt in at hand {named}: a missed round is dealt in", MISSED_ROUND_RULE)
    if not any(type(s).__name__ == "PenaltyHandKilled" and s.payload["seat"] == seat for s in played):
        raise DisciplineError(
            f"{participant}'s hand was not killed at hand {named}: a hand counts towards missed rounds when he is "
            "dealt in, posts his forced bets and his hand is killed",
            MISSED_ROUND_RULE,
        )


def acting_while_serving(participant: str, penalty: int) -> DisciplineError:
    """The refusal of an act by a player serving missed-round penalty ``penalty`` at a hand he is dealt into:
    he posts his forced bets and his hand is killed before he acts (the federation digest §3.7, bfsp 6.4.4)."""
    return DisciplineError(
        f"{participant} is serving penalty-{penalty} (missed rounds): he is dealt in and posts his forced bets, "
        f"and his hand is killed before he acts",
        MISSED_ROUND_RULE,
    )


def verify_players_at_table(
    reported: int, participant: str, seats: Mapping[str, tuple[int, int]], eliminated: Container[str]
) -> int:
    """The players at the table a missed-round penalty is counted from, as the record reports them: the
    competition's own count (:func:`players_at_table`), which is answered."""
    counted = players_at_table(participant, seats, eliminated)
    verify_agrees(reported, counted, "players at the table", MISSED_ROUND_RULE, DisciplineError)
    return counted
