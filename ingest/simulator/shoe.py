"""The dealer's deck: a seeded shuffle, dealt from the top, burns included.

A simulated competition needs split pots, which a fair shuffle makes rare. Now and then the shuffle is a
*board that plays*: the five board cards are a broadway straight of at least three suits, so in hold'em no
hole cards can beat or improve it and every hand that reaches the showdown ties.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from domain.cards import Card, Suit, short_deck, standard_deck
from domain.evaluation import EvaluationKind
from domain.variants import Variant

_BROADWAY = (14, 13, 12, 11, 10)


class Shoe:
    """One hand's deck. ``board`` (optional) is dealt to the board in its order; every other card, hole cards
    and burns, comes from the shuffled rest."""

    __slots__ = ("_stub", "_board")

    def __init__(self, deck: Sequence[Card], rng: random.Random, board: Sequence[Card] = ()) -> None:
        fixed = set(board)
        self._stub = [c for c in deck if c not in fixed]
        rng.shuffle(self._stub)
        self._board = list(board)

    def deal(self, count: int = 1) -> tuple[Card, ...]:
        return tuple(self._stub.pop() for _ in range(count))

    def deal_board(self, count: int) -> tuple[Card, ...]:
        return tuple(self._board.pop(0) if self._board else self._stub.pop() for _ in range(count))


def deck_of(variant: Variant) -> tuple[Card, ...]:
    return short_deck() if variant.deck == "short" else standard_deck()


def board_can_play(variant: Variant) -> bool:
    """Only where a hand may use any five of its cards, and a straight beats three of a kind, is the broadway
    board every player's best hand (in Omaha two hole cards must play; in short deck trips beat a straight)."""
    return variant.high is EvaluationKind.STANDARD_HIGH and variant.low is None


def playing_board(rng: random.Random) -> tuple[Card, ...]:
    """A broadway straight with no three cards of one suit: no flush can be made, nothing beats it."""
    suits = rng.sample(list(Suit), 4) + [rng.choice(list(Suit))]
    cards = [Card(rank, suit) for rank, suit in zip(_BROADWAY, suits, strict=True)]
    rng.shuffle(cards)
    return tuple(cards)
