"""Prizes by finishing place (the Regulations' prize structure; bfsp leaves prizes to them) and the tax withheld.

Players who share places share the prizes of those places equally (TDA 2022 RP-8-a); an amount that does not
divide exactly is paid down to the smallest unit and the units left over go to the group's first names in
alphabetical order, so the sum paid is always the sum of the places' prizes. A player disqualified from the
competition gets no prize (bfsp 7.2.2, 5.10.2). Withholding (the federation's FAQ: 13 %) is rounded down to
the unit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from domain.competition.regulations import Regulations


@dataclass(frozen=True, slots=True)
class Standing:
    participant: str
    place: int
    #: places shared from ``place`` down (1: none shared)
    places: int = 1
    shared_with: tuple[str, ...] = ()
    disqualified: bool = False


@dataclass(frozen=True, slots=True)
class Payout:
    participant: str
    place: int
    gross: int
    withheld: int

    @property
    def net(self) -> int:
        return self.gross - self.withheld


def payouts(standings: Iterable[Standing], regulations: Regulations) -> tuple[Payout, ...]:
    """Every standing's prize, best place first."""
    result = []
    for s in sorted(standings, key=lambda s: (s.place, s.participant)):
        gross = 0 if s.disqualified else _share(s, regulations)
        withheld = gross * regulations.withholding_percent // 100
        result.append(Payout(s.participant, s.place, gross, withheld))
    return tuple(result)


def _share(standing: Standing, regulations: Regulations) -> int:
    pool = sum(regulations.prize(p) for p in range(standing.place, standing.place + standing.places))
    group = sorted((standing.participant, *standing.shared_with))
    each, left_over = divmod(pool, len(group))
    return each + (group.index(standing.participant) < left_over)
