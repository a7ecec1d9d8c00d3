"""Settling an OFC round: royalties, fouls and points between every two players (bfsp 8, scoring).

Each pair of players settles on its own, in the settlement order 1–2, 1–3, 2–3 (position 1 is the first seat
after the button, the button is the last position):

* neither hand dead: +1 for each row won (a tied row scores nothing, suits break no tie), or the scoop's
  points in all when one player wins all three rows (``ofc_scoop_points``, 6: "+1 a row, +6 a scoop" — the
  usual 1–6 count); then each player's royalties are paid by the other (the difference changes hands);
* one hand dead (fouled): its owner loses every row as to a scoop and pays the other's royalties; a dead
  hand earns no royalty;
* both hands dead: nothing changes hands.

So every pair's points sum to zero, and so does every round. The digest's "rent" (+2, "untranslatable,
meaning unknown") is not scored: see docs/RULEBOOKS.md D14.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from domain.cards import Card
from domain.ofc.rows import Foul, Row, foul_of, row_strength, royalty

ROWS = (Row.BOTTOM, Row.MIDDLE, Row.TOP)


@dataclass(frozen=True, slots=True)
class SetHand:
    """One player's complete hand as set: thirteen cards in three rows, and his seat and position."""

    seat: int
    position: int
    bottom: tuple[Card, ...]
    middle: tuple[Card, ...]
    top: tuple[Card, ...]

    def row(self, row: Row) -> tuple[Card, ...]:
        return {Row.BOTTOM: self.bottom, Row.MIDDLE: self.middle, Row.TOP: self.top}[row]


@dataclass(frozen=True, slots=True)
class HandScore:
    """What a set hand is worth by itself: its foul, and each row's royalty (all zero when it is dead)."""

    seat: int
    position: int
    foul: Foul | None
    royalties: tuple[int, int, int]  # bottom, middle, top

    @property
    def fouled(self) -> bool:
        return self.foul is not None

    @property
    def total_royalties(self) -> int:
        return sum(self.royalties)


@dataclass(frozen=True, slots=True)
class PairSettlement:
    """One pair's settlement: ``first`` is the lower position; every number is the first player's gain."""

    first: int  # seat
    second: int  # seat
    rows: tuple[int, int, int]  # +1 first won the row, -1 second won it, 0 tie (bottom, middle, top)
    row_points: int  # the rows' points, the scoop's in all when one player won all three
    scoop: bool
    royalties: int  # the first's royalties less the second's (a dead hand's are zero)
    points: int  # row_points + royalties


def score_hand(hand: SetHand) -> HandScore:
    foul = foul_of(hand.bottom, hand.middle, hand.top)
    if foul is not None:
        return HandScore(hand.seat, hand.position, foul, (0, 0, 0))
    bottom, middle, top = (royalty(row, hand.row(row)) for row in ROWS)
    return HandScore(hand.seat, hand.position, None, (bottom, middle, top))


def settle_pair(a: SetHand, sa: HandScore, b: SetHand, sb: HandScore, scoop_points: int) -> PairSettlement:
    """The settlement between two players, ``a`` before ``b`` in the settlement order."""
    royalties = sa.total_royalties - sb.total_royalties
    if sa.fouled and sb.fouled:
        return PairSettlement(a.seat, b.seat, (0, 0, 0), 0, False, 0, 0)
    if sa.fouled or sb.fouled:
        sign = -1 if sa.fouled else 1
        rows = (sign, sign, sign)
        return PairSettlement(
            a.seat, b.seat, rows, sign * scoop_points, True, royalties, sign * scoop_points + royalties
        )
    bottom, middle, top = (
        _compare(row_strength(row, a.row(row)), row_strength(row, b.row(row))) for row in ROWS
    )
    rows = (bottom, middle, top)
    total = sum(rows)
    scoop = abs(total) == len(ROWS)
    row_points = (scoop_points if total > 0 else -scoop_points) if scoop else total
    return PairSettlement(a.seat, b.seat, rows, row_points, scoop, royalties, row_points + royalties)


def _compare(x: int, y: int) -> int:
    return (x > y) - (x < y)


@dataclass(frozen=True, slots=True)
class RoundSettlement:
    scores: tuple[HandScore, ...]  # by position
    pairs: tuple[PairSettlement, ...]  # in the settlement order

    def points(self) -> dict[int, int]:
        """Each seat's points for the round: the sum of its pairs' settlements."""
        out = {score.seat: 0 for score in self.scores}
        for pair in self.pairs:
            out[pair.first] += pair.points
            out[pair.second] -= pair.points
        return out


def settle(hands: Sequence[SetHand], scoop_points: int = 6) -> RoundSettlement:
    """Settle a round: each hand scored, then each pair in the settlement order 1–2, 1–3, 2–3 (bfsp 8)."""
    ordered = sorted(hands, key=lambda h: h.position)
    scores = {h.seat: score_hand(h) for h in ordered}
    pairs = tuple(
        settle_pair(a, scores[a.seat], b, scores[b.seat], scoop_points) for a, b in combinations(ordered, 2)
    )
    return RoundSettlement(tuple(scores[h.seat] for h in ordered), pairs)
