"""A ruling amends a hand's mechanical outcome, and the amended outcome says which part is whose.

The engine's ``PotAwarded`` and ``HandEnded`` are the mechanical outcome. A ruling re-awards pots (a dealer's
misread pot, the real winner's hand mucked by the dealer: bfsp 7.4.1's example), declares hands dead or restores
folded or mucked ones (bfsp 6.6.9, the Chief Judge only). :func:`amend` checks it against the outcome — the right
role, every share to a seat in the hand that may win that pot, shares adding up to the pot — and returns each
pot with its provenance: mechanical, or discretionary with the ruling, the official, his role and the rule.
Each ruling amends the mechanical outcome; a later one (the Chief Judge on a protested finding) replaces an
earlier one rather than stacking on it. The outcome in force (:func:`awards_in_force`, :func:`stacks_in_force`)
takes each pot as the last standing ruling that re-awarded it gave it, the engine's award where none did: a
finding that re-awards nothing leaves a decision standing, and a pot already re-awarded is awarded otherwise
only by a ruling that amends that one (:func:`verify_replaces`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from domain.errors import DisciplineError, RuleRef, chips
from domain.hand.events import HandEnded, PotAwarded, PotShare
from domain.officials import Act, verify_permitted
from domain.officials.permissions import permission
from domain.roles import Role
from domain.rulings.events import PotReaward, RulingIssued, RulingKind


@dataclass(frozen=True, slots=True)
class MechanicalOutcome:
    """What the engine computed: the pots as awarded and the hand's end."""

    pots: tuple[PotAwarded, ...]
    ended: HandEnded

    @property
    def seats(self) -> frozenset[int]:
        return frozenset(seat for seat, _ in self.ended.final_stacks)


@dataclass(frozen=True, slots=True)
class Provenance:
    """Mechanical (``ruling`` empty), or the discretionary ruling that decided it."""

    ruling: str = ""
    kind: RulingKind | None = None
    official: str = ""
    role: Role | None = None
    rule: str = ""

    @property
    def discretionary(self) -> bool:
        return bool(self.ruling)


MECHANICAL = Provenance()


@dataclass(frozen=True, slots=True)
class AmendedPot:
    awarded: PotAwarded
    mechanical: PotAwarded
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class AmendedOutcome:
    pots: tuple[AmendedPot, ...]
    final_stacks: tuple[tuple[int, int], ...]
    mechanical: MechanicalOutcome
    ruling: RulingIssued

    @property
    def discretionary_pots(self) -> tuple[AmendedPot, ...]:
        return tuple(p for p in self.pots if p.provenance.discretionary)


def _key(pot_index: int, half: str) -> tuple[int, str]:
    return pot_index, half


def _name(pot_index: int, half: str) -> str:
    pot = "the main pot" if pot_index == 0 else f"side pot {pot_index}"
    return f"the {half} half of {pot}" if half else pot


def verify_ruling(outcome: MechanicalOutcome, ruling: RulingIssued) -> None:
    """Refuse a ruling its official may not make, or one that does not fit the hand's outcome."""
    verify_permitted(ruling.kind.act, ruling.role)
    if ruling.restored:
        verify_permitted(Act.CARDS_RESTORED, ruling.role)
    rule = permission(ruling.kind.act).cite()
    if not ruling.finding.strip():
        raise DisciplineError("a ruling says what the official found or decided", rule)
    if ruling.kind is RulingKind.FAIRNESS_OVERRIDE and not (ruling.deviates_from and ruling.justification.strip()):
        raise DisciplineError(
            "a departure from the rules for fairness names the rules it departs from and justifies it", rule
        )
    strangers = sorted((set(ruling.dead) | set(ruling.restored)) - outcome.seats)
    if strangers:
        raise DisciplineError(f"seat(s) {_seats(strangers)} were not in the hand", rule)
    pots = {_key(p.pot_index, p.half): p for p in outcome.pots}
    reawarded = Counter(_key(r.pot_index, r.half) for r in ruling.reawards)
    for key, times in reawarded.items():
        if times > 1:
            raise DisciplineError(f"{_name(*key)} is re-awarded {times} times in one ruling", rule)
    for reaward in ruling.reawards:
        _verify_reaward(reaward, pots, outcome, ruling, rule)
    for pot in outcome.pots:
        if _key(pot.pot_index, pot.half) in reawarded:
            continue
        winners_dead = sorted({s.seat for s in pot.shares} & set(ruling.dead))
        if winners_dead:
            raise DisciplineError(
                f"seat(s) {_seats(winners_dead)} were declared dead but keep their share of "
                f"{_name(pot.pot_index, pot.half)}: the ruling must award it again",
                rule,
            )


def _verify_reaward(
    reaward: PotReaward,
    pots: dict[tuple[int, str], PotAwarded],
    outcome: MechanicalOutcome,
    ruling: RulingIssued,
    rule: RuleRef,
) -> None:
    name = _name(reaward.pot_index, reaward.half)
    pot = pots.get(_key(reaward.pot_index, reaward.half))
    if pot is None:
        raise DisciplineError(f"the hand has no {name} to award again", rule)
    seats = [s.seat for s in reaward.shares]
    if not seats or len(seats) != len(set(seats)):
        raise DisciplineError(f"{name} is awarded to each winner once, and to at least one", rule)
    if any(s.amount <= 0 for s in reaward.shares):
        raise DisciplineError(f"every share of {name} is a positive number of chips", rule)
    total = sum(s.amount for s in reaward.shares)
    if total != pot.amount:
        raise DisciplineError(
            f"the shares of {name} add up to {chips(total)}; the pot is {chips(pot.amount)}", rule
        )
    may_win = (set(pot.eligible) | set(ruling.restored)) - set(ruling.dead)
    outsiders = sorted(set(seats) - may_win)
    if outsiders:
        outside = sorted(set(outsiders) - outcome.seats)
        why = "were not in the hand" if outside else f"may not win {name}"
        raise DisciplineError(f"seat(s) {_seats(outsiders)} {why}", rule)


def _seats(seats: list[int]) -> str:
    return ", ".join(str(s) for s in seats)


def amend(outcome: MechanicalOutcome, ruling: RulingIssued) -> AmendedOutcome:
    """The outcome as ``ruling`` amends it, every pot marked mechanical or discretionary."""
    verify_ruling(outcome, ruling)
    new = {_key(r.pot_index, r.half): r.shares for r in ruling.reawards}
    provenance = Provenance(ruling.ruling, ruling.kind, ruling.official, ruling.role, ruling.rule)
    stacks = dict(outcome.ended.final_stacks)
    pots: list[AmendedPot] = []
    for pot in outcome.pots:
        shares = new.get(_key(pot.pot_index, pot.half))
        if shares is None:
            pots.append(AmendedPot(pot, pot, MECHANICAL))
            continue
        _move(stacks, pot.shares, -1)
        _move(stacks, shares, +1)
        awarded = PotAwarded(pot.pot_index, pot.amount, pot.eligible, shares, pot.half, "", "")
        pots.append(AmendedPot(awarded, pot, provenance))
    final = tuple((seat, stacks[seat]) for seat, _ in outcome.ended.final_stacks)
    return AmendedOutcome(tuple(pots), final, outcome, ruling)


def _move(stacks: dict[int, int], shares: tuple[PotShare, ...], sign: int) -> None:
    for share in shares:
        stacks[share.seat] += sign * share.amount


def standing(rulings: Sequence[RulingIssued]) -> tuple[RulingIssued, ...]:
    """A hand's ``rulings`` (in the order issued) that no later one replaced: each stands for what it amends."""
    replaced = {r.amends for r in rulings}
    return tuple(r for r in rulings if r.ruling not in replaced)


def in_force(rulings: Sequence[RulingIssued]) -> RulingIssued | None:
    """The latest of a hand's ``rulings`` that no later one replaced."""
    kept = standing(rulings)
    return kept[-1] if kept else None


def awards_in_force(
    outcome: MechanicalOutcome, rulings: Sequence[RulingIssued]
) -> dict[tuple[int, str], tuple[tuple[PotShare, ...], RulingIssued | None]]:
    """(pot index, half) → the shares each pot of the hand is awarded in, and the standing ruling that re-awarded
    it last (None: the engine's award stands)."""
    awards: dict[tuple[int, str], tuple[tuple[PotShare, ...], RulingIssued | None]] = {
        _key(pot.pot_index, pot.half): (pot.shares, None) for pot in outcome.pots
    }
    for ruling in standing(rulings):
        for reaward in ruling.reawards:
            awards[_key(reaward.pot_index, reaward.half)] = (reaward.shares, ruling)
    return awards


def stacks_in_force(outcome: MechanicalOutcome, rulings: Sequence[RulingIssued]) -> dict[int, int]:
    """Seat → the chips the hand leaves it once ``rulings`` are issued: the engine's, each pot's award moved to
    the shares the standing rulings gave it."""
    stacks = dict(outcome.ended.final_stacks)
    awards = awards_in_force(outcome, rulings)
    for pot in outcome.pots:
        _move(stacks, pot.shares, -1)
        _move(stacks, awards[_key(pot.pot_index, pot.half)][0], +1)
    return stacks


def verify_replaces(outcome: MechanicalOutcome, earlier: Sequence[RulingIssued], ruling: RulingIssued) -> None:
    """A pot a standing ruling re-awarded is awarded otherwise only by a ruling that amends that one (the Chief
    Judge deciding on it, bfsp 2.1.3): rulings replace one another, they do not stack."""
    awards = awards_in_force(outcome, earlier)
    for reaward in ruling.reawards:
        _, by = awards.get(_key(reaward.pot_index, reaward.half), ((), None))
        if by is not None and ruling.amends != by.ruling:
            raise DisciplineError(
                f"ruling {by.ruling} awarded {_name(reaward.pot_index, reaward.half)} again: a ruling that awards it "
                f"otherwise amends ruling {by.ruling}, and only the Chief Judge does",
                RuleRef("bfsp", "2.1.3"),
            )


def chips_moved(outcome: MechanicalOutcome, earlier: Sequence[RulingIssued], ruling: RulingIssued) -> dict[int, int]:
    """Seat → the chips ``ruling`` gives it (or takes back, negative) against what the hand's ``earlier`` rulings
    left it; the seats it does not touch are left out."""
    before = stacks_in_force(outcome, earlier)
    after = stacks_in_force(outcome, [*earlier, ruling])
    return {seat: after[seat] - chips for seat, chips in before.items() if after[seat] != chips}
