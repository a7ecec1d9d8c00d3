"""Stud's order of action from the face-up cards: who brings in, and whose board acts first.

Sources: bfsp 5.4.3 and 5.8.2 (the lowest up-card brings in; equal ranks are decided by suit, spades >
hearts > diamonds > clubs, so clubs bring in), bfsp 5.8.5-5.8.6 (later rounds start with the highest
hand showing), TDA 2022 RP-10 d / TDA 2017 RP-9 C (identical high boards in stud and stud/8, or identical
low boards in razz: the board holding the highest card by suit acts first), TDA 2017 rules 13 / 16 (razz:
the lowest hand showing acts first). Razz's bring-in is neither in bfsp nor TDA; it follows PokerKit
0.7.7 (its razz opens with the highest up-card, aces low, and among equal ranks the higher suit), which
is also the usual house rule.

Four up-cards or fewer make no straight or flush, so a board is quads, trips, two pair, a pair or
nothing (as PokerKit reads boards).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.cards import SUIT_SENIORITY, Card
from domain.evaluation.encoding import grouped
from domain.evaluation.kinds import EvaluationKind
from domain.evaluation.low import low_rank

MAX_UP_CARDS = 4
#: Board shape (counts per rank, most first) → how strong it reads: nothing < pair < two pair < trips < quads.
_SHAPE_ORDER: dict[tuple[int, ...], int] = {
    (): 0,
    (1,): 0,
    (1, 1): 0,
    (1, 1, 1): 0,
    (1, 1, 1, 1): 0,
    (2,): 1,
    (2, 1): 1,
    (2, 1, 1): 1,
    (2, 2): 2,
    (3,): 3,
    (3, 1): 3,
    (4,): 4,
}


def _board_key(ranks: list[int]) -> tuple[int, list[int]]:
    groups = grouped(ranks)
    shape = _SHAPE_ORDER[tuple(n for n, _ in groups)]
    read = [r for _, r in groups]
    return shape, read + [0] * (MAX_UP_CARDS - len(read))


def showing_rank(kind: EvaluationKind, up_cards: Sequence[Card]) -> tuple[int, ...]:
    """A key of one to four up-cards; the highest key acts first.

    Razz: the best ace-to-five low showing (pairs are bad, the ace is one). Every other kind (stud high,
    stud/8): the best high hand showing. Equal boards are ordered by the suit of their highest card
    (spades highest), then of the next ones.
    """
    if not 1 <= len(up_cards) <= MAX_UP_CARDS:
        raise ValueError(f"a stud board shows one to four up-cards, not {len(up_cards)}")
    if kind is EvaluationKind.RAZZ:
        ranks = [low_rank(c.rank) for c in up_cards]
        shape, read = _board_key(ranks)
        by_card = sorted(((low_rank(c.rank), SUIT_SENIORITY[c.suit]) for c in up_cards), reverse=True)
        return (-shape, *(-r for r in read), *(s for _, s in by_card))
    shape, read = _board_key([c.rank for c in up_cards])
    by_card = sorted(((c.rank, SUIT_SENIORITY[c.suit]) for c in up_cards), reverse=True)
    return (shape, *read, *(s for _, s in by_card))


def bring_in_key(kind: EvaluationKind, up_card: Card) -> tuple[int, int]:
    """A key of the first up-card; the highest key must bring in.

    Stud and stud/8 (bfsp 5.8.2): the lowest rank, aces high; among equal ranks the lowest suit (clubs).
    Razz (PokerKit 0.7.7): the highest rank, aces low (a king is worst); among equal ranks the highest
    suit (spades).
    """
    seniority = SUIT_SENIORITY[up_card.suit]
    if kind is EvaluationKind.RAZZ:
        return low_rank(up_card.rank), seniority
    return -up_card.rank, -seniority
