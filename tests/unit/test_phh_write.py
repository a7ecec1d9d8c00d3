"""The PHH writer: every shared hand survives read → events → write → read → events unchanged, and a hand
PHH cannot hold is refused naming the field."""

from __future__ import annotations

from dataclasses import replace

import pytest
from shared_hands import PHH_DIR, WSOP_HAND, events_of
from three_handed import three_handed

from domain.cards import parse_cards
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    CardBurned,
    Declaration,
    Declared,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    RawAct,
    RawActReported,
    Stakes,
)
from domain.hand.replay import replay
from domain.rulebooks import get_rulebook
from ingest.phh import load_hands, loads
from ingest.phh_write import PhhWriteError, write_hand, write_hands

pytestmark = pytest.mark.unit

DEALT = tuple(
    HoleCardsDealt(seat, parse_cards(cards), (False, False)) for seat, cards in ((2, "AsKs"), (4, "????"), (6, "7c2d"))
)


def test_every_shared_hand_reads_back_as_the_same_events() -> None:
    hands = list(load_hands([PHH_DIR / "data"]))
    assert len(hands) == 2149
    changed = []
    for hand in hands:
        events = events_of(hand)
        (again,) = loads(write_hand(events), "<written>")
        if events_of(again) != events:
            changed.append(f"{hand.file} #{hand.index}")
    assert changed == []


def test_a_final_table_hand_is_written_in_phh_notation() -> None:
    (hand,) = load_hands([WSOP_HAND])
    text = write_hand(events_of(hand))
    assert "variant = \"NT\"" in text
    assert "antes = [0, 120000, 0, 0, 0]" in text
    assert "blinds_or_straddles = [40000, 80000, 0, 0, 0]" in text
    assert "'" not in text and '"d dh p1 7s4s"' in text and '"p4 cbr 170000"' in text
    assert '"d db JcTs2d"' in text and '"p2 cc"' in text and '"p4 sm 6d5h"' in text
    assert 'players = ["Matthew Ashton", "Kristopher Tong", "James Obst", "Talal Shakerchi", "Brian Rast"]' in text


def test_players_are_listed_from_left_of_the_button_with_the_button_last() -> None:
    events = three_handed(*DEALT, PlayerActed(6, ActionKind.FOLD), button=6)
    start = events[0]
    assert isinstance(start, HandStarted)
    button_first = replace(start, seats=(start.seats[2], start.seats[0], start.seats[1]))
    text = write_hand([button_first, *events[1:]])
    assert 'players = ["Ann", "Bob", "Cy"]' in text and "seats = [2, 4, 6]" in text
    assert '"d dh p2 ????"' in text and '"p3 f"' in text


def test_the_final_stacks_become_finishing_stacks_in_player_order() -> None:
    events = three_handed(*DEALT, PlayerActed(6, ActionKind.FOLD), PlayerActed(2, ActionKind.FOLD))
    result = replay(events, get_rulebook("bfsp"))
    assert result.is_over
    (hand,) = loads(write_hand(events, final_stacks=dict(result.stacks)))
    assert hand.finishing_stacks == (990, 810, 1200)


def test_burns_are_left_out_because_phh_records_none() -> None:
    events = three_handed(*DEALT, PlayerActed(6, ActionKind.CALL), PlayerActed(2, ActionKind.CALL),
                          PlayerActed(4, ActionKind.CHECK), CardBurned(), BoardDealt(parse_cards("Ah7d2c")))
    (hand,) = loads(write_hand(events))
    assert [a.text for a in hand.actions][-1] == "d db Ah7d2c"
    assert CardBurned() not in events_of(hand)


def test_a_raw_act_has_no_phh_action_and_is_refused_naming_the_field() -> None:
    raw = RawActReported(6, RawAct(declaration=Declaration(Declared.CALL)))
    with pytest.raises(PhhWriteError) as refused:
        write_hand(three_handed(*DEALT, raw))
    assert refused.value.field == "actions" and "RawActReported" in str(refused.value)
    assert "final#7" in str(refused.value)


def test_a_game_without_a_phh_code_is_refused_naming_the_variant() -> None:
    start = three_handed()[0]
    assert isinstance(start, HandStarted)
    with pytest.raises(PhhWriteError) as refused:
        write_hand([replace(start, variant="PT")])
    assert refused.value.field == "variant"


def test_blinds_owed_out_of_positional_order_are_refused_rather_than_reordered() -> None:
    # PHH's array runs from the seat left of the button: a big blind owed before the small one has no place
    events = three_handed()
    start = events[0]
    assert isinstance(start, HandStarted)
    swapped = replace(start, stakes=Stakes(blinds=((4, 20), (2, 10)), min_bet=20))
    with pytest.raises(PhhWriteError) as refused:
        write_hand([swapped, *events[1:]])
    assert refused.value.field == "blinds_or_straddles"


def test_several_hands_make_one_phhs_file() -> None:
    first = three_handed(*DEALT, PlayerActed(6, ActionKind.FOLD), PlayerActed(2, ActionKind.FOLD))
    text = write_hands([first, first])
    hands = loads(text, "<phhs>", many=True)
    assert [h.index for h in hands] == [1, 2]
    assert all(events_of(h) == first for h in hands)
