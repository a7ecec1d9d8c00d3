"""An Olympic stage's tables (bfsp 3.2): each plays on its own to its winner, so nobody is moved between them."""

from __future__ import annotations

from domain.competition.floor import Floor
from domain.competition.seating import Positions, Table


class StageTables:
    """An Olympic stage's tables, each playing on its own to its winner: nobody moves between them (bfsp 3.2),
    so each table is a floor of one table, which gives its button and blinds hand by hand."""

    def __init__(
        self, seating: dict[str, tuple[int, int]], seats: int, rulebook: str, buttons: dict[int, int]
    ) -> None:
        numbers = sorted({table for table, _ in seating.values()})
        self.floors = {
            n: Floor.open(
                {p: at for p, at in seating.items() if at[0] == n}, seats, rulebook, {n: buttons[n]}
            )
            for n in numbers
        }

    @property
    def tables(self) -> tuple[Table, ...]:
        return tuple(floor.table(n) for n, floor in self.floors.items())

    def table(self, number: int) -> Table:
        return self.floors[number].table(number)

    def counts(self) -> dict[int, int]:
        return {n: len(self.table(n).seats) for n in self.floors}

    def next_positions(self, number: int) -> Positions | None:
        return self.floors[number].next_positions(number)

    def dealt_in(self, number: int) -> tuple[str, ...]:
        return self.floors[number].dealt_in(number)

    def hand_started(self, number: int, button: int) -> None:
        self.floors[number] = self.floors[number].hand_started(number, button)

    def hand_ended(self, number: int) -> None:
        self.floors[number] = self.floors[number].hand_ended(number)

    def eliminate(self, participant: str) -> None:
        for n, floor in self.floors.items():
            if floor.seat_of(participant) is not None:
                self.floors[n] = floor.eliminate(participant)
