"""Integrity cases through the API in the embedded mode (the app running its referee and projector): an analyst
opens a case from the evidence of the Minsk Open's first hand, notes it, confirms it and reports it to the Chief
Judge, each act a record judged by the referee; the case's read model shows each step; the queue's alerts carry
the case's outcome; the Chief Judge reads the case once it is reported to him, and nobody else reads cases."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from fastapi.testclient import TestClient
from federation_records import CHIEF, COMPETITION, JUDGE, Records, hand, opening, table

from api.app import create_app
from api.auth import issue_token
from api.bootstrap import bootstrap
from api.operations import publish, referee_once
from api.settings import Settings
from domain.hand.aggregate import hand_id
from domain.integrity.case_events import (
    CaseOrigin,
    CaseOutcome,
    EvidenceHand,
    IntegrityCaseConcluded,
    IntegrityCaseNoted,
    IntegrityCaseOpened,
    IntegrityCaseReported,
    Suspicion,
)
from domain.roles import Role
from ingest.envelope import RecordedBy, make_envelope

pytestmark = pytest.mark.e2e

SECRET = "test-secret-of-at-least-thirty-two-bytes"
ANALYST = RecordedBy(person="an-analyst", role=Role.INTEGRITY)
HAND_1 = str(hand_id(table(), 1, COMPETITION))
CASES = f"/v1/integrity/competitions/{COMPETITION}/cases"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET)  # type: ignore[call-arg]
    pipeline = bootstrap(settings)
    records = Records()
    publish(pipeline, [*opening(records), *hand(records, 1, "p01", "p02", 10)], progress=False)
    assert referee_once(pipeline).get("rejected", 0) == 0
    pipeline.close()
    with TestClient(create_app(settings, workers=True)) as served:
        yield served


def as_(role: str, person: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(SECRET, person, role)}"}


def submit(client: TestClient, event: Any, by: RecordedBy = ANALYST) -> dict[str, Any]:
    envelope = make_envelope(
        event, event_id=uuid4(), competition_id=COMPETITION, seq=0, recorded_by=by, occurred_at=datetime.now(UTC)
    )
    answer = client.post("/v1/events?wait=true", json=envelope.model_dump(mode="json"), headers=as_(by.role, by.person))
    assert answer.status_code == 200, answer.text
    verdict: dict[str, Any] = answer.json()["verdicts"][0]
    return verdict


def case_when(client: TestClient, state: str) -> dict[str, Any]:
    """The case as the read model shows it once the projector reached ``state`` (it follows the store)."""
    deadline = time.monotonic() + 20
    while True:
        answer = client.get(f"{CASES}/case-1", headers=as_("integrity", "an-analyst"))
        if answer.status_code == 200 and answer.json()["state"] == state:
            body: dict[str, Any] = answer.json()
            return body
        assert time.monotonic() < deadline, answer.text
        time.sleep(0.05)


def test_an_analyst_takes_a_case_from_its_opening_to_the_chief_judge(client: TestClient) -> None:
    opened = IntegrityCaseOpened(
        "case-1", COMPETITION, ("p01", "p02"), Suspicion.CHIP_DUMPING, CaseOrigin.ALERT,
        "chip flow +10,050 from p02 to p01", (EvidenceHand(HAND_1, "p02 shoved queens into ace-king"),), 4.2,
    )  # fmt: skip
    assert submit(client, opened)["outcome"] == "accepted"
    case = case_when(client, "open")
    assert case["players"] == ["p01", "p02"] and case["origin"] == "alert" and case["score"] == 4.2
    assert case["opened_by"] == {"person": "an-analyst", "role": "integrity"}
    assert case["evidence"][0]["history"] == f"/v1/hands/{HAND_1}/history"
    # the Chief Judge sees nothing until the case is reported to him
    assert client.get(CASES, headers=as_("chief_judge", CHIEF.person)).json() == []
    assert client.get(f"{CASES}/case-1", headers=as_("chief_judge", CHIEF.person)).status_code == 404

    assert submit(client, IntegrityCaseNoted("case-1", "20 big blinds shoved with nothing else"))["outcome"] == "accepted"
    refused = submit(client, IntegrityCaseReported("case-1", ("p02",), "7.1.4", summary="dumped"))
    assert (refused["outcome"], refused["rule"]) == ("rejected", "bfsp 7.1.1")
    concluded = IntegrityCaseConcluded("case-1", CaseOutcome.CONFIRMED, "the chips went one way")
    assert submit(client, concluded)["outcome"] == "accepted"
    case = case_when(client, "confirmed")
    assert [n["note"] for n in case["notes"]] == ["20 big blinds shoved with nothing else"]
    assert case["conclusion"]["outcome"] == "confirmed" and case["report"] is None

    # the Chief Judge left blank: the competition's one Chief Judge, stored by name
    reported = IntegrityCaseReported("case-1", ("p01", "p02"), "7.1.4", summary="p02 dumped his stack to p01")
    assert submit(client, reported)["outcome"] == "accepted"
    case = case_when(client, "reported")
    assert case["report"]["rule"] == "bfsp 7.1.4" and case["report"]["what"] == "collusion"
    assert case["report"]["chief_judge"] == CHIEF.person
    # now it is his: the case reported to him, in his competition, and only that
    mine = client.get(CASES, headers=as_("chief_judge", CHIEF.person))
    assert [c["case"] for c in mine.json()] == ["case-1"]
    assert client.get(f"{CASES}/case-1", headers=as_("chief_judge", CHIEF.person)).json()["report"] == case["report"]
    assert client.get(CASES, headers=as_("chief_judge", "another-chief-judge")).json() == []
    assert client.get(CASES, headers=as_("federation", "bfsp-board")).json()[0]["state"] == "reported"


@pytest.mark.parametrize("role", ["judge", "secretary", "viewer", "dealer"])
def test_no_one_else_reads_cases(client: TestClient, role: str) -> None:
    person = JUDGE.person if role == "judge" else f"a-{role}"
    claims = {"competition": COMPETITION, "table": table()} if role == "dealer" else {}
    token = issue_token(SECRET, person, role, **claims)
    refused = client.get(CASES, headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 403 and "integrity cases are for" in refused.json()["error"]["message"]


def test_the_integrity_role_reports_only_its_cases_acts(client: TestClient) -> None:
    start = make_envelope(
        IntegrityCaseNoted("case-1", "x"), event_id=uuid4(), competition_id=COMPETITION, seq=0, recorded_by=ANALYST,
        occurred_at=datetime.now(UTC),
    ).model_dump(mode="json")
    start["type"], start["table_id"], start["hand_id"] = "HandVoided", table(), "1"
    start["payload"] = {"reason": "x"}
    refused = client.post("/v1/events", json=start, headers=as_("integrity", "an-analyst"))
    assert refused.status_code == 403 and "reports its cases' acts only" in refused.json()["error"]["message"]
