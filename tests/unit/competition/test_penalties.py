"""Missed-round penalties: how many hands, and how they are served (bfsp 7.1.2 note; TDA 2022 71, 35-C)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.discipline import DisciplinaryCase, PenaltyKind, hands_to_miss
from domain.errors import DisciplineError, NotPermittedError, RuleRef
from domain.roles import Role

pytestmark = pytest.mark.unit

AT = datetime(2026, 3, 14, 21, 5, tzinfo=UTC)
MISS = PenaltyKind.MISSED_ROUNDS


def _penalised(code: str, occurrence: int, rounds: int, players_at_table: int) -> DisciplinaryCase:
    case = DisciplinaryCase.open("bfsp-cup-2026", "athlete-3", AT)
    for n in range(1, occurrence + 1):
        case.record_violation(code, f"hand-{n}", False, AT, Role.JUDGE)
    case.impose(occurrence, MISS, Role.JUDGE, AT, rounds=rounds, players_at_table=players_at_table)
    return case


def test_tv_110_one_round_with_nine_seated_is_nine_hands() -> None:
    case = _penalised("7.1.6", 1, rounds=1, players_at_table=9)
    assert case.penalties[0].hands_to_miss == 9
    assert case.hands_to_sit_out == 9


def test_tv_111_two_rounds_with_seven_seated_is_fourteen_hands() -> None:
    case = _penalised("7.1.12", 2, rounds=2, players_at_table=7)
    assert case.penalties[0].hands_to_miss == 14


def test_tv_56_2017_two_rounds_with_nine_seated_is_eighteen_hands_each_dealt_in_and_killed() -> None:
    case = _penalised("7.1.4", 1, rounds=2, players_at_table=9)
    assert case.hands_to_sit_out == 18
    for n in range(1, 18):
        served = case.serve_hand(f"hand-{100 + n}", AT, Role.DEALER)
        assert served.hands_remaining == 18 - n
    assert case.serving == 1
    case.serve_hand("hand-118", AT, Role.DEALER)
    assert case.serving is None and case.hands_to_sit_out == 0
    last = case.collect_events()[-1]
    assert type(last).__name__ == "PenaltyServed" and last.payload == {
        "type": "PenaltyServed", "participant": "athlete-3", "penalty": 1
    }


def test_tv_76_a_misdealt_deal_and_its_re_deal_are_one_penalty_hand() -> None:
    case = _penalised("7.1.5", 1, rounds=1, players_at_table=9)
    misdealt = case.serve_hand("hand-51", AT, Role.DEALER, misdealt=True)
    assert misdealt.hands_remaining == 9
    redealt = case.serve_hand("hand-51-redeal", AT, Role.DEALER)
    assert redealt.hands_remaining == 8


def test_a_hand_counts_once() -> None:
    case = _penalised("7.1.5", 1, rounds=1, players_at_table=6)
    case.serve_hand("hand-60", AT, Role.DEALER)
    with pytest.raises(DisciplineError, match="already counted"):
        case.serve_hand("hand-60", AT, Role.DEALER)


def test_penalties_in_force_are_served_one_after_another() -> None:
    case = _penalised("7.1.6", 1, rounds=1, players_at_table=3)
    case.record_violation("7.1.15", "hand-7", True, AT, Role.JUDGE)
    case.impose(2, MISS, Role.CHIEF_JUDGE, AT, rounds=1, players_at_table=4)
    assert case.hands_to_sit_out == 7
    for n in range(3):
        case.serve_hand(f"hand-{n + 10}", AT, Role.DEALER)
    assert case.serving == 2 and case.hands_remaining(2) == 4


def test_only_a_player_on_penalty_sits_out_hands() -> None:
    case = DisciplinaryCase.open("bfsp-cup-2026", "athlete-3", AT)
    with pytest.raises(DisciplineError, match="serving no missed-round penalty") as refused:
        case.serve_hand("hand-1", AT, Role.DEALER)
    assert refused.value.rule == RuleRef("bfsp", "7.1.2")


def test_a_participant_does_not_record_his_own_penalty_hands() -> None:
    case = _penalised("7.1.6", 1, rounds=1, players_at_table=9)
    with pytest.raises(NotPermittedError):
        case.serve_hand("hand-1", AT, Role.PARTICIPANT)


@pytest.mark.parametrize(("players", "rounds"), [(1, 1), (11, 1), (9, 0)])
def test_a_penalty_counted_from_no_real_table_is_refused(players: int, rounds: int) -> None:
    with pytest.raises(DisciplineError) as refused:
        hands_to_miss(players, rounds)
    assert refused.value.rule == RuleRef("bfsp", "7.1.2")


def test_a_rescinded_penalty_is_no_longer_served() -> None:
    case = _penalised("7.1.6", 1, rounds=1, players_at_table=9)
    with pytest.raises(NotPermittedError):
        case.rescind(1, "protest-1", Role.JUDGE, AT)
    case.rescind(1, "protest-1", Role.CHIEF_JUDGE, AT)
    assert case.serving is None and case.hands_to_sit_out == 0
    with pytest.raises(DisciplineError, match="no penalty 1 in force"):
        case.rescind(1, "protest-1", Role.FEDERATION, AT)
