"""Reporting events through the API in the embedded mode (TestClient; the referee runs in the app's thread):
202 with the ids, the referee's verdict with wait=true, who may report where, what a bad record gets back, and
health and readiness — every error in the one shape."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from shared_hands import WSOP_HAND, WSOP_RAZZ_HAND, as_reported

from api.app import create_app
from api.auth import issue_token
from api.bootstrap import Pipeline
from api.routes.submit import MAX_BATCH
from api.settings import Settings
from api.workers import Workers
from domain.hand.aggregate import hand_id
from ingest.log import EmbeddedLog
from projections.database import SqliteReadDatabase
from projections.read_models import ReadModels

pytestmark = pytest.mark.e2e

LEGAL = WSOP_HAND
RAZZ = WSOP_RAZZ_HAND
SECRET = "test-secret-of-at-least-thirty-two-bytes"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def records(path: Path, competition: str = "c1") -> list[dict[str, Any]]:
    return as_reported([path], competition)


def bearer(role: str, person: str = "p1", **claims: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(SECRET, person, role, **claims)}"}


def settings_for(tmp_path: Path, **overrides: Any) -> Settings:
    return Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET, **overrides)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings_for(tmp_path), workers=True)) as c:
        yield c


@pytest.fixture
def idle_client(tmp_path: Path) -> Iterator[TestClient]:
    """No referee runs: nothing submitted is ever judged."""
    with TestClient(create_app(settings_for(tmp_path), workers=False)) as c:
        yield c


def error_of(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    assert set(error) == {"status", "code", "message", "field", "rule"}
    assert (error["status"], error["code"]) == (status, code)
    assert error["message"]
    return error


def test_one_event_is_taken_onto_the_log_with_202_and_its_id(client: TestClient) -> None:
    start = records(LEGAL)[0]
    answer = client.post("/v1/events", json=start, headers=bearer("judge"))
    assert answer.status_code == 202, answer.text
    assert answer.json() == {"event_ids": [start["event_id"]], "verdicts": []}


def test_a_legal_hand_reported_in_a_batch_with_wait_is_accepted_event_by_event(client: TestClient) -> None:
    hand = records(LEGAL)
    answer = client.post("/v1/events/batch?wait=true&timeout=20", json=hand, headers=bearer("judge", person="j2"))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["event_ids"] == [r["event_id"] for r in hand]
    assert [v["outcome"] for v in body["verdicts"]] == ["accepted"] * len(hand)


def test_an_illegal_raise_is_rejected_with_the_rule_it_breaks(client: TestClient) -> None:
    hand = records(RAZZ)
    answer = client.post("/v1/events/batch?wait=true&timeout=20", json=hand, headers=bearer("chief_judge"))
    assert answer.status_code == 200, answer.text
    *before, last = answer.json()["verdicts"]
    assert [v["outcome"] for v in before] == ["accepted"] * len(before)
    assert (last["outcome"], last["kind"], last["rule"]) == ("rejected", "illegal", "bfsp 4.7.3")
    assert last["reason"]


def test_a_record_reported_again_gets_the_verdict_it_first_got(client: TestClient) -> None:
    hand = records(RAZZ)
    first = client.post("/v1/events/batch?wait=true", json=hand, headers=bearer("judge")).json()
    again = client.post("/v1/events?wait=true", json=hand[-1], headers=bearer("judge"))
    assert again.status_code == 200, again.text
    assert again.json()["verdicts"] == first["verdicts"][-1:]


def test_one_event_with_wait_is_judged_out_of_sequence_when_its_hand_never_started(client: TestClient) -> None:
    second = records(LEGAL)[1]
    answer = client.post("/v1/events?wait=true", json=second, headers=bearer("judge"))
    assert answer.status_code == 200, answer.text
    (verdict,) = answer.json()["verdicts"]
    assert (verdict["outcome"], verdict["kind"]) == ("rejected", "out_of_sequence")


def test_without_a_token_reporting_is_401_even_where_anonymous_reads_are_allowed(tmp_path: Path) -> None:
    app = create_app(settings_for(tmp_path, POKERAUDIT_PUBLIC_READ=True))
    with TestClient(app) as c:
        error = error_of(c.post("/v1/events", json=records(LEGAL)[0]), 401, "not_authenticated")
    assert error["field"] == "Authorization"


def test_a_forged_token_is_401(client: TestClient) -> None:
    forged = {"Authorization": f"Bearer {issue_token('another-secret-of-thirty-two-bytes!!', 'p1', 'judge')}"}
    error_of(client.post("/v1/events", json=records(LEGAL)[0], headers=forged), 401, "invalid_token")


@pytest.mark.parametrize("role", ["viewer", "integrity"])
def test_roles_that_only_read_may_not_report(client: TestClient, role: str) -> None:
    error = error_of(client.post("/v1/events", json=records(LEGAL)[0], headers=bearer(role)), 403, "forbidden")
    assert role in error["message"]


@pytest.mark.parametrize("role", ["secretary", "federation"])
def test_an_official_may_report_but_a_hand_act_his_role_may_not_record_is_a_stored_rejection(
    client: TestClient, role: str
) -> None:
    # the secretary keeps the protocol and the federation decides protests: neither starts hands at a table
    answer = client.post("/v1/events?wait=true", json=records(LEGAL)[0], headers=bearer(role))
    assert answer.status_code == 200, answer.text
    (verdict,) = answer.json()["verdicts"]
    assert (verdict["outcome"], verdict["kind"], verdict["rule"]) == ("rejected", "illegal", "bfsp 5.5.6")


def test_a_dealer_reports_at_his_own_table_and_nowhere_else(client: TestClient) -> None:
    start = records(LEGAL)[0]
    own = client.post(
        "/v1/events", json=start, headers=bearer("dealer", table=start["table_id"], competition=start["competition_id"])
    )
    assert own.status_code == 202, own.text
    other = client.post(
        "/v1/events", json=start, headers=bearer("dealer", table="another-table", competition=start["competition_id"])
    )
    error = error_of(other, 403, "forbidden")
    assert error["field"] == "table_id"
    assert "another-table" in error["message"]
    # a table of the same name in another competition is another table
    elsewhere = client.post(
        "/v1/events", json=start, headers=bearer("dealer", table=start["table_id"], competition="another-competition")
    )
    assert error_of(elsewhere, 403, "forbidden")["field"] == "competition_id"


def test_a_dealers_token_names_its_competition_and_table(client: TestClient) -> None:
    """An unscoped dealer's token would report at a table of that name in every competition."""
    with pytest.raises(ValueError, match="names the competition and the table"):
        issue_token(SECRET, "d", "dealer", table="1")
    import jwt

    forged = jwt.encode({"sub": "d", "role": "dealer", "table": "1", "exp": 4102444800}, SECRET, algorithm="HS256")
    answer = client.post("/v1/events", json=records(LEGAL)[0], headers={"Authorization": f"Bearer {forged}"})
    assert "must name its competition and its table" in error_of(answer, 401, "invalid_token")["message"]


def test_a_token_for_one_competition_may_not_report_in_another(client: TestClient) -> None:
    answer = client.post("/v1/events", json=records(LEGAL, "c2")[0], headers=bearer("judge", competition="c1"))
    assert error_of(answer, 403, "forbidden")["field"] == "competition_id"


def test_recorded_by_is_the_tokens_holder_or_the_record_is_refused(client: TestClient) -> None:
    start = records(LEGAL)[0]
    mine = client.post("/v1/events", json={**start, "recorded_by": {"person": "p1", "role": "judge"}},
                       headers=bearer("judge"))
    assert mine.status_code == 202, mine.text
    someone_else = {**start, "recorded_by": {"person": "p2", "role": "judge"}}
    error = error_of(client.post("/v1/events", json=someone_else, headers=bearer("judge")), 403, "forbidden")
    assert error["field"] == "recorded_by"


def test_a_signed_record_carries_the_tokens_holder_onto_the_log(tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    with TestClient(create_app(settings)) as c:
        c.post("/v1/events", json=records(LEGAL)[0], headers=bearer("judge", person="anna"))
        (logged,) = [r for p in range(6) for r in c.app.state.pipeline.log.read(p, 0, 10)]  # type: ignore[attr-defined]
    assert json.loads(logged.value)["recorded_by"] == {"person": "anna", "role": "judge"}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda r: r.pop("event_id"), "event_id"),
        (lambda r: r.update(seq=-1), "seq"),
        (lambda r: r.update(type="HandDanced"), "type"),
        (lambda r: r["payload"].update(seat="first"), "payload.seat"),
        (lambda r: r.update(occurred_at="yesterday"), "occurred_at"),
        (lambda r: r.update(surprise=1), "surprise"),
    ],
)
def test_a_record_that_is_not_a_valid_envelope_is_422_naming_the_field(
    client: TestClient, change: Any, field: str
) -> None:
    record = records(LEGAL)[1]
    change(record)
    error = error_of(client.post("/v1/events", json=record, headers=bearer("judge")), 422, "validation_error")
    assert error["field"] == field


def test_a_bad_record_refuses_the_whole_batch_and_names_its_place(client: TestClient) -> None:
    hand = records(LEGAL)
    hand[3]["payload"]["seat"] = "first"
    error = error_of(client.post("/v1/events/batch", json=hand, headers=bearer("judge")), 422, "validation_error")
    assert error["field"] == "3.payload.seat"
    assert client.app.state.pipeline.log.end_offsets() == dict.fromkeys(range(6), 0)  # type: ignore[attr-defined]


def test_a_batch_is_between_one_and_the_bound_records(client: TestClient) -> None:
    error_of(client.post("/v1/events/batch", json=[], headers=bearer("judge")), 422, "validation_error")
    too_many = records(LEGAL)[:1] * (MAX_BATCH + 1)
    error_of(client.post("/v1/events/batch", json=too_many, headers=bearer("judge")), 422, "validation_error")


def test_a_body_that_is_not_json_is_422(client: TestClient) -> None:
    answer = client.post("/v1/events", content=b"{not json", headers={**bearer("judge"), "Content-Type": "application/json"})
    error_of(answer, 422, "validation_error")


def test_the_wait_is_bounded(client: TestClient) -> None:
    answer = client.post("/v1/events?wait=true&timeout=31", json=records(LEGAL)[0], headers=bearer("judge"))
    assert error_of(answer, 422, "validation_error")["field"] == "timeout"
    # and not to nothing: the log cannot confirm in no time (the fuzzer's timeout=5e-324 answered 503 with the
    # broker up)
    too_short = client.post("/v1/events?wait=true&timeout=0.1", json=records(LEGAL)[0], headers=bearer("judge"))
    assert error_of(too_short, 422, "validation_error")["field"] == "timeout"


def test_no_verdict_in_time_is_504_and_the_record_stays_on_the_log(idle_client: TestClient) -> None:
    start = records(LEGAL)[0]
    answer = idle_client.post("/v1/events?wait=true&timeout=0.5", json=start, headers=bearer("judge"))
    error = error_of(answer, 504, "verdict_timeout")
    assert "0 of 1" in error["message"]
    assert sum(idle_client.app.state.pipeline.log.end_offsets().values()) == 1  # type: ignore[attr-defined]


def test_health_and_readiness_of_the_embedded_service(client: TestClient) -> None:
    assert client.get("/health").json() == {"status": "alive"}
    ready = client.get("/ready")
    assert ready.status_code == 200, ready.text
    assert ready.json()["mode"] == "embedded"


def test_readiness_names_the_service_it_cannot_reach(tmp_path: Path) -> None:
    # A pipeline on an embedded log, under settings that name a broker and a server on closed ports: the
    # probes follow the settings, so /ready must find neither.
    settings = Settings(
        KAFKA_BOOTSTRAP_SERVERS="127.0.0.1:1",
        DATABASE_URL="postgresql://postgres@127.0.0.1:1/postgres",
        POKERAUDIT_DATA_DIR=tmp_path,
        POKERAUDIT_JWT_SECRET=SECRET,
    )
    pipeline = Pipeline(settings, EmbeddedLog(tmp_path / "log.sqlite", settings.topic))
    read_models = ReadModels(SqliteReadDatabase(tmp_path / "read.sqlite"))
    with TestClient(create_app(settings, pipeline=pipeline, read_models=read_models)) as c:
        error = error_of(c.get("/ready"), 503, "not_ready")
    pipeline.close()
    read_models.close()
    assert error["message"].startswith("Kafka at 127.0.0.1:1 is not reachable")


def test_unknown_paths_and_methods_answer_in_the_error_shape(client: TestClient) -> None:
    error_of(client.get("/v1/nowhere"), 404, "not_found")
    error_of(client.get("/v1/events"), 405, "method_not_allowed")


def read_when_projected(client: TestClient, path: str, headers: dict[str, str], timeout: float = 20.0) -> Any:
    """GET ``path`` once the projector (the app's other thread) has caught up with what was judged."""
    deadline = time.monotonic() + timeout
    while True:
        lag = client.get("/v1/projections/lag", headers=headers)
        if lag.status_code == 200 and lag.json()["lag"] == 0:
            answer = client.get(path, headers=headers)
            if answer.status_code == 200 or time.monotonic() > deadline:
                return answer
        assert time.monotonic() < deadline, f"{path} was not projected in {timeout} s"
        time.sleep(0.05)


def test_a_judged_hand_is_readable_through_the_api_once_projected(client: TestClient) -> None:
    hand = records(LEGAL)
    judged = client.post("/v1/events/batch?wait=true", json=hand, headers=bearer("judge"))
    assert judged.status_code == 200, judged.text
    the_hand = hand_id(hand[0]["table_id"], 1, "c1")
    answer = read_when_projected(client, f"/v1/hands/{the_hand}", bearer("judge"))
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "ended"
    pots = client.get(f"/v1/hands/{the_hand}/pots", headers=bearer("viewer")).json()
    awarded = sum(p["amount"] for p in pots if p["awarded"])
    final = client.get(f"/v1/hands/{the_hand}/stacks/final", headers=bearer("viewer")).json()
    starting = sum(s["stack"] for s in hand[0]["payload"]["seats"])
    assert awarded > 0 and sum(s["stack"] for s in final) == starting


class BrokenProjector:
    """A projector whose read models fail for a reason no retry mends."""

    def catch_up(self) -> int:
        raise RuntimeError("read model table hands is missing")

    def lag(self) -> int:
        return 0

    def poison_count(self) -> int:
        return 0

    def close(self) -> None:
        pass


def test_readiness_says_so_when_a_worker_has_stopped(tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    app = create_app(settings, workers=True)
    app.state.workers = Workers(settings, BrokenProjector)
    with TestClient(app) as c:
        deadline = time.monotonic() + 10
        while not app.state.workers.failures and time.monotonic() < deadline:
            time.sleep(0.02)
        error = error_of(c.get("/ready"), 503, "not_ready")
    assert error["message"] == (
        "the projector running in this process has stopped: RuntimeError: read model table hands is missing"
    )


POKERAUDIT = Path(sys.executable).parent / "pokeraudit"


def test_pokeraudit_serve_and_token_from_the_command_line(tmp_path: Path) -> None:
    env = {**os.environ, "POKERAUDIT_DATA_DIR": str(tmp_path), "POKERAUDIT_JWT_SECRET": SECRET}
    for name in ("KAFKA_BOOTSTRAP_SERVERS", "DATABASE_URL", "POKERAUDIT_PUBLIC_READ"):
        env.pop(name, None)
    token = subprocess.run([str(POKERAUDIT), "token", "--role", "judge", "--person", "cli"], env=env,
                           capture_output=True, text=True, timeout=60)
    assert token.returncode == 0, token.stderr
    port = free_port()
    # The server's output goes to a file kept with the test's tmp_path: a pipe nobody reads would fill
    # and block the server's event loop.
    with (tmp_path / "serve.log").open("w") as log:
        server = subprocess.Popen([str(POKERAUDIT), "serve", "--port", str(port)], env=env,
                                  stdout=log, stderr=subprocess.STDOUT, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/ready", timeout=5).status_code == 200:
                    break
            assert server.poll() is None and time.monotonic() < deadline, "pokeraudit serve did not become ready"
            time.sleep(0.1)
        answer = httpx.post(f"{url}/v1/events?wait=true", json=records(LEGAL)[0], timeout=30,
                            headers={"Authorization": f"Bearer {token.stdout.strip()}"})
        assert answer.status_code == 200, answer.text
        assert answer.json()["verdicts"][0]["outcome"] == "accepted"
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_serve_with_kafka_and_postgresql_refuses_to_start_without_the_token_key(tmp_path: Path) -> None:
    env = {**os.environ, "KAFKA_BOOTSTRAP_SERVERS": "127.0.0.1:1", "DATABASE_URL": "postgresql://p@127.0.0.1:1/x"}
    env.pop("POKERAUDIT_JWT_SECRET", None)
    refused = subprocess.run([str(POKERAUDIT), "serve"], env=env, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2
    assert "POKERAUDIT_JWT_SECRET" in refused.stderr
    no_key = subprocess.run([str(POKERAUDIT), "token", "--role", "judge", "--person", "p"], env=env,
                            capture_output=True, text=True, timeout=60)
    assert no_key.returncode == 2 and "POKERAUDIT_JWT_SECRET" in no_key.stderr


def test_an_unexpected_failure_is_500_in_the_error_shape_without_its_internals(tmp_path: Path) -> None:
    app = create_app(settings_for(tmp_path))

    @app.get("/v1/failing")
    def failing() -> None:
        raise RuntimeError("password=hunter2 in /srv/secret.py")

    with TestClient(app, raise_server_exceptions=False) as c:
        error = error_of(c.get("/v1/failing"), 500, "internal_error")
    assert "hunter2" not in error["message"] and "secret" not in error["message"]
