"""The competition's end, its final protocol and the result documents (bfsp 2.1.1, 2.1.4, 2.3.3, 7.3.4; issue 13),
judged by the referee (ingest/handlers/final.py, domain/competition/closing.py, domain/final_protocol.py): the
Chief Judge ends it once play is over, the Secretary compiles the final protocol (a snapshot marked final), the
Chief Judge signs it, and from then on only the federation's protest decisions amend the record, each followed
by a new final version; the result documents are issued from the signed final version."""

from __future__ import annotations

import io
from datetime import timedelta
from pathlib import Path
from typing import Any

import embedded_referee
import pytest
from fastapi.testclient import TestClient
from federation_records import (
    CHIEF,
    COMPETITION,
    FEDERATION,
    JUDGE,
    REGULATIONS,
    SECRETARY,
    Records,
    at,
    opening,
    play_to_the_end,
)
from pypdf import PdfReader

from api.app import create_app
from api.auth import issue_token
from api.cli import main as cli_main
from api.settings import Settings
from domain.competition.closing import verify_play_over
from domain.competition.events import BreakStarted, CompetitionEnded
from domain.discipline.events import ViolationRecorded
from domain.errors import CompetitionError
from domain.final_protocol import FinalProtocolCompiled, ResultDocuments, ResultDocumentsIssued, results_id
from domain.protests import Contested, ContestedKind, ProtestTier
from domain.protests.events import ProtestDecided, ProtestDecision, ProtestForwarded, ProtestReceived
from domain.protocol import ProtocolSigned
from domain.roles import Role
from ingest.envelope import RecordedBy
from projections.protocol import protocol, snapshots

pytestmark = pytest.mark.unit

AGAINST_WARNING = Contested("penalty-1", ContestedKind.PENALTY, Role.CHIEF_JUDGE, sanctioned="p01")


class Scenario:
    def __init__(self, folder: Path) -> None:
        self.pipeline = embedded_referee.Pipeline(folder)
        self.records = Records()

    def judged(self, event: Any, by: RecordedBy, minutes: float) -> tuple[str, str, str]:
        (verdict,) = self.pipeline.judge([self.records.record(event, by, at(minutes))])
        r = verdict.rejection
        return verdict.outcome, str(r.rule) if r else "", r.reason if r else ""

    def sign(self, version: int, by: RecordedBy, minutes: float) -> tuple[str, str, str]:
        sha256 = snapshots(self.pipeline.store, COMPETITION)[version - 1].sha256
        return self.judged(ProtocolSigned(COMPETITION, version, sha256, by.person, by.role), by, minutes)


def test_the_chief_judge_ends_the_competition_only_when_play_is_over(tmp_path: Path) -> None:
    s = Scenario(tmp_path)
    s.pipeline.judge(opening(s.records))
    ended = CompetitionEnded(COMPETITION)
    assert s.judged(ended, SECRETARY, 1)[:2] == ("rejected", "bfsp 2.1.1")
    refused = s.judged(ended, CHIEF, 2)
    assert refused[:2] == ("rejected", "bfsp 5.10.1") and "3 players still hold chips" in refused[2]
    compiled = s.judged(FinalProtocolCompiled(COMPETITION), SECRETARY, 3)
    assert compiled[:2] == ("rejected", "bfsp 2.3.3") and "the Chief Judge has not ended it" in compiled[2]

    assert {v.outcome for v in s.pipeline.judge(play_to_the_end(s.records))} == {"accepted"}
    assert s.judged(CompetitionEnded(COMPETITION, winner="p03"), CHIEF, 30)[1] == "bfsp 5.10.1"
    assert s.judged(CompetitionEnded(COMPETITION, winner="p01"), CHIEF, 31) == ("accepted", "", "")
    competition = s.pipeline.competition()
    assert competition.has_ended and competition.closed_at == at(31) and competition.closed_by == CHIEF.person

    # the competition's own acts are over: a break, a second end
    after = s.judged(BreakStarted(1, 10), CHIEF, 32)
    assert after[:2] == ("rejected", "bfsp 2.3.3") and "nothing may announce a break after the end" in after[2]
    assert s.judged(ended, CHIEF, 33)[1] == "bfsp 2.3.3"
    document = protocol(s.pipeline.store, COMPETITION)
    assert document["competition"]["closed_at"] == at(31).isoformat()
    assert document["competition"]["closed_by"] == {"person": CHIEF.person, "role": "chief_judge"}


def test_play_is_not_over_while_a_hand_is_being_played() -> None:
    with pytest.raises(CompetitionError, match="a hand is still being played at tables 2, 5") as refused:
        verify_play_over(over=True, players_left=1, ofc=False, running=[5, 2])
    assert str(refused.value.rule) == "bfsp 5.10.1"
    verify_play_over(over=True, players_left=1, ofc=False, running=[])


def test_the_final_protocol_is_compiled_signed_closed_and_amended_only_by_the_federation(tmp_path: Path) -> None:
    s = Scenario(tmp_path)
    s.pipeline.judge(opening(s.records))
    *played, last_bust = play_to_the_end(s.records)
    assert {v.outcome for v in s.pipeline.judge(played)} == {"accepted"}
    # p01's written protest against his warning, received by the Secretary before the end (bfsp 7.3.2), forwarded
    # with a snapshot (7.3.3)
    received = ProtestReceived("protest-1", COMPETITION, ProtestTier.FEDERATION, "p01", AGAINST_WARNING,
                               "I folded and showed nothing", True, at(21), document_sha256="ab" * 32)
    assert s.judged(received, SECRETARY, 21)[0] == "accepted"
    taken = s.pipeline.take_snapshot(CHIEF, at(21.2))
    deadline = at(21.5) + timedelta(days=REGULATIONS.book.protest_decision_days)
    forwarded = ProtestForwarded("protest-1", taken.name, taken.chain_head, at(21.5), deadline)
    assert s.judged(forwarded, CHIEF, 21.5)[0] == "accepted"
    assert {v.outcome for v in s.pipeline.judge([last_bust])} == {"accepted"}
    assert s.judged(CompetitionEnded(COMPETITION), CHIEF, 30)[0] == "accepted"

    assert s.judged(FinalProtocolCompiled(COMPETITION), CHIEF, 31)[1] == "bfsp 2.3.3"  # the Secretary's act
    assert s.judged(FinalProtocolCompiled(COMPETITION), SECRETARY, 32)[0] == "accepted"
    final = snapshots(s.pipeline.store, COMPETITION)[-1]
    assert (final.version, final.final) == (2, True) and not snapshots(s.pipeline.store, COMPETITION)[0].final
    again = s.judged(FinalProtocolCompiled(COMPETITION), SECRETARY, 33)
    assert again[:2] == ("rejected", "bfsp 2.3.3") and "it is to be signed, not compiled again" in again[2]
    issue = ResultDocumentsIssued(COMPETITION, 2, final.sha256)
    early = s.judged(issue, SECRETARY, 34)
    assert early[:2] == ("rejected", "bfsp 2.1.4") and "not signed by the Chief Judge yet" in early[2]

    # before the final signature the officials still complete the record; after it, nothing but the federation
    assert s.sign(2, SECRETARY, 35)[0] == "accepted"
    assert s.sign(2, CHIEF, 36)[0] == "accepted"
    late = s.judged(ViolationRecorded("p01", "7.1.7", "", False, 1, "slow"), JUDGE, 37)
    assert late[:2] == ("rejected", "bfsp 2.1.4") and "is signed by the Chief Judge: no ViolationRecorded" in late[2]
    closed = s.judged(FinalProtocolCompiled(COMPETITION), SECRETARY, 38)
    assert closed[:2] == ("rejected", "bfsp 7.3.4") and "none has come since" in closed[2]

    assert s.judged(issue, SECRETARY, 39) == ("accepted", "", "")
    assert s.judged(issue, SECRETARY, 40)[2] == f"the documents of {final.name} have been issued already"
    documents = s.pipeline.store.repository.get(results_id(COMPETITION))
    assert isinstance(documents, ResultDocuments)
    [issued] = documents.issues
    by_player = {d.participant: d for d in issued.documents}
    winner = by_player["p01"]
    placings = {p["participant"]: p for p in final.protocol["placings"]}
    assert winner.place == 1 and winner.prize.gross == placings["p01"]["prize"]["gross"] > 0
    assert winner.prize.withheld == winner.prize.gross * 13 // 100
    assert winner.prize.net == winner.prize.gross - winner.prize.withheld
    assert [v["code"] for v in winner.violations] == ["7.1.2"]
    assert [p["kind"] for p in winner.penalties] == ["warning"]
    assert (winner.protocol, winner.protocol_sha256) == (final.name, final.sha256)
    assert (by_player["p02"].place, by_player["p02"].violations, by_player["p02"].penalties) == (3, (), ())

    # the federation decides the forwarded protest: the record is amended, and a new final version follows
    decided = ProtestDecided("protest-1", ProtestDecision.DISMISSED, Role.FEDERATION, "the warning stands", at(41))
    assert s.judged(decided, FEDERATION, 41)[0] == "accepted"
    assert s.judged(FinalProtocolCompiled(COMPETITION), SECRETARY, 42)[0] == "accepted"
    second = snapshots(s.pipeline.store, COMPETITION)[-1]
    assert (second.version, second.final) == (3, True)
    [protest] = second.protocol["protests"]
    assert protest["decision"]["decided_by"] == "federation"
    superseded = s.sign(2, SECRETARY, 43)
    assert superseded[:2] == ("rejected", "bfsp 2.1.4") and "replaced by final version 3" in superseded[2]
    assert s.sign(3, CHIEF, 44)[0] == "accepted"
    assert s.judged(ResultDocumentsIssued(COMPETITION, 3, second.sha256), SECRETARY, 45)[0] == "accepted"


SECRET = "test-secret-of-at-least-thirty-two-bytes"


def pdf_text(data: bytes) -> str:
    return " ".join("\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).split())


def test_the_officials_end_compile_sign_and_issue_from_the_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    s = Scenario(tmp_path)
    assert {v.outcome for v in s.pipeline.judge([*opening(s.records), *play_to_the_end(s.records)])} == {"accepted"}
    monkeypatch.setenv("POKERAUDIT_DATA_DIR", str(tmp_path))
    assert cli_main(["competition", "final", COMPETITION, "--by", SECRETARY.person]) == 1
    assert "refused (bfsp 2.3.3): the final protocol is compiled after the competition's end" in capsys.readouterr().err
    assert cli_main(["competition", "end", COMPETITION, "--by", CHIEF.person]) == 0
    assert cli_main(["competition", "final", COMPETITION, "--by", SECRETARY.person]) == 0
    [final] = snapshots(s.pipeline.store, COMPETITION)
    assert final.final and f"final protocol {final.name} (version 1)" in capsys.readouterr().out
    sign = ["snapshot", "sign", COMPETITION, "1", "--sha256", final.sha256]
    assert cli_main([*sign, "--by", SECRETARY.person, "--role", "secretary"]) == 0
    assert cli_main(["results", "issue", COMPETITION, "1", "--sha256", final.sha256, "--by", SECRETARY.person]) == 1
    assert "refused (bfsp 2.1.4)" in capsys.readouterr().err
    assert cli_main([*sign, "--by", CHIEF.person, "--role", "chief_judge"]) == 0
    assert cli_main(["results", "issue", COMPETITION, "1", "--sha256", final.sha256, "--by", SECRETARY.person]) == 0
    assert "3 result documents issued" in capsys.readouterr().out
    assert cli_main(["results", "list", COMPETITION]) == 0
    assert "p01          place 1" in capsys.readouterr().out
    out = tmp_path / "p01.pdf"
    assert cli_main(["results", "show", COMPETITION, "p01", "--format", "pdf", "--out", str(out)]) == 0
    text = pdf_text(out.read_bytes())
    assert "Tax withheld (13 %)" in text and final.sha256 in text and "7.1.2" in text
    assert cli_main(["snapshot", "show", COMPETITION, "1", "--format", "html", "--out", str(tmp_path / "f.html")]) == 0
    assert "FINAL PROTOCOL, compiled by the Secretary" in (tmp_path / "f.html").read_text()


def test_the_api_ends_compiles_and_serves_each_participant_his_own_document(tmp_path: Path) -> None:
    s = Scenario(tmp_path)
    assert {v.outcome for v in s.pipeline.judge([*opening(s.records), *play_to_the_end(s.records)])} == {"accepted"}
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET)  # type: ignore[call-arg]

    def bearer(role: str, person: str, **claims: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {issue_token(SECRET, person, role, **claims)}"}  # type: ignore[arg-type]

    base = f"/v1/competitions/{COMPETITION}"
    secretary, chief = bearer("secretary", SECRETARY.person), bearer("chief_judge", CHIEF.person)
    p01, p02 = (bearer("participant", f"person-{p}", competition=COMPETITION) for p in ("p01", "p02"))
    with TestClient(create_app(settings, workers=True)) as api:
        refused = api.post(f"{base}/end", headers=secretary)
        assert refused.status_code == 409 and refused.json()["error"]["rule"] == "bfsp 2.1.1"
        ended = api.post(f"{base}/end", headers=chief)
        assert ended.status_code == 201, ended.text
        assert (ended.json()["closed_by"], ended.json()["winner"]) == (CHIEF.person, "p01")
        final = api.post(f"{base}/protocol/final", headers=secretary)
        assert final.status_code == 201 and final.json()["final"] is True
        sha256 = final.json()["sha256"]
        early = api.post(f"{base}/results", json={"version": 1, "sha256": sha256}, headers=secretary)
        assert early.status_code == 409 and early.json()["error"]["rule"] == "bfsp 2.1.4"
        signed = api.post(f"{base}/protocol/snapshots/1/signatures", json={"sha256": sha256}, headers=chief)
        assert signed.status_code == 201
        issued = api.post(f"{base}/results", json={"version": 1, "sha256": sha256}, headers=secretary)
        assert issued.status_code == 201 and issued.json()["total"] == 3
        own = api.get(f"{base}/results", headers=p02).json()
        assert [d["participant"] for d in own["items"]] == ["p02"] and own["items"][0]["place"] == 3
        assert api.get(f"{base}/results/p01", headers=p02).status_code == 404
        mine = api.get(f"{base}/results/p01", headers=p01).json()
        assert mine["prize"]["net"] == mine["prize"]["gross"] - mine["prize"]["withheld"] and mine["protocol_sha256"] == sha256
        assert api.get(f"{base}/results", headers=bearer("viewer", "someone")).status_code == 403
        page = api.get(f"{base}/results/p01", params={"format": "html"}, headers=chief)
        assert "Tax withheld (13 %)" in page.text and sha256 in page.text
        pdf = api.get(f"{base}/results/p02", params={"format": "pdf"}, headers=bearer("federation", "bfsp-board"))
        assert pdf.headers["content-type"] == "application/pdf"
        assert "Place 3" in pdf_text(pdf.content)
