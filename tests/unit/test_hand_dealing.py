"""The start of a hand, forced bets and deck integrity: the right deck, no card twice, the right count per seat
and street, exactly one burn before each street and none before the first deal (bfsp 4.1, 4.4, 5.4-5.8, 6.2)."""

from __future__ import annotations

import pytest
from hand_table import BFSP, C, F, X, start

from domain.cards import parse_cards, standard_deck
from domain.errors import DealingError, ForcedBetError, HandStateError, OutOfTurnError
from domain.hand.events import (
    BoardDealt,
    CardBurned,
    CardsDiscarded,
    ForcedBetKind,
    ForcedBetPosted,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    MisdealDeclared,
    PlayerActed,
    SeatEntry,
    Stakes,
)
from domain.hand.legal import NextActKind
from domain.hand.state import HandState

pytestmark = pytest.mark.unit

SB, BB, ANTE = ForcedBetKind.SMALL_BLIND, ForcedBetKind.BIG_BLIND, ForcedBetKind.ANTE


def cards(text: str) -> tuple[object, ...]:
    return parse_cards(text)


def started(**changes: object) -> HandStarted:
    base = {
        "table_id": "t",
        "hand_number": 1,
        "variant": "NT",
        "seats": (SeatEntry(1, "A", 1000), SeatEntry(2, "B", 1000), SeatEntry(3, "C", 1000)),
        "button": 3,
        "stakes": Stakes(blinds=((1, 50), (2, 100))),
    }
    base.update(changes)
    return HandStarted(**base)  # type: ignore[arg-type]


def refuse_start(message: str, **changes: object) -> None:
    with pytest.raises(HandStateError) as caught:
        HandState.start(started(**changes), BFSP)
    assert caught.value.rule == BFSP.cite("stakes")
    assert caught.value.reason == message


# --- the start ----------------------------------------------------------------------------------------


def test_a_valid_start_owes_the_blinds_first() -> None:
    state = HandState.start(started(), BFSP)
    nxt = state.expected_next()
    assert (nxt.kind, nxt.seat, nxt.forced_bet, nxt.amount) == (NextActKind.FORCED_BET, 1, SB, 50)


def test_a_start_with_an_unknown_game_is_refused() -> None:
    with pytest.raises(HandStateError, match="no game is called 'XX'"):
        HandState.start(started(variant="XX"), BFSP)


def test_a_start_with_a_seat_listed_twice_is_refused() -> None:
    refuse_start("seat 1 is listed twice", seats=(SeatEntry(1, "A", 1000), SeatEntry(1, "B", 1000)))


def test_a_start_with_the_button_at_an_empty_seat_is_refused() -> None:
    refuse_start(
        "the button is at seat 7, where nobody sits; no-limit Texas hold'em needs the button at a seated player",
        button=7,
    )


def test_a_start_with_a_player_without_chips_is_refused() -> None:
    refuse_start(
        "seat 2 has 0 chips; a player without chips is not dealt in",
        seats=(SeatEntry(1, "A", 1000), SeatEntry(2, "B", 0)),
    )


def test_a_start_with_one_player_or_a_blind_owed_by_an_empty_seat_is_refused() -> None:
    refuse_start("a hand needs at least two players; 1 seated", seats=(SeatEntry(1, "A", 1000),))
    refuse_start("a blind is owed by seat 5, where nobody sits", stakes=Stakes(blinds=((5, 50), (2, 100))))


def test_a_stud_start_needs_a_bring_in() -> None:
    refuse_start(
        "the bring-in must be between 1 and the small bet; it is 0",
        variant="F7S",
        button=None,
        stakes=Stakes(small_bet=10, big_bet=20),
    )


# --- forced bets --------------------------------------------------------------------------------------


def test_a_forced_bet_for_the_wrong_amount_is_refused() -> None:
    t = start(stacks=(1000, 1000, 1000))
    t.refuse(
        ForcedBetPosted(1, SB, 40), ForcedBetError, "forced_bet", "seat 1 posted 40; the small blind is 50"
    )


def test_a_forced_bet_by_a_seat_that_owes_none_is_refused() -> None:
    t = start(stacks=(1000, 1000, 1000))
    t.refuse(ForcedBetPosted(3, SB, 50), ForcedBetError, "forced_bet", "seat 3 owes no small blind this hand")


def test_a_short_stack_posts_all_it_has() -> None:
    t = start(stacks=(1000, 1000, 30), antes=((1, 50), (2, 50), (3, 50)))
    t.refuse(
        ForcedBetPosted(3, ANTE, 50),
        ForcedBetError,
        "forced_bet",
        "seat 3 posted 50; the ante is 50 (all-in for 30)",
    )
    t.apply(ForcedBetPosted(3, ANTE, 30))
    assert t.state.stacks[3] == 0


def test_a_big_blind_ante_is_owed_by_one_seat_and_is_dead_money_in_the_main_pot() -> None:
    t = start(stacks=(1000, 1000, 1000), antes=((2, 100),)).post().deal()
    assert t.state.contributions == {1: 50, 2: 200, 3: 0}
    t.acts((3, C), (1, C), (2, X))
    (main,) = t.state.pots()
    assert (main.amount, main.eligible) == (400, (1, 2, 3))


def test_cards_are_not_dealt_before_the_forced_bets_are_in() -> None:
    t = start(stacks=(1000, 1000, 1000))
    t.refuse(
        HoleCardsDealt(1, cards("AsKd")),  # type: ignore[arg-type]
        HandStateError,
        "deal_count",
        "seat 1 was dealt hole cards now: seat 1 has not posted the small blind",
    )


def test_a_forced_bet_after_the_deal_has_begun_is_refused() -> None:
    t = start(stacks=(1000, 1000, 1000)).post()
    t.refuse(
        ForcedBetPosted(3, SB, 50),
        ForcedBetError,
        "forced_bet",
        "seat 3 posted a small blind after the forced bets were in",
    )


# --- deck integrity -----------------------------------------------------------------------------------


def test_a_card_dealt_twice_is_refused() -> None:
    t = start(stacks=(1000, 1000, 1000)).post()
    t.refuse(
        HoleCardsDealt(1, cards("AsAs")),  # type: ignore[arg-type]
        DealingError,
        "duplicate_card",
        "the deal to seat 1 includes As, which was already dealt in this hand",
    )
    t.apply(HoleCardsDealt(1, cards("AsKd")))  # type: ignore[arg-type]
    t.refuse(HoleCardsDealt(2, cards("QcKd")), DealingError, "duplicate_card")  # type: ignore[arg-type]
    t.deal(s2="QcQd")
    t.acts((3, C), (1, C), (2, X))
    t.refuse(BoardDealt(cards("2c7hQd")), DealingError, "duplicate_card")  # type: ignore[arg-type]


def test_unknown_cards_are_legal_and_never_collide() -> None:
    t = start(stacks=(1000, 1000, 1000)).post().deal()
    assert t.state.hole[1] == [None, None]


def test_a_card_outside_the_short_deck_is_refused_in_short_deck() -> None:
    t = start("NS", stacks=(1000, 1000, 1000), antes=((1, 10), (2, 10), (3, 10)), blinds=(0, 50)[1:]).post()
    t.refuse(
        HoleCardsDealt(2, cards("5cAs")),  # type: ignore[arg-type]
        DealingError,
        "duplicate_card",
        "the deal to seat 2 includes 5c, which is not in the short deck",
    )


def test_a_seat_gets_exactly_its_cards_on_a_street() -> None:
    t = start(stacks=(1000, 1000, 1000)).post()
    t.refuse(
        HoleCardsDealt(1, cards("AsKdQh")),  # type: ignore[arg-type]
        DealingError,
        "deal_count",
        "seat 1 was dealt 3 card(s) on the preflop; it is owed 2 of the 2 each seat gets",
    )
    t.apply(HoleCardsDealt(1, cards("As")))  # type: ignore[arg-type]  # one card per pass is fine
    t.apply(HoleCardsDealt(1, cards("Kd")))  # type: ignore[arg-type]
    t.refuse(
        HoleCardsDealt(1, cards("Qh")),  # type: ignore[arg-type]
        DealingError,
        "deal_count",
        "seat 1 was dealt a card but has had its cards for the preflop",
    )


def test_the_flop_is_three_cards_and_comes_after_the_betting() -> None:
    t = start(stacks=(1000, 1000, 1000)).post().deal()
    t.refuse(
        BoardDealt(cards("2c7h9d")),  # type: ignore[arg-type]
        HandStateError,
        "deal_count",
        "board cards were dealt now: the betting on the preflop is not over (seat 3 to act)",
    )
    t.acts((3, C), (1, C), (2, X))
    t.refuse(
        BoardDealt(cards("2c7h9dTs")),  # type: ignore[arg-type]
        DealingError,
        "deal_count",
        "4 board card(s) were dealt; 3 are owed on the flop",
    )


# --- burns --------------------------------------------------------------------------------------------


def test_no_card_is_burned_before_the_first_deal() -> None:
    t = start(stacks=(1000, 1000, 1000), burns=True).post()
    t.refuse(
        CardBurned(), DealingError, "burn", "no card is burned before the preflop, the first deal of a hand"
    )


def test_exactly_one_burn_comes_before_the_flop_when_burns_are_recorded() -> None:
    t = start(stacks=(1000, 1000, 1000), burns=True).post().deal().acts((3, C), (1, C), (2, X))
    assert t.state.expected_next().kind is NextActKind.BURN
    t.refuse(
        BoardDealt(cards("2c7h9d")),  # type: ignore[arg-type]
        DealingError,
        "burn",
        "board cards were dealt before a card was burned; one card is burned before the flop",
    )
    t.apply(CardBurned(parse_cards("Ks")[0]))
    t.refuse(CardBurned(), DealingError, "burn", "a card was already burned before the flop")
    t.apply(BoardDealt(cards("2c")))  # type: ignore[arg-type]
    t.refuse(CardBurned(), DealingError, "burn", "a card was already burned before the flop")
    t.apply(BoardDealt(cards("7h9d")))  # type: ignore[arg-type]
    t.refuse(CardBurned(), DealingError, "burn")  # during the betting


def test_a_burn_card_already_seen_is_a_duplicate() -> None:
    t = start(stacks=(1000, 1000, 1000), burns=True).post().deal(s1="AsKd").acts((3, C), (1, C), (2, X))
    t.refuse(CardBurned(parse_cards("As")[0]), DealingError, "duplicate_card")


def test_imported_histories_without_burns_may_skip_them_or_record_them() -> None:
    t = start(stacks=(1000, 1000, 1000), burns=False).post().deal().acts((3, C), (1, C), (2, X))
    assert t.state.expected_next().kind is NextActKind.DEAL_BOARD
    t.apply(BoardDealt(cards("2c7h9d")))  # type: ignore[arg-type]
    t.acts((1, X), (2, X), (3, X))
    t.apply(CardBurned())
    t.apply(BoardDealt(cards("Ts")))  # type: ignore[arg-type]
    t.acts((1, X), (2, X), (3, X))
    t.apply(BoardDealt(cards("Js")))  # type: ignore[arg-type]
    assert t.state.street_index == 3


# --- stud up-cards and draws --------------------------------------------------------------------------


def stud(variant: str = "F7S") -> object:
    return start(
        variant,
        stacks=(1000, 1000, 1000),
        antes=((1, 5), (2, 5), (3, 5)),
        bring_in=5,
        small_bet=10,
        big_bet=20,
    ).post()


def test_stud_cards_follow_the_streets_face_up_pattern() -> None:
    t = stud()
    t.refuse(  # type: ignore[attr-defined]
        HoleCardsDealt(1, cards("AsKdQh"), (True, False, False)),  # type: ignore[arg-type]
        DealingError,
        "deal_count",
        "seat 1's cards were dealt up, down, down; on the third street they are dealt down, down, up",
    )
    t.apply(HoleCardsDealt(1, cards("AsKdQh"), (False, False, True)))  # type: ignore[attr-defined, arg-type]
    t.apply(HoleCardsDealt(2, cards("2s3d4h")))  # type: ignore[attr-defined, arg-type]  # pattern by default
    assert t.state.face_up[2] == [False, False, True]  # type: ignore[attr-defined]


def triple_draw() -> object:
    t = start("F2L3D", stacks=(1000, 1000, 1000), blinds=(5, 10), small_bet=10, big_bet=20).post()
    t.deal(s1="2c3c4c5d8h", s2="2d3d4d6s9h", s3="7c7d7h7sKc")
    return t.acts((3, C), (1, C), (2, X))


def test_the_draw_goes_clockwise_from_the_button_and_replaces_each_card_thrown() -> None:
    t = triple_draw()
    nxt = t.state.expected_next()  # type: ignore[attr-defined]
    assert (nxt.kind, nxt.seat) == (NextActKind.DRAW, 1)
    t.refuse(  # type: ignore[attr-defined]
        CardsDiscarded(2, (), ()), OutOfTurnError, "draw", "seat 2 drew out of turn; seat 1 draws first"
    )
    t.refuse(  # type: ignore[attr-defined]
        CardsDiscarded(1, cards("8h"), cards("7s6h")),  # type: ignore[arg-type]
        DealingError,
        "draw",
        "seat 1 threw 1 card(s) and was dealt 2; a draw replaces each card thrown",
    )
    t.refuse(  # type: ignore[attr-defined]
        CardsDiscarded(1, cards("Ah"), cards("6h")),  # type: ignore[arg-type]
        DealingError,
        "draw",
        "seat 1 threw Ah, which is not part of its hand 2c3c4c5d8h",
    )
    t.refuse(CardsDiscarded(1, cards("8h"), cards("Kc")), DealingError, "duplicate_card")  # type: ignore[attr-defined, arg-type]
    t.apply(CardsDiscarded(1, cards("8h"), cards("6h")))  # type: ignore[attr-defined, arg-type]
    assert t.state.hole[1] == list(cards("2c3c4c5d6h"))  # type: ignore[attr-defined]
    t.apply(CardsDiscarded(2, (), ()))  # type: ignore[attr-defined]  # standing pat
    t.apply(CardsDiscarded(3, cards("????"), cards("????")))  # type: ignore[attr-defined, arg-type]
    assert t.state.hole[3] == [None] * 5  # type: ignore[attr-defined]  # which four it kept is unknown
    assert t.state.actor == 1  # type: ignore[attr-defined]  # the betting after the first draw


def test_a_draw_outside_the_draw_round_is_refused() -> None:
    t = start("F2L3D", stacks=(1000, 1000, 1000), blinds=(5, 10), small_bet=10, big_bet=20).post().deal()
    t.refuse(CardsDiscarded(3, (), ()), HandStateError, "draw")


# --- misdeal ------------------------------------------------------------------------------------------


def test_a_misdeal_before_any_action_returns_every_chip_and_not_after() -> None:
    t = start(stacks=(1000, 1000, 1000)).post().deal()
    out = t.apply(MisdealDeclared("card exposed by the dealer", "6.3.1"))
    assert out == (HandEnded(((1, 1000), (2, 1000), (3, 1000))),)
    u = start(stacks=(1000, 1000, 1000)).post().deal().acts((3, F))
    u.refuse(MisdealDeclared("late", "6.3.1"), HandStateError, "misdeal")


def test_an_act_before_the_cards_are_out_is_refused() -> None:
    t = start(stacks=(1000, 1000, 1000)).post()
    t.refuse(PlayerActed(3, F), Exception, "turn_order")  # type: ignore[arg-type]


def test_when_a_draw_exhausts_the_stub_the_others_discards_are_shuffled_to_finish_it() -> None:
    deck = [str(c) for c in standard_deck()]
    t = start("F2L3D", stacks=(1000,) * 6, blinds=(5, 10), small_bet=10, big_bet=20).post()
    hands = {s: deck[(s - 1) * 5 : s * 5] for s in range(1, 7)}
    t.deal(**{f"s{s}": "".join(h) for s, h in hands.items()})
    t.acts((3, C), (4, C), (5, C), (6, C), (1, C), (2, X))
    stub = deck[30:]
    for seat in (1, 2, 3, 4):  # 20 of the 22 cards left
        t.apply(CardsDiscarded(seat, cards("".join(hands[seat])), cards("".join(stub[:5]))))  # type: ignore[arg-type]
        stub = stub[5:]
    assert len(stub) == 2
    own = "".join(hands[5][:3])
    t.refuse(
        CardsDiscarded(5, cards("".join(hands[5])), cards("".join(stub) + own)),  # type: ignore[arg-type]
        DealingError,
        "duplicate_card",
    )
    others = "".join(hands[1][:3])
    t.apply(CardsDiscarded(5, cards("".join(hands[5])), cards("".join(stub) + others)))  # type: ignore[arg-type]
    assert t.state.hole[5] == list(cards("".join(stub) + others))


def test_the_draw_waits_for_its_burn_when_burns_are_recorded_but_standing_pat_does_not() -> None:
    t = start("F2L3D", stacks=(1000, 1000, 1000), blinds=(5, 10), small_bet=10, big_bet=20, burns=True).post()
    t.deal(s1="2c3c4c5d8h", s2="2d3d4d6s9h", s3="7c7d7h7sKc")
    t.acts((3, C), (1, C), (2, X))
    assert t.state.expected_next().kind is NextActKind.BURN
    t.refuse(
        CardsDiscarded(1, cards("8h"), cards("6h")),  # type: ignore[arg-type]
        DealingError,
        "burn",
        "seat 1 was dealt its draw before a card was burned for the first draw",
    )
    t.apply(CardBurned(parse_cards("As")[0]))
    t.apply(CardsDiscarded(1, cards("8h"), cards("6h")))  # type: ignore[arg-type]
    t.apply(CardsDiscarded(2, (), ()))
    t.refuse(CardBurned(), DealingError, "burn", "a card was already burned before the first draw")
