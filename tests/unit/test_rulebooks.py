"""The rulebook presets: names, citations by topic, and the parameters where the rulebooks differ."""

from __future__ import annotations

import pytest

from domain.rulebooks import (
    RULEBOOKS,
    AmbiguousAmount,
    CheckedThroughShowsFirst,
    OddChipRule,
    ShortAllInReraise,
    Undercall,
    UnknownRulebookError,
    get_rulebook,
)

pytestmark = pytest.mark.unit

ENGINE_TOPICS = [
    "turn_order",
    "check",
    "bet",
    "min_bet",
    "min_raise",
    "max_bet_pot_limit",
    "limit_bet_size",
    "raise_cap",
    "reopen",
    "call",
    "fold",
    "bring_in",
    "complete",
    "forced_bet",
    "deal_count",
    "duplicate_card",
    "burn",
    "draw",
    "show",
    "hand_over",
    "stakes",
    "misdeal",
    "showdown_order",
    "odd_chip",
    "side_pot",
    "string_bet",
    "oversized_chip",
    "multiple_chips",
    "verbal",
    "out_of_turn",
    "undercall",
    "substantial_action",
    "incorrect_bet",
    "pot_limit_correction",
    "incorrect_bet_stands",
    "pot_limit_bet_stands",
    "boxed_card",
    "wrong_seat",
    "dealt_out",
    "not_entitled",
]


def test_the_four_presets_are_known_by_name_and_bfsp_is_the_default() -> None:
    assert set(RULEBOOKS) == {"bfsp", "tda-2022", "tda-2017", "tda-club"}
    assert get_rulebook().name == "bfsp"
    assert all(get_rulebook(name).name == name for name in RULEBOOKS)


def test_an_unknown_rulebook_is_refused_with_the_names_of_the_known_ones() -> None:
    with pytest.raises(UnknownRulebookError) as refused:
        get_rulebook("tda-2024")
    assert str(refused.value) == (
        "no rulebook is called 'tda-2024'; the known rulebooks are bfsp, tda-2017, tda-2022, tda-club"
    )


@pytest.mark.parametrize("name", sorted(RULEBOOKS))
@pytest.mark.parametrize("topic", ENGINE_TOPICS)
def test_every_preset_cites_a_real_rule_for_every_topic_the_engine_rejects_on(name: str, topic: str) -> None:
    rule = get_rulebook(name).cite(topic)
    assert rule.rule != "general"
    assert rule.rulebook in RULEBOOKS


@pytest.mark.parametrize(
    ("name", "topic", "cited"),
    [
        ("bfsp", "min_raise", "bfsp 4.9.6"),
        ("bfsp", "oversized_chip", "bfsp 4.12"),
        ("tda-2022", "reopen", "tda-2022 47"),
        ("tda-2017", "multiple_chips", "tda-2017 D-49"),
        ("tda-club", "clock", "tda-club 27"),
    ],
)
def test_a_preset_cites_its_own_rule_where_it_has_one(name: str, topic: str, cited: str) -> None:
    assert str(get_rulebook(name).cite(topic)) == cited


@pytest.mark.parametrize(
    ("name", "topic", "cited"),
    [
        ("bfsp", "substantial_action", "tda-2022 36"),
        ("bfsp", "multiple_chips", "bfsp 4.14.3"),
        ("bfsp", "undercalls_in_a_row", "tda-2022 51-C"),
        ("tda-club", "showdown_order", "tda-2022 17-A"),
        ("tda-club", "odd_chip", "tda-2022 20"),
        ("tda-2017", "duplicate_card", "tda-2022 35-E"),
    ],
)
def test_where_a_rulebook_is_silent_the_citation_names_the_rulebook_it_follows(
    name: str, topic: str, cited: str
) -> None:
    assert str(get_rulebook(name).cite(topic)) == cited


def test_a_topic_no_preset_knows_is_cited_as_general() -> None:
    assert str(get_rulebook("bfsp").cite("dealer_tips")) == "bfsp general"


def test_the_federation_and_the_tda_differ_where_the_texts_do() -> None:
    bfsp, tda = get_rulebook("bfsp"), get_rulebook("tda-2022")
    assert (bfsp.limit_unlimited_heads_up, tda.limit_unlimited_heads_up) == (True, False)
    assert bfsp.checked_through_shows_first is CheckedThroughShowsFirst.LAST_AGGRESSOR_ANY_ROUND
    assert tda.checked_through_shows_first is CheckedThroughShowsFirst.FIRST_TO_ACT
    assert (bfsp.stud_open_pair_big_bet, tda.stud_open_pair_big_bet) == (True, False)
    assert (bfsp.undercall, tda.undercall) == (
        Undercall.COMPLETE_OR_FORFEIT,
        Undercall.FULL_CALL_HEADS_UP_OR_OPENING_BET,
    )
    assert (bfsp.out_of_turn_chips_returned, tda.out_of_turn_chips_returned) == (False, True)
    assert (bfsp.misdeal_until_substantial_action, tda.misdeal_until_substantial_action) == (False, True)


def test_every_preset_takes_the_last_full_increment_over_a_short_all_in() -> None:
    assert {book.short_all_in_reraise for book in RULEBOOKS.values()} == {
        ShortAllInReraise.LAST_FULL_INCREMENT
    }


def test_the_reopening_thresholds_are_a_full_raise_and_half_a_raise_in_limit() -> None:
    assert {(book.nl_pl_reopen_fraction, book.limit_reopen_fraction) for book in RULEBOOKS.values()} == {
        (1.0, 0.5)
    }


def test_odd_chips_go_left_of_the_button_in_flop_games_and_by_suit_in_stud() -> None:
    for book in RULEBOOKS.values():
        assert book.odd_chip is OddChipRule.FIRST_LEFT_OF_BUTTON
        assert book.odd_chip_stud is OddChipRule.HIGHEST_CARD_BY_SUIT
        assert book.odd_chip_to_high_half


def test_only_the_club_rules_an_ambiguous_amount_the_smaller_one_and_judges_last_chips_by_fifty_percent() -> (
    None
):
    club = get_rulebook("tda-club")
    assert club.ambiguous_amount is AmbiguousAmount.SMALLEST
    assert not club.last_chips_all_in
    others = [book for name, book in RULEBOOKS.items() if name != "tda-club"]
    assert all(
        b.ambiguous_amount is AmbiguousAmount.LARGEST_NOT_OVER_POT and b.last_chips_all_in for b in others
    )


@pytest.mark.parametrize(
    ("name", "seconds", "countdown", "checks"),
    [
        pytest.param("bfsp", 30, 10, False, id="bfsp-7.1.7"),
        pytest.param("tda-2022", 25, 5, True, id="TV-97/TV-98"),
        pytest.param("tda-2017", 25, 5, True, id="2017/TV-55"),
        pytest.param("tda-club", 50, 10, False, id="tda-club-27"),
    ],
)
def test_the_clock_and_what_its_expiry_does_to_a_player_facing_no_bet(
    name: str, seconds: int, countdown: int, checks: bool
) -> None:
    book = get_rulebook(name)
    assert (book.clock_seconds, book.clock_countdown_seconds, book.clock_expired_checks) == (
        seconds,
        countdown,
        checks,
    )


@pytest.mark.parametrize(
    ("name", "max_seats", "final_table"),
    [
        pytest.param("tda-2022", 9, 9, id="TV-114-nine-max"),
        pytest.param("tda-2022", 8, 9, id="TV-114-eight-max"),
        pytest.param("tda-2022", 7, 7, id="TV-114-seven-max"),
        pytest.param("tda-2022", 6, 7, id="TV-114-six-max"),
        pytest.param("tda-2017", 9, 10, id="2017/TV-51-nine-max"),
        pytest.param("tda-2017", 8, 9, id="2017/TV-51-eight-max"),
        pytest.param("tda-2017", 6, 7, id="2017/TV-51-six-max"),
        pytest.param("tda-2017", 10, 10, id="2017/TV-51-never-above-ten"),
        pytest.param("tda-club", 10, 9, id="tda-club-12-never-above-nine"),
        pytest.param("bfsp", 10, 9, id="bfsp-3.1-ten-max-ends-nine-max"),
    ],
)
def test_the_final_table_seats_as_many_as_the_rulebook_says(
    name: str, max_seats: int, final_table: int
) -> None:
    assert get_rulebook(name).final_table_size(max_seats) == final_table


def test_a_seat_count_no_table_lists_takes_one_more_seat_up_to_the_largest_final_table() -> None:
    assert get_rulebook("tda-2017").final_table_size(5) == 6


def test_tv_45_the_tda_limit_cap_holds_heads_up_at_the_table() -> None:
    assert get_rulebook("tda-2022").limit_max_raises == 3
    assert not get_rulebook("tda-2022").limit_unlimited_heads_up
