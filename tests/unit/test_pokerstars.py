"""PokerStars text hand histories: realistic hands (a raise war with rake, an all-in with a side pot, a split pot,
a pot-limit Omaha tournament hand with antes) read into events the engine replays legally, and the engine's
pots are what the site says each player collected."""

from __future__ import annotations

from pathlib import Path

import pytest
from pokerstars_hands import EVERY_HAND, OMAHA_TOURNAMENT, RAISE_WAR, SHORT_BLIND_LIMIT, SIDE_POT, SPLIT_POT

from domain.cards import parse_cards
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    ForcedBetKind,
    ForcedBetPosted,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    SeatEntry,
    Stakes,
)
from domain.hand.replay import ReplayResult, replay
from domain.rulebooks import get_rulebook
from ingest.pokerstars import PokerStarsError, PokerStarsHand, is_pokerstars, load_file, loads

pytestmark = pytest.mark.unit

SESSION = "\n\n\n".join([RAISE_WAR, SIDE_POT, SPLIT_POT, OMAHA_TOURNAMENT])


def read(text: str) -> PokerStarsHand:
    (hand,) = list(loads(text, "session.txt"))
    assert isinstance(hand, PokerStarsHand), hand
    return hand


def judged(hand: PokerStarsHand) -> ReplayResult:
    result = replay(hand.events, get_rulebook("bfsp"))
    assert result.ok, result.rejection
    assert result.is_over
    return result


def won(result: ReplayResult) -> dict[int, int]:
    shares: dict[int, int] = {}
    for pot in result.pots:
        for share in pot.shares:
            shares[share.seat] = shares.get(share.seat, 0) + share.amount
    return shares


@pytest.mark.parametrize("text", EVERY_HAND.values(), ids=EVERY_HAND.keys())
def test_each_hand_replays_legally_and_the_engine_awards_what_the_site_says_was_collected(text: str) -> None:
    hand = read(text)
    result = judged(hand)
    # the site's collections are net of rake; the engine awards the whole pot
    assert sum(won(result).values()) == sum(hand.collected.values()) + hand.rake
    if not hand.rake:
        assert won(result) == hand.collected
    assert {r.seat: r.amount for r in result.returned} == hand.returned


def test_money_becomes_cents_and_players_are_listed_from_left_of_the_button() -> None:
    hand = read(RAISE_WAR)
    start = hand.events[0]
    assert isinstance(start, HandStarted)
    assert hand.scale == 100 and start.table_id == "Aase III" and start.hand_number == 208912340001
    assert start.variant == "NT" and start.button == 3
    # echo sits out: he is not dealt in
    assert start.seats == (
        SeatEntry(4, "delta", 300), SeatEntry(6, "foxtrot", 1000), SeatEntry(1, "alpha", 1000),
        SeatEntry(2, "bravo", 745), SeatEntry(3, "charlie", 1020),
    )
    assert start.stakes == Stakes(blinds=((4, 5), (6, 10)), min_bet=10)
    assert hand.events[1:4] == (
        ForcedBetPosted(4, ForcedBetKind.SMALL_BLIND, 5),
        ForcedBetPosted(6, ForcedBetKind.BIG_BLIND, 10),
        HoleCardsDealt(4, (None, None), (False, False)),
    )
    assert HoleCardsDealt(1, parse_cards("AhKd"), (False, False)) in hand.events
    assert PlayerActed(1, ActionKind.RAISE, 30) in hand.events and PlayerActed(3, ActionKind.RAISE, 150) in hand.events
    assert BoardDealt(parse_cards("Qh")) in hand.events and PlayerActed(3, ActionKind.BET, 200) in hand.events
    assert hand.rake == 10 and hand.collected == {3: 365} and hand.returned == {3: 200}


def test_the_all_in_hand_makes_a_main_pot_for_three_and_a_side_pot_for_two() -> None:
    hand = read(SIDE_POT)
    assert HandShown(4, parse_cards("AhQh")) in hand.events
    # the side pot is awarded first, as a dealer does; pot_index 0 is the main pot
    main, side = sorted(judged(hand).pots, key=lambda pot: pot.pot_index)
    assert (main.amount, set(main.eligible), [s.seat for s in main.shares]) == (890, {1, 2, 4}, [4])
    assert (side.amount, set(side.eligible), [s.seat for s in side.shares]) == (900, {1, 2}, [2])


def test_the_tied_hands_split_the_pot() -> None:
    (pot,) = judged(read(SPLIT_POT)).pots
    assert sorted((s.seat, s.amount) for s in pot.shares) == [(1, 130), (6, 130)]


def test_a_player_who_mucks_at_the_showdown_gives_up_his_share() -> None:
    mucked = SPLIT_POT.replace("foxtrot: shows [Ac Th] (a pair of Aces)", "foxtrot: mucks hand")
    hand = read(mucked)
    assert HandMucked(6) in hand.events
    (pot,) = replay(hand.events, get_rulebook("bfsp")).pots
    assert [(s.seat, s.amount) for s in pot.shares] == [(1, 260)]


def test_tournament_chips_stay_chips_and_antes_are_posted_before_the_blinds() -> None:
    hand = read(OMAHA_TOURNAMENT)
    start = hand.events[0]
    assert isinstance(start, HandStarted)
    assert hand.scale == 1 and start.variant == "PO" and start.table_id == "3001234567 1"
    # antes listed from the seat left of the button, as the players are
    assert start.stakes == Stakes(antes=((4, 5), (1, 5), (2, 5)), blinds=((4, 25), (1, 50)), min_bet=50)
    assert [type(e).__name__ for e in hand.events[1:6]] == ["ForcedBetPosted"] * 5
    assert HoleCardsDealt(1, parse_cards("AhAsKdQc"), (False,) * 4) in hand.events


def test_a_limit_game_is_named_by_its_bets_and_a_blind_cut_short_still_owes_the_full_blind() -> None:
    hand = read(SHORT_BLIND_LIMIT)
    start = hand.events[0]
    assert isinstance(start, HandStarted) and start.variant == "FT"
    assert start.stakes == Stakes(blinds=((2, 5), (3, 10)), small_bet=10, big_bet=20)
    assert ForcedBetPosted(3, ForcedBetKind.BIG_BLIND, 8) in hand.events


def test_a_session_file_is_read_hand_by_hand(tmp_path: Path) -> None:
    path = tmp_path / "HH20200101 Aase III.txt"
    path.write_text("\ufeff" + SESSION, encoding="utf-8")
    assert is_pokerstars(path.read_text(encoding="utf-8"))
    hands = list(load_file(path))
    assert [h.index for h in hands if isinstance(h, PokerStarsHand)] == [1, 2, 3, 4]


def test_a_bad_line_names_file_line_and_field_and_the_other_hands_are_still_read() -> None:
    broken = SIDE_POT.replace("charlie: folds", "zulu: folds")
    hands = list(loads("\n\n".join([RAISE_WAR, broken, SPLIT_POT]), "session.txt"))
    assert [type(h).__name__ for h in hands] == ["PokerStarsHand", "PokerStarsError", "PokerStarsHand"]
    error = hands[1]
    assert isinstance(error, PokerStarsError)
    line = RAISE_WAR.count("\n") + 2 + SIDE_POT.splitlines().index("charlie: folds") + 1
    assert (error.file, error.line, error.field, error.hand) == ("session.txt", line, "action", 2)
    assert str(error) == f"session.txt:{line}: action: 'zulu' is not dealt in at this hand"


def test_a_game_we_do_not_read_is_refused_naming_the_game() -> None:
    stud = RAISE_WAR.replace("Hold'em No Limit ($0.05/$0.10 USD)", "7 Card Stud Limit ($0.10/$0.20 USD)")
    (error,) = list(loads(stud, "stud.txt"))
    assert isinstance(error, PokerStarsError) and error.field == "game" and error.line == 1
