"""What an operator sets and reads on the API: metrics, CORS, rate limits per token, token lifetimes."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from shared_hands import WSOP_HAND, as_reported

from api.app import create_app
from api.auth import issue_token
from api.settings import Settings

SECRET = "test-secret-of-at-least-thirty-two-bytes"
POKERAUDIT = Path(sys.executable).parent / "pokeraudit"


def settings_for(tmp_path: Path, **overrides: Any) -> Settings:
    return Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET, **overrides)


def bearer(role: str, hours: float = 1.0) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(SECRET, 'ops', role, lifetime=timedelta(hours=hours))}"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings_for(tmp_path))) as c:
        yield c


def test_metrics_are_served_in_prometheus_format_with_requests_by_route(client: TestClient) -> None:
    client.get("/v1/hands/00000000-0000-0000-0000-000000000000", headers=bearer("viewer"))
    answer = client.get("/metrics")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    text = answer.text
    assert 'pokeraudit_api_requests_total{method="GET",route="/v1/hands/{hand_id}",status="404"}' in text
    assert "pokeraudit_api_request_seconds_bucket" in text
    # the referee's and the projector's metrics are in the same registry (they run in this process when asked)
    assert "pokeraudit_referee_records_judged_total" in text and "pokeraudit_projector_lag_events" in text


def test_cors_is_off_unless_origins_are_configured(client: TestClient, tmp_path: Path) -> None:
    asked = {"Origin": "https://floor.example.org", "Access-Control-Request-Method": "GET"}
    assert "access-control-allow-origin" not in client.options("/v1/competitions", headers=asked).headers
    settings = settings_for(tmp_path / "cors", POKERAUDIT_CORS_ORIGINS="https://floor.example.org")
    with TestClient(create_app(settings)) as open_to_floor:
        answer = open_to_floor.options("/v1/competitions", headers=asked)
        assert answer.headers["access-control-allow-origin"] == "https://floor.example.org"
        other = open_to_floor.options("/v1/competitions", headers={**asked, "Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in other.headers


def test_heavy_reads_and_submissions_are_limited_per_token(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, POKERAUDIT_RATE_HEAVY_READS_PER_MINUTE=2, POKERAUDIT_RATE_SUBMITS_PER_MINUTE=1)
    with TestClient(create_app(settings)) as c:
        viewer, other = bearer("viewer"), bearer("viewer")
        answers = [c.get("/v1/competitions/nowhere/standings", headers=viewer).status_code for _ in range(3)]
        assert 429 not in answers[:2] and answers[2] == 429
        error = c.get("/v1/competitions/nowhere/standings", headers=viewer).json()["error"]
        assert error["code"] == "rate_limited" and "2 heavy reads" in error["message"]
        assert c.get("/v1/competitions/nowhere/standings", headers=other).status_code != 429
        # plain reads are not limited
        assert all(c.get("/v1/competitions", headers=viewer).status_code == 200 for _ in range(5))
        judge = bearer("judge")
        hand = as_reported([WSOP_HAND], "limits")
        assert c.post("/v1/events/batch", json=hand, headers=judge).status_code == 202
        assert c.post("/v1/events/batch", json=hand, headers=judge).json()["error"]["code"] == "rate_limited"


def test_a_token_living_longer_than_the_service_allows_is_refused(client: TestClient) -> None:
    error = client.get("/v1/competitions", headers=bearer("viewer", hours=100_000)).json()["error"]
    assert error["code"] == "invalid_token" and "POKERAUDIT_TOKEN_MAX_HOURS" in error["message"]
    assert client.get("/v1/competitions", headers=bearer("viewer", hours=24)).status_code == 200


def _cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("KAFKA_BOOTSTRAP_SERVERS", "DATABASE_URL")}
    return subprocess.run([str(POKERAUDIT), *args], env={**base, **env}, capture_output=True, text=True, timeout=60)


def test_token_refuses_a_lifetime_past_the_cap(tmp_path: Path) -> None:
    refused = _cli("token", "--role", "judge", "--person", "j", "--hours", "100000", POKERAUDIT_JWT_SECRET=SECRET,
                   POKERAUDIT_DATA_DIR=str(tmp_path))
    assert refused.returncode == 2 and "at most 24 hours" in refused.stderr
    allowed = _cli("token", "--role", "judge", "--person", "j", "--hours", "100000", POKERAUDIT_JWT_SECRET=SECRET,
                   POKERAUDIT_TOKEN_MAX_HOURS="200000", POKERAUDIT_DATA_DIR=str(tmp_path))
    assert allowed.returncode == 0, allowed.stderr


def test_serve_refuses_a_short_secret_in_production(tmp_path: Path) -> None:
    refused = _cli("serve", KAFKA_BOOTSTRAP_SERVERS="127.0.0.1:1", DATABASE_URL="postgresql://x@127.0.0.1:1/x",
                   POKERAUDIT_JWT_SECRET="k3y!!", POKERAUDIT_DATA_DIR=str(tmp_path))
    assert refused.returncode == 2 and "at least 32 bytes" in refused.stderr


def revocation(token_id: str, reason: str = "the laptop it was on was stolen") -> dict[str, Any]:
    from datetime import UTC, datetime
    from uuid import uuid4

    from domain.officials.revocations import SERVICE

    return {
        "event_id": str(uuid4()), "competition_id": SERVICE, "seq": 0, "type": "TokenRevoked",
        "payload": {"token_id": token_id, "reason": reason}, "occurred_at": datetime.now(UTC).isoformat(),
    }


def test_a_token_revoked_by_the_federation_is_refused_once_the_referee_has_judged_the_revocation(
    tmp_path: Path,
) -> None:
    import time

    import jwt

    with TestClient(create_app(settings_for(tmp_path), workers=True)) as c:
        viewer = bearer("viewer")
        token_id = jwt.decode(viewer["Authorization"].split()[1], options={"verify_signature": False})["jti"]
        assert c.get("/v1/competitions", headers=viewer).status_code == 200
        # a judge may not revoke: the referee stores the refusal with the service's rule
        refused = c.post("/v1/events", params={"wait": "true"}, json=revocation(token_id), headers=bearer("judge"))
        verdict = refused.json()["verdicts"][0]
        assert (verdict["outcome"], verdict["rule"]) == ("rejected", "pokeraudit security.revocation")
        assert c.get("/v1/competitions", headers=viewer).status_code == 200
        accepted = c.post("/v1/events", params={"wait": "true"}, json=revocation(token_id),
                          headers=bearer("federation"))
        assert accepted.json()["verdicts"][0]["outcome"] == "accepted", accepted.text
        deadline = time.monotonic() + 15
        while (answer := c.get("/v1/competitions", headers=viewer)).status_code == 200:
            assert time.monotonic() < deadline, "the revocation is not in force within its refresh time"
            time.sleep(0.5)
        assert (answer.status_code, answer.json()["error"]["code"]) == (401, "token_revoked")
        assert c.get("/v1/competitions", headers=bearer("viewer")).status_code == 200  # another token still reads
