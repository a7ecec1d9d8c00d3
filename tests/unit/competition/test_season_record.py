"""The athlete's season record: the federation's season disqualification and the registration check (bfsp 7.2.3)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.chained import first_broken_link_in
from domain.discipline import DisciplinaryCase, PenaltyKind, SeasonRecord, season_record_id
from domain.errors import DisciplineError, NotPermittedError, RuleRef
from domain.roles import Role

pytestmark = pytest.mark.unit

AT = datetime(2026, 4, 2, 18, 0, tzinfo=UTC)


def _insult_entered_in_protocol(athlete: str = "athlete-12") -> DisciplinaryCase:
    case = DisciplinaryCase.open("minsk-open-2026", athlete, AT)
    case.record_violation("7.1.11", "hand-30", True, AT, Role.JUDGE)
    case.impose(1, PenaltyKind.COMPETITION_DISQUALIFICATION, Role.CHIEF_JUDGE, AT, chips_removed=12_000)
    case.enter_in_protocol(1, Role.CHIEF_JUDGE, AT)
    return case


def test_the_federation_disqualifies_for_the_season_and_registration_sees_it() -> None:
    record = SeasonRecord.open("athlete-12", "2026", AT)
    decided_at = AT + timedelta(days=9)
    record.decide(_insult_entered_in_protocol(), 1, Role.FEDERATION, decided_at, protocol="snapshot-4")
    assert not record.is_disqualified("2026", decided_at - timedelta(seconds=1))
    assert record.is_disqualified("2026", decided_at)
    assert not record.is_disqualified("2027", decided_at + timedelta(days=300))
    assert record.id == season_record_id("athlete-12", "2026")
    assert first_broken_link_in(record.collect_events()) is None


def test_the_chief_judge_may_not_disqualify_for_the_season() -> None:
    record = SeasonRecord.open("athlete-12", "2026", AT)
    with pytest.raises(NotPermittedError) as refused:
        record.decide(_insult_entered_in_protocol(), 1, Role.CHIEF_JUDGE, AT)
    assert refused.value.rule == RuleRef("bfsp", "7.2.3")
    assert not record.is_disqualified("2026", AT)


def test_no_season_disqualification_without_the_protocol_entry() -> None:
    case = DisciplinaryCase.open("minsk-open-2026", "athlete-12", AT)
    case.record_violation("7.1.11", "hand-30", True, AT, Role.JUDGE)
    with pytest.raises(DisciplineError, match="entered in the competition protocol") as refused:
        SeasonRecord.open("athlete-12", "2026", AT).decide(case, 1, Role.FEDERATION, AT)
    assert refused.value.rule == RuleRef("bfsp", "7.2.3")


def test_no_season_disqualification_for_a_violation_whose_ladder_stops_short_of_it() -> None:
    case = DisciplinaryCase.open("minsk-open-2026", "athlete-12", AT)
    case.record_violation("7.1.7", "hand-3", False, AT, Role.JUDGE)
    case.enter_in_protocol(1, Role.CHIEF_JUDGE, AT)
    with pytest.raises(DisciplineError, match="the rule gives a warning") as refused:
        SeasonRecord.open("athlete-12", "2026", AT).decide(case, 1, Role.FEDERATION, AT)
    assert refused.value.rule == RuleRef("bfsp", "7.1.7")


def test_another_athletes_case_is_no_ground() -> None:
    with pytest.raises(DisciplineError, match="not athlete-12's"):
        SeasonRecord.open("athlete-12", "2026", AT).decide(
            _insult_entered_in_protocol("athlete-99"), 1, Role.FEDERATION, AT
        )


def test_a_season_disqualification_is_decided_once() -> None:
    record = SeasonRecord.open("athlete-12", "2026", AT)
    case = _insult_entered_in_protocol()
    record.decide(case, 1, Role.FEDERATION, AT)
    with pytest.raises(DisciplineError, match="already disqualified for season 2026"):
        record.decide(case, 1, Role.FEDERATION, AT + timedelta(days=1))
