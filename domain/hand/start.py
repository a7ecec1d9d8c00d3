"""Checking a hand's start: the seats, the button, the game and its stakes; the forced bets it owes."""

from __future__ import annotations

from typing import Final, NamedTuple

from domain.errors import HandStateError
from domain.hand.events import ForcedBetKind, HandStarted
from domain.rulebooks import Rulebook
from domain.variants import VARIANTS, BettingStructure, Variant

# read at every hand's start: module constants, not the enums' attributes (Final: a C static when compiled)
_ANTE: Final = ForcedBetKind.ANTE
_FIXED_LIMIT: Final = BettingStructure.FIXED_LIMIT


class ForcedBet(NamedTuple):
    """A forced bet a seat owes before the deal (the amount owed, before any all-in cap)."""

    seat: int
    kind: ForcedBetKind
    amount: int


def verify_start(started: HandStarted, rulebook: Rulebook) -> tuple[Variant, list[ForcedBet]]:
    """The game and the forced bets owed, or :class:`HandStateError` naming what is wrong with the start."""

    def refuse(reason: str) -> HandStateError:
        return HandStateError(reason, rulebook.cite("stakes"))

    variant = VARIANTS.get(started.variant)
    if variant is None:
        raise refuse(f"no game is called {started.variant!r}; the engine knows {', '.join(sorted(VARIANTS))}")
    seats: set[int] = set()
    for e in started.seats:
        if e.seat in seats:
            raise refuse(f"seat {e.seat} is listed twice")
        seats.add(e.seat)
        if e.seat < 1:
            raise refuse(f"seat {e.seat} is not a seat number; seats are numbered from 1")
        if e.stack <= 0:
            raise refuse(f"seat {e.seat} has {e.stack} chips; a player without chips is not dealt in")
    if len(seats) < 2:
        raise refuse(f"a hand needs at least two players; {len(seats)} seated")
    if variant.uses_button and started.button not in seats:
        where = "no seat" if started.button is None else f"seat {started.button}, where nobody sits"
        raise refuse(f"the button is at {where}; {variant.name} needs the button at a seated player")
    stakes = started.stakes
    for label, entries in (("ante", stakes.antes), ("blind", stakes.blinds)):
        owners = [s for s, _ in entries]
        for seat, amount in entries:
            if seat not in seats:
                raise refuse(f"a {label} is owed by seat {seat}, where nobody sits")
            if amount <= 0:
                raise refuse(f"seat {seat}'s {label} is {amount}; a forced bet is a positive amount")
        if len(set(owners)) != len(owners):
            raise refuse(f"a seat owes two {label}s in one hand")
    if not variant.uses_button and stakes.blinds:
        raise refuse(f"{variant.name} has no blinds; it opens with a bring-in")
    if variant.betting is _FIXED_LIMIT and (stakes.small_bet <= 0 or stakes.big_bet <= 0):
        raise refuse(f"{variant.name} needs its small bet and big bet")
    if not variant.uses_button and not 0 < stakes.bring_in <= stakes.small_bet:
        raise refuse(f"the bring-in must be between 1 and the small bet; it is {stakes.bring_in}")
    if variant.betting is not _FIXED_LIMIT and not stakes.blinds and stakes.min_bet <= 0:
        raise refuse(f"{variant.name} needs blinds or a minimum bet")
    owed = [ForcedBet(seat, _ANTE, amount) for seat, amount in stakes.antes]
    kinds = _blind_kinds(len(stakes.blinds))
    owed += [ForcedBet(seat, kind, amount) for (seat, amount), kind in zip(stakes.blinds, kinds, strict=True)]
    return variant, owed


def _blind_kinds(n: int) -> list[ForcedBetKind]:
    if n == 1:
        return [ForcedBetKind.BIG_BLIND]
    return [ForcedBetKind.SMALL_BLIND, ForcedBetKind.BIG_BLIND][:n] + [ForcedBetKind.STRADDLE] * max(0, n - 2)
