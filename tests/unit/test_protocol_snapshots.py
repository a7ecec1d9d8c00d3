"""The protocol's snapshots as an official keeps them, from the CLI and the API: taken and signed through the
log (the referee's refusals printed with their rule), listed, and printed as HTML and PDF under their number,
SHA-256, chain head and signatures; the live protocol printed as unsigned."""

from __future__ import annotations

import io
import json
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
from embedded_referee import Pipeline
from fastapi.testclient import TestClient
from federation_records import CHIEF, COMPETITION, JUDGE, SECRETARY, Records, at, opening, play_to_the_end
from pypdf import PdfReader

from api.app import create_app
from api.auth import issue_token
from api.cli import main as cli_main
from api.settings import Settings
from domain.protocol import ProtocolSnapshotRequested
from ingest.envelope import encode, make_envelope
from projections.protocol import protocol, signatures, snapshots
from projections.protocol_render import to_html, to_pdf

pytestmark = pytest.mark.unit

SECRET = "test-secret-of-at-least-thirty-two-bytes"


def pdf_text(data: bytes) -> str:
    """The PDF's text with its line breaks taken out (a long line wraps where the page ends)."""
    return " ".join("\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).split())


@pytest.fixture
def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Pipeline:
    pipeline = Pipeline(tmp_path)
    records = Records()
    verdicts = pipeline.judge([*opening(records), *play_to_the_end(records)])
    assert {v.outcome for v in verdicts} == {"accepted"}
    monkeypatch.setenv("POKERAUDIT_DATA_DIR", str(tmp_path))
    return pipeline


def test_an_official_takes_signs_lists_and_prints_a_snapshot_from_the_cli(
    played: Pipeline, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    as_judge = ["--by", JUDGE.person, "--role", "secretary"]  # a judge claiming an office he was not appointed to
    assert cli_main(["snapshot", "take", COMPETITION, *as_judge]) == 1
    assert f"refused (bfsp 2.1.1): {JUDGE.person} is not appointed secretary" in capsys.readouterr().err
    assert cli_main(["snapshot", "list", COMPETITION]) == 0
    assert f"{COMPETITION} has no protocol snapshot" in capsys.readouterr().out

    assert cli_main(["snapshot", "take", COMPETITION, "--by", SECRETARY.person, "--role", "secretary"]) == 0
    [taken] = snapshots(played.store, COMPETITION)
    out = capsys.readouterr().out
    assert f"{COMPETITION}/protocol/v1  taken by {SECRETARY.person}" in out and taken.sha256 in out

    keepers = (("--by", SECRETARY.person, "--role", "secretary"), ("--by", CHIEF.person, "--role", "chief_judge"))
    assert cli_main(["snapshot", "sign", COMPETITION, "1", "--sha256", "0" * 64, *keepers[0]]) == 1
    assert "refused (bfsp 2.1.4)" in capsys.readouterr().err
    for keeper in keepers:
        assert cli_main(["snapshot", "sign", COMPETITION, "1", "--sha256", taken.sha256, *keeper]) == 0
    assert f"{CHIEF.person} (chief_judge)" in capsys.readouterr().out
    assert [(s["person"], s["role"]) for s in signatures(played.store, COMPETITION)] == [
        (SECRETARY.person, "secretary"), (CHIEF.person, "chief_judge"),
    ]

    assert cli_main(["snapshot", "list", COMPETITION, "--format", "json"]) == 0
    [listed] = json.loads(capsys.readouterr().out)["items"]
    assert (listed["sha256"], [s["person"] for s in listed["signatures"]]) == (
        taken.sha256, [SECRETARY.person, CHIEF.person],
    )

    assert cli_main(["snapshot", "show", COMPETITION, "1"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["verification"]["ok"] is True and shown["protocol"] == taken.protocol
    for kind in ("html", "pdf"):
        out_file = tmp_path / f"v1.{kind}"
        assert cli_main(["snapshot", "show", COMPETITION, "1", "--format", kind, "--out", str(out_file)]) == 0
        data = out_file.read_bytes()
        text = pdf_text(data) if kind == "pdf" else data.decode()
        assert f"Snapshot {COMPETITION}/protocol/v1 (version 1), taken by {SECRETARY.person}" in text
        assert f"SHA-256 of its text: {taken.sha256}" in text and taken.chain_head in text
        assert f"Signed by {SECRETARY.person} (secretary) at" in text
        assert f"Signed by {CHIEF.person} (chief judge) at" in text
        assert "Verified against the store: it holds" in text and "NOT SIGNED" not in text
    assert cli_main(["snapshot", "show", COMPETITION, "2"]) == 1


def test_the_live_protocol_prints_as_unsigned_and_an_unsigned_snapshot_says_so(played: Pipeline) -> None:
    live = protocol(played.store, COMPETITION)
    for text in (to_html(live), pdf_text(to_pdf(live))):
        assert "LIVE PROTOCOL - NOT SIGNED" in text
    taken = played.take_snapshot(SECRETARY, at(30))
    snapshot = {"name": taken.name, "version": 1, "sha256": taken.sha256, "chain_head": taken.chain_head,
                "streams": len(taken.heads), "taken_by": taken.taken_by, "taken_at": taken.taken_at.isoformat(),
                "signatures": []}
    page = to_html(taken.protocol, snapshot)
    assert "NOT SIGNED: no official has signed this snapshot" in page and "LIVE PROTOCOL" not in page




def test_the_api_signs_a_snapshot_through_the_log_and_prints_it_signed(played: Pipeline, tmp_path: Path) -> None:
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET)  # type: ignore[call-arg]

    def bearer(role: str, person: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {issue_token(SECRET, person, role)}"}

    base = f"/v1/competitions/{COMPETITION}/protocol/snapshots"
    secretary, chief, judge = (bearer("secretary", SECRETARY.person), bearer("chief_judge", CHIEF.person),
                               bearer("judge", JUDGE.person))
    with TestClient(create_app(settings, workers=True)) as api:
        taken = api.post(base, headers=secretary)
        assert taken.status_code == 201, taken.text
        sha256 = taken.json()["sha256"]
        refused = api.post(f"{base}/1/signatures", json={"sha256": sha256}, headers=judge)
        assert refused.status_code == 409 and refused.json()["error"]["rule"] == "bfsp 2.1.4"
        assert refused.json()["error"]["message"].startswith("the referee refused it: a judge may not sign")
        other = api.post(f"{base}/1/signatures", json={"sha256": "1" * 64}, headers=chief)
        assert other.status_code == 409 and "another text" in other.json()["error"]["message"]
        signed = api.post(f"{base}/1/signatures", json={"sha256": sha256}, headers=chief)
        assert signed.status_code == 201, signed.text
        assert [(s["person"], s["role"]) for s in signed.json()["signatures"]] == [(CHIEF.person, "chief_judge")]
        assert api.post(f"{base}/1/signatures", json={"sha256": sha256}, headers=chief).status_code == 409
        assert api.post(f"{base}/1/signatures", json={"sha256": "not hex"}, headers=chief).status_code == 422
        listed = api.get(base, headers=judge).json()["items"]
        assert [s["person"] for s in listed[0]["signatures"]] == [CHIEF.person]
        pdf = api.get(f"{base}/1", params={"format": "pdf"}, headers=judge)
        assert pdf.headers["content-type"] == "application/pdf"
        text = pdf_text(pdf.content)
        assert f"SHA-256 of its text: {sha256}" in text and f"Signed by {CHIEF.person} (chief judge)" in text
        page = api.get(f"{base}/1", params={"format": "html"}, headers=judge)
        assert page.headers["content-type"].startswith("text/html") and f"Signed by {CHIEF.person}" in page.text
        live = api.get(f"/v1/competitions/{COMPETITION}/protocol", params={"format": "html"}, headers=judge)
        assert "LIVE PROTOCOL - NOT SIGNED" in live.text


def test_a_cyrillic_name_prints_into_the_pdf_as_written(played: Pipeline) -> None:
    """The PDF embeds a Unicode font (DejaVu): a Belarusian official's and player's names are not "?"."""
    from projections.protocol_render import unicode_fonts

    if unicode_fonts() is None:
        pytest.fail("no DejaVu fonts in projections.protocol_render.FONT_DIRS: install fonts-dejavu-core")
    document = protocol(played.store, COMPETITION)
    document["competition"]["title"] = "Открытый чемпионат Минска — Łódź"
    document["participants"][0]["person"] = "Алесь Лукашэвіч"
    text = pdf_text(to_pdf(document))
    assert "Открытый чемпионат Минска — Łódź" in text
    assert "Алесь Лукашэвіч" in text and "?" * 4 not in text


def test_a_snapshot_request_named_by_its_requester_and_sent_again_after_a_timeout_makes_one_snapshot(
    played: Pipeline, tmp_path: Path
) -> None:
    """The first answer is lost (no referee judges it in time: 504, the record is on the log); the same named
    request sent again is the same record: judged once, answered with the one snapshot, and nothing refused."""
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET)  # type: ignore[call-arg]
    secretary = {"Authorization": f"Bearer {issue_token(SECRET, SECRETARY.person, 'secretary')}"}
    chief = {"Authorization": f"Bearer {issue_token(SECRET, CHIEF.person, 'chief_judge')}"}
    base = f"/v1/competitions/{COMPETITION}/protocol/snapshots"
    named = {"request_id": "3f1c9d0e-5b7a-4c2e-9a61-0d8e2f4b7c15", "requested_at": datetime.now(UTC).isoformat()}
    with TestClient(create_app(settings, workers=False)) as api:  # nobody judges: the answer times out
        lost = api.post(base, json=named, headers=secretary, params={"timeout": 0.5})
        assert lost.status_code in (503, 504), lost.text
    with TestClient(create_app(settings, workers=True)) as api:
        retried = api.post(base, json=named, headers=secretary)
        assert retried.status_code == 201, retried.text
        again = api.post(base, json=named, headers=secretary)
        assert again.status_code == 201 and again.json() == retried.json()
        assert retried.json()["version"] == 1
        # another request is another snapshot; the same name from another official is his own request
        other = api.post(base, json={**named, "request_id": "second"}, headers=secretary)
        assert other.status_code == 201 and other.json()["version"] == 2
        by_chief = api.post(base, json=named, headers=chief)
        assert by_chief.status_code == 201 and by_chief.json()["version"] == 3
        listed = api.get(base, headers=secretary).json()
        assert [s["version"] for s in listed["items"]] == [1, 2, 3]
        half = api.post(base, json={"request_id": "no-time"}, headers=secretary)
        assert half.status_code == 422 and "requested_at" in half.text
        bad = api.post(base, json={**named, "request_id": "not a name"}, headers=secretary)
        assert bad.status_code == 422 and "request_id" in bad.text
    assert protocol(played.store, COMPETITION)["rejections"] == []


def test_a_named_snapshot_request_from_the_cli_run_again_is_the_same_request(
    played: Pipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    as_secretary = ["--by", SECRETARY.person, "--role", "secretary"]
    named = ["--request-id", "evening-1", "--requested-at", datetime.now(UTC).isoformat()]
    assert cli_main(["snapshot", "take", COMPETITION, *named, *as_secretary]) == 0
    first = capsys.readouterr().out
    assert cli_main(["snapshot", "take", COMPETITION, *named, *as_secretary]) == 0
    assert capsys.readouterr().out == first and f"{COMPETITION}/protocol/v1" in first
    assert [s.version for s in snapshots(played.store, COMPETITION)] == [1]
    assert protocol(played.store, COMPETITION)["rejections"] == []
    # a request named in a record of another event id is refused: it could make a second snapshot
    forged = make_envelope(
        ProtocolSnapshotRequested(COMPETITION, "evening-1"), event_id=uuid.uuid4(), competition_id=COMPETITION,
        seq=0, recorded_by=SECRETARY, occurred_at=at(40),
    )  # fmt: skip
    [verdict] = played.judge([(forged.key, encode(forged))])
    assert verdict.rejection is not None and (verdict.rejection.kind.value, verdict.rejection.field) == (
        "malformed", "event_id"
    )
    assert [s.version for s in snapshots(played.store, COMPETITION)] == [1]
