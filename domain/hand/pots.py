"""The main pot and the side pots, built from what each seat has put in.

A side pot forms when a player is all-in and others bet beyond him (bfsp definitions, "Side pot"; TDA 2022
rule 21): every contribution is cut into layers at the distinct amounts seats have committed, each layer
is contested by the seats still in the hand that reached it, and adjacent layers contested by the same
seats are one pot. Chips of folded seats stay in (dead money), but a folded seat is never eligible.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from domain.errors import chips


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its chips, the seats that may win it, and the seats whose chips are in it (seat order)."""

    amount: int
    eligible: tuple[int, ...]
    contributors: tuple[int, ...]

    @property
    def is_uncalled_excess(self) -> bool:
        """Only the seat that put these chips in can win them: a bet nobody called, to be returned."""
        return len(self.contributors) == 1 and self.contributors == self.eligible


def build_pots(contributions: Mapping[int, int], folded: Collection[int]) -> tuple[Pot, ...]:
    """The main pot, then the side pots in the order they formed.

    ``contributions`` maps seat → every chip that seat put in this hand (antes, blinds and bets).
    The state machine returns an uncalled bet before it asks, but if one is still in, it is the top pot,
    kept apart with only its owner eligible and contributing (:attr:`Pot.is_uncalled_excess`). A layer
    above every live seat's contribution (possible only when a folded seat's dead money tops them) has
    nobody to contest it; it joins the highest pot that has someone eligible.
    """
    _check_contributions(contributions)
    pots: list[Pot] = []
    floor = 0
    for level in sorted({amount for amount in contributions.values() if amount > 0}):
        _add_layer(pots, _layer(contributions, folded, floor, level))
        floor = level
    return tuple(pots)


def _check_contributions(contributions: Mapping[int, int]) -> None:
    negative = sorted(seat for seat, amount in contributions.items() if amount < 0)
    if negative:
        raise ValueError(
            f"seats {negative} have negative contributions; a seat cannot take chips out of a pot"
        )


def _layer(contributions: Mapping[int, int], folded: Collection[int], floor: int, level: int) -> Pot:
    reached = sorted(seat for seat, amount in contributions.items() if amount >= level)
    eligible = tuple(seat for seat in reached if seat not in folded)
    return Pot((level - floor) * len(reached), eligible, tuple(reached))


def _add_layer(pots: list[Pot], layer: Pot) -> None:
    if pots and _joins(pots[-1], layer):
        pots[-1] = _merged(pots[-1], layer)
    else:
        pots.append(layer)


def _joins(pot: Pot, layer: Pot) -> bool:
    """Same contestants, one pot; but a bet nobody called stays apart from chips others put in."""
    if not layer.eligible:
        return True
    return layer.eligible == pot.eligible and layer.is_uncalled_excess == pot.is_uncalled_excess


def _merged(pot: Pot, layer: Pot) -> Pot:
    contributors = tuple(sorted(set(pot.contributors) | set(layer.contributors)))
    return Pot(pot.amount + layer.amount, pot.eligible, contributors)


def total(pots: Iterable[Pot]) -> int:
    """All the chips in the pots."""
    return sum(pot.amount for pot in pots)


def pot_name(index: int) -> str:
    """How a dealer names a pot: ``main pot``, ``side pot 1``, ``side pot 2`` …"""
    return "main pot" if index == 0 else f"side pot {index}"


def pots_summary(pots: Sequence[Pot]) -> str:
    """One line for a pot view: ``main pot 60 for seats 1, 2, 3; side pot 1 60 for seats 1, 3``."""
    return "; ".join(_pot_line(index, pot) for index, pot in enumerate(pots))


def _pot_line(index: int, pot: Pot) -> str:
    if pot.is_uncalled_excess:
        return f"{pot_name(index)} {chips(pot.amount)} uncalled, seat {pot.eligible[0]}'s own"
    return f"{pot_name(index)} {chips(pot.amount)} for {seats_phrase(pot.eligible)}"


def seats_phrase(seats: Sequence[int]) -> str:
    """``seat 3`` or ``seats 1, 3``; ``no seat`` for none."""
    if not seats:
        return "no seat"
    label = "seat" if len(seats) == 1 else "seats"
    return f"{label} {', '.join(str(seat) for seat in seats)}"
