"""PHH actions become our events, read with the engine's state where PHH is ambiguous."""

from __future__ import annotations

import pytest

from domain.cards import parse_cards
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    CardsDiscarded,
    ForcedBetKind,
    ForcedBetPosted,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    ReportedEvent,
)
from ingest.phh import loads
from ingest.phh_events import hand_events

pytestmark = pytest.mark.unit


def events_of(text: str) -> list[ReportedEvent]:
    (hand,) = loads(text, "x.phh")
    return list(hand_events(hand))


def acts(events: list[ReportedEvent]) -> list[tuple[int, ActionKind, int | None]]:
    return [(e.seat, e.action, e.amount) for e in events if isinstance(e, PlayerActed)]


HOLDEM = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [5000, 5000, 5000]
actions = ['d dh p1 AsKs', 'd dh p2 ????', 'd dh p3 7c7d',
           'p3 cbr 300', 'p1 cc', 'p2 cbr 900', 'p3 f', 'p1 cc',
           'd db 2c3d4h', 'p1 cc', 'p2 cbr 100', 'p1 cc',
           'd db 9s', 'p1 cc', 'p2 cc', 'd db Jh', 'p1 cc', 'p2 cc',
           'p1 sm AsKs', 'p2 sm']
"""


def test_check_or_call_and_bet_or_raise_are_read_from_the_state() -> None:
    events = events_of(HOLDEM)
    assert acts(events)[:8] == [
        (3, ActionKind.RAISE, 300),
        (1, ActionKind.CALL, None),
        (2, ActionKind.RAISE, 900),
        (3, ActionKind.FOLD, None),
        (1, ActionKind.CALL, None),
        (1, ActionKind.CHECK, None),
        (2, ActionKind.BET, 100),
        (1, ActionKind.CALL, None),
    ]


def test_the_hand_starts_posts_deals_shows_and_mucks() -> None:
    events = events_of(HOLDEM)
    assert isinstance(events[0], HandStarted) and events[0].button == 3
    assert events[1:3] == [
        ForcedBetPosted(1, ForcedBetKind.SMALL_BLIND, 50),
        ForcedBetPosted(2, ForcedBetKind.BIG_BLIND, 100),
    ]
    assert events[3] == HoleCardsDealt(1, parse_cards("AsKs"), (False, False))
    assert events[4] == HoleCardsDealt(2, (None, None), (False, False))
    assert BoardDealt(parse_cards("2c3d4h")) in events
    assert events[-2:] == [HandShown(1, parse_cards("AsKs")), HandMucked(2)]


STUD = """\
variant = 'F7S'
antes = [1, 1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsKsQs', 'd dh p2 ????2c', 'd dh p3 7c7d9h',
           'p2 pb', 'p3 cbr 5', 'p1 cbr 10', 'p2 f', 'p3 cc',
           'd dh p1 Js', 'd dh p3 8h', 'p1 cbr 5', 'p3 cc']
"""


def test_stud_brings_in_completes_and_deals_up_cards_by_the_variant() -> None:
    events = events_of(STUD)
    assert acts(events)[:3] == [
        (2, ActionKind.BRING_IN, 2),
        (3, ActionKind.COMPLETE, 5),
        (1, ActionKind.RAISE, 10),
    ]
    assert HoleCardsDealt(2, (None, None, parse_cards("2c")[0]), (False, False, True)) in events
    assert HoleCardsDealt(1, parse_cards("Js"), (True,)) in events
    assert (1, ActionKind.BET, 5) in acts(events)


DRAW = """\
variant = 'F2L3D'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100, 100]
actions = ['d dh p1 7h6c4c3d2c', 'd dh p2 ??????????', 'd dh p3 AsQs6s5c3c',
           'p3 cc', 'p1 cc', 'p2 cc',
           'p1 sd', 'p2 sd ????', 'p3 sd AsQs', 'd dh p2 ????', 'd dh p3 2hQh',
           'p1 cc', 'p2 cc', 'p3 cc']
"""


def test_a_discard_waits_for_its_cards_and_standing_pat_is_a_draw_of_none() -> None:
    draws = [e for e in events_of(DRAW) if isinstance(e, CardsDiscarded)]
    assert draws == [
        CardsDiscarded(1),
        CardsDiscarded(2, (None, None), (None, None)),
        CardsDiscarded(3, parse_cards("AsQs"), parse_cards("2hQh")),
    ]


def test_a_repeated_show_counts_once_as_the_last_one() -> None:
    text = HOLDEM.replace("'p1 sm AsKs', 'p2 sm'", "'p2 sm ????', 'p1 sm ????', 'p1 sm AsKs', 'p2 sm'")
    shown = [e for e in events_of(text) if isinstance(e, HandShown | HandMucked)]
    assert shown == [HandShown(1, parse_cards("AsKs")), HandMucked(2)]


def test_showing_the_dealt_cards_with_a_dash() -> None:
    events = events_of(HOLDEM.replace("'p1 sm AsKs'", "'p1 sm -'"))
    assert HandShown(1, parse_cards("AsKs")) in events
