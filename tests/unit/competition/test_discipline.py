"""Violations by code and the federation's penalty ladder by occurrence (bfsp 7.1.2-7.1.16, 7.2)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.chained import first_broken_link_in
from domain.discipline import LADDER, DisciplinaryCase, PenaltyKind, case_id
from domain.discipline.events import CATALOG
from domain.errors import DisciplineError, NotPermittedError, RuleRef
from domain.officials.codec import decode, encode
from domain.roles import Role

pytestmark = pytest.mark.unit

AT = datetime(2026, 3, 14, 19, 30, tzinfo=UTC)
W, M, CDQ, SDQ = (
    PenaltyKind.WARNING,
    PenaltyKind.MISSED_ROUNDS,
    PenaltyKind.COMPETITION_DISQUALIFICATION,
    PenaltyKind.SEASON_DISQUALIFICATION,
)

# code → (first offence, repeat), each a set of (kind, rounds) the digest's table allows, rounds within ranges
LADDER_TABLE: dict[str, tuple[set[tuple[PenaltyKind, int]], set[tuple[PenaltyKind, int]]]] = {
    "7.1.2": ({(W, 0)}, {(M, 1)}),
    "7.1.3": ({(W, 0)}, {(M, 1)}),
    "7.1.4": ({(M, 2)}, {(CDQ, 0), (SDQ, 0)}),
    "7.1.5": ({(M, 1)}, {(M, 2)}),
    "7.1.6": ({(M, 1)}, {(M, 2)}),
    "7.1.7": ({(W, 0)}, {(M, 1)}),
    "7.1.8": ({(W, 0)}, {(M, 1)}),
    "7.1.9": ({(W, 0)}, {(M, 1)}),
    "7.1.10": ({(W, 0)}, {(W, 0)}),
    "7.1.11": ({(M, 1), (M, 2), (M, 3), (M, 4), (CDQ, 0), (SDQ, 0)},) * 2,
    "7.1.12": ({(W, 0)}, {(M, 1), (M, 2)}),
    "7.1.13": ({(W, 0)}, {(W, 0)}),
    "7.1.14": ({(W, 0), (M, 1)}, {(W, 0), (M, 1)}),
    "7.1.15": ({(M, 1)}, {(M, 1)}),
    "7.1.16": ({(W, 0), (M, 1), (M, 2), (M, 3), (M, 4), (CDQ, 0)},) * 2,
}
CANDIDATES = [(k, r) for k in (W, CDQ, SDQ) for r in (0,)] + [(M, r) for r in range(0, 6)]


def test_the_ladder_has_every_violation_of_7_1() -> None:
    assert set(LADDER) == set(LADDER_TABLE) == {f"7.1.{n}" for n in range(2, 17)}


@pytest.mark.parametrize("code", sorted(LADDER_TABLE, key=lambda c: int(c.split(".")[2])))
@pytest.mark.parametrize("occurrence", [1, 2, 3])
def test_every_rung_allows_exactly_the_penalties_of_the_rule(code: str, occurrence: int) -> None:
    allowed = LADDER_TABLE[code][0 if occurrence == 1 else 1]
    rung = LADDER[code].sanctions(occurrence, intentional=False)
    for kind, rounds in CANDIDATES:
        assert any(s.allows(kind, rounds) for s in rung) is ((kind, rounds) in allowed), (kind, rounds)


def test_touching_the_muck_on_purpose_a_second_time_can_disqualify() -> None:
    repeat_on_purpose = LADDER["7.1.8"].sanctions(2, intentional=True)
    assert any(s.allows(CDQ, 0) for s in repeat_on_purpose)
    assert not any(s.allows(CDQ, 0) for s in LADDER["7.1.8"].sanctions(1, intentional=True))


def _case() -> DisciplinaryCase:
    return DisciplinaryCase.open("bfsp-cup-2026", "athlete-7", AT)


def test_occurrences_are_counted_per_violation_code() -> None:
    case = _case()
    first = case.record_violation("7.1.7", "hand-3", False, AT, Role.JUDGE)
    other = case.record_violation("7.1.13", "hand-4", False, AT, Role.JUDGE)
    second = case.record_violation("7.1.7", "hand-9", True, AT, Role.CHIEF_JUDGE)
    assert (first.occurrence, other.occurrence, second.occurrence) == (1, 1, 2)
    assert case.occurrences("7.1.7") == 2


def test_a_repeat_offence_is_not_let_off_with_a_warning() -> None:
    case = _case()
    case.record_violation("7.1.2", "hand-3", False, AT, Role.JUDGE)
    case.impose(1, W, Role.JUDGE, AT)
    case.record_violation("7.1.2", "hand-8", False, AT, Role.JUDGE)
    with pytest.raises(DisciplineError) as refused:
        case.impose(2, W, Role.JUDGE, AT)
    assert refused.value.message == (
        "a warning is not the penalty for offence number 2 of 7.1.2 (keeping his cards after announcing a fold); "
        "the rule gives 1 missed round (bfsp 7.1.2)"
    )
    assert case.impose(2, M, Role.JUDGE, AT, rounds=1, players_at_table=8).hands_to_miss == 8


def test_an_unknown_code_is_refused_with_the_list_of_violations() -> None:
    with pytest.raises(DisciplineError, match=r"no violation 7\.1\.99") as refused:
        _case().record_violation("7.1.99", "hand-1", False, AT, Role.JUDGE)
    assert refused.value.rule == RuleRef("bfsp", "7.1.1")


def test_a_judge_may_not_disqualify_from_the_competition() -> None:
    case = _case()
    case.record_violation("7.1.11", "hand-2", True, AT, Role.JUDGE)
    with pytest.raises(NotPermittedError) as refused:
        case.impose(1, CDQ, Role.JUDGE, AT)
    assert refused.value.rule == RuleRef("bfsp", "7.2.2")
    assert case.version == 2


def test_a_dealer_may_not_record_a_violation() -> None:
    with pytest.raises(NotPermittedError, match="a dealer may not record a violation"):
        _case().record_violation("7.1.9", "hand-2", False, AT, Role.DEALER)


def test_a_competition_disqualification_removes_his_chips_and_closes_the_case_at_the_event() -> None:
    case = _case()
    case.record_violation("7.1.4", "hand-5", True, AT, Role.CHIEF_JUDGE)
    case.impose(1, M, Role.CHIEF_JUDGE, AT, rounds=2, players_at_table=9)
    case.record_violation("7.1.4", "hand-40", True, AT, Role.CHIEF_JUDGE)
    dq = case.impose(2, CDQ, Role.CHIEF_JUDGE, AT, chips_removed=41_500)
    assert dq.chips_removed == 41_500 and case.disqualified
    with pytest.raises(DisciplineError, match="was disqualified from the competition") as refused:
        case.record_violation("7.1.11", "hand-40", True, AT, Role.CHIEF_JUDGE)
    assert refused.value.rule == RuleRef("bfsp", "5.10.2")


def test_chips_are_removed_only_with_a_competition_disqualification() -> None:
    case = _case()
    case.record_violation("7.1.7", "hand-1", False, AT, Role.JUDGE)
    with pytest.raises(DisciplineError, match="chips are removed from play only"):
        case.impose(1, W, Role.JUDGE, AT, chips_removed=500)


def test_a_violation_is_penalised_once() -> None:
    case = _case()
    case.record_violation("7.1.14", "hand-1", False, AT, Role.JUDGE)
    case.impose(1, W, Role.JUDGE, AT)
    with pytest.raises(DisciplineError, match="already carries a warning"):
        case.impose(1, M, Role.CHIEF_JUDGE, AT, rounds=1, players_at_table=6)


def test_a_season_disqualification_needs_the_chief_judges_protocol_entry() -> None:
    case = _case()
    case.record_violation("7.1.4", "hand-5", True, AT, Role.CHIEF_JUDGE)
    case.impose(1, M, Role.CHIEF_JUDGE, AT, rounds=2, players_at_table=9)
    case.record_violation("7.1.4", "hand-40", True, AT, Role.CHIEF_JUDGE)
    case.impose(2, CDQ, Role.CHIEF_JUDGE, AT)
    with pytest.raises(DisciplineError, match="not in it") as refused:
        case.impose(2, SDQ, Role.FEDERATION, AT)
    assert refused.value.rule == RuleRef("bfsp", "7.2.3")
    with pytest.raises(NotPermittedError, match="a judge may not enter a violation in the protocol"):
        case.enter_in_protocol(2, Role.JUDGE, AT)
    case.enter_in_protocol(2, Role.CHIEF_JUDGE, AT)
    with pytest.raises(NotPermittedError, match="only the federation may"):
        case.impose(2, SDQ, Role.CHIEF_JUDGE, AT)
    assert case.impose(2, SDQ, Role.FEDERATION, AT).kind is SDQ


def test_an_intentional_exposure_kills_the_hand_an_accidental_one_does_not() -> None:
    case = _case()
    case.record_violation("7.1.5", "hand-1", True, AT, Role.JUDGE)
    case.record_violation("7.1.5", "hand-2", False, AT, Role.JUDGE)
    on_purpose = case.impose(1, M, Role.JUDGE, AT, rounds=1, players_at_table=9)
    accidental = case.impose(2, M, Role.JUDGE, AT, rounds=2, players_at_table=9)
    assert on_purpose.kill_hand and not accidental.kill_hand


def test_the_case_is_hash_chained_and_its_events_read_back() -> None:
    case = _case()
    case.record_violation("7.1.3", "hand-1", True, AT, Role.JUDGE)
    case.impose(1, W, Role.JUDGE, AT)
    events = case.collect_events()
    assert first_broken_link_in(events) is None
    assert case.id == case_id("bfsp-cup-2026", "athlete-7")
    for stored in events[1:]:
        assert encode(decode(stored.payload, CATALOG)) == stored.payload
    events[1].payload["code"] = "7.1.2"
    assert first_broken_link_in(events) is not None
