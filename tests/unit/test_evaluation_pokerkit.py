"""Our evaluators against PokerKit 0.7.7's hand classes, on seeded random deals.

Two checks per kind:

* ``from_game``: PokerKit's own ``Hand.from_game`` on a few thousand deals — the same best hand or the
  same "no hand" (``None`` vs ``ValueError``), and the same order between every pair of neighbours once the
  deals are sorted by PokerKit's value (so the two orders are the same total order, ties included).
* the big one (``slow``): 100,000 deals per kind. ``from_game`` costs PokerKit up to 0.7 ms a deal, so
  here the best hand is found by the same brute force ``from_game`` runs (every five of hole + board; two
  hole and three board for Omaha; the largest valid subset for badugi), and each five-card combination is
  ranked by PokerKit's hand class itself, remembered by what PokerKit's lookup reads (the ranks and how
  many suits), then compared with ours in the same sorted-neighbours way.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

import pokerkit as pk
import pytest

from domain.cards import Card, format_cards, short_deck, standard_deck
from domain.evaluation import EvaluationKind, evaluate

pytestmark = pytest.mark.unit

K = EvaluationKind
Deal = tuple[tuple[Card, ...], tuple[Card, ...]]


@dataclass(frozen=True)
class Game:
    hand_class: type[pk.Hand]
    deck: Callable[[], tuple[Card, ...]]
    hole: Sequence[int]  # possible hole counts
    board: Sequence[int]  # possible board counts


GAMES = {
    K.STANDARD_HIGH: Game(pk.StandardHighHand, standard_deck, (2,), (3, 4, 5)),
    K.SHORT_DECK_HIGH: Game(pk.ShortDeckHoldemHand, short_deck, (2,), (3, 4, 5)),
    K.OMAHA_HIGH: Game(pk.OmahaHoldemHand, standard_deck, (4, 5), (3, 4, 5)),
    K.EIGHT_OR_BETTER_LOW: Game(pk.EightOrBetterLowHand, standard_deck, (5, 6, 7), (0,)),
    K.OMAHA_EIGHT_OR_BETTER_LOW: Game(pk.OmahaEightOrBetterLowHand, standard_deck, (4, 5), (3, 4, 5)),
    K.RAZZ: Game(pk.RegularLowHand, standard_deck, (5, 6, 7), (0,)),
    K.DEUCE_TO_SEVEN_LOW: Game(pk.StandardLowHand, standard_deck, (5, 5, 5, 6), (0,)),
    K.BADUGI: Game(pk.BadugiHand, standard_deck, (1, 2, 3, 4, 4, 4, 5), (0,)),
}


def deals(kind: EvaluationKind, count: int, seed: int) -> Iterator[Deal]:
    game = GAMES[kind]
    rng = random.Random(f"{kind}-{seed}")
    deck = game.deck()
    for _ in range(count):
        hole, board = rng.choice(game.hole), rng.choice(game.board)
        drawn = rng.sample(deck, hole + board)
        yield tuple(drawn[:hole]), tuple(drawn[hole:])


def pokerkit_cards(cards: Sequence[Card]) -> tuple[pk.Card, ...]:
    return tuple(pk.Card.parse(format_cards(list(cards))))


def sign(a: object, b: object) -> int:
    return (a > b) - (a < b)  # type: ignore[operator]


def assert_same_order(kind: EvaluationKind, rows: list[tuple[object, object, Deal]]) -> None:
    """rows: (PokerKit's value, our value, deal). Same order between sorted neighbours and random pairs."""
    rows = sorted(rows, key=lambda row: row[0])  # type: ignore[arg-type, return-value]
    for (theirs_a, ours_a, deal_a), (theirs_b, ours_b, deal_b) in zip(rows, rows[1:], strict=False):
        assert sign(ours_a, ours_b) == sign(theirs_a, theirs_b), (kind, deal_a, deal_b, ours_a, ours_b)
    rng = random.Random(len(rows))
    for _ in range(len(rows)):
        (theirs_a, ours_a, deal_a), (theirs_b, ours_b, deal_b) = rng.sample(rows, 2)
        assert sign(ours_a, ours_b) == sign(theirs_a, theirs_b), (kind, deal_a, deal_b, ours_a, ours_b)


@pytest.mark.parametrize("kind", list(K))
def test_same_best_hand_as_pokerkit_from_game(kind: EvaluationKind) -> None:
    game = GAMES[kind]
    rows = []
    for hole, board in deals(kind, 2_500, seed=1):
        ours = evaluate(kind, hole, board)
        try:
            theirs = game.hand_class.from_game(pokerkit_cards(hole), pokerkit_cards(board))
        except ValueError:
            assert ours is None, (hole, board, ours)
            continue
        assert ours is not None, (hole, board, theirs)
        their_ranks = sorted(c.rank.value for c in theirs.cards)
        assert sorted(format_cards([c])[0] for c in ours.cards) == their_ranks, (hole, board, ours, theirs)
        rows.append((theirs, ours, (hole, board)))
    assert len(rows) > 200
    assert_same_order(kind, rows)


Summary = tuple[int, int, Card]
SUIT_BITS = {suit: 1 << i for i, suit in enumerate("cdhs")}


def summarise(cards: Sequence[Card]) -> list[Summary]:
    return [(5**c.rank, SUIT_BITS[c.suit.value], c) for c in cards]


class PokerKitFive:
    """PokerKit's strength of one combination (five cards; badugi: one to four), remembered.

    PokerKit's lookups read only the multiset of ranks and whether the cards are all of one suit (badugi:
    all of different suits), so combinations that agree on the ranks and on the number of suits share
    one entry. A card comes summarised as ``(5 ** rank, suit bit, card)``: the sum of the first is unique
    to the rank multiset (no rank occurs five times), the OR of the second is the set of suits.
    """

    def __init__(self, hand_class: type[pk.Hand]) -> None:
        self.hand_class = hand_class
        self.cache: dict[tuple[int, int], int | None] = {}

    def __call__(self, parts: Sequence[Summary]) -> int | None:
        ranks = suits = 0
        for rank, suit, _ in parts:
            ranks += rank
            suits |= suit
        key = (ranks, suits.bit_count())
        if key not in self.cache:
            try:
                hand = self.hand_class(pokerkit_cards([card for _, _, card in parts]))
            except ValueError:
                self.cache[key] = None
            else:
                index = hand.entry.index
                self.cache[key] = -index if hand.low else index
        return self.cache[key]


def best_by_brute_force(
    kind: EvaluationKind, five: PokerKitFive, hole: tuple[Card, ...], board: tuple[Card, ...]
) -> int | None:
    """``from_game``'s search, with each combination ranked by PokerKit."""
    hole_parts, board_parts = summarise(hole), summarise(board)
    if kind is K.BADUGI:
        for size in range(4, 0, -1):
            found = [
                v for c in combinations(hole_parts + board_parts, size) if (v := five(c)) is not None
            ]
            if found:
                return max(found)
        return None
    if kind in (K.OMAHA_HIGH, K.OMAHA_EIGHT_OR_BETTER_LOW):
        chosen: Iterator[tuple[Summary, ...]] = (
            two + three for two in combinations(hole_parts, 2) for three in combinations(board_parts, 3)
        )
    else:
        chosen = combinations(hole_parts + board_parts, 5)
    values = [v for c in chosen if (v := five(c)) is not None]
    return max(values) if values else None


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(K))
def test_same_order_as_pokerkit_on_100_000_deals(kind: EvaluationKind) -> None:
    five = PokerKitFive(GAMES[kind].hand_class)
    rows = []
    for hole, board in deals(kind, 100_000, seed=2):
        ours = evaluate(kind, hole, board)
        theirs = best_by_brute_force(kind, five, hole, board)
        assert (ours is None) == (theirs is None), (hole, board, ours, theirs)
        if ours is not None:
            rows.append((theirs, ours, (hole, board)))
    assert len(rows) > 5_000
    assert_same_order(kind, rows)
