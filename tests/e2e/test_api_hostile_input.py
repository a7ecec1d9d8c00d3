"""Hostile input through the API (issue 11 §3): strict envelopes, bounded bodies and strings, and a 4xx — never a
500 — for a lone surrogate, JSON nested hundreds deep, or a token naming nobody."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import uuid4

import jwt
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.auth import issue_token
from api.settings import Settings

pytestmark = pytest.mark.e2e

SECRET = "test-secret-of-at-least-thirty-two-bytes"
START: dict[str, Any] = {
    "table_id": "t1", "hand_number": 1, "variant": "NT", "button": 2,
    "seats": [{"seat": 1, "player": "Ann", "stack": 1000}, {"seat": 2, "player": "Bob", "stack": 1000}],
    "stakes": {"blinds": [[2, 50], [1, 100]], "min_bet": 100},
}
JUDGE = {"Authorization": f"Bearer {issue_token(SECRET, 'j1', 'judge')}", "Content-Type": "application/json"}


def record(**overrides: Any) -> dict[str, Any]:
    r: dict[str, Any] = {
        "event_id": str(uuid4()), "competition_id": "c1", "table_id": "t1", "hand_id": "1", "seq": 0,
        "type": "HandStarted", "payload": START, "occurred_at": "2026-11-29T12:00:00Z",
    }
    r.update(overrides)
    return r


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET, POKERAUDIT_PUBLIC_READ=True)
    with TestClient(create_app(settings, workers=False), raise_server_exceptions=False) as c:
        yield c


def error(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    found: dict[str, Any] = response.json()["error"]
    return found


@pytest.mark.parametrize(
    ("overrides", "field", "says"),
    [
        ({"seq": "3"}, "seq", "valid integer"),
        ({"seq": True}, "seq", "valid integer"),
        ({"occurred_at": 0}, "occurred_at", "ISO 8601"),
        ({"priority": 1}, "priority", "Extra inputs are not permitted"),
        ({"rulebook": "house"}, "rulebook", "tda-2022"),
        ({"payload": {**START, "seats": [{"seat": "1", "player": "A", "stack": 1}]}}, "payload.seats.0.seat", "got str"),
        ({"payload": {**START, "extra": 1}}, "payload.extra", "unknown field"),
        ({"payload": {**START, "rulebook": "nope"}}, "payload.rulebook", "bfsp"),
        ({"payload": {**START, "seats": [{"seat": 1, "player": "A", "stack": 2**63}]}}, "payload.seats.0.stack", "bounds"),
        ({"payload": {**START, "seats": [{"seat": 1, "player": "A" * 1_000_000, "stack": 1}]}}, "payload.seats.0.player", "at most 200"),
        ({"competition_id": "c" * 1000}, "competition_id", "at most 200"),
    ],
)
def test_a_wrong_or_outsized_field_is_a_422_naming_it(
    client: TestClient, overrides: dict[str, Any], field: str, says: str
) -> None:
    found = error(client.post("/v1/events", json=record(**overrides), headers=JUDGE), 422)
    assert found["field"] == field and says in found["message"], found


def test_a_card_written_loosely_is_refused_with_the_accepted_form(client: TestClient) -> None:
    dealt = record(type="HoleCardsDealt", seq=3, payload={"seat": 1, "cards": ["10h", "As"]})
    found = error(client.post("/v1/events", json=dealt, headers=JUDGE), 422)
    assert found["field"] == "payload.cards.0" and "(e.g. 'Th', 'As')" in found["message"]


def test_a_body_past_the_bound_is_a_413_in_the_error_shape(client: TestClient) -> None:
    body = json.dumps(record(payload={**START, "title": "x" * 10_000_000}))
    found = error(client.post("/v1/events", content=body, headers=JUDGE), 413)
    assert found["code"] == "too_large" and "POKERAUDIT_MAX_BODY_BYTES" in found["message"]

    def chunks() -> Iterator[bytes]:
        for _ in range(60):
            yield b"x" * 100_000

    chunked = client.post("/v1/events", content=chunks(), headers=JUDGE)
    assert error(chunked, 413)["code"] == "too_large"


@pytest.mark.parametrize("where", ['"Ann"', '"c1"', '"t1"'])
def test_a_lone_surrogate_is_a_4xx(client: TestClient, where: str) -> None:
    body = json.dumps(record()).replace(where, '"\\ud800"', 1)
    response = client.post("/v1/events", content=body, headers=JUDGE)
    assert response.status_code in (400, 403, 422), response.text


@pytest.mark.parametrize("depth", [500, 700, 900])
def test_json_nested_hundreds_deep_is_a_4xx(client: TestClient, depth: int) -> None:
    deep = "[" * depth + "]" * depth
    single = json.dumps(record(payload={})).replace('"payload": {}', f'"payload": {{"x": {deep}}}')
    assert client.post("/v1/events", content=single, headers=JUDGE).status_code == 422
    assert client.post("/v1/events/batch", content=deep, headers=JUDGE).status_code == 422
    assert client.post("/v1/events", content=deep, headers=JUDGE).status_code == 422


@pytest.mark.parametrize("sub", ["", "   ", "p" * 10_000, 7])
def test_a_token_naming_nobody_is_a_401(client: TestClient, sub: Any) -> None:
    token = jwt.encode({"sub": sub, "role": "judge", "exp": int(time.time()) + 60}, SECRET, algorithm="HS256")
    headers = {**JUDGE, "Authorization": f"Bearer {token}"}
    assert error(client.post("/v1/events", json=record(), headers=headers), 401)["code"] == "invalid_token"
    assert error(client.get("/v1/competitions", headers=headers), 401)["code"] == "invalid_token"


@pytest.fixture
def judging(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET)
    with TestClient(create_app(settings, workers=True)) as c:
        yield c


def outcomes(response: Any) -> list[tuple[str, str]]:
    assert response.status_code == 200, response.text
    return [(v["outcome"], v["kind"]) for v in response.json()["verdicts"]]


def test_an_answered_id_with_other_content_is_a_conflicting_duplicate_not_accepted(judging: TestClient) -> None:
    first = record()
    url = "/v1/events?wait=true&timeout=20"
    assert outcomes(judging.post(url, json=first, headers=JUDGE)) == [("accepted", "")]
    assert outcomes(judging.post(url, json=first, headers=JUDGE)) == [("accepted", "")]  # a retry: harmless
    other = {**first, "payload": {**START, "button": 1}}
    assert outcomes(judging.post(url, json=other, headers=JUDGE)) == [("rejected", "conflicting_duplicate")]
    deadline = time.monotonic() + 20
    while True:  # the projector works beside the API: the stored rejection is read once it is projected
        stored = judging.get("/v1/competitions/c1/rejections?kind=conflicting_duplicate", headers=JUDGE)
        assert stored.status_code == 200, stored.text
        if stored.json()["total"] == 1 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    [rejection] = stored.json()["items"]
    assert rejection["event_id"] == first["event_id"] and rejection["field"] == "event_id"


def test_a_batch_with_one_id_twice_is_answered_accepted_then_conflicting(judging: TestClient) -> None:
    first = record(table_id="t2", payload={**START, "table_id": "t2"})
    twice = [first, {**first, "payload": {**first["payload"], "button": 1}}]
    answered = outcomes(judging.post("/v1/events/batch?wait=true&timeout=20", json=twice, headers=JUDGE))
    assert answered == [("accepted", ""), ("rejected", "conflicting_duplicate")]
