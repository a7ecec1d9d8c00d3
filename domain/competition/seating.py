"""One table of the floor: who sits where, where the button and the blinds fall for the next hand, who is dealt
in, and what taking a free seat would mean for a newcomer.

Seats run 1 … ``max_seats`` clockwise. The positions of the next hand follow from the last hand's:

* **dead button** (TDA 2022 32, the TDA presets): the big blind moves to the next player; the small blind
  takes the seat the big blind left and the button the seat the small blind left, empty or not;
* **moving button** (bfsp 5.3.2, 5.4.1): the button moves one player on, to the player who was small blind
  (the next one if he has gone); the small and big blinds are the two players after it;
* **heads-up** (TDA 2022 34, which the federation follows): the button is the small blind, and the big blind is
  the player who was not big blind last hand, so no player is big blind twice in a row (TV-109);
* the first hand's button is the draw's (bfsp 5.3.1: the last seat taken); a table whose first button is not
  known yet has no positions until its first hand starts.

A player sitting strictly between the button and the small blind is not dealt in until the button has passed
him (TDA 2022 8-A, 10-A, TV-106). :func:`outlook` says what a free seat would mean for a newcomer: whether he
would wait there, post the small blind, make someone big blind twice in a row, and how many hands until his
own big blind (0: he is the next big blind, the "worst position" of TDA 11-A).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from domain.rulebooks import Rulebook


@dataclass(frozen=True, slots=True)
class Positions:
    """A hand's button, small blind and big blind seats (heads-up, the button is the small blind)."""

    button: int
    small_blind: int
    big_blind: int


@dataclass(frozen=True, slots=True)
class Table:
    number: int
    max_seats: int
    #: (seat, participant), by seat
    seats: tuple[tuple[int, str], ...] = ()
    #: the positions of the hand being played, or of the last one; None before the first hand
    last_hand: Positions | None = None
    #: the first hand's button when the draw set it (bfsp 5.3.1); None: it is drawn at the table (TDA)
    first_button: int | None = None
    hand_running: bool = False
    #: players still holding cards in the hand being played
    in_hand: frozenset[str] = frozenset()
    #: play stopped here until players are moved in (TDA 2022 11-D)
    halted: bool = False

    @property
    def occupied(self) -> tuple[int, ...]:
        return tuple(seat for seat, _ in self.seats)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(player for _, player in self.seats)

    def occupant(self, seat: int) -> str | None:
        return next((player for s, player in self.seats if s == seat), None)

    def seat_of(self, participant: str) -> int | None:
        return next((s for s, player in self.seats if player == participant), None)

    def seated(self, participant: str, seat: int) -> Table:
        return replace(self, seats=tuple(sorted((*self.seats, (seat, participant)))))

    def unseated(self, participant: str) -> Table:
        return replace(
            self,
            seats=tuple(entry for entry in self.seats if entry[1] != participant),
            in_hand=self.in_hand - {participant},
        )


def clockwise(start: int, seat: int, max_seats: int) -> int:
    """How many seats clockwise from ``start`` to ``seat`` (0 when they are the same)."""
    return (seat - start) % max_seats


def strictly_between(start: int, seat: int, end: int, max_seats: int) -> bool:
    return 0 < clockwise(start, seat, max_seats) < clockwise(start, end, max_seats)


def next_occupied(seat: int, occupied: Iterable[int], max_seats: int) -> int:
    """The first taken seat clockwise after ``seat`` (``seat`` itself only when nobody else sits)."""
    return min(occupied, key=lambda s: clockwise(seat, s, max_seats) or max_seats)


def previous_occupied(seat: int, occupied: Iterable[int], max_seats: int) -> int:
    return min(occupied, key=lambda s: clockwise(s, seat, max_seats) or max_seats)


def next_positions(table: Table, rulebook: Rulebook) -> Positions | None:
    """Where the button and the blinds fall for the table's next hand, as it is seated now."""
    taken = table.occupied
    if len(taken) < 2:
        return None
    n = table.max_seats

    def after(seat: int) -> int:
        return next_occupied(seat, taken, n)

    last = table.last_hand
    if last is None:
        if table.first_button is None:
            return None
        button = table.first_button
        if len(taken) == 2:
            button = button if button in taken else after(button)
            return Positions(button, button, after(button))
        return Positions(button, after(button), after(after(button)))
    if len(taken) == 2:
        big = after(last.big_blind)
        other = after(big)
        return Positions(other, other, big)
    if rulebook.dead_button:
        big = after(last.big_blind)
        button = last.small_blind
        if big == button:
            # the blinds caught up with the button on a short table: it steps back to the player before them
            button = previous_occupied(last.big_blind, taken, n)
        return Positions(button, last.big_blind, big)
    if last.small_blind == last.button:
        button = after(last.button)
    else:
        # the button passes to the player who was small blind (or the next one, if he has gone): a newcomer
        # seated behind the old button does not take it, or the blinds would fall on the same players again
        button = last.small_blind if last.small_blind in taken else after(last.small_blind)
    return Positions(button, after(button), after(after(button)))


def waits(positions: Positions, seat: int, max_seats: int) -> bool:
    """Between the button and the small blind: not dealt in this hand (TDA 2022 8-A, 10-A)."""
    return strictly_between(positions.button, seat, positions.small_blind, max_seats)


def dealt_in(table: Table, positions: Positions | None) -> tuple[str, ...]:
    if positions is None:
        return table.players
    return tuple(player for seat, player in table.seats if not waits(positions, seat, table.max_seats))


def hands_to_big_blind(table: Table, positions: Positions, seat: int) -> int:
    """How many hands before the player in ``seat`` posts the big blind (0: he posts it next hand)."""
    n = table.max_seats
    mine = clockwise(positions.big_blind, seat, n)
    return sum(1 for s in table.occupied if clockwise(positions.big_blind, s, n) < mine)


@dataclass(frozen=True, slots=True)
class SeatOutlook:
    """What taking free ``seat`` would mean for a newcomer at the table's next hand."""

    seat: int
    #: between the button and the small blind: he would wait for the button to pass (TDA 2022 10-A)
    waits: bool
    small_blind: bool
    #: the player this seat would make big blind twice in a row, or ""
    big_blind_twice: str
    hands_to_big_blind: int
    #: clockwise from the seat the big blind moves on from: the nearest to the big blind first
    distance: int


def outlook(table: Table, seat: int, participant: str, rulebook: Rulebook) -> SeatOutlook:
    now = next_positions(table, rulebook)
    with_him = table.seated(participant, seat)
    then = next_positions(with_him, rulebook)
    if then is None:
        return SeatOutlook(seat, False, False, "", 0, seat)
    reference = now.small_blind if now is not None else then.small_blind
    twice = ""
    if table.last_hand is not None and len(table.occupied) >= 2:
        last_big_blind = table.occupant(table.last_hand.big_blind)
        if last_big_blind is not None and with_him.occupant(then.big_blind) == last_big_blind:
            twice = last_big_blind
    return SeatOutlook(
        seat=seat,
        waits=waits(then, seat, table.max_seats),
        small_blind=seat == then.small_blind and then.small_blind != then.button,
        big_blind_twice=twice,
        hands_to_big_blind=hands_to_big_blind(with_him, then, seat),
        distance=clockwise(reference, seat, table.max_seats),
    )


def free_seats(table: Table, seat_limit: int) -> tuple[int, ...]:
    taken = set(table.occupied)
    return tuple(seat for seat in range(1, min(seat_limit, table.max_seats) + 1) if seat not in taken)


def worst_seats(table: Table, participant: str, rulebook: Rulebook, seat_limit: int) -> list[SeatOutlook]:
    """The free seats a player moved for balance may take, the worst position first (bfsp 3.1: the free seat
    nearest the big blind; TDA 2022 11-A: the big blind or nearest it clockwise, never the small blind, never
    between the button and the small blind)."""
    views = (outlook(table, seat, participant, rulebook) for seat in free_seats(table, seat_limit))
    legal = [v for v in views if not (v.waits or v.small_blind or v.big_blind_twice)]
    return sorted(legal, key=lambda v: (v.hands_to_big_blind, v.distance))
