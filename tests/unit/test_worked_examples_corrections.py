"""Worked examples of dealing corrections and irregularities (domain/hand/corrections.py): a seat dealt short or
long, the button's missing card, irregular flops, a hand mucked by mistake, a card outside the deck, chips found.

Ids are the TV ids of ../shared/rules (``TV-nn`` TDA 2022, ``2017/TV-nn`` TDA 2017); docs/WORKED_EXAMPLES.md lists
every id and its test. Hands are dealt from named cards so the deck checks see every card.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from eventsourcing.application import Application
from hand_table import B, C, F, R, Table, X, start

from domain.cards import Card, parse_cards, standard_deck
from domain.errors import DealingError, HandStateError, IllegalActionError, RuleRef, RulingRequired
from domain.hand.aggregate import Hand
from domain.hand.codec import decode, encode
from domain.hand.corrections import found_chips_ruling, recover_mucked_hand
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    BoxedCardFound,
    BurnsShuffledIntoStub,
    CardBurned,
    ChipsPlaced,
    CommunityCardDealt,
    DealtShort,
    DerivedEvent,
    ExposedCardReplaced,
    ExtraCardDealt,
    FlopDealtUnburned,
    FlopReformed,
    ForcedBetKind,
    ForcedBetPosted,
    ForeignCardFound,
    FourCardFlopDealt,
    HandEnded,
    HandKilled,
    HandMucked,
    HandMuckedByMistake,
    HandShown,
    HandStarted,
    HoleCardExposed,
    HoleCardsDealt,
    MisdealDeclared,
    MisdealRecognised,
    MissingCardDealt,
    MuckShuffledIntoStub,
    PlayerActed,
    PotAwarded,
    PrematureCardsDealt,
    PrematureCardsReturned,
    RawAct,
    RawActReported,
    ReportedEvent,
    RulingRequested,
    SeatEntry,
    ShowRequestAnswered,
    ShowRequested,
    Stakes,
    UncalledBetReturned,
)
from domain.hand.interpretation import parse_declaration
from domain.hand.legal import NextActKind
from domain.hand.phase import Phase
from domain.rulebooks import Rulebook, get_rulebook

pytestmark = pytest.mark.unit

TDA = get_rulebook("tda-2022")
TDA_2017 = get_rulebook("tda-2017")
BFSP = get_rulebook("bfsp")
AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

#: two hole cards a seat, seats 1..6 (the button is seat 6: blinds 1 and 2, seat 3 first to act pre-flop)
HOLE = {1: "2c2d", 2: "3c3d", 3: "4c4d", 4: "5c5d", 5: "6c6d", 6: "7c7d"}


def six_handed(rulebook: Rulebook = TDA, burns: bool = False, short: int | None = None) -> Table:
    """Blinds posted and every seat dealt its two cards, but ``short``, which is dealt one and reported short."""
    table = start(stacks=(10_000,) * 6, rulebook=rulebook, burns=burns).post()
    for seat, cards in HOLE.items():
        dealt = parse_cards(cards)
        if seat == short:
            table.apply(HoleCardsDealt(seat, dealt[:1]))
            table.apply(DealtShort(seat, 1))
        else:
            table.apply(HoleCardsDealt(seat, dealt))
    return table


def limped_to_the_flop(rulebook: Rulebook = BFSP, burns: bool = True) -> Table:
    table = six_handed(rulebook, burns)
    table.acts((3, C), (4, C), (5, C), (6, C), (1, C), (2, X))
    assert table.state.expected_next().kind is NextActKind.BURN
    return table


# --- a wrong number of cards after substantial action: the hand is dead (TDA 2022 38; bfsp 6.3.7) -------------


@pytest.mark.parametrize(
    ("tv", "held"), [pytest.param("TV-70", 1, id="TV-70"), pytest.param("TV-71", 3, id="TV-71")]
)
def test_a_hand_with_the_wrong_number_of_cards_after_substantial_action_is_dead_and_one_card_is_burned(
    tv: str, held: int
) -> None:
    table = six_handed(TDA, burns=True, short=5 if held == 1 else None)
    table.acts((3, F), (4, C))
    assert table.state.actor == 5
    if held == 3:
        table.refuse(HandKilled(5, 3), DealingError, "deal_count")  # the record dealt him two
        assert table.apply(ExtraCardDealt(5, parse_cards("9s")[0])) == ()  # after SA: no misdeal
    table.refuse(HandKilled(5, 2), DealingError, "deal_count")  # the count must be the one the deal shows
    assert table.apply(HandKilled(5, held)) == ()
    assert 5 in table.state.folded
    assert table.state.actor == 6  # the dead hand's turn passes on
    table.acts((6, C), (1, C), (2, X))
    table.apply(CardBurned(parse_cards("Ah")[0]))
    table.refuse(CardBurned(parse_cards("Kh")[0]), DealingError, "burn")  # never two burns
    table.apply(BoardDealt(parse_cards("QhJhTh")))
    assert table.state.phase is Phase.BETTING


@pytest.mark.parametrize("tv", ["TV-70"])
def test_a_wrong_number_of_cards_before_substantial_action_is_a_misdeal_not_a_dead_hand(tv: str) -> None:
    table = six_handed(TDA, short=5)
    table.acts((3, F))
    reason = table.refuse(HandKilled(5, 1), HandStateError, "deal_count")
    assert "misdeal" in reason


@pytest.mark.parametrize("tv", ["TV-70"])
def test_a_dead_hands_card_count_must_agree_with_the_deal(tv: str) -> None:
    """HandKilled(5, 1) after seat 5 was dealt two cards, or (5, 3) with no card too many recorded, is refused."""
    table = six_handed(TDA)
    table.acts((3, F), (4, C))
    for held in (1, 3):
        reason = table.refuse(HandKilled(5, held), DealingError, "deal_count")
        assert "holds 2 card(s)" in reason
    short = six_handed(TDA, short=5)
    short.acts((3, F), (4, C))
    assert "it was dealt 1" in short.refuse(HandKilled(5, 2), DealingError, "deal_count")


@pytest.mark.parametrize("tv", ["TV-71"])
def test_a_card_too_many_found_before_substantial_action_is_recognised_as_a_misdeal(tv: str) -> None:
    table = six_handed(TDA)
    table.acts((3, F))
    out = table.apply(ExtraCardDealt(5, parse_cards("9s")[0]))
    assert isinstance(out[0], MisdealRecognised) and out[0].rule == "tda-2022 35-A"
    assert out[-1] == HandEnded(tuple((s, 10_000) for s in range(1, 7)), False)


@pytest.mark.parametrize("tv", ["TV-70"])
def test_under_the_federation_a_hand_is_dead_once_the_betting_began_and_its_chips_stay(tv: str) -> None:
    table = six_handed(BFSP, short=3)
    table.refuse(HandKilled(3, 1), HandStateError, "deal_count")  # bfsp 6.3.5: a misdeal before round 1
    table.acts((3, C), (4, C))
    table.apply(HandKilled(3, 1))
    assert table.state.contributions[3] == 100  # bfsp 6.3.7: his bets stay in the pot
    assert table.state.stacks[3] == 9_900


def test_a_hand_holding_the_games_count_is_not_killed_for_it() -> None:
    table = six_handed(TDA)
    table.acts((3, C), (4, C))
    table.refuse(HandKilled(5, 2), DealingError, "deal_count")


# --- the button dealt short (TDA 2022 37; bfsp is silent and follows it) ------------------------------------


@pytest.mark.parametrize("tv", ["TV-79"])
def test_a_button_dealt_short_who_has_not_acted_is_given_the_missing_card_even_after_substantial_action(
    tv: str,
) -> None:
    table = six_handed(BFSP, short=6)
    assert table.state.phase is Phase.BETTING
    table.acts((3, C), (4, C), (5, C))
    assert table.state.actor == 6
    assert table.apply(MissingCardDealt(6, parse_cards("7d"))) == ()
    assert table.state.hole[6] == list(parse_cards("7c7d"))
    table.act(6, C)
    assert table.state.actor == 1


@pytest.mark.parametrize("tv", ["TV-79"])
def test_only_the_button_is_given_a_missing_card(tv: str) -> None:
    table = six_handed(BFSP, short=4)
    with pytest.raises(HandStateError) as refused:
        table.state.apply(MissingCardDealt(4, parse_cards("5d")))
    assert refused.value.rule == RuleRef("tda-2022", "37")


@pytest.mark.parametrize("tv", ["TV-80"])
def test_a_button_dealt_short_who_has_acted_has_a_dead_hand(tv: str) -> None:
    table = six_handed(BFSP, short=6)
    table.acts((3, C), (4, C), (5, C), (6, C))
    with pytest.raises(HandStateError) as refused:
        table.state.apply(MissingCardDealt(6, parse_cards("7d")))
    assert refused.value.rule == RuleRef("tda-2022", "37")
    assert "dead" in refused.value.reason
    table.apply(HandKilled(6, 1))
    assert 6 in table.state.folded
    assert table.state.contributions[6] == 100


@pytest.mark.parametrize("tv", ["TV-79"])
def test_the_button_short_and_not_acted_is_not_killed(tv: str) -> None:
    table = six_handed(TDA, short=6)
    table.acts((3, C), (4, C), (5, C))
    with pytest.raises(HandStateError) as refused:
        table.state.apply(HandKilled(6, 1))
    assert refused.value.rule == RuleRef("tda-2022", "37")


# --- irregular flops (bfsp 6.6.2, 6.6.3, 6.4.6; TDA 2022 39) ---------------------------------------------------


@pytest.mark.parametrize(
    ("tv", "rulebook"),
    [pytest.param("TV-72", TDA, id="TV-72"), pytest.param("2017/TV-54", TDA_2017, id="2017/TV-54")],
)
def test_a_four_card_flop_the_judges_pick_is_the_next_burn_and_the_other_three_the_flop(
    tv: str, rulebook: Rulebook
) -> None:
    table = limped_to_the_flop(rulebook)
    table.apply(CardBurned(parse_cards("2h")[0]))
    four = parse_cards("AhKhQhJh")
    table.refuse(FourCardFlopDealt(four, parse_cards("Th")[0]), DealingError, "irregular_flop")
    table.apply(FourCardFlopDealt(four, four[1]))  # the judge picked the king at random
    assert table.state.board == [four[0], four[2], four[3]]
    table.acts((1, X), (2, X), (3, X), (4, X), (5, X), (6, X))
    table.refuse(CardBurned(parse_cards("3h")[0]), DealingError, "irregular_flop")
    table.apply(CardBurned(four[1]))
    table.refuse(BoardDealt((four[1],)), DealingError, "duplicate_card")
    table.apply(BoardDealt(parse_cards("Th")))
    assert table.state.board == [four[0], four[2], four[3], parse_cards("Th")[0]]


@pytest.mark.parametrize("tv", ["TV-73"])
def test_an_unburned_flop_before_any_action_goes_back_into_the_stub_and_is_burned_and_dealt_again(
    tv: str,
) -> None:
    table = limped_to_the_flop(BFSP)
    flop = parse_cards("AhKhQh")
    table.refuse(BoardDealt(flop), DealingError, "burn")
    table.apply(FlopDealtUnburned(flop))
    assert table.state.phase is Phase.BETTING
    with pytest.raises(DealingError) as refused:
        table.state.apply(FlopReformed(flop[0]))  # bfsp 6.6.2: the whole flop goes back
    assert refused.value.rule == RuleRef("bfsp", "6.6.2")
    table.apply(FlopReformed())
    assert table.state.board == []
    assert table.state.expected_next().kind is NextActKind.BURN
    table.apply(CardBurned(flop[1]))  # shuffled back into the stub, the king may now be the burn
    table.apply(BoardDealt((flop[0], flop[2], parse_cards("Jh")[0])))
    assert table.state.phase is Phase.BETTING


@pytest.mark.parametrize("tv", ["TV-73"])
def test_under_the_tda_an_unburned_flop_before_any_action_burns_the_floors_pick_and_takes_one_more(
    tv: str,
) -> None:
    table = limped_to_the_flop(TDA)
    flop = parse_cards("AhKhQh")
    table.apply(FlopDealtUnburned(flop))
    table.apply(FlopReformed(flop[1]))
    assert table.state.board == [flop[0], flop[2]]
    table.refuse(BoardDealt((flop[1],)), DealingError, "duplicate_card")
    table.apply(BoardDealt(parse_cards("Jh")))
    assert table.state.board == [flop[0], flop[2], parse_cards("Jh")[0]]
    assert table.state.actor == 1


@pytest.mark.parametrize(
    ("tv", "rulebook", "rule"),
    [
        pytest.param("TV-74", BFSP, RuleRef("bfsp", "6.4.6"), id="TV-74"),
        pytest.param("TV-74", TDA, RuleRef("tda-2022", "39-B"), id="TV-74-tda"),
    ],
)
def test_an_unburned_flop_stands_once_there_has_been_action_on_it(
    tv: str, rulebook: Rulebook, rule: RuleRef
) -> None:
    table = limped_to_the_flop(rulebook)
    flop = parse_cards("AhKhQh")
    table.apply(FlopDealtUnburned(flop))
    table.act(1, X)
    with pytest.raises(HandStateError) as refused:
        table.state.apply(FlopReformed())
    assert refused.value.rule == rule
    table.acts((2, X), (3, X), (4, X), (5, X), (6, X))
    table.apply(CardBurned(parse_cards("2h")[0]))
    table.refuse(CardBurned(parse_cards("3h")[0]), DealingError, "burn")  # one burn a street, never two
    table.apply(BoardDealt(parse_cards("Jh")))
    assert table.state.board == [*flop, parse_cards("Jh")[0]]


# --- a hand mucked by mistake (TDA 2022 15-B, 65-A) ------------------------------------------------------------


def heads_to_the_river(rulebook: Rulebook = BFSP) -> Table:
    table = start(stacks=(10_000,) * 3, rulebook=rulebook).post()
    table.apply(HoleCardsDealt(1, parse_cards("AsAd")))
    table.apply(HoleCardsDealt(2, parse_cards("KsKd")))
    table.apply(HoleCardsDealt(3, parse_cards("2c7d")))
    table.acts((3, F), (1, C), (2, X))
    for cards in ("Qh9h4c", "5s", "8d"):
        table.board(cards)
        if cards != "8d":
            table.acts((1, X), (2, X))
    return table


@pytest.mark.parametrize("tv", ["TV-94"])
def test_a_bettor_who_mucks_believing_he_won_loses_the_bets_that_were_called(tv: str) -> None:
    table = heads_to_the_river()
    table.acts((1, B, 1_000), (2, C))
    assert table.state.phase is Phase.SHOWDOWN
    derived = table.apply(HandMuckedByMistake(1))
    (award,) = [d for d in derived if isinstance(d, PotAwarded)]
    assert award.amount == 2_200 and [(s.seat, s.amount) for s in award.shares] == [(2, 2_200)]
    assert not any(isinstance(d, UncalledBetReturned) for d in derived)
    assert table.state.stacks == {1: 8_900, 2: 11_100, 3: 10_000}
    with pytest.raises(RulingRequired) as asked:
        recover_mucked_hand(table.state, 1)  # the cards' recovery is the floor's finding
    assert asked.value.rule == RuleRef("bfsp", "4.9.1")


@pytest.mark.parametrize("tv", ["TV-95"])
def test_a_bettor_who_mucks_believing_he_won_gets_back_the_bet_nobody_called(tv: str) -> None:
    table = heads_to_the_river(TDA)
    table.act(1, B, 1_000)
    derived = table.apply(HandMuckedByMistake(1))
    assert UncalledBetReturned(1, 1_000) in derived
    (award,) = [d for d in derived if isinstance(d, PotAwarded)]
    assert award.amount == 200 and award.shares[0].seat == 2
    assert isinstance(derived[-1], HandEnded)
    assert table.state.stacks == {1: 9_900, 2: 10_100, 3: 10_000}
    with pytest.raises(RulingRequired) as asked:
        recover_mucked_hand(table.state, 1)
    assert asked.value.rule == RuleRef("tda-2022", "15-B")


# --- chips found behind an all-in (TDA 2022 62) ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tv", "rulebook", "rule"),
    [
        pytest.param("TV-96", TDA, RuleRef("tda-2022", "62"), id="TV-96"),
        pytest.param("TV-96", BFSP, RuleRef("tda-2022", "62"), id="TV-96-bfsp"),
    ],
)
def test_whether_chips_found_behind_an_all_in_were_in_the_action_is_the_directors(
    tv: str, rulebook: Rulebook, rule: RuleRef
) -> None:
    table = start(stacks=(3_000, 10_000, 10_000), rulebook=rulebook).post()
    table.deal()
    table.acts((3, F), (1, R, 2_950), (2, C))
    with pytest.raises(RulingRequired) as asked:
        found_chips_ruling(table.state, 1, 500)
    assert asked.value.rule == rule
    assert "director" in asked.value.reason


# --- a card from outside the deck (TDA 2022 35-A, 35-D) ----------------------------------------------------------


@pytest.mark.parametrize("tv", ["TV-77"])
def test_a_card_outside_the_deck_after_substantial_action_is_a_scrap_of_paper(tv: str) -> None:
    table = six_handed(TDA)
    table.acts((3, C), (4, C))
    before = table.snapshot()
    assert table.apply(ForeignCardFound("a joker in the stub")) == ()
    assert table.snapshot() == before
    assert table.state.actor == 5


@pytest.mark.parametrize("tv", ["TV-75"])
def test_a_card_outside_the_deck_before_substantial_action_is_a_misdeal(tv: str) -> None:
    table = six_handed(TDA)
    table.acts((3, C))
    said, ended = table.apply(ForeignCardFound("a joker dealt to seat 4"))
    assert said == MisdealRecognised("a card outside the deck: a joker dealt to seat 4", "tda-2022 35-D")
    assert isinstance(ended, HandEnded)
    assert dict(ended.final_stacks) == dict.fromkeys(range(1, 7), 10_000)
    assert table.state.is_over


# --- the correction events are stored and read back like every reported event ------------------------------


@pytest.mark.parametrize(
    "event",
    [
        DealtShort(6, 1),
        MissingCardDealt(6, parse_cards("7d")),
        HandKilled(5, 3),
        FourCardFlopDealt(parse_cards("AhKhQhJh"), parse_cards("Kh")[0]),
        FourCardFlopDealt((None, None, None, None), None),
        FlopDealtUnburned(parse_cards("AhKhQh")),
        FlopReformed(),
        FlopReformed(parse_cards("Kh")[0]),
        HandMuckedByMistake(1),
        ForeignCardFound("a joker"),
        PrematureCardsDealt(parse_cards("Th"), parse_cards("7c")[0]),
        PrematureCardsReturned(),
        BurnsShuffledIntoStub(),
        CommunityCardDealt(parse_cards("Th")[0]),
        HoleCardExposed(6, parse_cards("7d")[0]),
        ExposedCardReplaced(6, parse_cards("Ah")[0]),
        MuckShuffledIntoStub(),
    ],
    ids=repr,
)
def test_a_correction_event_survives_the_codec(event: object) -> None:
    assert decode(encode(event)) == event  # type: ignore[arg-type]


@pytest.mark.parametrize("tv", ["TV-72"])
def test_a_corrected_hand_is_stored_and_replays_from_the_event_store_to_the_same_state(tv: str) -> None:
    started = HandStarted(
        "table-9",
        7,
        "NT",
        (SeatEntry(1, "Ann", 1_000), SeatEntry(2, "Bob", 1_000), SeatEntry(3, "Cy", 1_000)),
        3,
        Stakes(blinds=((1, 50), (2, 100)), min_bet=100),
        rulebook="bfsp",
        burns_recorded=True,
    )
    four = parse_cards("AhKhQhJh")
    play: list[ReportedEvent] = [
        ForcedBetPosted(1, ForcedBetKind.SMALL_BLIND, 50),
        ForcedBetPosted(2, ForcedBetKind.BIG_BLIND, 100),
        HoleCardsDealt(1, parse_cards("AsAd")),
        HoleCardsDealt(2, parse_cards("KsKd")),
        HoleCardsDealt(3, parse_cards("2c")),
        DealtShort(3, 1),
        MissingCardDealt(3, parse_cards("7d")),
        PlayerActed(3, C),
        PlayerActed(1, C),
        PlayerActed(2, X),
        CardBurned(parse_cards("2h")[0]),
        FourCardFlopDealt(four, four[3]),
        PlayerActed(1, X),
        ExtraCardDealt(2, parse_cards("9c")[0]),
        HandKilled(2, 3),
        PlayerActed(3, X),
        CardBurned(four[3]),
    ]
    app: Application = Application()
    hand = Hand.start(started, AT)
    for e in play:
        hand.record(e, AT)
    app.save(hand)
    again = app.repository.get(hand.id)
    assert isinstance(again, Hand)
    assert again.version == hand.version
    assert [type(e).__name__ for e in (decode(p) for p in again.reported)] == [type(e).__name__ for e in play]
    assert again.engine.board == [four[0], four[1], four[2]]
    assert again.engine.folded == {2}
    assert again.engine.expected_next().kind is NextActKind.DEAL_BOARD


# --- premature board cards (bfsp 6.6.5-6.6.7; TDA 2022 RP-5; TDA 2017 RP-5) ------------------------------------


def three_handed(rulebook: Rulebook, street: str) -> Table:
    """Burns recorded; the betting on ``street`` (pre-flop, flop, turn) is under way: seat 1 has bet or limped."""
    table = start(stacks=(10_000,) * 3, rulebook=rulebook, burns=True).post()
    for seat, cards in ((1, "AsAd"), (2, "KsKd"), (3, "QsQd")):
        table.apply(HoleCardsDealt(seat, parse_cards(cards)))
    if street == "pre-flop":
        table.act(3, C)
        return table
    table.acts((3, C), (1, C), (2, X))
    for name, cards in (("flop", "2h3h4h"), ("turn", "5h")):
        table.apply(CardBurned(parse_cards("9c" if name == "flop" else "8c")[0]))
        table.apply(BoardDealt(parse_cards(cards)))
        if name == street:
            table.act(1, B, 200)
            return table
        table.acts((1, X), (2, X), (3, X))
    raise AssertionError(street)


def card(text: str) -> Card:
    return parse_cards(text)[0]


@pytest.mark.parametrize("tv", ["TV-81"])
def test_a_premature_turn_is_set_aside_the_next_card_is_the_turn_and_it_goes_back_for_the_river(
    tv: str,
) -> None:
    table = three_handed(BFSP, "flop")
    table.apply(PrematureCardsDealt(parse_cards("Th"), card("7c")))
    assert table.state.phase is Phase.BETTING and table.state.board == list(parse_cards("2h3h4h"))
    table.acts((2, C), (3, C))  # the betting is finished
    with pytest.raises(DealingError) as refused:
        table.state.apply(PrematureCardsReturned())  # not yet: bfsp 6.6.6 deals the next card as the turn
    assert refused.value.rule == RuleRef("bfsp", "6.6.6")
    table.apply(CardBurned(card("6c")))
    table.refuse(BoardDealt(parse_cards("Th")), DealingError, "duplicate_card")
    table.apply(BoardDealt(parse_cards("Jc")))
    table.acts((1, X), (2, X), (3, X))
    with pytest.raises(DealingError) as refused:
        table.state.apply(CardBurned(card("5c")))  # the premature card goes back into the stub first
    assert refused.value.rule == RuleRef("bfsp", "6.6.6")
    table.apply(PrematureCardsReturned())
    table.apply(CardBurned(card("5c")))  # the river is dealt normally, with a burn
    table.apply(BoardDealt(parse_cards("Th")))  # shuffled back in, the card may come as the river
    assert table.state.board == list(parse_cards("2h3h4hJcTh"))


@pytest.mark.parametrize("tv", ["TV-81"])
def test_a_premature_river_goes_back_into_the_stub_before_the_burn_and_the_river(tv: str) -> None:
    table = three_handed(BFSP, "turn")
    table.apply(PrematureCardsDealt(parse_cards("Th"), card("7c")))
    table.acts((2, C), (3, F))
    with pytest.raises(DealingError) as refused:
        table.state.apply(BoardDealt(parse_cards("Jc")))
    assert refused.value.rule == RuleRef("bfsp", "6.6.7")
    table.apply(PrematureCardsReturned())
    table.refuse(BoardDealt(parse_cards("Jc")), DealingError, "burn")  # bfsp 6.6.7: burns, then the river
    table.apply(CardBurned(card("6c")))
    table.apply(BoardDealt(parse_cards("Jc")))
    assert table.state.phase is Phase.BETTING


@pytest.mark.parametrize("tv", ["TV-81"])
def test_a_premature_flop_goes_back_with_its_burn_and_is_burned_and_dealt_again(tv: str) -> None:
    table = three_handed(BFSP, "pre-flop")
    flop = parse_cards("2h3h4h")
    table.apply(PrematureCardsDealt(flop, card("9c")))
    table.acts((1, C), (2, X))
    with pytest.raises(DealingError) as refused:
        table.state.apply(CardBurned(card("8c")))
    assert refused.value.rule == RuleRef("bfsp", "6.6.5")
    table.apply(PrematureCardsReturned())
    table.apply(CardBurned(card("9c")))  # the burn went back too: bfsp 6.6.4
    table.apply(BoardDealt(flop))
    assert table.state.board == list(flop)


@pytest.mark.parametrize(
    ("tv", "street", "cards"),
    [
        pytest.param("TV-81", "pre-flop", "5h6h7h", id="TV-81-flop-tda"),
        pytest.param("TV-81", "flop", "Th", id="TV-81-turn-tda"),
        pytest.param("TV-81", "turn", "Th", id="TV-81-river-tda"),
    ],
)
def test_under_the_tda_premature_cards_go_back_at_once_and_the_street_is_dealt_without_a_new_burn(
    tv: str, street: str, cards: str
) -> None:
    table = three_handed(TDA, street)
    premature = parse_cards(cards)
    table.apply(PrematureCardsDealt(premature, card("7c")))
    if street == "pre-flop":
        table.acts((1, C), (2, X))
    else:
        table.acts((2, C), (3, C))
    table.apply(PrematureCardsReturned())
    assert table.state.expected_next().kind is NextActKind.DEAL_BOARD  # no burn owed
    with pytest.raises(DealingError) as refused:
        table.state.apply(CardBurned(card("6c")))  # RP-5: the burn is already down
    assert refused.value.rule == RuleRef("tda-2022", "RP-5")
    table.apply(BoardDealt(premature))  # from the shuffled stub, possibly the same card(s)
    assert table.state.board[-len(premature) :] == list(premature)
    assert table.state.phase is Phase.BETTING


@pytest.mark.parametrize("tv", ["2017/TV-53"])
def test_tda_2017_premature_turn_the_next_card_is_the_turn_and_the_river_comes_without_a_burn(
    tv: str,
) -> None:
    table = three_handed(TDA_2017, "flop")
    table.apply(PrematureCardsDealt(parse_cards("Th"), card("7c")))  # leave burn 2, the card aside
    table.acts((2, C), (3, C))  # finish the round
    table.apply(CardBurned(card("6c")))  # burn 3
    table.apply(BoardDealt(parse_cards("Jc")))  # the next card as the turn
    table.acts((1, X), (2, X), (3, X))
    table.apply(PrematureCardsReturned())  # shuffle the premature card into the stub
    with pytest.raises(DealingError) as refused:
        table.state.apply(CardBurned(card("5c")))
    assert refused.value.rule == RuleRef("tda-2017", "RP-5")
    table.apply(BoardDealt(parse_cards("Th")))  # the river without a burn
    assert table.state.board == list(parse_cards("2h3h4hJcTh"))
    assert table.state.actor == 1  # the final round


def test_premature_cards_are_refused_when_no_betting_is_under_way() -> None:
    table = three_handed(BFSP, "flop")
    table.acts((2, C), (3, C))
    with pytest.raises(DealingError):
        table.state.apply(PrematureCardsDealt(parse_cards("Th"), card("7c")))


# --- stud: a short stub on the last street (bfsp 6.5.3; TDA 2022 RP-10-h) ----------------------------------------


class StudTable:
    """Seven-card stud, ``players`` seats, every card dealt from one deck in order and every burn recorded;
    everyone checks or calls to seventh street (``folds`` maps a street index to a seat folding on it)."""

    def __init__(self, players: int, rulebook: Rulebook, folds: dict[int, int] | None = None) -> None:
        self.table = start(
            "F7S",
            stacks=(1_000,) * players,
            antes=tuple((s, 5) for s in range(1, players + 1)),
            bring_in=5,
            small_bet=10,
            big_bet=20,
            rulebook=rulebook,
            burns=True,
        ).post()
        self.deck = iter(standard_deck())
        self.burns: list[Card] = []
        self.first_to_act: dict[int, int | None] = {}
        state = self.table.state
        while state.street_index < len(state.variant.streets) - 1:
            self.deal()
            self.first_to_act[state.street_index] = state.actor
            self.bet((folds or {}).get(state.street_index))

    def deal(self) -> None:
        state = self.table.state
        while (nxt := state.expected_next()).kind in (NextActKind.BURN, NextActKind.DEAL_HOLE):
            if nxt.kind is NextActKind.BURN:
                self.burns.append(next(self.deck))
                self.table.apply(CardBurned(self.burns[-1]))
            else:
                assert nxt.seat is not None
                self.table.apply(HoleCardsDealt(nxt.seat, tuple(next(self.deck) for _ in range(nxt.count))))

    def bet(self, folder: int | None) -> None:
        state = self.table.state
        street = state.street_index
        while state.phase is Phase.BETTING and state.street_index == street:
            options = state.legal_actions()
            if options.seat == folder:
                self.table.act(options.seat, F)
            elif options.can_bring_in:
                self.table.act(options.seat, ActionKind.BRING_IN)
            else:
                self.table.act(options.seat, X if options.can_check else C)

    @property
    def stub(self) -> list[Card]:
        return list(self.deck)


@pytest.mark.parametrize("tv", ["TV-115"])
def test_a_short_stub_made_up_by_the_burns_gives_one_card_each(tv: str) -> None:
    hand = StudTable(7, TDA)
    table, state = hand.table, hand.table.state
    stub = hand.stub  # seven cards left for seven players, their burn and the last card
    assert len(stub) == 7 and len(hand.burns) == 3
    with pytest.raises(DealingError) as refused:
        state.apply(CommunityCardDealt(stub[0]))  # the burns make it up: no community card
    assert refused.value.rule == RuleRef("tda-2022", "RP-10-h")
    assert state.phase is Phase.DEALING
    with pytest.raises(DealingError):
        state.apply(CardBurned(hand.burns[0]))  # still a burn until it is shuffled back
    table.apply(BurnsShuffledIntoStub())
    cards = [*hand.burns, *stub]
    table.apply(CardBurned(cards.pop()))
    live = [s for s in state.in_hand if state.owed_hole.get(s)]
    for seat in live:
        table.apply(HoleCardsDealt(seat, (cards.pop(0),)))
    assert state.phase is Phase.BETTING
    assert all(len(state.hole[s]) == 7 for s in live)
    assert state.board == []


def test_a_stub_that_is_long_enough_keeps_its_burns_out() -> None:
    hand = StudTable(6, TDA)
    with pytest.raises(DealingError) as refused:
        hand.table.state.apply(BurnsShuffledIntoStub())
    assert refused.value.rule == RuleRef("tda-2022", "RP-10-h")


@pytest.mark.parametrize("tv", ["TV-116"])
def test_a_stub_of_three_or_more_still_short_with_the_burns_gives_a_community_card(tv: str) -> None:
    hand = StudTable(
        8, TDA, folds={1: 8}
    )  # seat 8 folds on fourth street: three cards left for seven players
    table, state = hand.table, hand.table.state
    stub = hand.stub
    assert len(stub) == 3
    table.apply(CardBurned(stub[0]))
    table.apply(CommunityCardDealt(stub[1]))
    assert state.board == [stub[1]]
    assert state.phase is Phase.BETTING
    assert state.actor == hand.first_to_act[3]  # the first to act on sixth street acts first
    hand.bet(None)
    assert state.phase is Phase.SHOWDOWN
    pot = state.pot_total()
    derived = [d for seat in state.in_hand for d in table.apply(HandShown(seat, tuple(state.hole[seat])))]
    awards = [d for d in derived if isinstance(d, PotAwarded)]
    assert sum(a.amount for a in awards) == pot and state.is_over  # every hand plays the community card


@pytest.mark.parametrize("tv", ["TV-116"])
def test_the_federation_never_finishes_a_stud_hand_with_a_community_card(tv: str) -> None:
    hand = StudTable(8, BFSP, folds={1: 8})
    stub = hand.stub
    hand.table.apply(CardBurned(stub[0]))
    with pytest.raises(DealingError) as refused:
        hand.table.state.apply(CommunityCardDealt(stub[1]))
    assert refused.value.rule == RuleRef("bfsp", "6.5.3")


@pytest.mark.parametrize("tv", ["TV-117"])
def test_a_stub_under_three_is_scrambled_with_the_burns_before_the_community_card(tv: str) -> None:
    hand = StudTable(8, TDA)
    table, state = hand.table, hand.table.state
    stub = hand.stub
    assert len(stub) == 1
    before = table.snapshot()
    table.apply(CardBurned(stub[0]))
    with pytest.raises(DealingError) as refused:
        state.apply(CommunityCardDealt(hand.burns[0]))
    assert refused.value.rule == RuleRef("tda-2022", "RP-10-h")
    assert "fewer than three" in refused.value.reason
    hand = StudTable(8, TDA)
    table, state = hand.table, hand.table.state
    assert table.snapshot() == before
    table.apply(BurnsShuffledIntoStub())
    table.apply(CardBurned(hand.burns[1]))
    table.apply(CommunityCardDealt(hand.burns[0]))
    assert state.board == [hand.burns[0]]
    assert state.actor == hand.first_to_act[3]


# --- a hole card exposed in the deal (bfsp 6.3.6, 6.6.1; TDA 2022 35-A) -----------------------------------------


@pytest.mark.parametrize(
    ("tv", "rulebook", "seat", "card"),
    [
        pytest.param("TV-75", TDA, 1, "2c", id="TV-75-first-card-exposed"),
        pytest.param("TV-75", TDA, 2, "3c", id="TV-75-second-card-exposed"),
        pytest.param("TV-75", BFSP, 1, "2c", id="TV-75-first-card-exposed-bfsp"),
    ],
)
def test_the_first_or_second_card_of_the_deal_exposed_is_a_misdeal(
    tv: str, rulebook: Rulebook, seat: int, card: str
) -> None:
    table = six_handed(rulebook)
    said, ended = table.apply(HoleCardExposed(seat, parse_cards(card)[0]))
    assert isinstance(said, MisdealRecognised) and said.rule == str(rulebook.cite("misdeal")) + (
        "-A" if rulebook is TDA else ".6"
    )
    assert isinstance(ended, HandEnded)
    assert dict(ended.final_stacks) == dict.fromkeys(range(1, 7), 10_000)
    assert table.state.is_over


@pytest.mark.parametrize("tv", ["TV-75"])
def test_two_cards_exposed_in_the_deal_are_a_misdeal(tv: str) -> None:
    table = six_handed(TDA)
    assert table.apply(HoleCardExposed(5, parse_cards("6d")[0])) == ()
    said, ended = table.apply(HoleCardExposed(6, parse_cards("7d")[0]))
    assert "a second card" in said.reason and isinstance(ended, HandEnded) and table.state.is_over


@pytest.mark.parametrize("tv", ["TV-75"])
def test_one_later_card_exposed_is_replaced_by_the_first_burn_and_becomes_it(tv: str) -> None:
    table = six_handed(BFSP, burns=True)
    seven = parse_cards("7d")[0]
    table.apply(HoleCardExposed(6, seven))  # the button's second card: the twelfth of the deal
    table.refuse(ExposedCardReplaced(6, seven), DealingError, "duplicate_card")
    table.apply(ExposedCardReplaced(6, parse_cards("Ah")[0]))
    assert table.state.hole[6] == list(parse_cards("7cAh"))
    table.acts((3, C), (4, C), (5, C), (6, C), (1, C), (2, X))
    assert table.state.expected_next().kind is NextActKind.DEAL_BOARD
    with pytest.raises(DealingError) as refused:
        table.state.apply(CardBurned(parse_cards("Kh")[0]))  # the exposed seven is the flop's burn
    assert refused.value.rule == RuleRef("bfsp", "6.6.1")
    table.apply(BoardDealt(parse_cards("KhQhJh")))
    assert table.state.phase is Phase.BETTING
    table.acts((1, X), (2, X), (3, X), (4, X), (5, X), (6, X))
    table.refuse(BoardDealt(parse_cards("Th")), DealingError, "burn")  # the turn has its own burn


def test_bfsp_6_3_9_a_wrong_number_of_cards_found_at_the_showdown_loses_the_pot() -> None:
    table = heads_to_the_river(BFSP)
    table.acts((1, B, 1_000), (2, C))
    table.apply(HandShown(2, parse_cards("KsKd")))
    table.apply(ExtraCardDealt(1, parse_cards("3s")[0]))
    derived = table.apply(HandKilled(1, 3))
    (award,) = [d for d in derived if isinstance(d, PotAwarded)]
    assert [(s.seat, s.amount) for s in award.shares] == [(2, 2_200)]
    assert table.state.is_over


@pytest.mark.parametrize("tv", ["TV-116"])
def test_under_the_federation_the_burns_then_the_muck_complete_a_short_stud_deal(tv: str) -> None:
    hand = StudTable(8, BFSP, folds={1: 8})  # three cards left for seven players
    table, state = hand.table, hand.table.state
    stub = hand.stub
    with pytest.raises(DealingError) as refused:
        state.apply(MuckShuffledIntoStub())  # the burns come first
    assert refused.value.rule == RuleRef("bfsp", "6.5.3")
    table.apply(BurnsShuffledIntoStub())
    table.apply(MuckShuffledIntoStub())  # six cards with the burns: still short of nine
    cards = [*stub, *hand.burns, *state.hole[8]]
    table.apply(CardBurned(cards.pop(0)))
    for seat in [s for s in state.in_hand if state.owed_hole.get(s)]:
        table.apply(HoleCardsDealt(seat, (cards.pop(0),)))
    assert state.phase is Phase.BETTING and state.board == []


# --- misdeals the deal itself shows (TDA 2022 35-A; bfsp 6.3): recognised, not only declared ------------------


def _deal_from(rulebook: Rulebook, first: int) -> tuple[Table, tuple[DerivedEvent, ...]]:
    """Button on seat 4 (blinds 5 and 6); the live record deals its first card to ``first``."""
    table = start(stacks=(10_000,) * 6, button=4, rulebook=rulebook, burns=True).post()
    return table, table.apply(HoleCardsDealt(first, parse_cards(HOLE[first])))


@pytest.mark.parametrize(("tv", "rulebook"), [("TV-75", TDA), ("TV-75-bfsp", BFSP)])
def test_a_deal_begun_at_the_wrong_seat_is_recognised_as_a_misdeal(tv: str, rulebook: Rulebook) -> None:
    table, (said, ended) = _deal_from(rulebook, 2)
    assert said == MisdealRecognised(
        "the deal began at seat 2; the first card goes to seat 5, left of the button",
        str(rulebook.cite("wrong_seat")),
    )
    assert dict(ended.final_stacks) == dict.fromkeys(range(1, 7), 10_000) and table.state.is_over
    right, out = _deal_from(rulebook, 5)
    assert out == () and not right.state.is_over


def test_an_imported_history_lists_the_hole_cards_in_its_own_order_and_no_misdeal_is_read_into_it() -> None:
    table = start(stacks=(10_000,) * 6, button=4, rulebook=TDA, burns=False).post()
    assert table.apply(HoleCardsDealt(2, parse_cards(HOLE[2]))) == ()


@pytest.mark.parametrize(("tv", "rulebook"), [("TV-75", TDA), ("TV-75-bfsp", BFSP)])
def test_a_seat_dealt_out_is_recognised_as_a_misdeal(tv: str, rulebook: Rulebook) -> None:
    table = start(stacks=(10_000,) * 6, rulebook=rulebook).post()
    for seat in (1, 2, 3):
        table.apply(HoleCardsDealt(seat, parse_cards(HOLE[seat])))
    said, ended = table.apply(DealtShort(4, 2))
    assert said == MisdealRecognised("seat 4, entitled to a hand, was dealt out", str(rulebook.cite("dealt_out")))
    assert isinstance(ended, HandEnded) and table.state.is_over


@pytest.mark.parametrize(("tv", "rulebook"), [("TV-75", TDA), ("TV-75-bfsp", BFSP)])
def test_a_card_dealt_to_an_empty_seat_is_recognised_as_a_misdeal(tv: str, rulebook: Rulebook) -> None:
    """TDA 2022 35-A-3 (a seat not entitled to a hand), bfsp 6.3.4 (dealt to an empty seat): six players at a
    ten-handed table, button on seat 6; after seat 1's cards the dealer gives seat 7, where nobody sits, a card."""
    table = start(stacks=(10_000,) * 6, rulebook=rulebook, burns=True).post()
    table.apply(HoleCardsDealt(1, parse_cards(HOLE[1])))
    table.refuse(HoleCardsDealt(7, parse_cards(HOLE[1][:2])), DealingError, "duplicate_card")
    table.refuse(HoleCardsDealt(11, parse_cards("Kd")), DealingError, "deal_count")  # no such seat at a table
    said, ended = table.apply(HoleCardsDealt(7, parse_cards("Kd")))
    assert said == MisdealRecognised(
        "seat 7, with nobody entitled to a hand, was dealt a card", str(rulebook.cite("not_entitled"))
    )
    assert isinstance(ended, HandEnded) and dict(ended.final_stacks) == dict.fromkeys(range(1, 7), 10_000)
    imported = start(stacks=(10_000,) * 6, rulebook=rulebook, burns=False).post()
    imported.refuse(HoleCardsDealt(7, parse_cards("Kd")), DealingError, "deal_count")  # the import's own error


@pytest.mark.parametrize("tv", ["TV-75"])
def test_two_boxed_cards_in_the_first_deal_are_a_misdeal_under_the_tda_but_not_the_federation(tv: str) -> None:
    tda = start(stacks=(10_000,) * 6, rulebook=TDA).post()
    assert tda.apply(BoxedCardFound(parse_cards("Ks")[0])) == ()  # one is replaced by the next card
    tda.apply(HoleCardsDealt(1, parse_cards(HOLE[1])))
    tda.refuse(BoxedCardFound(parse_cards("Ks")[0]), DealingError, "duplicate_card")
    said, ended = tda.apply(BoxedCardFound(parse_cards("Kd")[0]))
    assert said.rule == "tda-2022 35-A" and "boxed" in said.reason and tda.state.is_over
    bfsp = start(stacks=(10_000,) * 6, rulebook=BFSP).post()
    assert bfsp.apply(BoxedCardFound(parse_cards("Ks")[0])) == ()
    assert bfsp.apply(BoxedCardFound(parse_cards("Kd")[0])) == ()  # bfsp 6.4.5: each is discarded
    assert not bfsp.state.is_over


# --- substantial action (TDA 2022 36, TV-64 to TV-69) as the engine applies it: a misdeal until it ------------


@pytest.mark.parametrize(
    ("acts", "substantial"),
    [
        pytest.param([(3, F), (4, C)], True, id="TV-64"),
        pytest.param([(1, X), (2, X)], False, id="TV-65"),
        pytest.param([(3, F), (4, F)], False, id="TV-66"),
        pytest.param([(1, X), (2, F)], False, id="TV-67"),
        pytest.param([(3, F), (4, F), (5, F)], True, id="TV-68"),
        pytest.param([(3, C)], False, id="TV-69"),
    ],
)
def test_a_misdeal_is_declared_until_substantial_action_and_refused_after_it(
    acts: list[tuple[int, ActionKind]], substantial: bool
) -> None:
    """Blinds on seats 1 and 2 (seat 3 first to act); where the example opens with a check, antes only (seat 1
    first), so that a check is the first action in turn. Posting blinds or antes is no action (36)."""
    checks = any(action is X for _, action in acts)
    if checks:
        table = start(stacks=(10_000,) * 6, blinds=(), antes=[(s, 10) for s in range(1, 7)], rulebook=TDA, min_bet=100)
    else:
        table = start(stacks=(10_000,) * 6, rulebook=TDA)
    table.post().deal()
    table.acts(*acts)
    misdeal = MisdealDeclared("a boxed card found", "tda-2022 35-A")
    if substantial:
        table.refuse(misdeal, HandStateError, "misdeal")
    else:
        (ended,) = table.apply(misdeal)
        assert isinstance(ended, HandEnded) and table.state.is_over


# --- a skipped player silent through substantial action out of turn (TDA 2022 53-B, TDA 2017 D-43 B) -----------


@pytest.mark.parametrize(
    ("tv", "rulebook", "flop", "said"),
    [
        pytest.param("TV-63", TDA, False, ("call", "fold"), id="TV-63"),
        pytest.param("2017/TV-17", TDA_2017, False, ("call", "fold"), id="2017/TV-17"),
        pytest.param("2017/TV-18", TDA_2017, True, ("check", "call"), id="2017/TV-18"),
    ],
)
def test_acts_out_of_turn_through_substantial_action_bind_and_the_floor_rules_on_the_skipped_seat(
    tv: str, rulebook: Rulebook, flop: bool, said: tuple[str, str]
) -> None:
    table = start(stacks=(10_000,) * 6, blinds=(100, 200), rulebook=rulebook).post().deal()
    if flop:
        table.acts((3, C), (4, C), (5, C), (6, C), (1, F), (2, F))
        table.board("QhJh4c")
        table.act(3, B, 600)
    else:
        table.act(3, R, 600)
    assert table.state.actor == 4  # seat 4 is thinking
    assert table.apply(RawActReported(5, RawAct(parse_declaration(said[0])))) == ()
    assert table.state.ruling is None  # one act out of turn is not substantial action
    table.apply(RawActReported(6, RawAct(parse_declaration(said[1]))))
    assert table.state.ruling is not None
    (asked,) = table.state.readings
    assert isinstance(asked, RulingRequested) and asked.seat == 4
    assert asked.rule == str(rulebook.cite("skipped_player")) and "floor" in asked.reason
    waits = RawActReported(4, RawAct(parse_declaration("call")))
    table.refuse(waits, HandStateError, "skipped_player")  # the hand waits for the floor's entry of seat 4's act
    table.act(4, F)  # the floor's ruling on seat 4 (the aggregate takes it from an official only)
    if said == ("call", "fold"):
        assert table.state.bets[5] == 600 and 6 in table.state.folded  # both acts out of turn bind
    else:
        assert table.state.obligation is not None and table.state.obligation[0].seat == 5  # call or fold


# --- asking to see a hand at the showdown (TDA 2022 18; TDA 2017 D-17) ------------------------------------------


def _answer(table: Table, seat: int, target: int) -> ShowRequestAnswered:
    (answer,) = table.apply(ShowRequested(seat, target))
    assert isinstance(answer, ShowRequestAnswered) and (answer.seat, answer.target) == (seat, target)
    return answer


@pytest.mark.parametrize(("tv", "rulebook"), [("TV-88", TDA), ("2017/TV-42", TDA_2017)])
def test_with_no_bet_on_the_river_a_request_to_see_is_the_directors_and_a_mucked_hand_has_no_right(
    tv: str, rulebook: Rulebook
) -> None:
    table = start(stacks=(10_000,) * 3, rulebook=rulebook).post().deal()
    table.acts((3, C), (1, C), (2, X))
    for cards in ("Qh9h4c", "5s", "8d"):
        table.board(cards)
        table.acts((1, X), (2, X), (3, X))
    table.apply(HandMucked(1))  # A mucks unshown
    table.apply(HandShown(2, tuple(table.state.hole[2])))  # B tables trips; C pushes his cards face down
    asked = _answer(table, 2, 3)
    assert asked.answer == "director" and asked.rule == str(rulebook.cite("show_request"))
    assert _answer(table, 1, 3).answer == "refused"  # A gave up his cards and the right with them
    table.apply(HandMucked(3))  # nothing obliges C to table


@pytest.mark.parametrize(("tv", "rulebook"), [("TV-89", TDA), ("2017/TV-43", TDA_2017)])
def test_callers_who_kept_their_cards_may_see_the_last_aggressor_who_must_then_table(
    tv: str, rulebook: Rulebook
) -> None:
    table = start(stacks=(100_000,) * 4, rulebook=rulebook).post().deal()
    table.acts((3, C), (4, C), (1, C), (2, X))
    for cards in ("Qh9h4c", "5s"):
        table.board(cards)
        table.acts((1, X), (2, X), (3, X), (4, X))
    table.board("8d")
    table.acts((1, B, 1000), (2, C), (3, R, 5000), (4, C), (1, C), (2, C))
    table.apply(HandShown(2, tuple(table.state.hole[2])))  # B tables
    table.apply(HandMucked(4))  # D mucks at once
    assert _answer(table, 1, 3).answer == "granted"  # A called C's raise and kept his cards
    assert _answer(table, 2, 3).answer == "granted"
    assert _answer(table, 4, 3).answer == "refused"  # D gave up his right by mucking
    assert _answer(table, 2, 1).answer == "director"  # another caller's hand
    table.refuse(HandMucked(3), IllegalActionError, "show_request")
    table.apply(HandShown(3, tuple(table.state.hole[3])))


@pytest.mark.parametrize(("tv", "ruled"), [("TV-53", C), ("TV-53", F)], ids=["TV-53-full-call", "TV-53-forfeit-and-fold"])
def test_an_undercall_of_a_raise_multi_way_is_the_directors_a_full_call_or_forfeit_and_fold(
    tv: str, ruled: ActionKind
) -> None:
    """TDA 2022 51 Ex 1 (NLHE 1000-2000, flop): A opens 2000, B raises to 8000, C silently puts out 2000. The
    director holds C to the full call of 8000, or C forfeits the 2000 he put in and folds."""
    table = start(stacks=(100_000,) * 4, blinds=(1000, 2000), rulebook=TDA).post().deal()
    table.acts((3, C), (4, C), (1, C), (2, X))
    table.board("QhJh4c")
    table.acts((1, B, 2000), (2, R, 8000))
    table.apply(RawActReported(3, RawAct(chips=ChipsPlaced.one_motion(1000, 1000))))
    (asked,) = table.state.readings
    assert isinstance(asked, RulingRequested) and (asked.seat, asked.rule) == (3, "tda-2022 51-B")
    pot_before = table.state.pot_total()
    table.act(3, ruled)  # the director's entry (the aggregate takes it from an official only)
    if ruled is C:
        assert table.state.bets[3] == 8000 and table.state.stacks[3] == 100_000 - 2000 - 8000
    else:
        assert 3 in table.state.folded and table.state.stacks[3] == 100_000 - 2000 - 2000
        assert table.state.pot_total() == pot_before + 2000  # his 2000 stay in the pot
    assert table.state.ruling is None and table.state.actor == 4


@pytest.mark.parametrize("tv", ["TV-57"])
def test_undercalls_in_a_row_go_back_to_the_first_undercaller_and_the_director_decides_the_rest(tv: str) -> None:
    """TDA 2022 51-C: several undercalls in sequence. Facing the opening bet each is read at once as the
    mandatory full call (51-B), so none follows another uncorrected. Facing a raise multi-way the first is the
    director's; the table does not stop, and the next seat's undercall is recorded as the second in a row: action
    goes back to the first undercaller, whose ruling comes first, and the director decides the second at his turn.
    Anything else the next seat does waits for the ruling."""
    two_chips = RawAct(chips=ChipsPlaced.one_motion(1000, 1000))
    table = start(stacks=(100_000,) * 4, blinds=(1000, 2000), rulebook=TDA).post().deal()
    table.acts((3, C), (4, C), (1, C), (2, X))
    table.board("QhJh4c")
    table.act(1, B, 8000)  # the opening bet: each undercall is a mandatory full call
    for seat in (2, 3):
        table.apply(RawActReported(seat, two_chips))
        assert table.state.bets[seat] == 8000 and table.state.readings[0].rule == RuleRef("tda-2022", "51-B")
    raised = start(stacks=(100_000,) * 4, blinds=(1000, 2000), rulebook=TDA).post().deal()
    raised.acts((3, C), (4, C), (1, C), (2, X))
    raised.board("QhJh4c")
    raised.acts((1, B, 2000), (2, R, 8000))  # facing a raise multi-way: the director's (51-B)
    raised.apply(RawActReported(3, two_chips))
    (first,) = raised.state.readings
    assert isinstance(first, RulingRequested) and (first.seat, first.rule) == (3, "tda-2022 51-B")
    raised.refuse(RawActReported(4, RawAct(parse_declaration("call"))), HandStateError, "undercall")
    raised.refuse(RawActReported(1, two_chips), HandStateError, "undercall")  # not the next seat: not in a row
    assert raised.apply(RawActReported(4, two_chips)) == () and raised.state.readings == []  # the second, held
    raised.refuse(RawActReported(2, RawAct(parse_declaration("fold"))), HandStateError, "undercall")
    assert raised.state.ruling is not None and raised.state.ruling[0].seat == 3  # back to the first undercaller
    raised.act(3, C)  # the director's ruling on the first: the full call of 8,000
    (second,) = raised.state.readings
    assert isinstance(second, RulingRequested) and (second.seat, second.rule) == (4, "tda-2022 51-C")
    assert "seat 3, the first undercaller" in second.reason and "8,000" in second.reason
    raised.act(4, F)  # the director's ruling on the second
    assert raised.state.bets[3] == 8000 and 4 in raised.state.folded and raised.state.actor == 1


# --- acts out of turn (TDA 2022 53-A, TV-58 to TV-62; TDA 2017 D-43, TV-15/16) through the engine --------------


def _flop_of_four(rulebook: Rulebook) -> Table:
    """NLHE 50-100, six seats, the button on seat 2: seats 3 to 6 see the flop, seat 3 first to act on it."""
    table = start(stacks=(10_000,) * 6, button=2, rulebook=rulebook).post().deal()
    table.acts((5, C), (6, C), (1, F), (2, F), (3, C), (4, X))
    table.board("QhJh4c")
    return table


def _oot(table: Table, seat: int, words: str) -> None:
    assert table.apply(RawActReported(seat, RawAct(parse_declaration(words)))) == ()  # held until his turn


@pytest.mark.parametrize(
    ("tv", "rulebook", "seat_5"),
    [
        pytest.param("TV-58", TDA, C, id="TV-58"),
        pytest.param("TV-59", TDA, R, id="TV-59"),
        pytest.param("2017/TV-15", TDA_2017, F, id="2017/TV-15"),
    ],
)
def test_an_out_of_turn_raise_binds_unless_the_action_to_him_changes(
    tv: str, rulebook: Rulebook, seat_5: ActionKind
) -> None:
    table = _flop_of_four(rulebook)
    table.acts((3, B, 300), (4, F))
    _oot(table, 6, "raise, eight hundred")
    assert table.state.actor == 5
    table.act(5, seat_5, 600 if seat_5 is R else None)
    if seat_5 is R:  # the action changed: his 800 comes back and he has every option
        legal = table.state.legal_actions()
        assert (legal.seat, legal.call_amount, legal.min_bet_or_raise_to) == (6, 600, 900)
        assert table.state.bets[6] == 0
    else:
        assert table.state.bets[6] == 800  # binding


@pytest.mark.parametrize(
    ("tv", "rulebook", "seat_5_bets"),
    [
        pytest.param("TV-60", TDA, False, id="TV-60"),
        pytest.param("TV-61", TDA, True, id="TV-61"),
        pytest.param("2017/TV-16", TDA_2017, True, id="2017/TV-16"),
    ],
)
def test_an_out_of_turn_check_binds_unless_a_skipped_seat_bets(tv: str, rulebook: Rulebook, seat_5_bets: bool) -> None:
    table = _flop_of_four(rulebook)
    table.acts((3, X), (4, X))
    _oot(table, 6, "check")
    table.act(5, B if seat_5_bets else X, 300 if seat_5_bets else None)
    if seat_5_bets:
        legal = table.state.legal_actions()
        assert (legal.seat, legal.call_amount, legal.min_bet_or_raise_to) == (6, 300, 600)
    else:
        assert table.state.street_index == 2  # his check bound: the flop is checked through


@pytest.mark.parametrize("tv", ["TV-62"])
def test_an_out_of_turn_fold_always_binds(tv: str) -> None:
    table = _flop_of_four(TDA)
    table.acts((3, X), (4, X))
    _oot(table, 6, "fold")
    table.act(5, B, 300)  # the action changed, and still the fold binds
    assert 6 in table.state.folded


@pytest.mark.parametrize("tv", ["TV-56"])
def test_heads_up_any_undercall_is_a_mandatory_full_call(tv: str) -> None:
    table = start(stacks=(100_000, 100_000), button=2, blinds=(1000, 2000), rulebook=TDA).post().deal()
    table.acts((2, C), (1, X))
    table.board("QhJh4c")
    table.acts((1, B, 2000), (2, R, 8000))  # a raise, not the opening bet: heads-up the full call is still due
    table.apply(RawActReported(1, RawAct(chips=ChipsPlaced.one_motion(1000, 1000))))
    (reading,) = table.state.readings
    assert reading.rule == RuleRef("tda-2022", "51-B") and table.state.contributions[1] == 2000 + 8000
