"""Prizes by finishing place (the Regulations' prize structure; bfsp leaves prizes to them) and the tax withheld.

Players who share places share the prizes of those places equally (TDA 2022 RP-8-a); an amount that does not
divide exactly is paid down to the smallest unit and the units left over go to the group's first names in
alphabetical order, so the sum paid is always the sum of the places' prizes. A player disqualified from the
competition gets no prize (bfsp 7.2.2, 5.10.2). Withholding (the federation's FAQ: 13 %) is rounded down to
the unit.

A final-table deal (TDA 2017 Part G, 2017/TV-58) shares out the prizes of the places still to be paid: each
player left takes his agreed amount, and what is left to play for goes to the winner. A deal whose amounts
and the rest do not add up to those prizes is refused. With nothing left to play for the competition ends, and
the players in the deal share the places left.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from domain.competition.regulations import Regulations
from domain.errors import CompetitionError, RuleRef, chips


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


@dataclass(frozen=True, slots=True)
class DealShare:
    participant: str
    amount: int


def still_to_pay(players_left: int, regulations: Regulations) -> int:
    """The prizes of the places the players left will take: 1 to ``players_left``."""
    return sum(regulations.prize(place) for place in range(1, players_left + 1))


def verify_deal(
    shares: Iterable[DealShare], left_to_play_for: int, players: Iterable[str], pool: int, rule: RuleRef
) -> None:
    """Every player left takes an amount once, and the amounts and the rest add up to the prizes still to pay."""
    shares = tuple(shares)
    named = sorted(s.participant for s in shares)
    if named != sorted(players):
        raise CompetitionError(
            f"a deal gives every player left one amount; it names {', '.join(named) or 'nobody'}", rule
        )
    if left_to_play_for < 0 or any(s.amount < 0 for s in shares):
        raise CompetitionError("a deal shares out amounts, none of them negative", rule)
    dealt = sum(s.amount for s in shares)
    if dealt + left_to_play_for != pool:
        raise CompetitionError(
            f"the deal shares out {chips(dealt)} and leaves {chips(left_to_play_for)} to play for: "
            f"{chips(dealt + left_to_play_for)}, not the {chips(pool)} still to be paid",
            rule,
        )


def payouts(
    standings: Iterable[Standing],
    regulations: Regulations,
    deal: Mapping[str, int] | None = None,
    left_to_play_for: int = 0,
) -> tuple[Payout, ...]:
    """Every standing's prize, best place first; the players in a deal take its amounts instead, and the
    winner what was left to play for."""
    result = []
    for s in sorted(standings, key=lambda s: (s.place, s.participant)):
        if deal is not None and s.participant in deal:
            gross = deal[s.participant] + (left_to_play_for if s.place == 1 and s.places == 1 else 0)
        else:
            gross = 0 if s.disqualified else _share(s, regulations)
        withheld = gross * regulations.withholding_percent // 100
        result.append(Payout(s.participant, s.place, gross, withheld))
    return tuple(result)


def _share(standing: Standing, regulations: Regulations) -> int:
    pool = sum(regulations.prize(p) for p in range(standing.place, standing.place + standing.places))
    group = sorted((standing.participant, *standing.shared_with))
    each, left_over = divmod(pool, len(group))
    return each + (group.index(standing.participant) < left_over)
