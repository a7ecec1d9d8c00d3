""""A protest received" recorded from the officials' protests page (issue 15, issue 13): the Secretary records the
receipt of p01's written protest against the Chief Judge's warning, handed in on paper (its scan's SHA-256); the
referee accepts it and the protests queue lists it, filed by p01. A judge's attempt is refused with the roles
table's rule, the verdict shown on the page."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from federation_records import CHIEF, COMPETITION, JUDGE, SECRETARY, Records, at, opening

from api.app import create_app
from api.auth import issue_token
from api.bootstrap import bootstrap
from api.operations import publish, referee_once
from api.settings import Settings
from domain.discipline import PenaltyKind
from domain.discipline.events import PenaltyImposed, ViolationRecorded
from domain.roles import Role

pytestmark = pytest.mark.e2e

SECRET = "test-secret-of-at-least-thirty-two-bytes"
PROTESTS = f"/web/competitions/{COMPETITION}/protests"
FORM = {
    "act": "protest_received", "protest": "protest-paper-1", "filer": "p01", "tier": "federation",
    "reference": "penalty-1", "contested_kind": "penalty", "decided_by": "chief_judge", "sanctioned": "p01",
    "grounds": "", "document_sha256": "C0" * 32, "written": "yes",
}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET)  # type: ignore[call-arg]
    pipeline = bootstrap(settings)
    records = Records()
    warned = [
        records.record(ViolationRecorded("p01", "7.1.2", "", False, 1, "kept his cards"), JUDGE, at(5)),
        records.record(PenaltyImposed("p01", 1, PenaltyKind.WARNING, Role.CHIEF_JUDGE), CHIEF, at(6)),
    ]
    publish(pipeline, [*opening(records), *warned], progress=False)
    assert referee_once(pipeline).get("rejected", 0) == 0
    pipeline.close()
    with TestClient(create_app(settings, workers=True)) as served:
        yield served


def as_official(client: TestClient, role: str, person: str) -> str:
    client.cookies.clear()
    client.cookies.set("pokeraudit_session", issue_token(SECRET, person, role))
    page = client.get(PROTESTS)
    assert page.status_code == 200 and 'id="protest-form"' in page.text, page.text[:300]
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found is not None
    return found.group(1)


def verdict(client: TestClient, csrf: str, form: dict[str, str]) -> tuple[str, str]:
    answer = client.post(f"/web/competitions/{COMPETITION}/acts", data={**form, "csrf": csrf})
    outcome = re.search(r'data-outcome="(\w+)"', answer.text)
    assert outcome is not None, answer.text
    return outcome.group(1), unescape(re.sub(r"<[^>]+>", "", answer.text)).strip()


def test_the_secretary_records_a_protest_received_and_the_queue_lists_it(client: TestClient) -> None:
    csrf = as_official(client, "judge", JUDGE.person)
    outcome, said = verdict(client, csrf, {**FORM, "protest": "protest-by-a-judge"})
    assert outcome == "rejected" and "bfsp 7.3.1" in said and "may not record a participant's protest received" in said
    csrf = as_official(client, "secretary", SECRETARY.person)
    outcome, said = verdict(client, csrf, FORM)
    assert outcome == "accepted" and "ProtestReceived" in said, said
    deadline = time.monotonic() + 20
    while "protest-paper-1" not in (listed := client.get(PROTESTS).text):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    row = re.search(r"<tr>(?:(?!</tr>).)*protest-paper-1(?:(?!</tr>).)*</tr>", listed, re.S)
    assert row is not None and ">p01<" in row.group(0) and ">federation<" in row.group(0) and ">filed<" in row.group(0)
    found = client.get(f"/v1/competitions/{COMPETITION}/protests/protest-paper-1",
                       headers={"Authorization": f"Bearer {issue_token(SECRET, CHIEF.person, 'chief_judge')}"})
    assert found.status_code == 200 and found.json()["filer"] == "p01"
    outcome, said = verdict(client, csrf, {**FORM, "protest": "protest-paper-2", "document_sha256": ""})
    assert outcome == "refused" and "grounds: required" in said, said


def test_a_participant_files_his_own_protest_through_the_api(client: TestClient) -> None:
    from datetime import UTC, datetime
    from uuid import uuid4

    import jwt

    now = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    record = {
        "event_id": str(uuid4()), "competition_id": COMPETITION, "seq": 0, "type": "ProtestFiled", "occurred_at": now,
        "payload": {
            "protest": "protest-own-1", "competition": COMPETITION, "tier": "federation", "filer": "p01",
            "contested": {"reference": "penalty-1", "kind": "penalty", "decided_by": "chief_judge", "sanctioned": "p01"},
            "grounds": "I folded in time", "written": True, "received_by": "chief_judge", "filed_at": now,
        },
    }
    p01 = {"Authorization": f"Bearer {issue_token(SECRET, 'person-p01', 'participant', competition=COMPETITION)}"}
    answer = client.post("/v1/events?wait=true", json=record, headers=p01)
    assert answer.status_code == 200, answer.text
    assert answer.json()["verdicts"][0]["outcome"] == "accepted", answer.text
    # his token reports nothing else, and names his competition
    hand_act = {**record, "event_id": str(uuid4()), "type": "HandVoided", "table_id": "1", "hand_id": "1",
                "payload": {"reason": "no"}}
    refused = client.post("/v1/events", json=hand_act, headers=p01)
    assert refused.status_code == 403 and "his own challenges and protests only" in refused.json()["error"]["message"]
    claims = {"sub": "person-p01", "role": "participant", "exp": int(time.time()) + 600}
    unscoped = {"Authorization": f"Bearer {jwt.encode(claims, SECRET, algorithm='HS256')}"}
    assert client.post("/v1/events", json=record, headers=unscoped).status_code == 401
    with pytest.raises(ValueError, match="names the competition he plays"):
        issue_token(SECRET, "person-p01", "participant")
