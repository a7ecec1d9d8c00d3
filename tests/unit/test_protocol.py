"""The competition protocol from a small competition judged by the embedded referee: its sections, its HTML
and PDF, its snapshots (signed through the desk, forwarded with a protest) and their verification, which names
the stored event a single changed byte broke."""

from __future__ import annotations

import copy
import dataclasses
import json
import sqlite3
from datetime import date, timedelta
from pathlib import Path

import pytest
from embedded_referee import Pipeline
from fastapi.testclient import TestClient
from federation_records import (
    CHIEF,
    COMPETITION,
    DEALER,
    FEDERATION,
    JUDGE,
    SECRETARY,
    Records,
    all_in_hand,
    at,
    hand,
    opening,
    play_to_the_end,
    seats,
    table,
)

from api.app import create_app
from api.auth import issue_token
from api.cli import main as cli_main
from api.settings import Settings
from domain.competition.events import ParticipantRegistered
from domain.hand.events import HandVoided, PotShare
from domain.protests import Contested, ContestedKind, ProtestFiled, ProtestTier, protest_id
from domain.protests.events import ProtestDecided, ProtestDecision, ProtestForwarded
from domain.protocol import ProtocolSigned, heads_digest, protocol_digest
from domain.roles import Role
from domain.rulings import PotReaward, RulingIssued, RulingKind
from ingest.envelope import RecordedBy
from ingest.protocol_acts import signature, snapshot_request
from ingest.publish import hand_records
from projections.protocol import (
    PROTOCOL_FORMAT,
    as_at,
    build,
    competition_streams,
    protocol,
    signatures,
    snapshots,
    verify_snapshot,
)
from projections.protocol_render import to_html, to_pdf

pytestmark = pytest.mark.unit

P01 = RecordedBy(person="person-p01", role=Role.PARTICIPANT)


@pytest.fixture
def played(tmp_path: Path) -> tuple[Pipeline, Records]:
    pipeline = Pipeline(tmp_path)
    records = Records()
    protest = ProtestFiled(
        "protest-1", COMPETITION, ProtestTier.FEDERATION, "p01",
        Contested("penalty-1", ContestedKind.PENALTY, Role.CHIEF_JUDGE, sanctioned="p01"),
        "I folded in time", True, Role.CHIEF_JUDGE, at(15),
    )
    competition = [*opening(records), *play_to_the_end(records)]
    verdicts = pipeline.judge(competition[:-1])
    verdicts += pipeline.judge([records.record(protest, P01, at(15))])
    verdicts += pipeline.judge(competition[-1:])  # the last bust: p01 wins
    assert {v.outcome for v in verdicts} == {"accepted"}, [v.rejection for v in verdicts if v.rejection]
    return pipeline, records


def test_the_protocol_reads_the_competition_from_its_events(played: tuple[Pipeline, Records]) -> None:
    pipeline, _ = played
    document = protocol(pipeline.store, COMPETITION)
    assert document["competition"]["winner"] == "p01"
    assert document["competition"]["rulebook_version"] == "2024-01"
    assert [(o["person"], o["role"]) for o in document["officials"]][:2] == [
        ("cj-ivanov", "chief_judge"), ("sec-petrova", "secretary"),
    ]
    [seat_draw] = document["draws"]
    assert seat_draw["seed_matches_commitment"] and seat_draw["seats_match_seed"]
    assert [(e["participant"], e["place"]) for e in document["eliminations"]] == [("p02", 3), ("p03", 2)]
    assert [(p["place"], p["participant"], p["prize"]["gross"]) for p in document["placings"]] == [
        (1, "p01", 5000), (2, "p03", 3000), (3, "p02", 0),
    ]
    assert [(h["number"], h["winners"], h["pots"][0]["amount"]) for h in document["hands"]] == [
        (1, ["p01"], 20_050), (2, ["p01"], 19_900),
    ]
    assert [(v["rule"], v["participant"]) for v in document["violations"]] == [("bfsp 7.1.2", "p01")]
    assert [(p["reference"], p["kind"], p["imposed_by"]) for p in document["penalties"]] == [
        ("penalty-1", "warning", "chief_judge"),
    ]
    [filed] = document["protests"]
    assert (filed["tier"], filed["filer"], filed["decision"], filed["overdue"]) == ("federation", "p01", None, False)


def test_the_protocol_prints_as_escaped_html_and_as_pdf(played: tuple[Pipeline, Records]) -> None:
    pipeline, _ = played
    document = protocol(pipeline.store, COMPETITION)
    document["competition"]["title"] = "Minsk <Open> & Co"
    page = to_html(document)
    assert "<title>Protocol of Minsk &lt;Open&gt; &amp; Co</title>" in page
    assert "<script" not in page and "bfsp 7.1.2" in page and "<h2>Placings and prizes</h2>" in page
    pdf = to_pdf(document)
    assert pdf.startswith(b"%PDF-") and len(pdf) > 2000


def test_a_snapshot_is_signed_forwarded_and_verified(played: tuple[Pipeline, Records]) -> None:
    pipeline, records = played
    snapshot = pipeline.take_snapshot(SECRETARY, at(30))
    assert (snapshot.version, snapshot.name) == (1, f"{COMPETITION}/protocol/v1")
    assert snapshot.sha256 == protocol_digest(protocol(pipeline.store, COMPETITION))
    assert snapshot.chain_head == heads_digest(snapshot.heads)
    judge_signs = ProtocolSigned(COMPETITION, 1, snapshot.sha256, JUDGE.person, Role.JUDGE)
    other_text = ProtocolSigned(COMPETITION, 1, "0" * 64, SECRETARY.person, Role.SECRETARY)
    signatures = [
        records.record(judge_signs, JUDGE, at(31)),
        records.record(other_text, SECRETARY, at(31)),
        records.record(ProtocolSigned(COMPETITION, 1, snapshot.sha256, SECRETARY.person, Role.SECRETARY), SECRETARY,
                       at(32)),
        records.record(ProtocolSigned(COMPETITION, 1, snapshot.sha256, CHIEF.person, Role.CHIEF_JUDGE), CHIEF, at(33)),
    ]
    verdicts = pipeline.judge(signatures)
    assert [v.outcome for v in verdicts] == ["rejected", "rejected", "accepted", "accepted"]
    assert verdicts[0].rejection is not None and verdicts[0].rejection.rule == "bfsp 2.1.4"
    assert verdicts[0].rejection.reason.startswith("a judge may not sign the final protocol")
    assert verdicts[1].rejection is not None and "another text" in verdicts[1].rejection.reason
    forwarded = ProtestForwarded("protest-1", snapshot.name, snapshot.chain_head, at(34), at(34) + timedelta(days=30))
    assert [v.outcome for v in pipeline.judge([records.record(forwarded, CHIEF, at(34))])] == ["accepted"]
    assert pipeline.store.repository.get(protest_id(COMPETITION, "protest-1")).state == "forwarded"
    later = protocol(pipeline.store, COMPETITION)
    assert [(s["person"], s["role"]) for s in later["signatures"]] == [
        ("sec-petrova", "secretary"), ("cj-ivanov", "chief_judge"),
    ]
    assert later["protests"][0]["forwarded"]["snapshot"] == snapshot.name
    # The store moved on after the snapshot; the snapshot still verifies against the heads it recorded.
    assert verify_snapshot(pipeline.store, snapshot).ok
    assert [s.version for s in snapshots(pipeline.store, COMPETITION)] == [1]


def test_a_forwarded_protocol_must_be_a_snapshot_the_archive_keeps(played: tuple[Pipeline, Records]) -> None:
    pipeline, records = played
    forwarded = ProtestForwarded("protest-1", f"{COMPETITION}/protocol/v9", "a" * 64, at(34), at(34) + timedelta(days=30))
    [verdict] = pipeline.judge([records.record(forwarded, CHIEF, at(34))])
    assert verdict.rejection is not None and verdict.rejection.rule == "bfsp 7.3.3"
    assert "is not in the archive" in verdict.rejection.reason


def test_a_single_changed_byte_in_a_stored_event_is_named_by_the_snapshots_verification(
    played: tuple[Pipeline, Records],
) -> None:
    pipeline, _ = played
    snapshot = pipeline.take_snapshot(SECRETARY, at(30))
    with sqlite3.connect(pipeline.path) as db:
        table = next(
            name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'") if "event" in name
            and "referee" not in name
        )
        rows = db.execute(f"SELECT originator_id, originator_version, state FROM {table}").fetchall()
        stream, version, state = next(r for r in rows if b'"place":3' in bytes(r[2]))
        db.execute(
            f"UPDATE {table} SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (bytes(state).replace(b'"place":3', b'"place":4'), stream, version),
        )
    verification = verify_snapshot(pipeline.store, snapshot)
    assert not verification.ok
    assert f"version {version} (PlayerEliminated)" in verification.difference
    assert "its content hashes to" in verification.difference


def test_a_snapshot_in_an_older_protocol_format_verifies_by_its_hash_and_chains_not_by_recomputing(
    played: tuple[Pipeline, Records],
) -> None:
    pipeline, _ = played
    current = pipeline.take_snapshot(SECRETARY, at(30))
    assert current.protocol["format"] == PROTOCOL_FORMAT
    # a snapshot the service wrote before the protocol gained its format key and final stacks per hand
    old_document = {k: v for k, v in copy.deepcopy(current.protocol).items() if k != "format"}
    for summary in old_document["hands"]:
        summary.pop("final_stacks", None)
    old = dataclasses.replace(current, protocol=old_document, sha256=protocol_digest(old_document))
    verification = verify_snapshot(pipeline.store, old)
    assert verification.ok and "format 1" in verification.note and "not recomputed" in verification.note
    # its hash still binds it: one value changed in the old text is found
    altered = {**old_document, "as_of": "2000-01-01T00:00:00+00:00"}
    assert not verify_snapshot(pipeline.store, dataclasses.replace(old, protocol=altered)).ok
    # and a snapshot in the current format is still recomputed: a changed protocol no longer matches
    recomputed = {**current.protocol, "as_of": "2000-01-01T00:00:00+00:00"}
    forged = dataclasses.replace(current, protocol=recomputed, sha256=protocol_digest(recomputed))
    assert "as_of" in verify_snapshot(pipeline.store, forged).difference


def test_an_undecided_protest_is_overdue_once_its_deadline_has_passed(played: tuple[Pipeline, Records]) -> None:
    pipeline, records = played
    snapshot = pipeline.take_snapshot(SECRETARY, at(30))
    forwarded = ProtestForwarded("protest-1", snapshot.name, snapshot.chain_head, at(34), at(34) + timedelta(days=30))
    pipeline.judge([records.record(forwarded, CHIEF, at(34))])
    document = protocol(pipeline.store, COMPETITION)
    deadline = at(34) + timedelta(days=30)
    assert document["protests"][0]["overdue"] is False
    assert as_at(document, deadline)["protests"][0]["overdue"] is False
    assert as_at(document, deadline + timedelta(seconds=1))["protests"][0]["overdue"] is True


def test_a_federation_decision_after_its_thirty_days_is_flagged_overdue(played: tuple[Pipeline, Records]) -> None:
    pipeline, records = played
    snapshot = pipeline.take_snapshot(SECRETARY, at(30))
    forwarded = ProtestForwarded("protest-1", snapshot.name, snapshot.chain_head, at(34), at(34) + timedelta(days=30))
    late = at(34) + timedelta(days=31)
    decided = ProtestDecided("protest-1", ProtestDecision.DISMISSED, Role.FEDERATION, "the warning stands", late)
    verdicts = pipeline.judge([records.record(forwarded, CHIEF, at(34)), records.record(decided, FEDERATION, late)])
    assert [v.outcome for v in verdicts] == ["accepted", "accepted"], [v.rejection for v in verdicts]
    [filed] = protocol(pipeline.store, COMPETITION)["protests"]
    assert filed["deadline"] == (at(34) + timedelta(days=30)).isoformat()
    assert filed["decision"]["overdue"] is True and filed["overdue"] is True


SECRET = "test-secret-of-at-least-thirty-two-bytes"


def bearer(role: str, person: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(SECRET, person, role)}"}


def test_the_api_serves_the_protocol_and_lets_only_the_secretary_or_chief_judge_take_snapshots(
    played: tuple[Pipeline, Records], tmp_path: Path
) -> None:
    pipeline, records = played
    late = ParticipantRegistered("p09", "person-p09", date(1990, 1, 1))
    assert [v.outcome for v in pipeline.judge([records.record(late, DEALER, at(25))])] == ["rejected"]
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET)
    judge, secretary = bearer("judge", JUDGE.person), bearer("secretary", SECRETARY.person)
    base = f"/v1/competitions/{COMPETITION}/protocol"
    with TestClient(create_app(settings, workers=True)) as api:  # the app's referee judges what it submits
        document = api.get(base, headers=judge)
        assert document.status_code == 200 and document.json()["competition"]["winner"] == "p01"
        page = api.get(base, params={"format": "html"}, headers=judge)
        assert page.headers["content-type"].startswith("text/html") and "Placings and prizes" in page.text
        pdf = api.get(base, params={"format": "pdf"}, headers=judge)
        assert pdf.headers["content-type"] == "application/pdf" and pdf.content.startswith(b"%PDF-")
        refused = api.post(f"{base}/snapshots", headers=judge)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
        taken = api.post(f"{base}/snapshots", headers=secretary)
        assert taken.status_code == 201 and taken.json()["version"] == 1
        listed = api.get(f"{base}/snapshots", headers=judge).json()
        assert [s["sha256"] for s in listed["items"]] == [taken.json()["sha256"]]
        one = api.get(f"{base}/snapshots/1", headers=judge).json()
        assert one["verification"] == {"ok": True, "difference": "", "note": ""}
        assert api.get(f"{base}/snapshots/2", headers=judge).status_code == 404
        assert api.get("/v1/competitions/nowhere-cup/protocol", headers=judge).status_code == 404
        viewer = bearer("viewer", "fan-1")
        assert api.get(f"{base}/snapshots/1", headers=viewer).status_code == 403
        public = api.get(base, headers=viewer).json()
        assert public["placings"] == document.json()["placings"]
        # the judge's attempt at a snapshot is on record too: the referee refused it (bfsp 2.3.3)
        assert [(r["rule"], r["reason"]) for r in public["rejections"]] == [
            ("bfsp 2.3.1", "withheld: officials only"), ("bfsp 2.3.3", "withheld: officials only"),
        ]
        assert document.json()["rejections"][0]["reason"].startswith("a dealer may not register a participant")


def test_the_cli_writes_the_protocol_in_each_format(
    played: tuple[Pipeline, Records], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("POKERAUDIT_DATA_DIR", str(tmp_path))
    for kind, opening_bytes in (("json", b"{"), ("html", b"<!DOCTYPE html>"), ("pdf", b"%PDF-")):
        out = tmp_path / f"protocol.{kind}"
        assert cli_main(["protocol", COMPETITION, "--format", kind, "--out", str(out)]) == 0
        assert out.read_bytes().startswith(opening_bytes)
    assert json.loads((tmp_path / "protocol.json").read_text())["competition"]["winner"] == "p01"
    assert cli_main(["protocol", "nowhere-cup"]) == 1
    assert "no competition nowhere-cup is stored" in capsys.readouterr().err
    played[0].take_snapshot(SECRETARY, at(30))
    assert cli_main(["protocol", COMPETITION, "--verify", "1"]) == 0
    assert f"{COMPETITION}/protocol/v1 verifies" in capsys.readouterr().out
    assert cli_main(["protocol", COMPETITION, "--verify", "2"]) == 1


def test_the_cli_renders_the_protocol_as_a_role_reads_it(
    played: tuple[Pipeline, Records], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The copy to publish goes through the API's sealing policy: the officials' words withheld from viewers."""
    monkeypatch.setenv("POKERAUDIT_DATA_DIR", str(tmp_path))
    assert cli_main(["protocol", COMPETITION]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert whole["violations"][0]["description"] == "kept his cards after announcing a fold"
    assert cli_main(["protocol", COMPETITION, "--as", "viewer"]) == 0
    public = json.loads(capsys.readouterr().out)
    assert public["violations"][0]["description"] is None and public["violations"][0]["rule"]
    assert {r["reason"] for r in public["rejections"]} <= {"withheld: officials only"}
    assert public["placings"] == whole["placings"]
    assert cli_main(["protocol", COMPETITION, "--as", "secretary"]) == 0
    assert json.loads(capsys.readouterr().out)["violations"][0]["description"] == "kept his cards after announcing a fold"


def test_a_ruling_amends_a_pot_and_a_void_is_listed_beside_the_mechanical_outcome(tmp_path: Path) -> None:
    """Hand 1 is voided after its blinds (chips returned, the button kept: bfsp 6.3), so the same deal is hand 2,
    whose whole pot a judge's ruling gives to p02: p01's all-in raise, p02's call and p03's folded big blind,
    2 x 10,000 + 50."""
    pipeline = Pipeline(tmp_path)
    records = Records()
    voided = HandVoided("the deck was one card short", "6.1.1")
    pipeline.judge([
        *opening(records),
        *list(hand(records, 1, "p01", "p02", 10))[:3],
        records.record(voided, JUDGE, at(11), table(), "1", seq=3),
    ])
    where = seats()
    redealt = hand_records(all_in_hand(1, "p01", "p02"), COMPETITION, DEALER, at(12), hand_number=2)
    ruling = RulingIssued(
        "ruling-1", f"{table()}/2", RulingKind.FINDING_OF_FACT, JUDGE.person, Role.JUDGE, "bfsp 2.2.3",
        "p02's cards were misread: the pot is his", reawards=(PotReaward(0, (PotShare(where["p02"][1], 20_050),)),),
    )
    verdicts = pipeline.judge([*redealt, records.record(ruling, JUDGE, at(14), table(), "2")])
    assert {v.outcome for v in verdicts} == {"accepted"}, [v.rejection for v in verdicts if v.rejection]
    document = protocol(pipeline.store, COMPETITION)
    first, second = document["hands"]
    assert second["pots"][0]["decided_by"]["ruling"] == "ruling-1"
    assert second["pots"][0]["awarded_by_ruling"] == [{"seat": where["p02"][1], "amount": 20_050}]
    assert [(r["ruling"], r["kind"], r["discretionary"]) for r in document["rulings"]] == [
        ("ruling-1", "finding_of_fact", True),
    ]
    assert [(a["type"], a["rule"], a["hand"]) for a in document["misdeals_and_voids"]] == [
        ("HandVoided", "6.1.1", first["hand"]),
    ]


def test_the_protocol_does_not_depend_on_the_order_its_streams_are_read_in(played: tuple[Pipeline, Records]) -> None:
    pipeline, _ = played
    streams = competition_streams(pipeline.store, COMPETITION)
    shuffled = dict(reversed(list(streams.items())))
    by_id = dict(sorted(streams.items()))
    digests = {protocol_digest(build(COMPETITION, s)) for s in (streams, shuffled, by_id)}
    assert len(streams) == 5 and len(digests) == 1  # the competition, two hands, a case, a protest


def test_snapshots_asked_for_in_one_batch_are_numbered_in_log_order_each_covering_the_log_before_it(
    played: tuple[Pipeline, Records],
) -> None:
    """The referee commits what it judged before a snapshot's record first: a snapshot covers the log up to its
    record, whatever batch it came in (so a replay cut into other batches gives the same snapshots)."""
    pipeline, records = played
    late = ParticipantRegistered("p09", "person-p09", date(1990, 1, 1))
    verdicts = pipeline.judge([
        snapshot_request(COMPETITION, SECRETARY, at(30)),
        records.record(late, DEALER, at(30)),  # refused: a rejection the second snapshot covers, the first not
        snapshot_request(COMPETITION, CHIEF, at(31)),
    ])
    assert [v.outcome for v in verdicts] == ["accepted", "rejected", "accepted"]
    first, second = snapshots(pipeline.store, COMPETITION)
    assert [(s.version, s.taken_by) for s in (first, second)] == [(1, "sec-petrova"), (2, "cj-ivanov")]
    assert first.protocol["rejections"] == [] and len(second.protocol["rejections"]) == 1
    assert first.sha256 != second.sha256 and verify_snapshot(pipeline.store, first).ok
    assert verify_snapshot(pipeline.store, second).ok


def test_who_may_take_or_sign_a_snapshot_is_judged_by_the_referee_and_each_refusal_cites_its_rule(
    played: tuple[Pipeline, Records],
) -> None:
    pipeline, records = played
    verdicts = pipeline.judge([
        snapshot_request(COMPETITION, JUDGE, at(30)),  # the roles table: a judge does not keep the protocol
        snapshot_request(COMPETITION, RecordedBy(person="sec-nobody", role=Role.SECRETARY), at(30)),
        snapshot_request("nowhere-cup", SECRETARY, at(30)),
        signature(COMPETITION, 1, "a" * 64, SECRETARY, at(30)),  # no snapshot 1 yet
    ])
    assert [v.outcome for v in verdicts] == ["rejected"] * 4
    refusals = [v.rejection for v in verdicts]
    assert all(r is not None for r in refusals)
    assert [(r.kind.value, r.rule) for r in refusals if r is not None] == [
        ("illegal", "bfsp 2.3.3"), ("illegal", "bfsp 2.1.1"), ("out_of_sequence", ""), ("illegal", "bfsp 2.1.4"),
    ]
    assert refusals[0] is not None and refusals[0].reason.startswith("a judge may not take a snapshot of the protocol")
    assert refusals[1] is not None and refusals[1].reason.startswith(f"sec-nobody is not appointed secretary of {COMPETITION}")
    assert refusals[3] is not None and "there is no snapshot 1" in refusals[3].reason
    assert snapshots(pipeline.store, COMPETITION) == []
    # the attempts are on record, in the competition's rejections
    assert len(protocol(pipeline.store, COMPETITION)["rejections"]) == 3


def test_an_official_signs_in_his_own_name_a_signature_naming_another_is_refused(
    played: tuple[Pipeline, Records],
) -> None:
    """A signature record names who signs: recorded by anyone else (another person, or the same in another
    office), it is refused citing bfsp 2.1.4, never stored as that official's signature."""
    pipeline, records = played
    snapshot = pipeline.take_snapshot(SECRETARY, at(30))
    in_his_name = ProtocolSigned(COMPETITION, 1, snapshot.sha256, CHIEF.person, Role.CHIEF_JUDGE)
    in_another_office = ProtocolSigned(COMPETITION, 1, snapshot.sha256, SECRETARY.person, Role.CHIEF_JUDGE)
    verdicts = pipeline.judge([
        records.record(in_his_name, SECRETARY, at(31)), records.record(in_another_office, SECRETARY, at(31)),
    ])
    assert [(v.outcome, v.rejection.rule if v.rejection else "") for v in verdicts] == [("rejected", "bfsp 2.1.4")] * 2
    reasons = [v.rejection.reason for v in verdicts if v.rejection is not None]
    assert reasons[0] == (
        f"an official signs in his own name: the signature says {CHIEF.person} (chief judge) signed it, and it was "
        f"recorded by {SECRETARY.person} (secretary)"
    )
    assert f"says {SECRETARY.person} (chief judge) signed it" in reasons[1]
    assert signatures(pipeline.store, COMPETITION) == []


def test_a_snapshot_of_stored_events_that_fail_verification_is_refused_citing_design_7(
    played: tuple[Pipeline, Records],
) -> None:
    pipeline, _ = played
    with sqlite3.connect(pipeline.path) as db:
        table = next(
            name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'") if "event" in name
            and "referee" not in name
        )
        rows = db.execute(f"SELECT originator_id, originator_version, state FROM {table}").fetchall()
        stream, version, state = next(r for r in rows if b'"place":3' in bytes(r[2]))
        db.execute(
            f"UPDATE {table} SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (bytes(state).replace(b'"place":3', b'"place":4'), stream, version),
        )
    pipeline.restart()  # the referee's hot aggregates are the untampered ones: read the store afresh
    [verdict] = pipeline.judge([snapshot_request(COMPETITION, SECRETARY, at(30))])
    assert verdict.rejection is not None and verdict.rejection.rule == "DESIGN 7"
    assert "fail verification" in verdict.rejection.reason and "PlayerEliminated" in verdict.rejection.reason


def test_each_competition_of_a_store_has_its_own_protocol(played: tuple[Pipeline, Records]) -> None:
    pipeline, _ = played
    gomel = Records("gomel-cup-2026")
    verdicts = pipeline.judge([*opening(gomel), *hand(gomel, 1, "p01", "p02", 10)])
    assert {v.outcome for v in verdicts} == {"accepted"}
    minsk, other = protocol(pipeline.store, COMPETITION), protocol(pipeline.store, "gomel-cup-2026")
    assert [h["number"] for h in minsk["hands"]] == [1, 2] and [h["number"] for h in other["hands"]] == [1]
    assert {h["hand"] for h in minsk["hands"]}.isdisjoint(h["hand"] for h in other["hands"])
    assert other["competition"]["id"] == "gomel-cup-2026" and "winner" not in other["competition"]
    assert minsk["protests"] and not other["protests"]
