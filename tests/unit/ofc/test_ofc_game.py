"""An OFC round's order of play, dealing and setting (bfsp 8), and who plays in fantasy."""

from __future__ import annotations

import dataclasses
import random

import pytest

from domain.cards import Card, parse_cards
from domain.ofc.events import (
    OfcCardsDealt,
    OfcCardsSet,
    OfcPlayer,
    OfcRoundRedealt,
    OfcRoundScored,
    OfcRoundStarted,
)
from domain.ofc.game import OfcError, OfcGame, positions, verify_fantasy
from domain.ofc.rows import repeats_fantasy
from domain.rulebooks import BFSP, FantasyOrder, get_rulebook
from ingest.simulator.ofc import play_round

pytestmark = pytest.mark.unit


def cards(text: str) -> tuple[Card, ...]:
    return tuple(c for c in parse_cards(text.replace(" ", "")) if c is not None)


def start(
    button: int = 3, players: int = 3, fantasy: tuple[str, ...] = (), number: int = 1
) -> OfcRoundStarted:
    seated = tuple(OfcPlayer(s, f"P{s}") for s in range(1, players + 1))
    return OfcRoundStarted("T1", number, button, seated, fantasy)


def test_position_1_is_the_first_seat_after_the_button_and_the_button_is_last() -> None:
    assert positions(3, [1, 2, 3]) == [1, 2, 3]
    assert positions(1, [1, 2, 3]) == [2, 3, 1]
    assert positions(2, [1, 2]) == [1, 2]
    game = OfcGame(start(button=1), BFSP)
    assert [(s.seat, s.position) for s in game.order] == [(2, 1), (3, 2), (1, 3)]


@pytest.mark.parametrize("players", [1, 4])
def test_ofc_takes_two_or_three_players(players: int) -> None:
    with pytest.raises(OfcError, match=r"2 to 3 players, not \d \(bfsp 8 \(set-up\)\)"):
        OfcGame(start(button=1, players=players), BFSP)


def test_the_first_deal_is_five_cards_dealt_from_position_1() -> None:
    game = OfcGame(start(button=1), BFSP)
    with pytest.raises(
        OfcError, match=r"seat 2 \(position 1\) is dealt before seat 3.*bfsp 8 \(first deal\)"
    ):
        game.apply(OfcCardsDealt(3, cards("AsKsQsJsTs")))
    with pytest.raises(OfcError, match=r"dealt 3 cards; the first deal gives 5 \(bfsp 8 \(first deal\)\)"):
        game.apply(OfcCardsDealt(2, cards("AsKsQs")))
    game.apply(OfcCardsDealt(2, cards("AsKsQsJsTs")))
    game.apply(OfcCardsDealt(3, cards("AhKhQhJhTh")))
    # position 1 sets first
    with pytest.raises(OfcError, match=r"seat 2 \(position 1\) sets before seat 3"):
        game.apply(OfcCardsSet(3, bottom=cards("AhKhQhJhTh")))
    # the first setting discards nothing
    with pytest.raises(OfcError, match=r"discarded 1 cards; this deal's setting discards 0"):
        game.apply(OfcCardsSet(2, bottom=cards("AsKsQsJs"), discarded=cards("Ts")))
    game.apply(OfcCardsSet(2, bottom=cards("AsKsQs"), middle=cards("Js"), top=cards("Ts")))


def test_every_card_is_dealt_once() -> None:
    game = OfcGame(start(button=2, players=2), BFSP)
    game.apply(OfcCardsDealt(1, cards("AsKsQsJsTs")))
    with pytest.raises(
        OfcError, match=r"As already dealt this round: one 52-card deck.*\(bfsp 8 \(set-up\)\)"
    ):
        game.apply(OfcCardsDealt(2, cards("AsKhQhJhTh")))
    with pytest.raises(OfcError, match="2h already dealt"):
        game.apply(OfcCardsDealt(2, cards("2h2hQhJhTh")))


def test_a_setting_places_exactly_the_cards_dealt_and_rows_hold_five_five_three() -> None:
    game = OfcGame(start(button=2, players=2), BFSP)
    game.apply(OfcCardsDealt(1, cards("AsKsQsJsTs")))
    with pytest.raises(
        OfcError, match=r"sets and discards exactly the cards of his last deal.*bfsp 8 \(later deals\)"
    ):
        game.apply(OfcCardsSet(1, bottom=cards("AsKsQsJs9s")))
    with pytest.raises(OfcError, match=r"the top row holds 3 cards; seat 1 would have 4"):
        game.apply(OfcCardsSet(1, bottom=cards("As"), top=cards("KsQsJsTs")))


def _first_street(game: OfcGame) -> None:
    game.apply(OfcCardsDealt(1, cards("2s3s4s5s6s")))
    game.apply(OfcCardsDealt(2, cards("2h3h4h5h6h")))
    game.apply(OfcCardsSet(1, bottom=cards("2s3s4s"), middle=cards("5s6s")))
    game.apply(OfcCardsSet(2, bottom=cards("2h3h4h"), middle=cards("5h6h")))


def test_later_deals_are_three_cards_two_set_one_discarded_in_turn() -> None:
    game = OfcGame(start(button=2, players=2), BFSP)
    _first_street(game)
    with pytest.raises(OfcError, match=r"seat 1 \(position 1\) sets before seat 2 is dealt"):
        game.apply(OfcCardsDealt(2, cards("7h8h9h")))
    with pytest.raises(OfcError, match=r"dealt 5 cards; the later deals gives 3 \(bfsp 8 \(later deals\)\)"):
        game.apply(OfcCardsDealt(1, cards("7s8s9sTsJs")))
    game.apply(OfcCardsDealt(1, cards("7s8s9s")))
    with pytest.raises(OfcError, match="must set the cards he was dealt before he is dealt more"):
        game.apply(OfcCardsDealt(1, cards("TsJsQs")))
    with pytest.raises(OfcError, match=r"discarded 0 cards; this deal's setting discards 1"):
        game.apply(OfcCardsSet(1, bottom=cards("7s8s"), top=cards("9s")))
    game.apply(OfcCardsSet(1, bottom=cards("7s8s"), discarded=cards("9s")))
    # a placed card never moves: a setting that names it again names a card not in the deal
    game.apply(OfcCardsDealt(2, cards("7h8h9h")))
    with pytest.raises(OfcError, match="placed cards never move"):
        game.apply(OfcCardsSet(2, top=cards("2h7h"), discarded=cards("9h")))


def test_a_full_round_is_scored_and_takes_no_more_events() -> None:
    played = play_round(start(button=2, players=2), BFSP, random.Random(3))
    game = OfcGame(played.started, BFSP)
    derived = [d for e in played.events[1:] for d in game.apply(e)]
    assert derived == [played.scored] and isinstance(derived[0], OfcRoundScored)
    with pytest.raises(OfcError, match=r"the round is over.*\(bfsp 8 \(scoring\)\)"):
        game.apply(OfcCardsDealt(1, cards("2c")))


def _fantasy_round(order: FantasyOrder) -> tuple[OfcGame, OfcRoundStarted]:
    book = dataclasses.replace(BFSP, ofc_fantasy_order=order)
    started = start(button=2, players=2, fantasy=("P2",), number=2)
    return OfcGame(started, book), started


FOURTEEN = "AsAdAcKsKdKc2h3h4h5h6h7h8hQd"


def test_the_player_in_fantasy_is_dealt_fourteen_and_sets_first_as_bfsp_8_is_worded() -> None:
    game, _ = _fantasy_round(FantasyOrder.FANTASY_FIRST)
    with pytest.raises(
        OfcError, match=r"seat 2 is in fantasy and sets his hand before the others.*bfsp 8 \(fantasy\)"
    ):
        game.apply(OfcCardsDealt(1, cards("2s3s4s5s6s")))
    game.apply(OfcCardsDealt(2, cards(FOURTEEN)))
    with pytest.raises(OfcError, match=r"sets and discards exactly the cards of his last deal"):
        game.apply(
            OfcCardsSet(2, bottom=cards("AsAdAcKsKd"), middle=cards("2h3h4h5h6h"), top=cards("7h8hQd"))
        )
    with pytest.raises(
        OfcError, match=r"discarded 2 cards; this deal's setting discards 1 \(bfsp 8 \(fantasy\)\)"
    ):
        game.apply(
            OfcCardsSet(
                2,
                bottom=cards("AsAdAcKsKd"),
                middle=cards("2h3h4h5h6h"),
                top=cards("7h8h"),
                discarded=cards("QdKc"),
            )
        )
    game.apply(
        OfcCardsSet(
            2,
            bottom=cards("2h3h4h5h6h"),
            middle=cards("AsAdAcKsKd"),
            top=cards("Kc7h8h"),
            discarded=cards("Qd"),
        )
    )
    game.apply(OfcCardsDealt(1, cards("2s3s4s5s6s")))


def test_with_fantasy_last_the_others_play_their_hands_first() -> None:
    game, _ = _fantasy_round(FantasyOrder.FANTASY_LAST)
    with pytest.raises(OfcError, match=r"play after the others, and seat 1 has not finished"):
        game.apply(OfcCardsDealt(2, cards(FOURTEEN)))


def test_a_wrong_number_of_fantasy_cards_is_a_redeal() -> None:
    game, _ = _fantasy_round(FantasyOrder.FANTASY_FIRST)
    (redeal,) = game.apply(OfcCardsDealt(2, cards(FOURTEEN[:-2])))
    assert isinstance(redeal, OfcRoundRedealt)
    assert (
        redeal.rule == "bfsp 8 (fantasy)" and "dealt 13 cards, not 14" in redeal.reason and redeal.redeal == 1
    )
    # a fresh deck: the same cards may be dealt again
    game.apply(OfcCardsDealt(2, cards(FOURTEEN)))


def _previous(**changes: object) -> OfcRoundScored:
    played = play_round(start(button=2, players=2), BFSP, random.Random(3))
    hands = tuple(
        dataclasses.replace(h, earns_fantasy=False, may_repeat_fantasy=False) for h in played.scored.hands
    )
    first = dataclasses.replace(hands[0], **changes)  # type: ignore[arg-type]
    return dataclasses.replace(played.scored, hands=(first, *hands[1:]))


def test_queens_or_better_on_top_must_enter_fantasy() -> None:
    previous = _previous(earns_fantasy=True)
    player = previous.hands[0].player
    with pytest.raises(OfcError, match=rf"{player} set QQ or better on top.*plays this round in fantasy"):
        verify_fantasy(start(button=1, players=2, number=2), previous, BFSP)
    verify_fantasy(start(button=1, players=2, fantasy=(player,), number=2), previous, BFSP)


def test_a_repeat_fantasy_is_optional_and_nobody_else_is_in_fantasy() -> None:
    previous = _previous(fantasy=True, may_repeat_fantasy=True)
    player = previous.hands[0].player
    other = previous.hands[1].player
    verify_fantasy(start(button=1, players=2, number=2), previous, BFSP)
    verify_fantasy(start(button=1, players=2, fantasy=(player,), number=2), previous, BFSP)
    with pytest.raises(OfcError, match=rf"{other} did not earn fantasy in round 1"):
        verify_fantasy(start(button=1, players=2, fantasy=(other,), number=2), previous, BFSP)


def test_fantasy_needs_a_round_before_that_earned_it() -> None:
    with pytest.raises(OfcError, match=r"no round 0 at table T1 earned it \(bfsp 8 \(fantasy\)\)"):
        verify_fantasy(start(fantasy=("P1",)), None, BFSP)


@pytest.mark.parametrize("heads_up_only", [False, True])
def test_repeat_fantasy_at_a_three_player_table_depends_on_the_reading(heads_up_only: bool) -> None:
    book = dataclasses.replace(BFSP, ofc_repeat_fantasy_heads_up_only=heads_up_only)
    repeats = 0
    for seed in range(40):
        played = play_round(start(button=3, fantasy=("P1",), number=2), book, random.Random(seed))
        hand = played.scored.hands[0]
        assert hand.player == "P1" and hand.fantasy and not hand.earns_fantasy
        qualifies = not hand.fouled and repeats_fantasy(hand.bottom, hand.top)
        repeats += qualifies
        assert hand.may_repeat_fantasy == (qualifies and not heads_up_only)
    assert repeats > 0  # the bots in fantasy do make trips on top or quads below


def test_the_tda_rulebooks_cite_the_federations_section_8() -> None:
    assert str(get_rulebook("tda-2022").cite("ofc_fantasy")) == "bfsp 8 (fantasy)"


def test_a_round_is_of_the_variant_ofc() -> None:
    with pytest.raises(OfcError, match=r"of the variant OFC, not NT \(bfsp 8 \(set-up\)\)"):
        OfcGame(dataclasses.replace(start(), variant="NT"), BFSP)
