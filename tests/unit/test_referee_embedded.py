"""The referee on the embedded log and SQLite store: accepted, rejected with the rule, malformed,
out of sequence, duplicates skipped; outcomes stored once, positions tracked."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from uuid import uuid4

import pytest

from domain.cards import parse_cards
from domain.chained import first_broken_link_in
from domain.hand.aggregate import hand_id
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    ChipsPlaced,
    ForcedBetKind,
    ForcedBetPosted,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    RawAct,
    RawActReported,
    ReportedEvent,
    SeatEntry,
    Stakes,
    Timing,
)
from domain.hand.interpretation import parse_declaration
from domain.rejections import rejection_log_id
from ingest.envelope import RecordedBy, make_envelope
from ingest.envelope import encode as encode_envelope
from ingest.log import EmbeddedLog
from ingest.publish import hand_records
from ingest.referee import Referee
from ingest.store import Store, store_env

AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
DEALER = RecordedBy(person="dealer-3", role="dealer")
START = HandStarted(
    "t1", 1, "NT", (SeatEntry(1, "Ann", 1000), SeatEntry(2, "Bob", 1000)), 2,
    Stakes(blinds=((2, 50), (1, 100)), min_bet=100), burns_recorded=False,
)
HAND: list[ReportedEvent] = [
    START,
    ForcedBetPosted(2, ForcedBetKind.SMALL_BLIND, 50),
    ForcedBetPosted(1, ForcedBetKind.BIG_BLIND, 100),
    HoleCardsDealt(1, parse_cards("AsKd")),
    HoleCardsDealt(2, parse_cards("QsQd")),
    PlayerActed(2, ActionKind.RAISE, 1000),
    PlayerActed(1, ActionKind.CALL),
    HandShown(1, parse_cards("AsKd")),
    HandShown(2, parse_cards("QsQd")),
    BoardDealt(parse_cards("Ah9c4d")),
    BoardDealt(parse_cards("Tc")),
    BoardDealt(parse_cards("3h")),
]


@pytest.fixture
def setup(tmp_path: Path) -> tuple[EmbeddedLog, Referee, Store]:
    log = EmbeddedLog(tmp_path / "log.sqlite", "events", partitions=2)
    store = Store(env=store_env(None, str(tmp_path / "store.sqlite")))
    return log, Referee(store, "events"), store


def run(log: EmbeddedLog, referee: Referee) -> list[str]:
    outcomes = []
    for partition in range(log.partitions()):
        records = log.read(partition, referee.resume_offset(partition), 10_000)
        outcomes += [v.outcome for v in referee.judge(partition, records)]
    return outcomes


def test_a_legal_hand_is_accepted_event_by_event_and_chained(setup: tuple[EmbeddedLog, Referee, Store]) -> None:
    log, referee, store = setup
    log.append(list(hand_records(HAND, "open", DEALER, AT)))
    assert run(log, referee) == ["accepted"] * len(HAND)
    stored = list(store.events.get(hand_id("t1", 1, "open")))
    assert first_broken_link_in(stored) is None
    assert [e.payload["type"] for e in stored[-2:]] == ["PotAwarded", "HandEnded"]
    assert stored[-1].payload["final_stacks"] == [[1, 2000], [2, 0]]
    assert store.outcome_counts() == {"accepted": len(HAND)}


def test_an_illegal_raise_is_rejected_with_its_rule_and_the_hand_goes_on(
    setup: tuple[EmbeddedLog, Referee, Store],
) -> None:
    log, referee, store = setup
    records = list(hand_records([*HAND[:5], PlayerActed(2, ActionKind.RAISE, 120)], "open", DEALER, AT))
    log.append(records)
    assert run(log, referee) == ["accepted"] * 5 + ["rejected"]
    rejections = list(store.events.get(rejection_log_id("open")))
    payload = rejections[-1].payload
    assert payload["kind"] == "illegal" and payload["rule"].startswith("bfsp")
    assert "minimum raise" in payload["reason"]
    assert json.loads(payload["record"])["seq"] == 5


def test_redelivered_records_and_client_retries_are_stored_once(setup: tuple[EmbeddedLog, Referee, Store]) -> None:
    log, referee, store = setup
    records = list(hand_records(HAND[:4], "open", DEALER, AT))
    log.append(records)
    run(log, referee)
    log.append(records[2:])  # the client sends the same events again
    assert run(log, referee) == ["duplicate", "duplicate"]
    assert store.outcome_counts() == {"accepted": 4}


def test_malformed_and_out_of_sequence_records_are_rejections_not_crashes(
    setup: tuple[EmbeddedLog, Referee, Store],
) -> None:
    log, referee, store = setup
    good = list(hand_records(HAND[:3], "open", DEALER, AT))
    gap = list(hand_records(HAND[:5], "open", DEALER, AT))[4]
    log.append([*good, (b"open", b"{not json"), (b"open", good[1][1].replace(b'"seat":2', b'"seat":"two"')), gap])
    outcomes = run(log, referee)
    # the second record with good[1]'s id and other content is a conflicting duplicate, stored as a rejection
    assert outcomes == ["accepted"] * 3 + ["rejected", "rejected", "rejected"]
    kinds = [e.payload["kind"] for e in store.events.get(rejection_log_id("open")) if hasattr(e, "payload") and "kind" in e.payload]
    assert kinds == ["malformed", "conflicting_duplicate", "out_of_sequence"]


def test_the_referee_resumes_after_the_last_stored_offset(setup: tuple[EmbeddedLog, Referee, Store]) -> None:
    log, referee, store = setup
    log.append(list(hand_records(HAND[:3], "open", DEALER, AT)))
    run(log, referee)
    fresh = Referee(store, "events")
    partition = next(p for p in range(2) if fresh.resume_offset(p))
    assert fresh.resume_offset(partition) == 3


def test_a_raw_act_is_stored_then_its_reading_in_order_and_the_seq_counts_reported_events_only(
    setup: tuple[EmbeddedLog, Referee, Store],
) -> None:
    log, referee, store = setup
    oversized = RawActReported(2, RawAct(chips=ChipsPlaced.one_motion(1000)))  # the button, facing the big blind
    events = [*HAND[:5], oversized, PlayerActed(1, ActionKind.CHECK), BoardDealt(parse_cards("Ah9c4d"))]
    log.append(list(hand_records(events, "open", DEALER, AT)))
    assert run(log, referee) == ["accepted"] * len(events)
    stored = list(store.events.get(hand_id("t1", 1, "open")))
    assert first_broken_link_in(stored) is None
    raw, read, check = stored[5:8]
    assert type(raw).__name__ == "RawActReported" and raw.payload["act"]["chips"]["motions"] == [[1000]]
    assert read.payload == {"type": "PlayerActed", "seat": 2, "action": "call", "amount": 100}
    assert read.meta["interprets"] == raw.meta["event_id"] and read.meta["rule"] == "bfsp 4.12"
    assert check.payload["action"] == "check" and check.meta["seq"] == 6


def test_a_ruling_waits_for_an_official_and_the_dealers_entry_is_rejected(
    setup: tuple[EmbeddedLog, Referee, Store],
) -> None:
    log, referee, store = setup
    unclear = RawActReported(  # "three hundred", not clearly heard, then one 1,000 chip: the director decides
        2, RawAct(parse_declaration("three hundred", clear=False), ChipsPlaced.one_motion(1000), Timing.VERBAL_FIRST)
    )
    events = [*HAND[:5], unclear, PlayerActed(2, ActionKind.RAISE, 300)]
    records = list(hand_records(events, "open", DEALER, AT))
    judge = make_envelope(
        events[-1],
        event_id=uuid4(),
        competition_id="open",
        seq=6,
        recorded_by=RecordedBy(person="floor-1", role="judge"),
        occurred_at=AT,
        table_id="t1",
        hand_id="1",
    )
    log.append([*records, (b"open", encode_envelope(judge))])
    assert run(log, referee) == ["accepted"] * 6 + ["rejected", "accepted"]
    stored = list(store.events.get(hand_id("t1", 1, "open")))
    assert [type(e).__name__ for e in stored[5:8]] == ["RawActReported", "RulingRequested", "PlayerActed"]
    assert stored[6].payload["rule"] == "bfsp 4.8.1" and stored[6].payload["seat"] == 2
    assert stored[7].meta["recorded_by"]["role"] == "judge" and first_broken_link_in(stored) is None
    rejection = [e for e in store.events.get(rejection_log_id("open")) if "kind" in getattr(e, "payload", {})][-1]
    assert rejection.payload["kind"] == "illegal" and "judge" in rejection.payload["reason"]


def test_the_same_table_and_hand_number_in_two_competitions_are_two_hands(
    setup: tuple[EmbeddedLog, Referee, Store],
) -> None:
    log, referee, store = setup
    log.append([*hand_records(HAND[:3], "open", DEALER, AT), *hand_records(HAND[:3], "cup", DEALER, AT)])
    assert run(log, referee) == ["accepted"] * 6
    assert len(list(store.events.get(hand_id("t1", 1, "open")))) == len(list(store.events.get(hand_id("t1", 1, "cup")))) == 3
