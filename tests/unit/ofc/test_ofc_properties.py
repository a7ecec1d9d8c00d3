"""Properties of OFC rounds over bots' play (hypothesis), and the row rankings against the engine's evaluators
and PokerKit's."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pokerkit as pk
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cards import Card, Suit, format_cards, standard_deck
from domain.evaluation import EvaluationKind, evaluate
from domain.ofc.events import OfcCardsDealt, OfcCardsSet, OfcPlayer, OfcRoundRedealt, OfcRoundStarted
from domain.ofc.game import OfcGame
from domain.ofc.rows import five_card_strength, foul_of, three_card_strength
from domain.rulebooks import BFSP, FantasyOrder
from ingest.simulator.ofc import next_fantasy, play_round

pytestmark = pytest.mark.unit


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.sampled_from([2, 3]),
    rounds=st.integers(1, 4),
    order=st.sampled_from(list(FantasyOrder)),
)
def test_points_sum_to_zero_and_no_card_is_seen_twice(
    seed: int, players: int, rounds: int, order: FantasyOrder
) -> None:
    book = dataclasses.replace(BFSP, ofc_fantasy_order=order)
    rng = random.Random(seed)
    seated = tuple(OfcPlayer(s, f"P{s}") for s in range(1, players + 1))
    previous = None
    for number in range(1, rounds + 1):
        started = OfcRoundStarted("T1", number, 1 + number % players, seated, next_fantasy(previous, rng))
        played = play_round(started, book, rng, noise=rng.random() * 2, miscount=0.3)
        # replayed through a fresh engine: the same settlement, points summing to zero in every pair's sum
        game = OfcGame(started, book)
        seen: Counter[Card] = Counter()
        for event in played.events[1:]:
            derived = game.apply(event)
            if isinstance(event, OfcCardsDealt):
                seen.update(event.cards)
            if any(isinstance(d, OfcRoundRedealt) for d in derived):
                seen.clear()  # a redeal: a fresh deck
        assert game.scored == played.scored
        assert max(seen.values()) == 1
        placed_and_discarded = Counter(
            c
            for e in played.events
            if isinstance(e, OfcCardsSet)
            for c in e.bottom + e.middle + e.top + e.discarded
        )
        if not played.redeals:
            assert placed_and_discarded == seen
        assert sum(h.points for h in played.scored.hands) == 0
        for hand in played.scored.hands:
            mine = sum(p.points for p in played.scored.pairs if p.first == hand.seat) - sum(
                p.points for p in played.scored.pairs if p.second == hand.seat
            )
            assert mine == hand.points
            assert hand.fouled == (foul_of(hand.bottom, hand.middle, hand.top) is not None)
            assert len(hand.bottom + hand.middle + hand.top) == 13
        assert [(p.first, p.second) for p in played.scored.pairs] == [
            (a.seat, b.seat) for i, a in enumerate(played.scored.hands) for b in played.scored.hands[i + 1 :]
        ]
        previous = played.scored


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _deals(n: int, size: int, seed: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    deck = list(standard_deck())
    return [tuple(rng.sample(deck, size)) for _ in range(n)]


def test_five_card_rows_rank_as_the_engine_and_pokerkit_rank_them() -> None:
    rows = _deals(3000, 5, 11)
    for a, b in zip(rows, rows[1:], strict=False):
        mine = _sign(five_card_strength(a) - five_card_strength(b))
        engine = _sign(
            evaluate(EvaluationKind.STANDARD_HIGH, a, ()).strength
            - evaluate(EvaluationKind.STANDARD_HIGH, b, ()).strength
        )  # type: ignore[union-attr]
        ha, hb = pk.StandardHighHand(format_cards(a)), pk.StandardHighHand(format_cards(b))
        theirs = (ha > hb) - (ha < hb)
        assert mine == engine == theirs, (a, b)


#: two cards below every rank, of two different suits: they pair nothing, make no straight and no flush with
#: three real cards, so a three-card row plus them ranks among five-card hands as the row does among rows
_PHANTOMS = (Card(1, Suit.SPADES), Card(0, Suit.HEARTS))


def _padded(top: tuple[Card, ...]) -> int:
    value = evaluate(EvaluationKind.STANDARD_HIGH, top + _PHANTOMS, ())
    assert value is not None
    return value.strength


def test_three_card_rows_rank_as_the_engines_evaluator_ranks_them_with_two_dead_kickers() -> None:
    tops = _deals(4000, 3, 12)
    # every rank pattern a top row can have appears among the deals: trips, pairs, high cards
    assert {len({c.rank for c in t}) for t in tops} == {1, 2, 3}
    for a, b in zip(tops, tops[1:], strict=False):
        assert _sign(three_card_strength(a) - three_card_strength(b)) == _sign(_padded(a) - _padded(b)), (
            a,
            b,
        )


def test_middle_against_top_compares_as_the_engine_compares_the_padded_top() -> None:
    rng = random.Random(13)
    deck = list(standard_deck())
    for _ in range(4000):
        cards = rng.sample(deck, 8)
        middle, top = tuple(cards[:5]), tuple(cards[5:])
        if rng.random() < 0.5:  # give the top a rank of the middle often: pairs against pairs, kickers decide
            swap = next((c for c in deck if c.rank == middle[0].rank and c not in cards), None)
            if swap is not None:
                top = (swap, *top[1:])
        mine = _sign(five_card_strength(middle) - three_card_strength(top))
        engine = _sign(five_card_strength(middle) - _padded(top))
        assert mine == engine != 0, (middle, top)
