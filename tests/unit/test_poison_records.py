"""No record stops the referee or the projector (DESIGN decision 10, issue 11 §1).

Anything the referee cannot judge — a failure no rule foresaw while judging one record, or a value the store
cannot keep — becomes a stored rejection naming the failure, in the same transaction as the batch's other
outcomes, and the referee goes on with the next record. An event the projector cannot project is passed over,
recorded for operators (``pokeraudit status``, ``/ready`` degraded), and the projector goes on.
"""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.bootstrap import bootstrap, open_projector
from api.follow import POISON, follow
from api.operations import status
from api.settings import Settings
from domain.cards import parse_cards
from domain.hand.aggregate import Hand
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    ForcedBetKind,
    ForcedBetPosted,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    ReportedEvent,
    SeatEntry,
    Stakes,
)
from domain.rejections import rejection_log_id
from ingest.envelope import RecordedBy
from ingest.log import EmbeddedLog
from ingest.publish import hand_records
from ingest.referee import Referee
from ingest.runners import drain_embedded
from ingest.store import Store, store_env
from projections import schema
from projections.database import SqliteReadDatabase
from projections.runner import Projector, poison_events

AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
DEALER = RecordedBy(person="dealer-3", role="dealer")
HAND: list[ReportedEvent] = [
    HandStarted(
        "t1", 1, "NT", (SeatEntry(1, "Ann", 1000), SeatEntry(2, "Bob", 1000)), 2,
        Stakes(blinds=((2, 50), (1, 100)), min_bet=100), burns_recorded=False,
    ),
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


def _pipeline(folder: Path) -> tuple[EmbeddedLog, Referee, Store]:
    log = EmbeddedLog(folder / "log.sqlite", "events", partitions=1)
    store = Store(env=store_env(None, str(folder / "store.sqlite")))
    return log, Referee(store, "events"), store


def _rejections(store: Store, competition: str) -> list[dict[str, Any]]:
    return [e.payload for e in store.events.get(rejection_log_id(competition)) if "kind" in e.payload]


def test_a_failure_no_rule_foresaw_is_a_stored_rejection_and_the_referee_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log, referee, store = _pipeline(tmp_path)
    original = Hand.record

    def record(self: Hand, event: Any, at: datetime, meta: dict[str, Any]) -> tuple[Any, ...]:
        if meta.get("seq") == 3:  # a bug in the engine, met by this one record
            raise ZeroDivisionError("division by zero")
        # what Hand.record answers, answered: the hand handler is compiled (deploy/native.py), and compiled code
        # holds a call to its annotated return type (a None here would be a TypeError, another unforeseen failure)
        return original(self, event, at, meta)

    monkeypatch.setattr(Hand, "record", record)
    records = list(hand_records(HAND[:5], "poisoned", DEALER, AT))
    log.append(records)
    verdicts = drain_embedded(log, referee)
    # the records before it stay accepted (the batch was judged again without the half-changed hand), the one
    # that failed is rejected, and the next one is judged: out of step now that seq 3 is not in the hand
    assert [v.outcome for v in verdicts] == ["accepted", "accepted", "accepted", "rejected", "rejected"]
    failed = _rejections(store, "poisoned")[0]
    assert failed["kind"] == "malformed" and failed["field"] == "payload"
    assert "could not judge this HoleCardsDealt: ZeroDivisionError" in failed["reason"]
    assert json.loads(failed["record"])["seq"] == 3
    # exactly once: one transaction moved the position past every record; a new referee judges nothing again
    assert store.tracked_offset("events", 0) == 4
    assert drain_embedded(log, Referee(store, "events")) == []
    assert store.outcome_counts() == {"accepted": 3, "rejected": 2}


def test_a_record_whose_outcome_the_store_cannot_keep_is_rejected_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log, referee, store = _pipeline(tmp_path)
    original = store.commit

    def commit(aggregates: Any, *args: Any, **kwargs: Any) -> Any:
        aggregates = list(aggregates)
        for agg in aggregates:
            if isinstance(agg, Hand) and any(e.meta.get("seq") == 4 for e in agg.pending_events):
                raise TypeError("Integer exceeds 64-bit range")  # what orjson says of a number it cannot write
        return original(aggregates, *args, **kwargs)

    monkeypatch.setattr(store, "commit", commit)
    log.append(list(hand_records(HAND[:5], "unkept", DEALER, AT)))
    verdicts = drain_embedded(log, referee)
    assert [v.outcome for v in verdicts] == ["accepted"] * 4 + ["rejected"]
    failed = _rejections(store, "unkept")[0]
    assert failed["kind"] == "malformed" and "the store cannot keep what this record makes" in failed["reason"]
    assert store.tracked_offset("events", 0) == 4


def test_a_failing_store_is_not_the_records_fault_and_stops_the_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    log, referee, store = _pipeline(tmp_path)
    log.append(list(hand_records(HAND[:3], "down", DEALER, AT)))

    def commit(*args: Any, **kwargs: Any) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store, "commit", commit)
    with pytest.raises(sqlite3.OperationalError):
        drain_embedded(log, referee)
    assert store.outcome_counts() == {}
    monkeypatch.undo()
    assert [v.outcome for v in drain_embedded(log, Referee(store, "events"))] == ["accepted"] * 3


def _start(table: str, stack: int) -> bytes:
    payload = {
        "table_id": table, "hand_number": 1, "variant": "NT", "button": 2,
        "seats": [{"seat": 1, "player": "Ann", "stack": stack}, {"seat": 2, "player": "Bob", "stack": 1000}],
        "stakes": {"blinds": [[2, 50], [1, 100]], "min_bet": 100},
    }
    return json.dumps({
        "event_id": str(uuid4()), "competition_id": "c1", "table_id": table, "hand_id": "1", "seq": 0,
        "type": "HandStarted", "payload": payload, "recorded_by": {"person": "d", "role": "dealer"},
        "occurred_at": "2026-11-29T12:00:00Z",
    }).encode()


def _stored_poison(store: Store) -> None:
    """A hand start whose stack no read-model column holds, stored as an older referee without bounds did."""
    start = HandStarted("t1", 1, "NT", (SeatEntry(1, "Ann", 2**63), SeatEntry(2, "Bob", 1000)), 2,
                        Stakes(blinds=((2, 50), (1, 100)), min_bet=100))
    hand = Hand.start(start, AT, {"seq": 0, "competition_id": "c1"})
    store.save(hand)


def test_an_event_the_projector_cannot_project_is_passed_over_and_reported(tmp_path: Path) -> None:
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET="x" * 32)
    pipeline = bootstrap(settings)
    _stored_poison(pipeline.store)
    pipeline.log.append([(b"c1", _start("t2", 1000))])
    drain_embedded(pipeline.log, pipeline.referee)  # type: ignore[arg-type]
    projector = open_projector(settings)
    try:
        projector.catch_up()
        assert projector.lag() == 0  # the projector went past the poison event and projected the next
        passed = poison_events(projector.database)
        assert len(passed) == 1 and passed[0]["version"] == 1 and "OverflowError" in passed[0]["error"]
        assert [r[0] for r in projector.database.query(f"SELECT table_id FROM {schema.HANDS}")] == ["t2"]
        # a rebuild meets it again: it is passed over again and listed once
        projector.rebuild()
        assert len(poison_events(projector.database)) == 1
        assert projector.poison_count() == 1
    except BaseException:
        projector.close()
        raise
    # what the operators' metrics say of it: the follower's gauge (it closes the projector when it stops)
    stop = threading.Event()
    follow(lambda: projector, stop, stop.set)
    assert POISON._value.get() == 1
    report = status(pipeline)
    assert report["degraded"] is True and report["poison_events"] == 1
    pipeline.close()
    with TestClient(create_app(settings, workers=False)) as client:
        ready = client.get("/ready")
        assert ready.status_code == 200, ready.text
        assert "passed over 1 event" in ready.json()["degraded"][0]


def test_the_read_models_of_a_healthy_store_report_no_poison(tmp_path: Path) -> None:
    log, referee, store = _pipeline(tmp_path)
    log.append(list(hand_records(HAND, "fine", DEALER, AT)))
    drain_embedded(log, referee)
    projector = Projector(store, SqliteReadDatabase(tmp_path / "rm.sqlite"))
    projector.catch_up()
    assert projector.lag() == 0 and poison_events(projector.database) == []
