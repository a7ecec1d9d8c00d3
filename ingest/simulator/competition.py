"""A simulated competition's fixed parts: the players, the level schedule and the seat draw.

Everything random here draws from the competition's one seeded ``random.Random``, in a fixed order, so the
same seed always registers the same players and seats them in the same places.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import product

_FIRST = (
    "Alena", "Andrei", "Anna", "Artur", "Darya", "Denis", "Dmitry", "Elena", "Hanna", "Igor", "Ilya", "Irina",
    "Kirill", "Maksim", "Maria", "Marina", "Mikhail", "Natalia", "Nikita", "Oleg", "Olga", "Pavel", "Roman",
    "Sergei", "Sofia", "Svetlana", "Tatsiana", "Uladzimir", "Viktor", "Yulia",
)  # fmt: skip
_LAST = (
    "Ablameika", "Bahdanovich", "Bykau", "Charnou", "Dubrouski", "Hlebau", "Kalinouski", "Karatkevich",
    "Kazlou", "Kolas", "Kupala", "Lis", "Makarevich", "Navumenka", "Pashkevich", "Radzivil", "Sapeha",
    "Skaryna", "Taraikevich", "Vasilevich",
)  # fmt: skip

#: (small blind, big blind, ante) by level; after the last, every level doubles the one before
_LEVELS = (
    (25, 50, 0), (50, 100, 0), (75, 150, 0), (100, 200, 25), (150, 300, 25), (200, 400, 50),
    (300, 600, 75), (400, 800, 100), (500, 1000, 100), (600, 1200, 200), (800, 1600, 200), (1000, 2000, 300),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Player:
    """A registered participant: the person's id, and the name the table knows him by."""

    person_id: str
    name: str


@dataclass(frozen=True, slots=True)
class Level:
    number: int
    small_blind: int
    big_blind: int
    ante: int


@dataclass(frozen=True, slots=True)
class SeatDrawn:
    """One line of the seat draw: who sits where when play begins."""

    player: Player
    table_id: str
    seat: int


def register(count: int, rng: random.Random) -> tuple[Player, ...]:
    """``count`` players with different names, their person ids in registration order."""
    names = [f"{first} {last}" for first, last in product(_FIRST, _LAST)]
    if count > len(names):
        # a festival's field (federation events seat up to 1,000): double surnames too; a field that fits the
        # single ones draws exactly as before, so a seed's smaller competitions do not change
        names += [f"{first} {last}-{other}" for first, last, other in product(_FIRST, _LAST, _LAST) if last != other]
    if count > len(names):
        raise ValueError(f"the simulator names at most {len(names)} players; {count} were asked for")
    return tuple(Player(f"P{n:04d}", name) for n, name in enumerate(rng.sample(names, count), start=1))


def level(number: int) -> Level:
    """Level ``number`` (from 1) of the schedule."""
    if number < 1:
        raise ValueError(f"levels are numbered from 1, not {number}")
    if number <= len(_LEVELS):
        return Level(number, *_LEVELS[number - 1])
    small, big, ante = _LEVELS[-1]
    doubled = 2 ** (number - len(_LEVELS))
    return Level(number, small * doubled, big * doubled, ante * doubled)


def table_ids(tables: int) -> tuple[str, ...]:
    return tuple(f"T{n}" for n in range(1, tables + 1))


def draw_seats(
    players: tuple[Player, ...], tables: int, seats: int, rng: random.Random
) -> tuple[SeatDrawn, ...]:
    """The random draw: players dealt round the tables in turn (so no table is more than one player short of
    another), each table's seats drawn among its ``seats`` seats."""
    if len(players) > tables * seats:
        raise ValueError(f"{len(players)} players do not fit at {tables} tables of {seats} seats")
    order = list(players)
    rng.shuffle(order)
    ids = table_ids(tables)
    at_table = [order[t::tables] for t in range(tables)]
    drawn: list[SeatDrawn] = []
    for table_id, sitting in zip(ids, at_table, strict=True):
        places = sorted(rng.sample(range(1, seats + 1), len(sitting)))
        drawn += [SeatDrawn(p, table_id, s) for p, s in zip(sitting, places, strict=True)]
    return tuple(drawn)
