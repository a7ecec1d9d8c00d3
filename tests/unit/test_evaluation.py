"""Hand evaluators: the rulebook's examples, the edge cases of each kind, and the public API's promises."""

from __future__ import annotations

import pytest

from domain.cards import Card, parse_cards
from domain.evaluation import EvaluationKind, HandValue, bring_in_key, evaluate, showing_rank

pytestmark = pytest.mark.unit

K = EvaluationKind


def cards(text: str) -> tuple[Card, ...]:
    parsed = parse_cards(text)
    assert all(card is not None for card in parsed)
    return tuple(card for card in parsed if card is not None)


def value(kind: EvaluationKind, hole: str, board: str = "") -> HandValue:
    result = evaluate(kind, cards(hole), cards(board))
    assert result is not None, f"{hole} {board} makes no {kind} hand"
    return result


def high(text: str) -> HandValue:
    return value(K.STANDARD_HIGH, text)


# --- bfsp 4.6.1: the worked examples, in the rulebook's order ----------------------------------------------


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("KsQsJsTs9s", "QhJhTh9h8h"),  # king-high straight flush beats queen-high
        ("5s5h5d5c2s", "2s2h2d2cAs"),  # four fives beat four deuces
        ("3s3h3d4c4s", "2s2h2dAcAs"),  # 33344 beats 222AA: trips compared first
        ("AhJh8h6h2h", "JdTd8d6d2d"),  # ace-high flush beats jack-high flush
        ("KsQhJdTc9s", "QsJhTd9c8s"),  # king-high straight beats queen-high
        ("8s8h8dKcQs", "8s8h8cKdTs"),  # 888KQ beats 888KT
        ("AsAh2d2c3s", "KsKhQdQcJs"),  # AA223 beats KKQQJ
        ("9s9h8d8c2s", "9d9c5d5cAs"),  # 99882 beats 9955A
        ("9s9h5d5cAs", "9d9c5s5hKs"),  # 9955A beats 9955K
        ("KsKhAdQc3s", "KdKcQdJc9s"),  # KK with ace beats KK with queen
        ("KsKhAdQc3s", "KdKcAsQh2s"),  # KKAQ3 beats KKAQ2
        ("AsJh4d3c2s", "AhTd9c8s7h"),  # AJ432 beats AT987
    ],
)
def test_the_rulebook_examples_rank_as_bfsp_4_6_1_says(better: str, worse: str) -> None:
    assert high(better) > high(worse)


def test_equal_ranks_tie_whatever_the_suits_bfsp_4_6_1_and_4_5_2() -> None:
    assert high("9s9h7d5c2s") == high("9d9c7s5h2h")
    assert high("AhJh8h6h2h") == high("AsJs8s6s2s")


def test_the_categories_rank_in_the_standard_order() -> None:
    ladder = [
        "AsKhQd9c7s",  # high card
        "2s2h3d4c7s",  # pair of deuces
        "2s2h3d3c4s",  # two pair
        "2s2h2d3c4s",  # three of a kind
        "As2h3d4c5s",  # straight (the wheel)
        "2h3h4h5h7h",  # flush
        "2s2h2d3c3s",  # full house
        "2s2h2d2c3s",  # four of a kind
        "As2s3s4s5s",  # straight flush (the steel wheel)
    ]
    values = [high(hand) for hand in ladder]
    assert values == sorted(values)
    assert len(set(values)) == len(values)


# --- standard high: the best five of six or seven -----------------------------------------------------------


def test_the_wheel_is_a_five_high_straight_below_the_six_high() -> None:
    wheel = high("As2h3d4c5s")
    assert wheel.describe() == "straight, five high"
    assert wheel < high("2h3d4c5s6s")
    assert wheel > high("AsAhAdKcQs")


def test_the_steel_wheel_is_a_straight_flush_above_four_aces() -> None:
    steel = high("As2s3s4s5s")
    assert steel.describe() == "straight flush, five high"
    assert steel > high("AsAhAdAcKs")
    assert steel < high("2s3s4s5s6s")


@pytest.mark.parametrize(
    ("hole", "board", "words", "plays"),
    [
        ("AhKh", "QhJhTh2c3d", "royal flush", "AhKhQhJhTh"),
        ("AsAh", "AdKcKs7h2d", "full house, aces full of kings", "AsAhAdKcKs"),
        ("AsAh", "KdKcQsQh2d", "two pair, aces and kings", "AsAhKdKcQs"),
        ("7s7h", "7d7cAs2h3d", "four of a kind, sevens", "7s7h7d7cAs"),
        ("9h2h", "Th8hJs7h3h", "flush, ten high", "Th9h8h7h3h"),
        ("5c6d", "7h8s9cTdJs", "straight, jack high", "JsTd9c8s7h"),
        ("Kd7c", "Ks7h4d3c2s", "two pair, kings and sevens", "KsKd7h7c4d"),
        ("8s8h", "8d2c3h4sQc", "three of a kind, eights", "8s8h8dQc4s"),
        ("Ac9d", "Kh7s5c3d2h", "ace high", "AcKh9d7s5c"),
        ("QsQh", "Kd7s5c3d2h", "pair of queens", "QsQhKd7s5c"),
    ],
)
def test_seven_card_hands_read_and_play_their_best_five(hole: str, board: str, words: str, plays: str) -> None:
    hand = value(K.STANDARD_HIGH, hole, board)
    assert hand.describe() == words
    assert set(hand.cards) == set(cards(plays))


def test_a_flush_on_seven_cards_beats_the_straight_in_them() -> None:
    assert value(K.STANDARD_HIGH, "2h9c", "3h4h5h6s7h").describe() == "flush, seven high"


def test_a_high_hand_needs_five_cards() -> None:
    assert evaluate(K.STANDARD_HIGH, cards("AsAh"), cards("AdAc")) is None
    assert evaluate(K.STANDARD_HIGH, (), ()) is None


# --- short deck ---------------------------------------------------------------------------------------------


def test_short_deck_a_6_7_8_9_is_the_lowest_straight() -> None:
    lowest = value(K.SHORT_DECK_HIGH, "As6h7d8c9s")
    assert lowest.describe() == "straight, nine high"
    assert lowest < value(K.SHORT_DECK_HIGH, "6h7d8c9sTs")
    assert lowest > value(K.SHORT_DECK_HIGH, "AsAhAdKcQs")


def test_short_deck_a_flush_beats_a_full_house_but_not_four_of_a_kind() -> None:
    flush = value(K.SHORT_DECK_HIGH, "6s7s8sTsQs")
    assert flush > value(K.SHORT_DECK_HIGH, "AsAhAdKcKs")
    assert flush < value(K.SHORT_DECK_HIGH, "6s6h6d6cAs")
    assert value(K.SHORT_DECK_HIGH, "As6s7s8s9s").describe() == "straight flush, nine high"


def test_short_deck_refuses_a_card_below_six() -> None:
    with pytest.raises(ValueError, match="5s is not in the short deck"):
        evaluate(K.SHORT_DECK_HIGH, cards("AsKs"), cards("QsJs5s"))


# --- Omaha high: exactly two hole cards and three board cards ------------------------------------------------


def test_omaha_a_four_flush_board_needs_two_suited_hole_cards() -> None:
    board = "AhKh7h4h2c"
    assert value(K.OMAHA_HIGH, "QhJsTs9s", board).describe() != "flush, ace high"
    assert value(K.OMAHA_HIGH, "QhJsTs9s", board) < value(K.OMAHA_HIGH, "3h5hTs9s", board)
    assert value(K.OMAHA_HIGH, "3h5hTs9s", board).describe() == "flush, ace high"


def test_omaha_a_flush_on_the_board_alone_is_no_flush() -> None:
    hand = value(K.OMAHA_HIGH, "AsKdQc2d", "3h5h7h9hJh")
    assert hand.describe() == "ace high"
    assert set(hand.cards) == set(cards("AsKdJh9h7h"))


def test_omaha_plays_exactly_two_hole_cards_even_with_a_full_house_on_board() -> None:
    hand = value(K.OMAHA_HIGH, "AsQdJcTh", "KsKhKd2c2d")
    assert hand.describe() == "three of a kind, kings"
    assert value(K.OMAHA_HIGH, "AsAd2h3h", "KsKhKd7c8d").describe() == "full house, kings full of aces"


def test_omaha_one_hole_card_does_not_make_a_straight() -> None:
    assert value(K.OMAHA_HIGH, "9s2c2d3h", "TdJcQhKs4c").describe() == "pair of deuces"


def test_omaha_needs_two_hole_and_three_board_cards() -> None:
    assert evaluate(K.OMAHA_HIGH, cards("AsAhKsKh"), cards("QsJs")) is None
    assert evaluate(K.OMAHA_HIGH, cards("As"), cards("QsJsTs")) is None


# --- ace-to-five lows ---------------------------------------------------------------------------------------


def test_eight_or_better_reads_from_the_top_card_down() -> None:
    assert value(K.EIGHT_OR_BETTER_LOW, "8s6h4d2cAs").describe() == "8-6-4-2-A low"
    assert value(K.EIGHT_OR_BETTER_LOW, "8s5h4d3c2s") > value(K.EIGHT_OR_BETTER_LOW, "8s6h4d3c2s")
    assert value(K.EIGHT_OR_BETTER_LOW, "7s6h5d4c3s") > value(K.EIGHT_OR_BETTER_LOW, "8s4h3d2cAs")


def test_eight_or_better_ignores_straights_and_flushes_the_wheel_is_best() -> None:
    wheel = value(K.EIGHT_OR_BETTER_LOW, "As2s3s4s5s")
    assert wheel.describe() == "5-4-3-2-A low"
    assert wheel > value(K.EIGHT_OR_BETTER_LOW, "6h4d3c2sAh")


@pytest.mark.parametrize("hand", ["9s6h4d2cAs", "8s8h4d2cAs", "KsQhJdTc9s", "AsAh2d2c3s"])
def test_eight_or_better_does_not_qualify_without_five_ranks_eight_or_lower(hand: str) -> None:
    assert evaluate(K.EIGHT_OR_BETTER_LOW, cards(hand), ()) is None


def test_eight_or_better_uses_the_best_five_of_seven_stud_cards() -> None:
    assert evaluate(K.EIGHT_OR_BETTER_LOW, cards("AsAh2d3c9sKh7d"), ()) is None
    assert value(K.EIGHT_OR_BETTER_LOW, "AsAh2d3c8sKh7d").describe() == "8-7-3-2-A low"


def test_omaha_eight_or_better_needs_two_low_hole_cards() -> None:
    assert evaluate(K.OMAHA_EIGHT_OR_BETTER_LOW, cards("KsKhQdQc"), cards("As2h3d4c5s")) is None
    assert evaluate(K.OMAHA_EIGHT_OR_BETTER_LOW, cards("As9hQdQc"), cards("2h3d4c5sKs")) is None
    hand = value(K.OMAHA_EIGHT_OR_BETTER_LOW, "As5hKdKc", "2h3d4cQsQh")
    assert hand.describe() == "5-4-3-2-A low"
    assert set(hand.cards) == set(cards("As5h2h3d4c"))


def test_omaha_eight_or_better_board_cards_that_pair_the_hole_do_not_count() -> None:
    # A-2 in the hole on a board of A-2-3-7-K: only 3 and 7 are new low ranks, so no low.
    assert evaluate(K.OMAHA_EIGHT_OR_BETTER_LOW, cards("As2sKdKc"), cards("Ah2h3d7cKs")) is None
    # With a third low hole card the hand finds a way: A-4 with 2-3-7.
    assert value(K.OMAHA_EIGHT_OR_BETTER_LOW, "As2s4dKc", "Ah2h3d7cKs").describe() == "7-4-3-2-A low"


def test_razz_pairs_count_against_and_straights_flushes_do_not() -> None:
    assert value(K.RAZZ, "As2s3s4s5sKsQs").describe() == "5-4-3-2-A low"
    assert value(K.RAZZ, "KsQhJdTc9s") > value(K.RAZZ, "AsAh2d3c4s")
    assert value(K.RAZZ, "AsAh2d2c3s") < value(K.RAZZ, "AsAh2d3c4s")
    paired = value(K.RAZZ, "AsAh2d2c3s4h4d")
    assert paired.describe() == "pair of aces"
    assert value(K.RAZZ, "KsKhKdKcQs").describe() == "four of a kind, kings"


def test_razz_has_no_qualifier_but_needs_five_cards() -> None:
    assert value(K.RAZZ, "KsQhJdTc9s").describe() == "K-Q-J-T-9 low"
    assert evaluate(K.RAZZ, cards("As2h3d4c"), ()) is None


# --- deuce to seven -------------------------------------------------------------------------------------------


def test_deuce_to_seven_seven_five_is_the_best_and_the_ace_is_high() -> None:
    nuts = value(K.DEUCE_TO_SEVEN_LOW, "7s5h4d3c2s")
    assert nuts.describe() == "7-5-4-3-2 low"
    assert nuts > value(K.DEUCE_TO_SEVEN_LOW, "7s6h4d3c2s")
    ace_high = value(K.DEUCE_TO_SEVEN_LOW, "As2h3d4c5s")
    assert ace_high.describe() == "A-5-4-3-2 low"
    assert ace_high < value(K.DEUCE_TO_SEVEN_LOW, "KsQhJdTc8s")


def test_deuce_to_seven_straights_and_flushes_count_against() -> None:
    straight = value(K.DEUCE_TO_SEVEN_LOW, "2s3h4d5c6s")
    assert straight.describe() == "straight, six high"
    assert straight < value(K.DEUCE_TO_SEVEN_LOW, "AsAhKdQcJs")
    flush = value(K.DEUCE_TO_SEVEN_LOW, "7s5s4s3s2s")
    assert flush.describe() == "flush, seven high"
    assert flush < straight
    assert value(K.DEUCE_TO_SEVEN_LOW, "2s2h4d5c7s").describe() == "pair of deuces"


# --- badugi ---------------------------------------------------------------------------------------------------


def test_badugi_four_cards_beat_three_and_lower_beats_higher() -> None:
    ladder = ["Kc", "Ac", "4c8dKh", "Ac2d3h5s", "Ac2d3h4s"]  # PokerKit's own BadugiHand examples
    values = [value(K.BADUGI, hand) for hand in ladder]
    assert values == sorted(values)
    assert value(K.BADUGI, "Ac2d3h4s").describe() == "badugi 4-3-2-A"
    assert value(K.BADUGI, "KcQdJhTs") > value(K.BADUGI, "Ac2d3hKh")


@pytest.mark.parametrize(
    ("hand", "words", "plays"),
    [
        ("2c3c4d5h", "three-card 5-4-2", "2c4d5h"),  # two clubs: the higher club goes
        ("2c2d3h4s", "three-card 4-3-2", "2c3h4s"),  # two deuces: one goes (either)
        ("2s3s4d7h", "three-card 7-4-2", "2s4d7h"),
        ("KcKdKhKs", "one-card K", "Kc"),
        ("Ac2c3c4c", "one-card A", "Ac"),
        ("7s5d3h2c", "badugi 7-5-3-2", "7s5d3h2c"),
    ],
)
def test_badugi_drops_cards_that_repeat_a_suit_or_rank(hand: str, words: str, plays: str) -> None:
    result = value(K.BADUGI, hand)
    assert result.describe() == words
    assert len(result.cards) == len(cards(plays))
    assert {c.rank for c in result.cards} == {c.rank for c in cards(plays)}


def test_badugi_with_no_cards_is_no_hand() -> None:
    assert evaluate(K.BADUGI, (), ()) is None


# --- the value object -----------------------------------------------------------------------------------------


def test_values_are_hashable_and_equal_when_they_split_the_pot() -> None:
    a = high("AsKsQsJs9s")
    b = high("AhKhQhJh9h")
    assert a == b and hash(a) == hash(b)
    assert len({a, b, high("AsKsQsJs8s")}) == 2
    assert a <= b and a >= b and not a < b


def test_values_of_different_kinds_do_not_compare() -> None:
    hi = high("As2h3d4c5s")
    lo = value(K.RAZZ, "As2h3d4c5s")
    assert hi != lo
    with pytest.raises(TypeError):
        _ = hi < lo


def test_values_are_frozen() -> None:
    hand = high("As2h3d4c5s")
    with pytest.raises(AttributeError):
        hand.strength = 0  # type: ignore[misc]


def test_the_cards_played_are_listed_in_reading_order() -> None:
    assert value(K.STANDARD_HIGH, "2c7d", "7s7h2s9dKh").cards == cards("7s7h7d2s2c")


# --- stud: who brings in, who acts first ----------------------------------------------------------------------


def test_stud_the_lowest_card_brings_in_clubs_lowest_bfsp_5_8_2() -> None:
    up = cards("2s2c2h2d3cAc")
    order = sorted(up, key=lambda c: bring_in_key(K.STANDARD_HIGH, c), reverse=True)
    assert order == list(cards("2c2d2h2s3cAc"))
    assert bring_in_key(K.EIGHT_OR_BETTER_LOW, cards("2c")[0]) > bring_in_key(K.EIGHT_OR_BETTER_LOW, cards("As")[0])


def test_razz_the_highest_card_brings_in_aces_low_spades_highest() -> None:
    up = cards("KcKsQhAs2c")
    order = sorted(up, key=lambda c: bring_in_key(K.RAZZ, c), reverse=True)
    assert order == list(cards("KsKcQh2cAs"))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("2c2d", "AsKs"),  # a pair beats two high cards
        ("AsAd2s", "KsKdQs"),  # a higher pair
        ("AsAdKs", "AhAcQs"),  # equal pairs: the kicker, not the suit
        ("5s5d5h2c", "AsAhKsKh"),  # trips beat two pair
        ("4s4d4h4c", "AsAhAdKs"),  # quads beat trips
        ("Ks7d", "Kh7c"),  # equal boards: the highest card by suit (TDA RP-10 d)
        ("KsKd", "KhKc"),
        ("Ah", "Kc"),
    ],
)
def test_stud_the_highest_board_acts_first(first: str, second: str) -> None:
    assert showing_rank(K.STANDARD_HIGH, cards(first)) > showing_rank(K.STANDARD_HIGH, cards(second))
    assert showing_rank(K.EIGHT_OR_BETTER_LOW, cards(first)) > showing_rank(K.EIGHT_OR_BETTER_LOW, cards(second))


def test_stud_four_up_cards_in_a_row_are_no_straight_on_the_board() -> None:
    assert showing_rank(K.STANDARD_HIGH, cards("2c2d3h4s")) > showing_rank(K.STANDARD_HIGH, cards("9sTsJsQs"))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("5h3c", "8s2d"),  # the lower top card
        ("Ah2c", "3s2d"),  # aces are low
        ("KsQd", "2c2d"),  # no pair beats a pair
        ("7s4d", "7h4c"),  # equal boards: the highest card by suit (TDA RP-10 d)
        ("2c2d3s", "2h2s4c"),  # equal pairs: the lower kicker
    ],
)
def test_razz_the_lowest_board_acts_first(first: str, second: str) -> None:
    assert showing_rank(K.RAZZ, cards(first)) > showing_rank(K.RAZZ, cards(second))


def test_showing_rank_wants_one_to_four_up_cards() -> None:
    with pytest.raises(ValueError, match="one to four"):
        showing_rank(K.STANDARD_HIGH, ())
    with pytest.raises(ValueError, match="one to four"):
        showing_rank(K.STANDARD_HIGH, cards("2c3c4c5c6c"))


def test_a_bounded_table_starts_afresh_instead_of_growing() -> None:
    from domain.evaluation.encoding import LazyTable

    table = LazyTable(lambda key: key * 2, limit=3)
    assert [table[k] for k in range(5)] == [0, 2, 4, 6, 8]
    assert len(table) <= 3


def test_a_full_house_takes_the_higher_pair_over_a_second_lower_trips() -> None:
    # Eight cards (Omaha's property tests use more than seven): 444 222 88 plays fours full of eights.
    hand = evaluate(EvaluationKind.STANDARD_HIGH, parse_cards("2s4d4s2c8s8h2d4h"), ())
    assert hand is not None and hand.describe() == "full house, fours full of eights"
