"""The service's clock is the authority (DESIGN decision 9, issue 11 §3): every record carries the time the log
received it; a reported time in the future is refused from any source; with a skew configured, a time too far
before the log's is refused too, except for imports of past hand histories, which keep their own times."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.auth import issue_token
from api.settings import Settings
from domain.hand.aggregate import hand_id
from domain.rejections import rejection_log_id
from ingest.log import EmbeddedLog
from ingest.referee import Referee, Verdict
from ingest.store import Store, store_env

SECRET = "test-secret-of-at-least-thirty-two-bytes"
START: dict[str, Any] = {
    "table_id": "t1", "hand_number": 1, "variant": "NT", "button": 2,
    "seats": [{"seat": 1, "player": "Ann", "stack": 1000}, {"seat": 2, "player": "Bob", "stack": 1000}],
    "stakes": {"blinds": [[2, 50], [1, 100]], "min_bet": 100},
}


def record(occurred_at: datetime, role: str = "dealer", table: str = "t1", **envelope: Any) -> dict[str, Any]:
    return {
        "event_id": str(uuid4()), "competition_id": "c1", "table_id": table, "hand_id": "1", "seq": 0,
        "type": "HandStarted", "payload": {**START, "table_id": table}, "occurred_at": occurred_at.isoformat(),
        "recorded_by": {"person": "p", "role": role}, **envelope,
    }


def judged(tmp_path: Path, records: list[dict[str, Any]], skew: timedelta | None = None) -> tuple[list[Verdict], Store]:
    log = EmbeddedLog(tmp_path / "log.sqlite", "events", partitions=1)
    store = Store(env=store_env(None, str(tmp_path / "store.sqlite")))
    log.append([(b"c1", json.dumps(r).encode()) for r in records])
    return Referee(store, "events", clock_skew=skew).judge(0, log.read(0, 0, 100)), store


def test_every_record_carries_the_time_the_log_received_it(tmp_path: Path) -> None:
    before = datetime.now(UTC)
    [verdict], store = judged(tmp_path, [record(before - timedelta(minutes=1))])
    assert verdict.outcome == "accepted"
    [started] = list(store.events.get(hand_id("t1", 1, "c1")))[:1]
    received = datetime.fromisoformat(started.meta["received_at"])
    assert before <= received <= datetime.now(UTC)


@pytest.mark.parametrize("role", ["dealer", "importer"])
def test_a_time_in_the_future_is_refused_from_any_source(tmp_path: Path, role: str) -> None:
    [verdict], store = judged(tmp_path, [record(datetime(9999, 12, 31, tzinfo=UTC), role)])
    assert verdict.outcome == "rejected" and verdict.rejection is not None
    assert verdict.rejection.field == "occurred_at" and "a time in the future is refused" in verdict.rejection.reason
    assert verdict.rejection.rule.startswith("DESIGN 9")
    [stored] = [e for e in store.events.get(rejection_log_id("c1")) if "kind" in e.payload]
    assert stored.payload["field"] == "occurred_at"
    assert stored.timestamp.year < 9999  # the refusal is dated by the service's clock, not by the refused claim


def test_with_a_skew_configured_a_live_record_dated_long_ago_is_refused_but_an_import_keeps_its_time(
    tmp_path: Path,
) -> None:
    now = datetime.now(UTC)
    records = [
        record(datetime(1970, 1, 1, tzinfo=UTC), "dealer", "t1"),
        record(datetime(2023, 7, 1, tzinfo=UTC), "importer", "t2"),
        record(now - timedelta(seconds=30), "dealer", "t3"),
    ]
    verdicts, _ = judged(tmp_path, records, skew=timedelta(seconds=120))
    assert [v.outcome for v in verdicts] == ["rejected", "accepted", "accepted"]
    assert verdicts[0].rejection is not None and "POKERAUDIT_CLOCK_SKEW_S = 120 s" in verdicts[0].rejection.reason


def test_without_a_skew_a_past_time_is_the_tables_claim(tmp_path: Path) -> None:
    [verdict], _ = judged(tmp_path, [record(datetime(2026, 5, 9, 12, tzinfo=UTC))])
    assert verdict.outcome == "accepted"


def test_the_api_refuses_an_untimely_record_before_the_log(tmp_path: Path) -> None:
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET, POKERAUDIT_CLOCK_SKEW_S=60)
    judge = {"Authorization": f"Bearer {issue_token(SECRET, 'j1', 'judge')}"}
    with TestClient(create_app(settings, workers=False)) as client:
        for when, says in ((datetime(9999, 1, 1, tzinfo=UTC), "in the future"), (datetime(1970, 1, 1, tzinfo=UTC), "skew")):
            body = record(when)
            del body["recorded_by"]
            response = client.post("/v1/events", json=body, headers=judge)
            assert response.status_code == 422, response.text
            error = response.json()["error"]
            assert error["field"] == "occurred_at" and says in error["message"] and error["rule"].startswith("DESIGN 9")
        fresh = record(datetime.now(UTC))
        del fresh["recorded_by"]
        assert client.post("/v1/events", json=fresh, headers=judge).status_code == 202


def test_a_time_an_act_reports_in_its_payload_is_not_in_the_future_either(tmp_path: Path) -> None:
    level = {"level": {"number": 1, "minutes": 30, "small_blind": 25, "big_blind": 50}, "at": "9999-01-01T00:00:00Z"}
    started = {**record(datetime.now(UTC), "judge"), "type": "LevelStarted", "payload": level, "table_id": None,
               "hand_id": None}
    [verdict], _ = judged(tmp_path, [started])
    assert verdict.rejection is not None and verdict.rejection.field == "payload.at"
    assert "a time in the future is refused" in verdict.rejection.reason


# --- deadlines are judged on the service's clock, not on the time a record claims ----------------------------


def _minsk_open_without(protest: str) -> tuple[list[tuple[bytes, bytes]], tuple[bytes, bytes]]:
    """The Minsk Open to its winner, and apart its filing of ``protest`` (dated before the end)."""
    from federation_records import Records
    from federation_views_scenario import minsk_open

    rest, filing = [], None
    for key, value in minsk_open(Records()):
        body = json.loads(value)
        if body["type"] == "ProtestFiled" and body["payload"]["protest"] == protest:
            filing = (key, value)
        else:
            rest.append((key, value))
    assert filing is not None
    return rest, filing


def test_a_protest_dated_before_the_end_but_received_after_it_is_refused_citing_bfsp_7_3_2(tmp_path: Path) -> None:
    from embedded_referee import Pipeline
    from federation_records import at
    from federation_views_scenario import FILED_AT

    played, filing = _minsk_open_without("protest-1")
    pipeline = Pipeline(tmp_path)  # the log receives the scenario at its times (the log's clock is the test's)
    assert {v.outcome for v in pipeline.judge(played)} == {"accepted"}
    assert pipeline.competition().winner == "p01"
    assert datetime.fromisoformat(json.loads(filing[1])["occurred_at"]) == FILED_AT < at(22)  # dated before the end
    pipeline.log.clock = lambda _value: at(30)  # ... and received after it
    [verdict] = pipeline.judge([filing])
    assert verdict.outcome == "rejected" and verdict.rejection is not None
    assert verdict.rejection.rule == "bfsp 7.3.2", verdict.rejection
    assert "before the end of the competition" in verdict.rejection.reason
    assert f"it says {FILED_AT.isoformat()}; the service's clock decides" in verdict.rejection.reason


def test_the_same_protest_received_before_the_end_is_filed_at_the_time_the_service_received_it(tmp_path: Path) -> None:
    from embedded_referee import Pipeline
    from federation_records import at
    from federation_views_scenario import FILED_AT

    from domain.protests.protest import protest_id

    played, filing = _minsk_open_without("protest-1")
    pipeline = Pipeline(tmp_path)
    ended = next(n for n, (_, v) in enumerate(played) if datetime.fromisoformat(json.loads(v)["occurred_at"]) > FILED_AT)
    pipeline.judge(played[:ended])
    pipeline.log.clock = lambda _value: at(15.5)  # half a minute after its claim: within any sane skew
    [verdict] = pipeline.judge([filing])
    assert verdict.outcome == "accepted", verdict.rejection
    [stored] = list(pipeline.store.events.get(protest_id("minsk-open-2026", "protest-1")))
    assert stored.timestamp == at(15.5) and stored.meta["occurred_at"] == FILED_AT.isoformat()
    assert stored.payload["filed_at"] == at(15.5).isoformat()


def test_a_federation_decision_dated_in_the_future_is_refused(tmp_path: Path) -> None:
    from federation_records import FEDERATION, Records, at

    from domain.protests.events import ProtestDecided, ProtestDecision
    from domain.roles import Role

    log = EmbeddedLog(tmp_path / "log.sqlite", "events", partitions=1, clock=lambda _value: at(60))
    store = Store(env=store_env(None, str(tmp_path / "store.sqlite")))
    future = at(60) + timedelta(days=2)
    decided = ProtestDecided("protest-1", ProtestDecision.UPHELD, Role.FEDERATION, "the video shows the fold", future)
    log.append([Records().record(decided, FEDERATION, future)])
    [verdict] = Referee(store, "events").judge(0, log.read(0, 0, 10))
    assert verdict.outcome == "rejected" and verdict.rejection is not None
    assert verdict.rejection.field == "occurred_at" and verdict.rejection.rule.startswith("DESIGN 9")
    assert "a time in the future is refused" in verdict.rejection.reason
    # dated now but claiming a decision made in the future: its payload's time is refused the same way
    second = Records()
    second.count = 1  # another record, another id
    log.append([second.record(decided, FEDERATION, at(60))])
    [verdict] = Referee(store, "events").judge(0, log.read(0, 1, 10))
    assert verdict.rejection is not None and verdict.rejection.field == "payload.decided_at"


def test_an_import_keeps_its_own_time_and_is_marked_imported(tmp_path: Path) -> None:
    past = datetime(2023, 6, 22, 20, tzinfo=UTC)
    records = [record(past, "importer", "t1"), record(datetime.now(UTC), "dealer", "t2")]
    verdicts, store = judged(tmp_path, records, skew=timedelta(seconds=120))
    assert [v.outcome for v in verdicts] == ["accepted", "accepted"]
    [imported] = list(store.events.get(hand_id("t1", 1, "c1")))[:1]
    assert imported.timestamp == past and imported.meta["imported"] is True
    assert imported.meta["occurred_at"] == past.isoformat() and "received_at" in imported.meta
    [live] = list(store.events.get(hand_id("t2", 1, "c1")))[:1]
    assert "imported" not in live.meta and live.timestamp == datetime.fromisoformat(live.meta["received_at"])


def test_production_bounds_the_skew_by_default_and_the_embedded_mode_does_not() -> None:
    kafka = {"KAFKA_BOOTSTRAP_SERVERS": "127.0.0.1:9092", "DATABASE_URL": "postgresql://u@127.0.0.1/d"}
    assert Settings(**kafka).clock_skew == timedelta(minutes=5)  # type: ignore[arg-type]
    assert Settings(**kafka, POKERAUDIT_CLOCK_SKEW_S=0).clock_skew is None  # type: ignore[arg-type]
    assert Settings(POKERAUDIT_CLOCK_SKEW_S=30).clock_skew == timedelta(seconds=30)  # type: ignore[call-arg]
    assert Settings().clock_skew is None  # type: ignore[call-arg]


def test_the_federations_30_days_run_on_the_service_clock_not_on_the_dates_a_decision_claims(tmp_path: Path) -> None:
    from embedded_referee import Pipeline
    from federation_records import COMPETITION, FEDERATION, SECRETARY, Records, at
    from federation_views_scenario import FORWARDED_AT, forwarded, minsk_open

    from domain.protests.events import ProtestDecided, ProtestDecision
    from domain.protests.protest import Protest, protest_id
    from domain.roles import Role

    records = Records()
    pipeline = Pipeline(tmp_path)
    assert {v.outcome for v in pipeline.judge(list(minsk_open(records)))} == {"accepted"}
    snapshot = pipeline.take_snapshot(SECRETARY, at(30))
    assert [v.outcome for v in pipeline.judge([forwarded(records, snapshot.name, snapshot.chain_head)])] == ["accepted"]
    claimed = FORWARDED_AT + timedelta(days=1)  # within the 30 days, says the record ...
    decided = ProtestDecided("protest-1", ProtestDecision.DISMISSED, Role.FEDERATION, "the penalty stands", claimed)
    pipeline.log.clock = lambda _value: FORWARDED_AT + timedelta(days=31)  # ... received on the 31st day
    assert [v.outcome for v in pipeline.judge([records.record(decided, FEDERATION, claimed)])] == ["accepted"]
    protest = pipeline.store.repository.get(protest_id(COMPETITION, "protest-1"))
    assert isinstance(protest, Protest) and protest.decision is not None
    assert protest.decision.overdue is True
    assert protest.decision.decided_at == FORWARDED_AT + timedelta(days=31)
