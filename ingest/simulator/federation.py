"""The federation's side of a simulated competition: its officials and the Regulations it is played under.

Each official is one person in one role, known to the domain as a :class:`Recorder` and to the log as the
envelope's :class:`RecordedBy`; the roles table decides which of them may record which act. The level
schedule climbs fast, so a field of 45 reaches its winner in a few hundred hands: a simulation is not a
night at the club.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from domain.competition.aggregate import Recorder
from domain.competition.regulations import Break, Format, Level, Prize, Regulations
from domain.roles import Role
from domain.variants import VARIANTS
from ingest.envelope import RecordedBy

#: (small blind, big blind, ante) of the first levels; each later level doubles the one before. From level 5,
#: after the break, nothing is owed in chips of 25, so they are coloured up then (TDA 2022 24).
_OPENING = (
    (25, 50, 0), (50, 100, 0), (75, 150, 25), (100, 200, 25), (200, 400, 100), (300, 600, 100),
    (400, 800, 100), (500, 1000, 100), (600, 1200, 200), (800, 1600, 200), (1000, 2000, 300),
)  # fmt: skip
#: the schedule is long enough that no simulated field outlasts it
SCHEDULE_LEVELS = 40
#: the prize pool's split by place (the places paid depend on the field: about one player in five)
_SHARES = (30, 20, 13, 9, 7, 6, 5, 4, 3, 3)


@dataclass(frozen=True, slots=True)
class Official:
    person: str
    role: Role

    @property
    def recorder(self) -> Recorder:
        return Recorder(self.person, self.role)

    @property
    def recorded_by(self) -> RecordedBy:
        return RecordedBy(person=self.person, role=self.role)


@dataclass(frozen=True, slots=True)
class Cast:
    """Who runs the competition: the federation's board, a Chief Judge, a Secretary, judges and a dealer per
    table."""

    federation: Official
    chief_judge: Official
    secretary: Official
    judges: tuple[Official, ...]
    dealers: tuple[Official, ...]

    @classmethod
    def of(cls, competition_id: str, tables: int, judges: int = 2) -> Cast:
        return cls(
            Official("bfsp-board", Role.FEDERATION),
            Official(f"{competition_id}-chief-judge", Role.CHIEF_JUDGE),
            Official(f"{competition_id}-secretary", Role.SECRETARY),
            tuple(Official(f"{competition_id}-judge-{n}", Role.JUDGE) for n in range(1, judges + 1)),
            tuple(Official(f"{competition_id}-dealer-T{n}", Role.DEALER) for n in range(1, tables + 1)),
        )

    def dealer(self, table: int) -> Official:
        return self.dealers[(table - 1) % len(self.dealers)]

    def tables_of(self, dealer: Official) -> tuple[int, ...]:
        """The tables ``dealer`` deals at (:meth:`dealer`): his own number among the dealers."""
        return (self.dealers.index(dealer) + 1,)

    def judge(self, table: int) -> Official:
        """The judge who watches ``table``: the tables are shared among the judges in turn."""
        return self.judges[(table - 1) % len(self.judges)]


def schedule(minutes: int) -> tuple[Level, ...]:
    levels = []
    for number in range(1, SCHEDULE_LEVELS + 1):
        if number <= len(_OPENING):
            small, big, ante = _OPENING[number - 1]
        else:
            small, big, ante = (2 ** (number - len(_OPENING)) * x for x in _OPENING[-1])
        levels.append(Level(number, minutes, small, big, ante))
    return tuple(levels)


def prizes(players: int, paid: int | None = None) -> tuple[Prize, ...]:
    """Places paid (about a fifth of the field, at most ten) with a pool of 1,000 per entry, in shares that
    fall with the place."""
    places = paid if paid is not None else max(1, min(len(_SHARES), players // 5))
    shares = _SHARES[:places]
    pool = 1000 * players
    return tuple(Prize(place, pool * share // sum(shares)) for place, share in enumerate(shares, start=1))


def regulations(
    players: int,
    format: Format,
    table_size: int,
    starting_stack: int,
    level_minutes: int,
    variant: str,
    rulebook: str,
    starts_on: date,
    paid: int | None = None,
) -> Regulations:
    game = VARIANTS[variant]
    return Regulations(
        title=f"Simulated {format.value} competition of {players}",
        format=format,
        variant=variant,
        betting=game.betting,
        starting_stack=starting_stack,
        levels=schedule(level_minutes),
        max_seats=table_size,
        starts_on=starts_on,
        rulebook=rulebook,
        breaks=(Break(after_level=4, minutes=10),),
        prizes=prizes(players, paid),
    )
