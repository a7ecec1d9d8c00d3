"""An event id is the idempotency key of one record (issue 11 §3): the same record again is a harmless duplicate,
but a record of other content under an answered id is a conflicting duplicate — stored as a rejection, answered
as such, never "accepted", and its content never silently dropped."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from embedded_referee import Pipeline

from domain.rejections import rejection_log_id

START: dict[str, Any] = {
    "table_id": "t1", "hand_number": 1, "variant": "NT", "button": 2,
    "seats": [{"seat": 1, "player": "Ann", "stack": 1000}, {"seat": 2, "player": "Bob", "stack": 1000}],
    "stakes": {"blinds": [[2, 50], [1, 100]], "min_bet": 100},
}


def record(event_id: str, **payload: Any) -> tuple[bytes, bytes]:
    envelope = {
        "event_id": event_id, "competition_id": "c1", "table_id": "t1", "hand_id": "1", "seq": 0,
        "type": "HandStarted", "payload": {**START, **payload}, "recorded_by": {"person": "d", "role": "dealer"},
        "occurred_at": "2026-11-29T12:00:00Z",
    }
    return b"c1", json.dumps(envelope).encode()


def rejections(pipeline: Pipeline) -> list[dict[str, Any]]:
    return [e.payload for e in pipeline.store.events.get(rejection_log_id("c1")) if "kind" in e.payload]


@pytest.fixture
def pipeline(tmp_path: Path) -> Pipeline:
    return Pipeline(tmp_path)


def test_the_same_record_again_is_a_harmless_duplicate(pipeline: Pipeline) -> None:
    first = record(str(uuid4()))
    assert [v.outcome for v in pipeline.judge([first])] == ["accepted"]
    assert [v.outcome for v in pipeline.judge([first])] == ["duplicate"]
    assert rejections(pipeline) == []


def test_another_record_under_an_answered_id_is_a_stored_conflicting_duplicate(pipeline: Pipeline) -> None:
    event_id = str(uuid4())
    assert [v.outcome for v in pipeline.judge([record(event_id)])] == ["accepted"]
    [verdict] = pipeline.judge([record(event_id, button=1)])
    assert verdict.outcome == "rejected" and verdict.rejection is not None
    assert verdict.rejection.kind.value == "conflicting_duplicate" and verdict.rejection.field == "event_id"
    [stored] = rejections(pipeline)
    assert stored["kind"] == "conflicting_duplicate" and json.loads(stored["record"])["payload"]["button"] == 1
    assert pipeline.store.outcome_counts() == {"accepted": 1}  # the id keeps its first answer
    # the conflicting record was judged once too: a restarted referee does not judge it again
    pipeline.restart()
    assert pipeline.referee.judge(0, pipeline.log.read(0, pipeline.referee.resume_offset(0), 10)) == []


def test_one_id_twice_in_a_batch_is_a_conflict_when_the_records_differ(pipeline: Pipeline) -> None:
    event_id = str(uuid4())
    verdicts = pipeline.judge([record(event_id), record(event_id, button=1), record(event_id)])
    assert [v.outcome for v in verdicts] == ["accepted", "rejected", "duplicate"]
    assert [r["kind"] for r in rejections(pipeline)] == ["conflicting_duplicate"]
