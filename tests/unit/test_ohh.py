"""Open Hand History: the shared hands OHH can express survive events → OHH → events unchanged, the others
are refused naming ``game_type``; a real-shaped OHH file in dollars reads into legal events in cents."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest
from shared_hands import PHH_DIR, WSOP_DAY_5, events_of

from domain.cards import parse_cards
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    ForcedBetKind,
    ForcedBetPosted,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    ReportedEvent,
    SeatEntry,
    Stakes,
)
from domain.hand.replay import replay
from domain.rulebooks import get_rulebook
from ingest.ohh import OhhError, OhhHand, dumps, load_file, loads, to_ohh
from ingest.phh import load_hands

pytestmark = pytest.mark.unit

#: the shared hands' games OHH has no game_type for, and how many hands of each the set holds
NOT_IN_OHH = {"F7S": 13, "FR": 10, "F2L3D": 8, "N2L1D": 7, "F7S/8": 7, "FB": 1, "NS": 1}


def read_one(text: str) -> OhhHand:
    (hand,) = list(loads(text, "hand.ohh"))
    assert isinstance(hand, OhhHand), hand
    return hand


def test_every_shared_hand_ohh_can_express_reads_back_as_the_same_events() -> None:
    refused: collections.Counter[str] = collections.Counter()
    changed, written = [], 0
    for hand in load_hands([PHH_DIR / "data"]):
        events = events_of(hand)
        try:
            document = to_ohh(events)
        except OhhError as error:
            assert error.path == "$.ohh.game_type" and hand.variant in error.reason
            refused[hand.variant] += 1
            continue
        written += 1
        if list(read_one(dumps([document])).events) != events:
            changed.append(f"{hand.file} #{hand.index}")
    assert changed == []
    assert dict(refused) == NOT_IN_OHH
    assert written == 2149 - sum(NOT_IN_OHH.values())


#: six-max, $0.01/$0.02 no-limit: Hero raises, the big blind re-raises, Hero calls; check-check to the river
CASH_HAND = {
    "ohh": {
        "spec_version": "1.4.6", "site_name": "iPoker", "network_name": "iPoker Network", "internal_version": "1",
        "game_type": "Holdem", "table_name": "Brehuiesti", "table_size": 6, "game_number": "8599887794",
        "start_date_utc": "2020-04-07T14:32:50", "currency": "EUR",
        "ante_amount": 0.00, "small_blind_amount": 0.01, "big_blind_amount": 0.02,
        "bet_limit": {"bet_cap": 0.00, "bet_type": "NL"}, "hero_player_id": 3, "dealer_seat": 6,
        "players": [
            {"name": "Player1", "id": 0, "starting_stack": 0.80, "seat": 1},
            {"name": "Player3", "id": 1, "starting_stack": 2.38, "seat": 3},
            {"name": "Hero", "id": 3, "starting_stack": 2.00, "seat": 6},
        ],
        "rounds": [
            {"id": 0, "street": "Preflop", "cards": [], "actions": [
                {"action_number": 1, "player_id": 0, "action": "Post SB", "amount": 0.01},
                {"action_number": 2, "player_id": 1, "action": "Post BB", "amount": 0.02},
                {"action_number": 3, "player_id": 3, "action": "Dealt Cards", "cards": ["Ah", "Kd"]},
                {"action_number": 4, "player_id": 3, "action": "Raise", "amount": 0.06},
                {"action_number": 5, "player_id": 0, "action": "Fold"},
                {"action_number": 6, "player_id": 1, "action": "Raise", "amount": 0.16},
                {"action_number": 7, "player_id": 3, "action": "Call", "amount": 0.12},
            ]},
            {"id": 1, "street": "Flop", "cards": ["Ac", "7d", "2s"], "actions": [
                {"action_number": 8, "player_id": 1, "action": "Check"},
                {"action_number": 9, "player_id": 3, "action": "Bet", "amount": 0.25},
                {"action_number": 10, "player_id": 1, "action": "Fold"},
            ]},
        ],
        "pots": [{"number": 0, "amount": 0.37, "rake": 0.0, "player_wins": [{"player_id": 3, "win_amount": 0.37}]}],
    }
}


def test_a_cash_hand_in_euros_reads_as_cents_with_raises_as_street_totals() -> None:
    hand = read_one(json.dumps(CASH_HAND))
    assert hand.scale == 100
    start, *events = hand.events
    assert isinstance(start, HandStarted)
    assert start.table_id == "Brehuiesti" and start.hand_number == 8599887794 and start.variant == "NT"
    assert start.seats == (SeatEntry(1, "Player1", 80), SeatEntry(3, "Player3", 238), SeatEntry(6, "Hero", 200))
    assert start.stakes == Stakes(blinds=((1, 1), (3, 2)), min_bet=2) and start.button == 6
    assert events[:3] == [
        ForcedBetPosted(1, ForcedBetKind.SMALL_BLIND, 1),
        ForcedBetPosted(3, ForcedBetKind.BIG_BLIND, 2),
        HoleCardsDealt(6, parse_cards("AhKd"), (False, False)),
    ]
    assert PlayerActed(6, ActionKind.RAISE, 6) in events and PlayerActed(3, ActionKind.RAISE, 18) in events
    assert BoardDealt(parse_cards("Ac7d2s")) in events and PlayerActed(6, ActionKind.BET, 25) in events


def test_a_hand_with_unseen_hole_cards_is_dealt_unknown_cards_and_replays_legally() -> None:
    document = json.loads(json.dumps(CASH_HAND))
    preflop = document["ohh"]["rounds"][0]["actions"]
    # the other players' cards are not in the record: each is dealt two cards nobody saw (Hero won 0.37 with
    # 0.18 in: his 0.25 flop bet was not called)
    for player in (0, 1):
        preflop.insert(2, {"action_number": 0, "player_id": player, "action": "Dealt Cards"})
    result = replay(read_one(json.dumps(document)).events, get_rulebook("bfsp"))
    assert result.ok, result.rejection
    assert result.is_over and dict(result.stacks) == {1: 79, 3: 220, 6: 219}


def three_handed_raise() -> list[ReportedEvent]:
    start = HandStarted(
        table_id="7", hand_number=3, variant="NT",
        seats=(SeatEntry(1, "Ann", 1000), SeatEntry(2, "Bob", 1000), SeatEntry(3, "Cy", 170)),
        button=3, stakes=Stakes(blinds=((1, 10), (2, 20)), min_bet=20), burns_recorded=False,
    )
    dealt = [HoleCardsDealt(seat, (None, None), (False, False)) for seat in (1, 2, 3)]
    return [start, ForcedBetPosted(1, ForcedBetKind.SMALL_BLIND, 10), ForcedBetPosted(2, ForcedBetKind.BIG_BLIND, 20),
            *dealt, PlayerActed(3, ActionKind.RAISE, 60), PlayerActed(1, ActionKind.RAISE, 180),
            PlayerActed(2, ActionKind.FOLD), PlayerActed(3, ActionKind.CALL)]


def test_written_amounts_are_what_each_act_puts_in_and_an_all_in_is_flagged() -> None:
    actions = to_ohh(three_handed_raise())["ohh"]["rounds"][0]["actions"]
    acts = [(a["player_id"], a["action"], a.get("amount"), a.get("is_allin")) for a in actions if "amount" in a]
    assert acts == [
        (0, "Post SB", 10, False), (1, "Post BB", 20, False),
        (2, "Raise", 60, False), (0, "Raise", 170, False), (2, "Call", 110, True),
    ]


def test_pots_are_written_from_the_engines_awards() -> None:
    events = three_handed_raise()[:-1] + [PlayerActed(3, ActionKind.FOLD)]
    result = replay(events, get_rulebook("bfsp"))
    pots = to_ohh(events, pots=result.pots)["ohh"]["pots"]
    # Ann's 120 nobody called went back to her: the pot is the 60 she matched, Cy's 60 and Bob's 20
    assert pots == [{"number": 0, "amount": 140, "rake": 0, "player_wins": [{"player_id": 0, "win_amount": 140}]}]


def test_a_stud_hand_is_refused_naming_game_type() -> None:
    razz = next(h for h in load_hands([WSOP_DAY_5]) if h.variant == "FR")
    with pytest.raises(OhhError) as refused:
        to_ohh(events_of(razz))
    assert refused.value.path == "$.ohh.game_type" and "razz" in str(refused.value)


def test_a_bad_hand_names_file_line_and_json_path_and_the_next_hand_is_still_read(tmp_path: Path) -> None:
    bad = json.loads(json.dumps(CASH_HAND))
    bad["ohh"]["rounds"][1]["actions"][1]["player_id"] = 9
    path = tmp_path / "session.ohh"
    path.write_text(dumps([bad, CASH_HAND]))
    first, second = list(load_file(path))
    assert isinstance(first, OhhError) and isinstance(second, OhhHand)
    assert first.file == str(path) and first.hand == 1 and first.line == 1
    assert first.path == "$.ohh.rounds[1].actions[1].player_id"
    assert str(first).startswith(f"{path}:1: hand 1: $.ohh.rounds[1].actions[1].player_id: 9 is not the id")
    assert second.index == 2 and second.line == 3


def test_an_unknown_game_and_a_bad_card_are_refused_with_their_paths() -> None:
    stud = json.loads(json.dumps(CASH_HAND))
    stud["ohh"]["game_type"] = "Stud"
    (refused,) = list(loads(json.dumps(stud)))
    assert isinstance(refused, OhhError) and refused.path == "$.ohh.game_type"
    card = json.loads(json.dumps(CASH_HAND))
    card["ohh"]["rounds"][1]["cards"] = ["Ac", "7x", "2s"]
    (refused,) = list(loads(json.dumps(card)))
    assert isinstance(refused, OhhError) and refused.path == "$.ohh.rounds[1].cards" and "'7x'" in refused.reason
