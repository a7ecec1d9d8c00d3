"""The integrity cases' pages over the Minsk Open (tests/federation_records.py) in the embedded mode, the app running
its referee and projector: an analyst's forms record a case's acts through the API and show the referee's verdict;
the cases page and a case's page show what the read model keeps, the evidence hand opening the replayer; the Chief
Judge reads the case once it is reported to him; a judge reads no case. The form that opens a case from an alert
takes the alert from the API (tests/unit/test_web_case_forms.py)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from federation_records import CHIEF, COMPETITION, JUDGE, Records, hand, opening, table

from api.app import create_app
from api.auth import issue_token
from api.bootstrap import bootstrap
from api.operations import publish, referee_once
from api.settings import Settings
from domain.hand.aggregate import hand_id

pytestmark = pytest.mark.e2e

SECRET = "test-secret-of-at-least-thirty-two-bytes"
WEB = f"/web/competitions/{COMPETITION}/integrity/cases"
HAND_1 = str(hand_id(table(), 1, COMPETITION))


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


def signed_in(client: TestClient, role: str, person: str) -> str:
    """Signs the client's browser in (its session cookie) and returns a form's CSRF token from the cases page."""
    client.cookies.clear()
    client.cookies.set("pokeraudit_session", issue_token(SECRET, person, role))
    page = client.get(WEB)
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found is not None, page.text[:500]
    return found.group(1)


def act(client: TestClient, csrf: str, **fields: str) -> str:
    answer = client.post(f"{WEB}/acts", data={**fields, "csrf": csrf})
    outcome = re.search(r'data-outcome="(\w+)"', answer.text)
    assert outcome is not None, answer.text
    return outcome.group(1) + ": " + unescape(re.sub(r"<[^>]+>", "", answer.text)).strip()


def state_on_page(client: TestClient, state: str) -> str:
    deadline = time.monotonic() + 20
    while True:
        page = client.get(f"{WEB}/case-1")
        if page.status_code == 200 and f'id="case-state">{state}<' in page.text:
            return unescape(page.text)
        assert time.monotonic() < deadline, page.text[-2000:]
        time.sleep(0.05)


def test_an_analyst_records_a_case_from_its_pages_and_the_chief_judge_reads_it(client: TestClient) -> None:
    csrf = signed_in(client, "integrity", "an-analyst")
    opened = act(client, csrf, act="open", case="case-1", players="p01, p02", suspicion="chip_dumping",
                 origin="complaint", grounds="p03 says p02 gave his stack away", hands="")
    assert opened.startswith("accepted"), opened
    assert f'href="{WEB}/case-1"' in client.post(f"{WEB}/acts", data={
        "act": "note", "case": "case-1", "note": "hand 1: queens shoved into ace-king", "hands": f"{table()}/1 the shove",
        "csrf": csrf}).text
    page = state_on_page(client, "open")
    assert "p03 says p02 gave his stack away" in page and "hand 1: queens shoved into ace-king" in page
    assert f'href="/web/hands/{HAND_1}"' in page and "the shove" in page
    assert f"/web/competitions/{COMPETITION}/integrity/pair?a=p01&amp;b=p02" in client.get(f"{WEB}/case-1").text
    refused = act(client, csrf, act="note", case="case-1", note="again", hands=f"{table()}/1 twice")
    assert refused.startswith("rejected") and "in the case's evidence already" in refused and "bfsp 7.1.4" in refused
    assert act(client, csrf, act="note", case="case-1", note="x", hands="T1 no number").startswith("refused")
    assert act(client, csrf, act="conclude", case="case-1", outcome="confirmed",
               reasons="the chips went one way").startswith("accepted")
    page = state_on_page(client, "confirmed")
    assert 'id="case-report-form"' in page and 'id="case-note-form"' not in page
    assert act(client, csrf, act="report", case="case-1", participants="p01, p02", violation="7.1.4",
               chief_judge="", summary="p02 dumped his stack to p01").startswith("accepted")
    page = state_on_page(client, "reported")
    assert f"to the Chief Judge {CHIEF.person}" in page and "collusion (bfsp 7.1.4)" in page
    listed = client.get(WEB)
    assert 'data-grid="cases"' in listed.text and ">reported<" in listed.text
    csv = client.get(f"{WEB}?format=csv").text.splitlines()
    assert csv[0] == "case,players,suspicion,origin,state,outcome,evidence,opened,last act"
    assert csv[1].startswith("case-1,p01 & p02,chip dumping,complaint,reported,confirmed,1 hand,")

    signed_in(client, "chief_judge", CHIEF.person)
    assert ">case-1<" in client.get(WEB).text and 'id="case-open-form"' not in client.get(WEB).text
    assert client.get(f"{WEB}/case-1").status_code == 200
    client.cookies.clear()
    client.cookies.set("pokeraudit_session", issue_token(SECRET, JUDGE.person, "judge"))
    refused_page = client.get(WEB)
    assert refused_page.status_code == 403 and "integrity cases are for" in refused_page.text
