"""An Olympic stage's tables (bfsp 3.2): each plays on its own to its winner, so nobody is moved between them.

The floor's balancing, breaking and closed seats are an American competition's; here each table only needs
its button and blinds hand by hand, which the seating rules give (:func:`domain.competition.seating.next_positions`:
the button starts at the highest seat, bfsp 5.3.1, and moves on, 5.3.2).
"""

from __future__ import annotations

from dataclasses import replace

from domain.competition.seating import Positions, Table, dealt_in, next_positions
from domain.rulebooks import get_rulebook


class StageTables:
    def __init__(
        self, seating: dict[str, tuple[int, int]], seats: int, rulebook: str, buttons: dict[int, int]
    ) -> None:
        self.book = get_rulebook(rulebook)
        numbers = sorted({table for table, _ in seating.values()})
        self._tables = {
            n: Table(
                number=n,
                max_seats=seats,
                seats=tuple(sorted((seat, p) for p, (table, seat) in seating.items() if table == n)),
                first_button=buttons[n],
            )
            for n in numbers
        }

    @property
    def tables(self) -> tuple[Table, ...]:
        return tuple(self._tables.values())

    def table(self, number: int) -> Table:
        return self._tables[number]

    def counts(self) -> dict[int, int]:
        return {n: len(t.seats) for n, t in self._tables.items()}

    def next_positions(self, number: int) -> Positions | None:
        return next_positions(self._tables[number], self.book)

    def dealt_in(self, number: int) -> tuple[str, ...]:
        table = self._tables[number]
        return dealt_in(table, next_positions(table, self.book))

    def hand_started(self, number: int, positions: Positions) -> None:
        self._tables[number] = replace(self._tables[number], last_hand=positions, hand_running=True)

    def hand_ended(self, number: int) -> None:
        self._tables[number] = replace(self._tables[number], hand_running=False)

    def eliminate(self, participant: str) -> None:
        for n, table in self._tables.items():
            if table.seat_of(participant) is not None:
                self._tables[n] = table.unseated(participant)
