"""A table of the simulated competition between hands: who sits where, their chips, the button.

The button starts at the highest occupied seat (bfsp 5.3.1) and moves one seat clockwise each hand
(5.3.2); the small blind is the next seat after it and the big blind the one after that (5.4.1), heads-up
the button posts the small blind (TDA 2022 34). Stacks carry over from hand to hand and a player left
without chips leaves his seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from domain.hand.events import HandStarted, SeatEntry, Stakes
from domain.variants import BettingStructure, Variant
from ingest.simulator.bots import Temperament
from ingest.simulator.competition import Level, Player


@dataclass
class Table:
    table_id: str
    seats: dict[int, Player]
    stacks: dict[int, int]
    temperaments: dict[int, Temperament]
    button: int | None = None
    hands_played: int = 0

    @property
    def playing(self) -> bool:
        return len(self.seats) >= 2

    def _after(self, seat: int) -> int:
        occupied = sorted(self.seats)
        return next((s for s in occupied if s > seat), occupied[0])

    def next_hand(self, number: int, variant: Variant, rulebook: str, at_level: Level) -> HandStarted:
        """The next hand's start: the button moved on, the forced bets owed at this level."""
        occupied = sorted(self.seats)
        self.button = occupied[-1] if self.button is None else self._after(self.button)
        if len(occupied) == 2:
            small, big = self.button, self._after(self.button)
        else:
            small = self._after(self.button)
            big = self._after(small)
        limit = variant.betting is BettingStructure.FIXED_LIMIT
        stakes = Stakes(
            antes=tuple((s, at_level.ante) for s in occupied) if at_level.ante else (),
            blinds=((small, at_level.small_blind), (big, at_level.big_blind)),
            small_bet=at_level.big_blind if limit else 0,
            big_bet=2 * at_level.big_blind if limit else 0,
            min_bet=at_level.big_blind,
        )
        entries = tuple(SeatEntry(s, self.seats[s].name, self.stacks[s]) for s in occupied)
        return HandStarted(
            self.table_id, number, variant.code, entries, self.button, stakes, rulebook, at_level.number, True
        )

    def settle(self, final_stacks: Mapping[int, int]) -> list[tuple[int, Player]]:
        """Carry the hand's final stacks over; the players left without chips leave: (seat, player) each."""
        self.hands_played += 1
        self.stacks.update(final_stacks)
        gone = [(s, self.seats[s]) for s in sorted(self.seats) if self.stacks[s] == 0]
        for seat, _ in gone:
            del self.seats[seat], self.stacks[seat], self.temperaments[seat]
        return gone
