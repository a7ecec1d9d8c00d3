"""Permissions come from appointments (DESIGN decision 11; bfsp 2.1.1, 2.4.1): the referee refuses an official's
act at a competition whose records did not appoint him to that office, and a dealer's at a table the Chief Judge
did not assign him, citing the rule; a competition with no records of its own (imported hand histories) is judged
by the roles table alone."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from embedded_referee import Pipeline
from federation_records import (
    CHIEF,
    DEALER,
    FEDERATION,
    JUDGE,
    REGULATIONS,
    Records,
    all_in_hand,
    at,
    opening,
    table,
)

from api.appointments import StoredAppointments
from api.auth import Principal
from domain.competition.events import OfficialAppointed, OfficialRemoved, RegulationsAdopted
from domain.discipline.events import ViolationRecorded
from domain.errors import NotPermittedError
from domain.hand.events import HandStarted
from domain.officials.appointments import verify_appointed
from domain.rejections import Rejection
from domain.roles import Role
from ingest.envelope import RecordedBy
from ingest.publish import hand_records
from ingest.referee import Verdict

pytestmark = pytest.mark.unit


@pytest.fixture
def pipeline(tmp_path: Path) -> Pipeline:
    return Pipeline(tmp_path)


def outcomes(verdicts: list[Verdict]) -> list[str]:
    return [v.outcome for v in verdicts]


def refusal(verdicts: list[Verdict]) -> Rejection:
    assert outcomes(verdicts) == ["rejected"], [v.rejection for v in verdicts]
    rejection = verdicts[0].rejection
    assert rejection is not None and rejection.kind == "illegal"
    return rejection


def violation(by: RecordedBy, records: Records) -> tuple[bytes, bytes]:
    return records.record(ViolationRecorded("p01", "7.1.2", f"{table()}/1", False, 1, "slow-rolled"), by, at(5))


def test_a_judge_never_appointed_to_the_competition_records_no_violation(pipeline: Pipeline) -> None:
    records = Records()
    assert set(outcomes(pipeline.judge(list(opening(records))))) == {"accepted"}
    stranger = RecordedBy(person="judge-from-elsewhere", role=Role.JUDGE)
    refused = refusal(pipeline.judge([violation(stranger, records)]))
    assert refused.rule == "bfsp 2.1.1"
    assert refused.reason.startswith(f"judge-from-elsewhere is not appointed judge of {records.competition_id}")
    # the competition's own judge records it
    assert outcomes(pipeline.judge([violation(JUDGE, records)])) == ["accepted"]


def test_another_competitions_chief_judge_acts_in_none_but_his_own(pipeline: Pipeline) -> None:
    minsk, gomel = Records(), Records("gomel-2026")
    gomel_chief = RecordedBy(person="cj-gomel", role=Role.CHIEF_JUDGE)
    gomel_opening = [
        gomel.record(RegulationsAdopted(gomel.competition_id, REGULATIONS), FEDERATION, at(-600)),
        gomel.record(OfficialAppointed(gomel_chief.person, Role.CHIEF_JUDGE), FEDERATION, at(-590)),
    ]
    assert set(outcomes(pipeline.judge([*opening(minsk), *gomel_opening]))) == {"accepted"}
    refused = refusal(pipeline.judge([minsk.record(OfficialAppointed("judge-x", Role.JUDGE), gomel_chief, at(1))]))
    assert refused.rule == "bfsp 2.1.1" and "cj-gomel is not appointed chief judge" in refused.reason
    # an official holding another office here acts in none but his own
    as_chief = RecordedBy(person=JUDGE.person, role=Role.CHIEF_JUDGE)
    refused = refusal(pipeline.judge([violation(as_chief, minsk)]))
    assert refused.reason.startswith(f"{JUDGE.person} is not appointed chief judge of {minsk.competition_id}; he serves as judge")


def test_a_dealer_reports_only_at_the_tables_assigned_to_him(pipeline: Pipeline) -> None:
    records = Records()
    assert set(outcomes(pipeline.judge(list(opening(records))))) == {"accepted"}
    started = all_in_hand(1, "p01", "p02")[0]
    assert isinstance(started, HandStarted)
    elsewhere = str(int(table()) + 1)
    moved = replace(started, table_id=elsewhere)
    refused = refusal(pipeline.judge([records.record(moved, DEALER, at(10), elsewhere, "1")]))
    assert refused.rule == "bfsp 2.1.1"
    assert refused.reason == (
        f"{DEALER.person} deals at table {table()} of {records.competition_id}, not at table {elsewhere}: a dealer "
        "conducts the game only at the tables the Chief Judge assigned him"
    )
    # a dealer of the same name's table at a competition that appointed somebody else: refused too
    other = RecordedBy(person="dealer-of-another-competition", role=Role.DEALER)
    refused = refusal(pipeline.judge([records.record(started, other, at(10), table(), "1")]))
    assert refused.reason.startswith(f"dealer-of-another-competition is not appointed dealer of {records.competition_id}")
    assert outcomes(pipeline.judge([records.record(started, DEALER, at(10), table(), "1")])) == ["accepted"]


def test_hands_of_a_competition_with_no_records_of_its_own_are_judged_by_the_roles_table_alone(
    pipeline: Pipeline,
) -> None:
    """Imported histories of past events, plain simulations: no Regulations, nobody appointed, nothing to check
    the recorder against; the API scopes a dealer's token to one competition and table instead."""
    hand = all_in_hand(1, "p01", "p02")
    importer = RecordedBy(person="phh-import", role=Role.IMPORTER)
    dealer = RecordedBy(person="a-dealer", role=Role.DEALER)
    for n, by in enumerate((importer, dealer)):
        verdicts = pipeline.judge(hand_records(hand, f"imported-{n}", by, at(0)))
        assert set(outcomes(verdicts)) == {"accepted"}


def test_the_rule_is_the_domains() -> None:
    class Office:
        def __init__(self, role: Role, tables: tuple[int, ...] = ()) -> None:
            self.role, self.tables = role, tables

    officials = {"d": Office(Role.DEALER, (2,)), "j": Office(Role.JUDGE)}
    verify_appointed(officials, "c", "d", Role.DEALER, table=2)
    verify_appointed(officials, "c", "j", Role.JUDGE, table=5)
    verify_appointed(officials, "c", "anybody", Role.FEDERATION)
    verify_appointed(officials, "c", "anybody", Role.IMPORTER)
    with pytest.raises(NotPermittedError, match="deals at table 2 of c, not at table 3") as refused:
        verify_appointed(officials, "c", "d", Role.DEALER, table=3)
    assert str(refused.value.rule) == "bfsp 2.1.1"
    with pytest.raises(NotPermittedError, match="d is not appointed judge of c; he serves as dealer"):
        verify_appointed(officials, "c", "d", Role.JUDGE)
    with pytest.raises(NotPermittedError, match="nobody is not appointed secretary of c"):
        verify_appointed(officials, "c", "nobody", Role.SECRETARY)


# --- the API's view of the appointments (api/appointments.py) ------------------------------------------------


class Clock:
    """The view's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def reader(person: str, role: Role = Role.JUDGE) -> Principal:
    return Principal(person=person, role=role)


def test_the_api_refuses_an_official_not_appointed_and_an_appointment_counts_from_the_read_after_it_is_stored(
    pipeline: Pipeline,
) -> None:
    records = Records()
    assert set(outcomes(pipeline.judge(list(opening(records))))) == {"accepted"}
    clock = Clock()
    appointed = StoredAppointments(lambda: pipeline.store.events, clock=clock)
    newcomer = reader("judge-newcomer")
    assert appointed(reader(JUDGE.person), records.competition_id)
    assert not appointed(newcomer, records.competition_id)
    # his own office only: the competition's judge reading as its chief judge is refused too
    assert not appointed(reader(JUDGE.person, Role.CHIEF_JUDGE), records.competition_id)
    # appointed now: the very next read grants it, the clock not moved (the view's refusal asks the store)
    assert outcomes(pipeline.judge([records.record(OfficialAppointed(newcomer.person, Role.JUDGE), CHIEF, at(1))])) == [
        "accepted"
    ]
    assert appointed(newcomer, records.competition_id)


def test_the_api_answers_the_appointed_from_its_view_and_counts_a_removal_within_its_refresh(
    pipeline: Pipeline,
) -> None:
    records = Records()
    assert set(outcomes(pipeline.judge(list(opening(records))))) == {"accepted"}
    clock = Clock()
    appointed = StoredAppointments(lambda: pipeline.store.events, clock=clock)
    judge = reader(JUDGE.person)
    assert appointed(judge, records.competition_id)
    asked = appointed.queries
    for _ in range(50):
        assert appointed(judge, records.competition_id)
    assert appointed.queries == asked, "a read within the view's refresh asks the store nothing"
    removed = records.record(OfficialRemoved(JUDGE.person, "replaced at his own request"), CHIEF, at(2))
    assert outcomes(pipeline.judge([removed])) == ["accepted"]
    # the view is read forward once it is REFRESH_SECONDS old: from then on the removal counts
    clock.now += appointed.refresh_seconds + 0.001
    assert not appointed(judge, records.competition_id)
    assert appointed.queries > asked
    assert not appointed(judge, records.competition_id)
    # a competition with no records of its own appointed nobody: the roles table alone, as before
    assert appointed(judge, "imported-histories-2019")
