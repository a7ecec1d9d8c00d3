"""Finishing places: the order of elimination, and what happens when several players bust at once.

The federation says a player is eliminated when he has no chips left or is disqualified (bfsp 5.10.2) and gives
no rule for ranking the others, so elimination order sets the places. Players busted in the same hand at one
table: the one who **started the hand with more chips** places higher (the reading the brief and the TDA
texts share: tda-club 28-C, the casino's 7.8.13); equal starting stacks share the places.

Hand-for-hand (TDA 2022 RP-8-a, tda-club 28-B), where the rulebook says so: players busted on the hand in
progress at the announcement, or in the same hand-for-hand hand at different tables, **share** their places,
and with them the prizes of those places (TV-112: 52 left, 50 paid, 3 busted on that hand share the 50th-place
prize). Busts at one table in a hand-for-hand hand are ranked by their starting stacks as above.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Bust:
    participant: str
    table: int
    #: his chips at the start of the hand he busted in
    starting_stack: int


@dataclass(frozen=True, slots=True)
class Placing:
    participant: str
    #: the best of the places he shares
    place: int
    #: how many places his group takes from ``place`` down (1 when he shares nothing)
    places: int
    shared_with: tuple[str, ...]
    starting_stack: int


def placings(players_left: int, busts: Sequence[Bust], share_all: bool) -> tuple[Placing, ...]:
    """The places of ``busts``, busted together with ``players_left`` in the event before the hand: they take
    the places ``players_left - len(busts) + 1`` to ``players_left``."""
    best = players_left - len(busts) + 1
    if share_all:
        groups = [list(busts)]
    else:
        stacks = sorted({b.starting_stack for b in busts}, reverse=True)
        groups = [[b for b in busts if b.starting_stack == s] for s in stacks]
    result: list[Placing] = []
    place = best
    for group in groups:
        names = tuple(b.participant for b in group)
        for b in group:
            others = tuple(n for n in names if n != b.participant)
            result.append(Placing(b.participant, place, len(group), others, b.starting_stack))
        place += len(group)
    return tuple(result)
