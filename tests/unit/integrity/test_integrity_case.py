"""Integrity cases (domain/integrity/case.py, ingest/handlers/integrity.py): opened from an alert with its evidence,
noted, concluded, and a confirmed one reported to the competition's Chief Judge — the domain's rules alone, then
each act through the embedded referee over the Minsk Open's records (tests/federation_records.py)."""

from __future__ import annotations

from pathlib import Path

import embedded_referee
import pytest
from federation_records import CHIEF, COMPETITION, JUDGE, Records, at, hand, opening, table

from domain.errors import IntegrityCaseError, NotPermittedError, RuleError
from domain.hand.aggregate import hand_id
from domain.integrity.case import CaseState, DealtHand, IntegrityCase, verify_evidence
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
from ingest.envelope import RecordedBy
from projections.database import SqliteReadDatabase
from projections.read_models import ReadModels
from projections.runner import Projector

pytestmark = pytest.mark.unit

ANALYST = RecordedBy(person="an-analyst", role=Role.INTEGRITY)
HAND_1 = str(hand_id(table(), 1, COMPETITION))
HAND_2 = str(hand_id(table(), 2, COMPETITION))


def opened(case: str = "case-1", players: tuple[str, ...] = ("p01", "p02"), **changes: object) -> IntegrityCaseOpened:
    fields: dict[str, object] = {
        "case": case, "competition": COMPETITION, "players": players, "suspicion": Suspicion.CHIP_DUMPING,
        "origin": CaseOrigin.ALERT, "grounds": "chip flow +10,050 from p02 to p01 over 1 pot",
        "evidence": (EvidenceHand(HAND_1, "p02 shoved queens into p01's ace-king"),), "score": 4.6,
    }
    fields.update(changes)
    return IntegrityCaseOpened(**fields)  # type: ignore[arg-type]


# --- the domain ------------------------------------------------------------------------------------------------


def test_a_case_goes_open_noted_confirmed_reported() -> None:
    case = IntegrityCase.open(opened(), Role.INTEGRITY, at(30))
    assert case.state is CaseState.OPEN
    case.note(IntegrityCaseNoted("case-1", "p02 folded nothing else all night", (EvidenceHand(HAND_2, "again"),)),
              Role.INTEGRITY, at(31))
    assert [e.hand_id for e in case.evidence] == [HAND_1, HAND_2]
    case.conclude(IntegrityCaseConcluded("case-1", CaseOutcome.CONFIRMED, "the flow went one way"), Role.INTEGRITY,
                  at(32))
    assert case.state is CaseState.CONFIRMED
    case.report(IntegrityCaseReported("case-1", ("p01", "p02"), "7.1.4", chief_judge="cj-ivanov", summary="p02 dumped to p01"),
                Role.INTEGRITY, {"p01", "p02", "p03"}, ["cj-ivanov"], at(33))
    assert case.state is CaseState.REPORTED
    with pytest.raises(IntegrityCaseError, match="cannot be noted now"):
        case.note(IntegrityCaseNoted("case-1", "late"), Role.INTEGRITY, at(34))


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"case": "a/b"}, "a name of its own"),
        ({"players": ("p01",)}, "names two players or more"),
        ({"players": ("p01", "p01")}, "each once"),
        ({"grounds": " "}, "the alert's reasons"),
        ({"evidence": ()}, "carries the alert's score and its evidence"),
        ({"score": None}, "carries the alert's score"),
        ({"origin": CaseOrigin.COMPLAINT}, "only an alert has a score"),
        ({"evidence": (EvidenceHand(HAND_1, "a"), EvidenceHand(HAND_1, "b"))}, "in the case's evidence already"),
        ({"evidence": (EvidenceHand(HAND_1, ""),)}, "with its reason in words"),
    ],
)
def test_an_opening_without_what_it_needs_is_refused(changes: dict[str, object], why: str) -> None:
    with pytest.raises(IntegrityCaseError, match=why) as refused:
        IntegrityCase.open(opened(**changes), Role.INTEGRITY, at(30))
    assert str(refused.value.rule) == "bfsp 7.1.4"


def test_a_complaint_needs_no_alert_but_its_grounds() -> None:
    case = IntegrityCase.open(
        opened(origin=CaseOrigin.COMPLAINT, score=None, evidence=(), grounds="p03 says they share a room"),
        Role.FEDERATION, at(30),
    )
    with pytest.raises(IntegrityCaseError, match="cites no hand"):
        case.conclude(IntegrityCaseConcluded("case-1", CaseOutcome.CONFIRMED, "sure"), Role.INTEGRITY, at(31))
    case.conclude(IntegrityCaseConcluded("case-1", CaseOutcome.CLEARED, "friends, honest"), Role.INTEGRITY, at(31))
    with pytest.raises(IntegrityCaseError, match="only a confirmed case"):
        case.report(IntegrityCaseReported("case-1", ("p01",), "7.1.4", chief_judge="cj", summary="x"), Role.INTEGRITY, {"p01"}, ["cj"],
                    at(32))


@pytest.mark.parametrize("role", [Role.JUDGE, Role.CHIEF_JUDGE, Role.VIEWER, Role.DEALER])
def test_only_the_integrity_team_opens_a_case(role: Role) -> None:
    with pytest.raises(NotPermittedError, match="only the federation or an integrity analyst may") as refused:
        IntegrityCase.open(opened(), role, at(30))
    assert str(refused.value.rule) == "bfsp 7.1.4"


@pytest.mark.parametrize(
    ("report", "why", "rule"),
    [
        (IntegrityCaseReported("case-1", ("p01", "p03"), "7.1.4", chief_judge="cj", summary="s"), "names the case's players", "bfsp 7.1.1"),
        (IntegrityCaseReported("case-1", ("p01",), "7.1.2", chief_judge="cj", summary="s"), "not as violation 7.1.2", "bfsp 7.1.1"),
        (IntegrityCaseReported("case-1", ("p01",), "9.9", chief_judge="cj", summary="s"), "no violation 9.9", "bfsp 7.1.1"),
        (IntegrityCaseReported("case-1", ("p02",), "7.1.4", chief_judge="cj", summary="s"), "p02 is not registered", "bfsp 7.2.2"),
        (IntegrityCaseReported("case-1", ("p01",), "7.1.15", chief_judge="judge", summary="s"), "judge is not the Chief Judge", "bfsp 2.1.1"),
        (IntegrityCaseReported("case-1", ("p01",), "7.1.15", chief_judge="cj", summary=" "), "what the evidence shows", "bfsp 7.1.1"),
    ],
)
def test_a_report_names_the_cases_registered_players_a_collusion_violation_and_the_chief_judge(
    report: IntegrityCaseReported, why: str, rule: str
) -> None:
    case = IntegrityCase.open(opened(), Role.INTEGRITY, at(30))
    case.conclude(IntegrityCaseConcluded("case-1", CaseOutcome.CONFIRMED, "one way"), Role.INTEGRITY, at(31))
    with pytest.raises(RuleError, match=why) as refused:
        case.report(report, Role.INTEGRITY, {"p01"}, ["cj"], at(32))
    assert str(refused.value.rule) == rule


def test_evidence_is_an_ended_hand_of_the_competition_two_of_the_players_played() -> None:
    evidence = (EvidenceHand("h", "why"),)
    verify_evidence("c", ("a", "b"), evidence, {"h": DealtHand("c", frozenset({"a", "b", "x"}), True)})
    for found, why in (
        (None, "is not a hand of c"),
        (DealtHand("other", frozenset({"a", "b"}), True), "is not a hand of c"),
        (DealtHand("c", frozenset({"a", "b"}), False), "has not ended"),
        (DealtHand("c", frozenset({"a", "x"}), True), "dealt in a of the case's players"),
    ):
        with pytest.raises(IntegrityCaseError, match=why):
            verify_evidence("c", ("a", "b"), evidence, {"h": found})


# --- through the referee --------------------------------------------------------------------------------------


def test_the_referee_judges_a_case_from_its_opening_to_its_report(tmp_path: Path) -> None:
    pipeline = embedded_referee.Pipeline(tmp_path)
    records = Records()
    pipeline.judge(opening(records))
    played = pipeline.judge(hand(records, 1, "p01", "p02", 10))
    assert {v.outcome for v in played} == {"accepted"}

    def judged(event: object, by: RecordedBy = ANALYST, minute: float = 30) -> tuple[str, str, str]:
        (verdict,) = pipeline.judge([records.record(event, by, at(minute))])
        r = verdict.rejection
        return verdict.outcome, str(r.rule) if r and r.rule else (r.field if r else ""), r.reason if r else ""

    unknown = EvidenceHand(str(hand_id(table(), 7, COMPETITION)), "a hand never dealt")
    assert judged(opened(evidence=(unknown,)))[:2] == ("rejected", "bfsp 7.1.4")
    assert judged(opened(players=("p01", "p04")))[2].startswith(f"evidence hand {HAND_1} dealt in p01 of")
    assert judged(opened(evidence=(EvidenceHand("T1/1", "by name"),)))[:2] == ("rejected", "payload.evidence")
    assert judged(opened(), JUDGE)[:2] == ("rejected", "bfsp 7.1.4")
    assert judged(opened())[0] == "accepted"
    assert judged(opened(), minute=31)[2] == "integrity case case-1 has been opened already"
    assert judged(IntegrityCaseNoted("case-9", "no such case"))[::2] == (
        "rejected", f"no integrity case case-9 has been opened at {COMPETITION}"
    )
    assert judged(IntegrityCaseNoted("case-1", "p02's shove was 20 big blinds deep"), minute=32)[0] == "accepted"
    confirmed = IntegrityCaseConcluded("case-1", CaseOutcome.CONFIRMED, "the chips went one way")
    assert judged(confirmed, minute=33)[0] == "accepted"
    wrong_judge = IntegrityCaseReported("case-1", ("p01", "p02"), "7.1.4", chief_judge=JUDGE.person, summary="p02 dumped to p01")
    assert judged(wrong_judge, minute=34)[:2] == ("rejected", "bfsp 2.1.1")
    report = IntegrityCaseReported("case-1", ("p01", "p02"), "7.1.4", chief_judge=CHIEF.person, summary="p02 dumped to p01")
    assert judged(report, minute=34)[0] == "accepted"
    stored = pipeline.store.repository.get(IntegrityCase.open(opened(), Role.INTEGRITY, at(30)).id)
    assert isinstance(stored, IntegrityCase) and stored.state is CaseState.REPORTED
    assert [e.hand_id for e in stored.evidence] == [HAND_1]


def test_the_projector_keeps_each_case_as_it_stands_and_a_rebuild_makes_the_same(tmp_path: Path) -> None:
    pipeline = embedded_referee.Pipeline(tmp_path)
    records = Records()
    pipeline.judge(opening(records))
    pipeline.judge(hand(records, 1, "p01", "p02", 10))
    pipeline.judge([records.record(opened(), ANALYST, at(30))])
    # a page of one event at a time: each case event after the first is projected by a "later run" as well
    projector = Projector(pipeline.store, SqliteReadDatabase(tmp_path / "read.sqlite"), page=1)
    projector.catch_up()
    models = ReadModels(projector.database)
    assert [c.state for c in models.integrity_cases(COMPETITION)] == ["open"]
    more = [
        records.record(IntegrityCaseNoted("case-1", "p02 never plays queens this way"), ANALYST, at(31)),
        records.record(IntegrityCaseConcluded("case-1", CaseOutcome.CONFIRMED, "one way"), ANALYST, at(32)),
        records.record(IntegrityCaseReported("case-1", ("p02",), "7.1.15", chief_judge=CHIEF.person, summary="soft"), ANALYST, at(33)),
    ]
    assert [v.outcome for v in pipeline.judge(more)] == ["accepted"] * 3
    Projector(pipeline.store, projector.database, page=7).catch_up()  # another projector's run goes on from here
    found = models.integrity_case(COMPETITION, "case-1")
    assert found is not None and found.state == "reported" and found.version == 4
    assert [n.note for n in found.notes] == ["p02 never plays queens this way"]
    assert found.report is not None and (found.report.what, found.report.rule) == ("soft play", "bfsp 7.1.15")
    assert models.integrity_cases(COMPETITION, reported_only=True) == [found]
    projector.rebuild()
    assert models.integrity_case(COMPETITION, "case-1") == found
    assert models.integrity_case(COMPETITION, "case-2") is None
