"""The Olympic format (bfsp 3.2): each table plays down to one winner; the winners form the next stage's tables
and restart with equal stacks; the stages are named, from the last, final, semi-final, 1/4, 1/8, 1/16, 1/32.

A stage seats its players at as few tables as the table size allows (the seat draw spreads them evenly), so the
next stage has one player per table of this one. The plan is fixed by the number of players and the table size.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.errors import CompetitionError, RuleRef

#: the stage names of bfsp 3.2, from the final back
STAGE_NAMES = ("final", "semi-final", "1/4", "1/8", "1/16", "1/32")


@dataclass(frozen=True, slots=True)
class Stage:
    name: str
    players: int
    tables: int


def stage_plan(players: int, seats_per_table: int, rule: RuleRef) -> tuple[Stage, ...]:
    """The stages ``players`` play through, first to last; refused when they need more stages than 3.2 names."""
    if players < 2:
        raise CompetitionError(f"an Olympic competition needs two players at least, and has {players}", rule)
    sizes: list[tuple[int, int]] = []
    left = players
    while True:
        tables = -(-left // seats_per_table)
        sizes.append((left, tables))
        if tables == 1:
            break
        left = tables
    if len(sizes) > len(STAGE_NAMES):
        raise CompetitionError(
            f"{players} players at tables of {seats_per_table} need {len(sizes)} stages; the rules name "
            f"{len(STAGE_NAMES)} (1/32 to the final)",
            rule,
        )
    names = STAGE_NAMES[: len(sizes)][::-1]
    return tuple(Stage(name, left, tables) for name, (left, tables) in zip(names, sizes, strict=True))
