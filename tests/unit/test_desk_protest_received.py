"""A participant's protest handed in and its receipt recorded by the Secretary or the Chief Judge (bfsp 7.3.1; issue
13): ``ProtestReceived`` (domain/protests/events.py), judged by ``Protest.receive`` through the desk's
``_receive`` (ingest/handlers/protests.py). The Protest it opens is the participant's filing, received for the Chief
Judge, so every reader of protests reads it as one; a judge may not record it, a written one needs its text or its
scan's SHA-256, and it is refused where the participant's own filing would be."""

from __future__ import annotations

from pathlib import Path

import embedded_referee
import pytest
from federation_records import CHIEF, COMPETITION, JUDGE, SECRETARY, Records, at, opening

from domain.discipline import PenaltyKind
from domain.discipline.events import PenaltyImposed, ViolationRecorded
from domain.protests import Contested, ContestedKind, Protest, ProtestTier, protest_id
from domain.protests.events import ProtestFiled, ProtestReceived
from domain.roles import Role
from ingest.envelope import RecordedBy

pytestmark = pytest.mark.unit

SCAN = "ab" * 32
AGAINST_WARNING = Contested("penalty-1", ContestedKind.PENALTY, Role.CHIEF_JUDGE, sanctioned="p01")


def received(protest: str, minutes: float, **changes: object) -> ProtestReceived:
    fields: dict[str, object] = {
        "protest": protest, "competition": COMPETITION, "tier": ProtestTier.FEDERATION, "filer": "p01",
        "contested": AGAINST_WARNING, "grounds": "", "written": True, "received_at": at(minutes),
        "document_sha256": SCAN,
    }
    fields.update(changes)
    return ProtestReceived(**fields)  # type: ignore[arg-type]


def test_the_secretary_records_a_written_protest_handed_in_and_a_judge_may_not(tmp_path: Path) -> None:
    pipeline = embedded_referee.Pipeline(tmp_path)
    records = Records()
    pipeline.judge(opening(records))
    warned = pipeline.judge([
        records.record(ViolationRecorded("p01", "7.1.2", "", False, 1, "kept his cards"), JUDGE, at(5)),
        records.record(PenaltyImposed("p01", 1, PenaltyKind.WARNING, Role.CHIEF_JUDGE), CHIEF, at(6)),
    ])  # fmt: skip
    assert [v.outcome for v in warned] == ["accepted"] * 2

    def judged(event: object, by: object, minutes: float) -> tuple[str, str, str]:
        (verdict,) = pipeline.judge([records.record(event, by, at(minutes))])  # type: ignore[arg-type]
        r = verdict.rejection
        return verdict.outcome, str(r.rule) if r else "", r.reason if r else ""

    # before this act, an official could only record the filing itself, which is the participant's
    as_filed = ProtestFiled("protest-0", COMPETITION, ProtestTier.FEDERATION, "p01", AGAINST_WARNING, "unfair", True,
                            Role.CHIEF_JUDGE, at(7))
    assert judged(as_filed, SECRETARY, 7)[:2] == ("rejected", "bfsp 7.3.1")
    refused = judged(received("protest-1", 8), JUDGE, 8)
    assert refused[:2] == ("rejected", "bfsp 7.3.1") and "may not record a participant's protest received" in refused[2]
    assert judged(received("protest-1", 9, document_sha256=""), SECRETARY, 9)[2].startswith(
        "a written protest received is recorded with its text or the SHA-256 of its scan"
    )
    assert "64 hexadecimal digits" in judged(received("protest-1", 10, document_sha256="abc"), SECRETARY, 10)[2]
    assert judged(received("protest-1", 11, written=False, grounds="said so"), SECRETARY, 11)[2] == (
        "a protest to the federation is a written statement with its grounds"
    )
    assert judged(received("protest-1", 12), SECRETARY, 12) == ("accepted", "", "")
    assert judged(received("protest-1", 13), CHIEF, 13)[2] == "protest protest-1 has been filed already"

    protest = pipeline.store.repository.get(protest_id(COMPETITION, "protest-1"))
    assert isinstance(protest, Protest)
    filing = protest.filing
    assert (filing.filer, filing.received_by, filing.document_sha256, filing.written) == ("p01", Role.CHIEF_JUDGE, SCAN, True)
    stored = list(pipeline.store.events.get(protest.id))
    assert type(stored[0]).__name__ == "ProtestFiled"
    assert stored[0].meta["recorded_by"] == {"person": SECRETARY.person, "role": "secretary"}


def test_a_protest_to_the_chief_judge_is_received_by_him_on_the_spot() -> None:
    against_finding = Contested("ruling-1", ContestedKind.FINDING_OF_FACT, Role.JUDGE)
    protest = Protest.receive(
        received("protest-2", 20, tier=ProtestTier.CHIEF_JUDGE, contested=against_finding, written=False,
                 grounds="the flop came off the bottom", document_sha256="", filer="p02"),
        None, Role.CHIEF_JUDGE,
    )  # fmt: skip
    assert protest.filing.filer == "p02" and protest.filing.grounds == "the flop came off the bottom"
    assert protest.filing.document_sha256 == ""  # no paper: the text is the protest


def test_a_participant_files_his_own_protest_and_no_one_elses(tmp_path: Path) -> None:
    pipeline = embedded_referee.Pipeline(tmp_path)
    records = Records()
    pipeline.judge(opening(records))
    pipeline.judge([
        records.record(ViolationRecorded("p01", "7.1.2", "", False, 1, "kept his cards"), JUDGE, at(5)),
        records.record(PenaltyImposed("p01", 1, PenaltyKind.WARNING, Role.CHIEF_JUDGE), CHIEF, at(6)),
    ])  # fmt: skip

    def filed(by: RecordedBy, protest: str, minutes: float) -> tuple[str, str, str]:
        filing = ProtestFiled(protest, COMPETITION, ProtestTier.FEDERATION, "p01", AGAINST_WARNING, "unfair", True,
                              Role.CHIEF_JUDGE, at(minutes))
        (verdict,) = pipeline.judge([records.record(filing, by, at(minutes))])
        r = verdict.rejection
        return verdict.outcome, str(r.rule) if r else "", r.reason if r else ""

    # p02's person filing in p01's name (both are participants: the roles table lets both file)
    assert filed(RecordedBy(person="person-p02", role=Role.PARTICIPANT), "protest-1", 7) == (
        "rejected", "bfsp 7.3.1", "a participant files his own protest: person-p02 may not file in the name of p01"
    )
    assert filed(RecordedBy(person="person-p01", role=Role.PARTICIPANT), "protest-1", 8) == ("accepted", "", "")
