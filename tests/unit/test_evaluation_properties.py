"""Properties every evaluator keeps, whatever the cards (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cards import Card, short_deck, standard_deck
from domain.evaluation import EvaluationKind, bring_in_key, evaluate, showing_rank

pytestmark = pytest.mark.unit

K = EvaluationKind
ANY_FIVE = [K.STANDARD_HIGH, K.SHORT_DECK_HIGH, K.EIGHT_OR_BETTER_LOW, K.RAZZ, K.DEUCE_TO_SEVEN_LOW]
OMAHA = {K.OMAHA_HIGH: K.STANDARD_HIGH, K.OMAHA_EIGHT_OR_BETTER_LOW: K.EIGHT_OR_BETTER_LOW}
STANDARD_DECK = standard_deck()
SHORT_DECK = short_deck()
QUICK = settings(max_examples=150, deadline=None)


def drawn(count: int, kind: EvaluationKind = K.STANDARD_HIGH) -> st.SearchStrategy[list[Card]]:
    """``count`` different cards, shuffled, from the deck ``kind`` is played with."""
    deck = SHORT_DECK if kind is K.SHORT_DECK_HIGH else STANDARD_DECK
    return st.permutations(deck).map(lambda cards: list(cards[:count]))


@QUICK
@given(kind=st.sampled_from(ANY_FIVE), data=st.data())
def test_any_five_kinds_do_not_care_about_order_or_which_cards_are_hole(
    kind: EvaluationKind, data: st.DataObject
) -> None:
    count = data.draw(st.integers(5, 7))
    cards = data.draw(drawn(count, kind))
    split = data.draw(st.integers(0, count))
    shuffled = data.draw(st.permutations(cards))
    assert evaluate(kind, cards, ()) == evaluate(kind, shuffled[:split], shuffled[split:])


@QUICK
@given(kind=st.sampled_from(list(OMAHA)), hole=st.integers(2, 5), board=st.integers(3, 5), data=st.data())
def test_omaha_does_not_care_about_order_within_hole_or_board(
    kind: EvaluationKind, hole: int, board: int, data: st.DataObject
) -> None:
    cards = data.draw(drawn(hole + board))
    first = evaluate(kind, cards[:hole], cards[hole:])
    again = evaluate(kind, data.draw(st.permutations(cards[:hole])), data.draw(st.permutations(cards[hole:])))
    assert first == again


@QUICK
@given(kind=st.sampled_from([*ANY_FIVE, K.BADUGI]), data=st.data())
def test_one_more_card_never_makes_a_hand_worse(kind: EvaluationKind, data: st.DataObject) -> None:
    count = data.draw(st.integers(1 if kind is K.BADUGI else 5, 6))
    cards = data.draw(drawn(count + 1, kind))
    before = evaluate(kind, cards[:count], ())
    after = evaluate(kind, cards, ())
    if before is not None:
        assert after is not None and after >= before


@QUICK
@given(kind=st.sampled_from(list(OMAHA)), hole=st.integers(2, 4), board=st.integers(3, 4), data=st.data())
def test_omaha_one_more_hole_or_board_card_never_makes_a_hand_worse(
    kind: EvaluationKind, hole: int, board: int, data: st.DataObject
) -> None:
    cards = data.draw(drawn(hole + board + 2))
    h, b, extra_hole, extra_board = cards[:hole], cards[hole : hole + board], cards[-2], cards[-1]
    before = evaluate(kind, h, b)
    if before is not None:
        for more in (evaluate(kind, [*h, extra_hole], b), evaluate(kind, h, [*b, extra_board])):
            assert more is not None and more >= before


@QUICK
@given(kind=st.sampled_from([*ANY_FIVE, K.BADUGI]), data=st.data())
def test_the_cards_played_are_dealt_cards_and_make_the_same_hand_alone(
    kind: EvaluationKind, data: st.DataObject
) -> None:
    cards = data.draw(drawn(data.draw(st.integers(4 if kind is K.BADUGI else 5, 7)), kind))
    hand = evaluate(kind, cards, ())
    if hand is not None:
        assert set(hand.cards) <= set(cards)
        assert 1 <= len(hand.cards) <= 4 if kind is K.BADUGI else len(hand.cards) == 5
        assert evaluate(kind, hand.cards, ()) == hand
        assert hand.describe()


@QUICK
@given(kind=st.sampled_from(list(OMAHA)), hole=st.integers(2, 5), board=st.integers(3, 5), data=st.data())
def test_omaha_plays_exactly_two_hole_and_three_board_cards(
    kind: EvaluationKind, hole: int, board: int, data: st.DataObject
) -> None:
    cards = data.draw(drawn(hole + board))
    h, b = cards[:hole], cards[hole:]
    hand = evaluate(kind, h, b)
    if hand is not None:
        assert len(set(hand.cards) & set(h)) == 2
        assert len(set(hand.cards) & set(b)) == 3
        five = evaluate(OMAHA[kind], hand.cards, ())
        assert five is not None and five.strength == hand.strength


@QUICK
@given(hole=st.integers(2, 5), data=st.data())
def test_omaha_is_never_better_than_any_five_of_the_same_cards(hole: int, data: st.DataObject) -> None:
    cards = data.draw(drawn(hole + 5))
    for omaha, any_five in OMAHA.items():
        restricted = evaluate(omaha, cards[:hole], cards[hole:])
        free = evaluate(any_five, cards, ())
        if restricted is not None:
            assert free is not None and restricted.strength <= free.strength


@QUICK
@given(a=drawn(5), b=drawn(5))
def test_deuce_to_seven_is_the_high_order_upside_down_when_no_wheel(a: list[Card], b: list[Card]) -> None:
    wheel = {14, 2, 3, 4, 5}
    if {c.rank for c in a} == wheel or {c.rank for c in b} == wheel:
        return
    high_a, high_b = evaluate(K.STANDARD_HIGH, a, ()), evaluate(K.STANDARD_HIGH, b, ())
    low_a, low_b = evaluate(K.DEUCE_TO_SEVEN_LOW, a, ()), evaluate(K.DEUCE_TO_SEVEN_LOW, b, ())
    assert high_a is not None and high_b is not None and low_a is not None and low_b is not None
    assert (high_a < high_b) == (low_a > low_b)
    assert (high_a == high_b) == (low_a == low_b)


@QUICK
@given(kind=st.sampled_from(list(K)), data=st.data())
def test_equal_values_hash_alike_and_read_alike(kind: EvaluationKind, data: st.DataObject) -> None:
    hole_count, board_count = (4, 5) if kind in OMAHA else (7 if kind is not K.BADUGI else 4, 0)
    first = data.draw(drawn(hole_count + board_count, kind))
    second = data.draw(drawn(hole_count + board_count, kind))
    a = evaluate(kind, first[:hole_count], first[hole_count:])
    b = evaluate(kind, second[:hole_count], second[hole_count:])
    if a is not None and b is not None:
        assert (a == b) == (not a < b and not b < a)
        if a == b:
            assert hash(a) == hash(b)
            assert a.describe() == b.describe()


@QUICK
@given(kind=st.sampled_from([K.STANDARD_HIGH, K.EIGHT_OR_BETTER_LOW, K.RAZZ]), data=st.data())
def test_a_stud_board_reads_the_same_in_any_order(kind: EvaluationKind, data: st.DataObject) -> None:
    up = data.draw(drawn(data.draw(st.integers(1, 4))))
    assert showing_rank(kind, up) == showing_rank(kind, data.draw(st.permutations(up)))


@pytest.mark.parametrize("kind", [K.STANDARD_HIGH, K.EIGHT_OR_BETTER_LOW, K.RAZZ])
def test_bring_in_never_ties_and_different_boards_never_tie(kind: EvaluationKind) -> None:
    assert len({bring_in_key(kind, card) for card in STANDARD_DECK}) == len(STANDARD_DECK)
    pairs = [(a, b) for a in STANDARD_DECK for b in STANDARD_DECK if a != b]
    keys = {showing_rank(kind, [a, b]) for a, b in pairs}
    assert len(keys) == len(pairs) // 2  # each board once, whichever card was dealt first
