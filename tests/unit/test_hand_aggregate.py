"""The Hand aggregate: a natural-key id, one stored event per accepted act, nothing stored for a refused one,
and the same hand after replay from the event store or from a snapshot."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Snapshot

from domain.cards import parse_cards
from domain.chained import first_broken_link_in
from domain.errors import ForcedBetError, HandStateError, OutOfTurnError
from domain.hand.aggregate import Hand, hand_id
from domain.hand.codec import decode, encode
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    ForcedBetKind,
    ForcedBetPosted,
    HandEnded,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    ReportedEvent,
    SeatEntry,
    Stakes,
)

pytestmark = pytest.mark.unit

START = HandStarted(
    "table-7",
    42,
    "NT",
    (SeatEntry(1, "Ann", 1000), SeatEntry(2, "Bob", 1000)),
    2,
    Stakes(blinds=((2, 50), (1, 100))),
    burns_recorded=False,
)
PLAY: list[ReportedEvent] = [
    ForcedBetPosted(2, ForcedBetKind.SMALL_BLIND, 50),
    ForcedBetPosted(1, ForcedBetKind.BIG_BLIND, 100),
    HoleCardsDealt(1, parse_cards("AsKd")),
    HoleCardsDealt(2, parse_cards("????")),
    PlayerActed(2, ActionKind.CALL),
    PlayerActed(1, ActionKind.CHECK),
    BoardDealt(parse_cards("Ah9c4d")),
    PlayerActed(1, ActionKind.BET, 200),
    PlayerActed(2, ActionKind.CALL),
    BoardDealt(parse_cards("Tc")),
    PlayerActed(1, ActionKind.CHECK),
    PlayerActed(2, ActionKind.CHECK),
    BoardDealt(parse_cards("3h")),
    PlayerActed(1, ActionKind.CHECK),
    PlayerActed(2, ActionKind.CHECK),
    HandShown(1, parse_cards("AsKd")),
    HandShown(2, parse_cards("QsQd")),
]


AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def at(i: int) -> datetime:
    return AT + timedelta(seconds=i)


def played() -> Hand:
    hand = Hand.start(START, AT, {"event_id": "e0"})
    for i, e in enumerate(PLAY, 1):
        hand.record(e, at(i), {"event_id": f"e{i}", "recorded_by": {"person": "dealer-1", "role": "dealer"}})
    return hand


def test_a_hands_id_comes_from_its_table_and_number() -> None:
    assert Hand.start(START, AT).id == hand_id("table-7", 42) != hand_id("table-7", 43)


def test_every_accepted_act_is_one_event_named_for_it() -> None:
    hand = played()
    names = [type(e).__name__ for e in hand.collect_events()]
    assert names == ["HandStarted", *(type(e).__name__ for e in PLAY), "PotAwarded", "HandEnded"]
    assert hand.is_over and hand.engine.final_stacks() == {1: 1300, 2: 700}


def test_a_refused_act_records_nothing() -> None:
    hand = Hand.start(START, AT)
    hand.record(PLAY[0], AT)
    version = hand.version
    with pytest.raises(ForcedBetError):
        hand.record(ForcedBetPosted(1, ForcedBetKind.BIG_BLIND, 80), AT)
    with pytest.raises(OutOfTurnError):
        for e in PLAY[1:4]:
            hand.record(e, AT)
        hand.record(PlayerActed(1, ActionKind.CHECK), AT)
    assert hand.version == version + 3
    assert len(hand.reported) == 4


def test_a_start_that_breaks_the_rules_creates_no_hand() -> None:
    with pytest.raises(HandStateError):
        Hand.start(HandStarted("t", 1, "NT", (SeatEntry(1, "A", 10), SeatEntry(1, "B", 10)), 1, Stakes()), AT)


def test_the_hand_replays_from_the_event_store_to_the_same_state() -> None:
    app: Application = Application()
    hand = played()
    app.save(hand)
    again = app.repository.get(hand.id)
    assert isinstance(again, Hand)
    assert again.version == hand.version and again.engine.final_stacks() == {1: 1300, 2: 700}
    assert again.engine.hole[2] == list(parse_cards("QsQd"))


def test_a_snapshot_rebuilds_the_engine_from_the_accepted_acts() -> None:
    hand = Hand.start(START, AT)
    for e in PLAY[:8]:
        hand.record(e, AT)
    restored = Snapshot.take(hand).mutate(None)
    assert isinstance(restored, Hand)
    out = ()
    for e in PLAY[8:]:
        out = restored.record(e, AT)
    assert isinstance(out[-1], HandEnded) and restored.engine.final_stacks() == {1: 1300, 2: 700}


def test_every_reported_event_survives_the_json_codec() -> None:
    for e in [START, *PLAY]:
        assert decode(encode(e)) == e


def test_the_stored_events_chain_verifies_and_carries_who_recorded_them() -> None:
    app: Application = Application()
    hand = played()
    app.save(hand)
    stored = list(app.repository.event_store.get(hand.id))
    assert first_broken_link_in(stored) is None
    assert stored[1].meta["recorded_by"]["role"] == "dealer" and stored[1].timestamp == at(1)
    assert stored[-1].meta == {"follows": f"e{len(PLAY)}"}


def test_a_changed_amount_breaks_the_chain_at_that_event() -> None:
    hand = played()
    events = list(hand.collect_events())
    bet = next(i for i, e in enumerate(events) if getattr(e, "payload", {}).get("action") == "bet")
    events[bet].payload["amount"] = 20  # type: ignore[attr-defined]
    broken = first_broken_link_in(events)
    assert broken is not None and broken.position == bet


def test_each_recorded_event_is_the_one_eventsourcings_trigger_would_have_made() -> None:
    # ChainedAggregate builds its events without trigger_event's generic steps: each must equal the event
    # its class builds from the same fields, and leave the aggregate's version and time where mutate puts them.
    hand = played()
    events = hand.collect_events()
    for e in events[1:]:
        assert type(e)(**vars(e)) == e and vars(type(e)(**vars(e))) == vars(e)
    assert hand.version == events[-1].originator_version == len(events)
    assert hand.modified_on == events[-1].timestamp


def test_an_event_class_whose_apply_does_more_keeps_eventsourcings_trigger() -> None:
    from eventsourcing.domain import event

    from domain.chained import ChainedAggregate, _event_body

    applied: list[str] = []

    class Ledger(ChainedAggregate):
        class Event(ChainedAggregate.Event):
            def apply(self, aggregate: object) -> None:
                applied.append(type(self).__name__)

        @event("Opened")
        def __init__(self, payload: dict[str, object], meta: dict[str, object], prev_link: str, link: str) -> None:
            self.chain_head = link

        @event("Noted")
        def _noted(self, payload: dict[str, object], meta: dict[str, object], prev_link: str, link: str) -> None:
            self.chain_head = link

    assert _event_body(Hand.CardBurned) is not None  # the Hand's events take the direct path
    assert _event_body(Ledger.Noted) is None
    ledger = Ledger._create_chained("Opened", hand_id("ledger", 1), AT, {}, {})
    ledger._trigger_chained("Noted", {"n": 1}, at(1), {})
    assert applied == ["Opened", "Noted"] and ledger.version == 2


def test_a_hands_start_is_the_one_eventsourcings_create_would_have_made(monkeypatch: pytest.MonkeyPatch) -> None:
    # ChainedAggregate creates a Hand without _create's generic steps: its creation event (fields in the
    # dataclass's order, as the store writes them) and the aggregate's state must be what _create makes.
    import domain.chained
    from domain.chained import _creation

    assert _creation(Hand, Hand.HandStarted, ("table_id", "hand_number")) is not None  # the direct path
    meta = {"event_id": "e0", "competition_id": "c1"}
    direct = Hand.start(START, AT, meta)
    monkeypatch.setattr(domain.chained, "_creation", lambda *_: None)
    generic = Hand.start(START, AT, meta)
    (made,), (expected,) = direct.collect_events(), generic.collect_events()
    assert type(made) is type(expected) and list(vars(made).items()) == list(vars(expected).items())
    assert list(vars(direct).items()) == list(vars(generic).items())
    assert direct._bodies == generic._bodies and direct.engine.final_stacks() == generic.engine.final_stacks()
    with pytest.raises(HandStateError):  # refused by the start's body on the generic path too
        Hand.start(HandStarted("t", 1, "NT", (SeatEntry(1, "A", 10), SeatEntry(1, "B", 10)), 1, Stakes()), AT)


def test_a_creation_event_that_does_more_keeps_eventsourcings_create() -> None:
    from eventsourcing.domain import event

    from domain.chained import ChainedAggregate, _creation

    seen: list[str] = []

    class Opening(ChainedAggregate):
        @event("Opened")
        def __init__(self, payload: dict[str, object], meta: dict[str, object], prev_link: str, link: str) -> None:
            self.chain_head = link

    def checked(self: object) -> None:  # anything of its own: the direct path would skip it
        seen.append(type(self).__name__)

    Opening.Opened.__post_init__ = checked  # type: ignore[attr-defined]
    assert _creation(Opening, Opening.Opened, ()) is None
    opened = Opening._create_chained("Opened", hand_id("opening", 1), AT, {"a": 1}, {})
    assert opened.version == 1 and [type(e).__name__ for e in opened.collect_events()] == ["Opened"] == seen
