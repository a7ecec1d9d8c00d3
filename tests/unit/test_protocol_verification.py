"""The protocol verifies the chains of the streams it is read from before it is served or printed (issue 11,
§5): a tampered store gives a protocol marked as failing verification in JSON, HTML and PDF, from the API and
the CLI, its signatures marked as no longer covering it, and no snapshot can be taken of it."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest
from embedded_referee import Pipeline
from fastapi.testclient import TestClient
from federation_records import CHIEF, COMPETITION, SECRETARY, Records, at, opening, play_to_the_end
from pypdf import PdfReader

from api.app import create_app
from api.auth import issue_token
from api.cli import main as cli_main
from api.settings import Settings
from domain.protocol import ProtocolSigned
from domain.roles import Role
from projections.protocol import checked_protocol
from projections.protocol_render import to_html, to_pdf

pytestmark = pytest.mark.unit

SECRET = "test-secret-of-at-least-thirty-two-bytes"


@pytest.fixture
def signed(tmp_path: Path) -> Pipeline:
    """A small competition played to its end, a snapshot of its protocol signed by the Secretary and the
    Chief Judge."""
    pipeline = Pipeline(tmp_path)
    records = Records()
    verdicts = pipeline.judge([*opening(records), *play_to_the_end(records)])
    assert {v.outcome for v in verdicts} == {"accepted"}, [v.rejection for v in verdicts if v.rejection]
    snapshot = pipeline.take_snapshot(SECRETARY, at(30))
    signatures = [
        records.record(ProtocolSigned(COMPETITION, 1, snapshot.sha256, SECRETARY.person, Role.SECRETARY), SECRETARY,
                       at(31)),
        records.record(ProtocolSigned(COMPETITION, 1, snapshot.sha256, CHIEF.person, Role.CHIEF_JUDGE), CHIEF, at(32)),
    ]
    assert [v.outcome for v in pipeline.judge(signatures)] == ["accepted", "accepted"]
    return pipeline


def tamper(pipeline: Pipeline) -> tuple[str, int]:
    """A third place made fourth in the stored PlayerEliminated: the event still reads, its link no longer holds."""
    with sqlite3.connect(pipeline.path) as db:
        rows = db.execute("SELECT originator_id, originator_version, state FROM stored_events").fetchall()
        stream, version, state = next(r for r in rows if b'"place":3' in bytes(r[2]))
        db.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (bytes(state).replace(b'"place":3', b'"place":4'), stream, version),
        )
    return stream, version


def pdf_text(pdf: bytes) -> str:
    """The text drawn on a PDF's pages, read back by pypdf (its embedded font maps each glyph to its letter), with
    the line breaks taken out: a long line wraps where the page ends."""
    return " ".join("\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages).split())


def test_an_untouched_store_gives_a_verified_protocol(signed: Pipeline) -> None:
    document = checked_protocol(signed.store, COMPETITION)
    verification = document["verification"]
    assert verification["ok"] and verification["breaks"] == [] and verification["streams"] > 3
    assert all("covers_this_document" not in s for s in document["signatures"])
    assert "FAILS VERIFICATION" not in to_html(document)
    assert "FAILS VERIFICATION" not in pdf_text(to_pdf(document))


def test_a_tampered_store_gives_a_protocol_marked_as_failing_in_every_format(signed: Pipeline) -> None:
    _, version = tamper(signed)
    document = checked_protocol(signed.store, COMPETITION)
    verification = document["verification"]
    assert verification["ok"] is False
    [broken] = verification["breaks"]
    assert f"version {version} (PlayerEliminated): its content hashes to" in broken
    assert [s["covers_this_document"] for s in document["signatures"]] == [False, False]
    page = to_html(document)
    assert "FAILS VERIFICATION: 1 break" in page and "NO: the store fails verification" in page
    assert "(PlayerEliminated): its content hashes to" in page
    text = pdf_text(to_pdf(document))
    assert "FAILS VERIFICATION: 1 break" in text and "NO: the store fails verification" in text


def test_a_protocol_read_before_the_store_was_tampered_with_is_not_served_again_after(signed: Pipeline) -> None:
    # the events are kept decoded between reads (projections/protocol.py, DecodedEvents), by their stored bytes
    assert checked_protocol(signed.store, COMPETITION)["verification"]["ok"]
    assert checked_protocol(signed.store, COMPETITION)["verification"]["ok"]
    _, version = tamper(signed)
    [broken] = checked_protocol(signed.store, COMPETITION)["verification"]["breaks"]
    assert f"version {version} (PlayerEliminated): its content hashes to" in broken


def test_an_event_that_no_longer_reads_is_a_break_not_a_refusal(signed: Pipeline) -> None:
    with sqlite3.connect(signed.path) as db:
        rowid = db.execute("SELECT rowid FROM stored_events WHERE topic LIKE '%PlayerEliminated' LIMIT 1").fetchone()[0]
        db.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (b"{not json", rowid))
    document = checked_protocol(signed.store, COMPETITION)
    assert document["verification"]["ok"] is False
    assert any("no longer reads" in b for b in document["verification"]["breaks"])


def test_the_api_marks_a_tampered_protocol_and_refuses_to_snapshot_it(signed: Pipeline, tmp_path: Path) -> None:
    tamper(signed)
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET)
    judge = {"Authorization": f"Bearer {issue_token(SECRET, 'j-1', 'judge')}"}
    secretary = {"Authorization": f"Bearer {issue_token(SECRET, SECRETARY.person, 'secretary')}"}
    viewer = {"Authorization": f"Bearer {issue_token(SECRET, 'fan-1', 'viewer')}"}
    base = f"/v1/competitions/{COMPETITION}/protocol"
    with TestClient(create_app(settings, workers=True)) as api:  # the app's referee judges the snapshot's record
        for who in (judge, viewer):
            document = api.get(base, headers=who)
            assert document.status_code == 200
            assert document.json()["verification"]["ok"] is False
            assert {s["covers_this_document"] for s in document.json()["signatures"]} == {False}
        page = api.get(base, params={"format": "html"}, headers=judge)
        assert page.status_code == 200 and "FAILS VERIFICATION" in page.text
        pdf = api.get(base, params={"format": "pdf"}, headers=judge)
        assert pdf.status_code == 200 and "FAILS VERIFICATION" in pdf_text(pdf.content)
        refused = api.post(f"{base}/snapshots", headers=secretary)
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "store_tampered"
        assert "(PlayerEliminated)" in refused.json()["error"]["message"]
        assert refused.json()["error"]["rule"] == "DESIGN 7"


def test_the_cli_writes_a_tampered_protocol_marked_and_exits_1(
    signed: Pipeline, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("POKERAUDIT_DATA_DIR", str(tmp_path))
    assert cli_main(["protocol", COMPETITION, "--out", str(tmp_path / "ok.json")]) == 0
    tamper(signed)
    out = tmp_path / "protocol.json"
    assert cli_main(["protocol", COMPETITION, "--out", str(out)]) == 1
    assert json.loads(out.read_text())["verification"]["ok"] is False
    err = capsys.readouterr().err
    assert "FAILS VERIFICATION: 1 break" in err and "(PlayerEliminated)" in err


def test_a_hand_cut_short_of_its_end_fails_the_protocols_verification(signed: Pipeline) -> None:
    # The chain of what is left holds: only the heads the referee recorded show the hand was longer.
    with sqlite3.connect(signed.path) as db:
        rowid, version = db.execute(
            "SELECT rowid, originator_version FROM stored_events WHERE topic LIKE '%Hand.HandEnded' LIMIT 1"
        ).fetchone()
        db.execute("DELETE FROM stored_events WHERE rowid = ?", (rowid,))
    document = checked_protocol(signed.store, COMPETITION)
    [broken] = document["verification"]["breaks"]
    assert f"the stream ends at version {version - 1}" in broken and f"up to version {version}" in broken
    assert "FAILS VERIFICATION: 1 break" in to_html(document)


def test_a_stream_deleted_whole_fails_the_protocols_verification(signed: Pipeline) -> None:
    with sqlite3.connect(signed.path) as db:
        (stream,) = db.execute("SELECT originator_id FROM stored_events WHERE topic LIKE '%Hand.HandEnded' LIMIT 1").fetchone()
        db.execute("DELETE FROM stored_events WHERE originator_id = ?", (stream,))
    breaks = checked_protocol(signed.store, COMPETITION)["verification"]["breaks"]
    assert len(breaks) == 1 and "the store holds none of it" in breaks[0]
