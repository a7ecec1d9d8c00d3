"""The checks the handlers once wrote out themselves, asked of the domain directly: each refuses with its error
type, rule and words, and lets the right record through (the desk's tests judge the same through the referee)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from competition.a_competition import LEVELS, at, drawn, regulations, staffed
from domain.competition.events import (
    BreakStarted,
    HandForHandStarted,
    LevelStarted,
    SeatDrawConducted,
    StartingButton,
)
from domain.competition.regulations import Break, verify_first_adoption
from domain.competition.reported import (
    verify_break_after,
    verify_next_level,
    verify_players_left,
    verify_starting_buttons,
)
from domain.discipline import DisciplinaryCase, PenaltyKind
from domain.discipline.case import verify_entrant
from domain.discipline.season import verify_case_to_decide_on
from domain.errors import (
    CompetitionError,
    DisciplineError,
    IntegrityCaseError,
    NotPermittedError,
    ProtestError,
)
from domain.integrity.case import verify_chief_judge_to_report_to, verify_new_case
from domain.ofc.game import OfcError
from domain.ofc.recording import numbered_table, verify_dealt_by, verify_previous_round_over
from domain.protests.challenges import ChallengeWindow, challenge, verify_reported_deadline
from domain.protests.events import ChallengeKind
from domain.protests.protest import verify_filed_time, verify_forwarded_snapshot, verify_new_protest
from domain.roles import Role
from domain.rulings.window import verify_played_out

pytestmark = pytest.mark.unit



def _rule(err: pytest.ExceptionInfo[Exception]) -> str:
    return str(err.value.rule)  # type: ignore[attr-defined]


def test_once_only_acts_are_refused_the_second_time() -> None:
    with pytest.raises(CompetitionError, match="has adopted its Regulations already") as adopted:
        verify_first_adoption("minsk-open-2026", object())
    verify_first_adoption("minsk-open-2026", None)
    with pytest.raises(ProtestError, match="protest p-1 has been filed already") as filed:
        verify_new_protest("p-1", object())
    verify_new_protest("p-1", None)
    with pytest.raises(IntegrityCaseError, match="integrity case c-1 has been opened already") as opened:
        verify_new_case("c-1", object())
    verify_new_case("c-1", None)
    assert [_rule(e) for e in (adopted, filed, opened)] == ["bfsp 2.1.1", "bfsp 7.3", "bfsp 7.1.4"]


def test_a_confirmed_case_is_reported_only_where_a_chief_judge_was_appointed() -> None:
    with pytest.raises(IntegrityCaseError, match="c has adopted no Regulations and appointed no Chief Judge") as none:
        verify_chief_judge_to_report_to("c", adopted=False)
    verify_chief_judge_to_report_to("c", adopted=True)
    assert _rule(none) == "bfsp 2.1.1"


def test_a_protest_s_times_and_its_forwarded_snapshot_must_agree_with_the_record() -> None:
    with pytest.raises(ProtestError, match="the two claims must agree") as late:
        verify_filed_time(at(1), at(2))
    verify_filed_time(at(1), at(1))
    head = "ab" * 32
    with pytest.raises(ProtestError, match="is not in the archive") as missing:
        verify_forwarded_snapshot("c/protocol/v1", head, None)
    with pytest.raises(ProtestError, match="has chain head cdcdcdcdcdcdcdcd…") as other:
        verify_forwarded_snapshot("c/protocol/v1", head, "cd" * 32)
    verify_forwarded_snapshot("c/protocol/v1", head, head)
    assert [_rule(e) for e in (late, missing, other)] == ["bfsp 7.3.2", "bfsp 7.3.3", "bfsp 7.3.3"]


def test_a_hand_not_ended_is_neither_challenged_nor_ruled_on() -> None:
    book = staffed().rulebook
    with pytest.raises(ProtestError, match="hand 1/4 has not ended: there is no result to challenge yet"):
        challenge("1/4", "p01", ChallengeKind.RESULT, "miscounted", at(1), None, book)
    window = ChallengeWindow(awarded_at=at(0))
    judged = challenge("1/4", "p01", ChallengeKind.RESULT, "miscounted", at(1), window, book)
    verify_reported_deadline(judged.deadline, judged, book)
    with pytest.raises(ProtestError, match="the challenge closes at"):
        verify_reported_deadline(at(5), judged, book)
    with pytest.raises(DisciplineError, match="hand 1/4 has not ended: a ruling amends") as ruled:
        verify_played_out("1/4", None, window)
    assert _rule(ruled) == "bfsp 2.2.3"


def test_a_case_is_a_registered_participant_s_and_a_season_decision_rests_on_one() -> None:
    with pytest.raises(DisciplineError, match="p99 is not registered at minsk-open-2026") as unregistered:
        verify_entrant("minsk-open-2026", "p99", {"p01"})
    verify_entrant("minsk-open-2026", "p01", {"p01"})
    with pytest.raises(DisciplineError, match="p01 has no disciplinary record at minsk-open-2026") as no_case:
        verify_case_to_decide_on("p01", "minsk-open-2026", None)
    case = DisciplinaryCase.open("minsk-open-2026", "p01", at(0))
    assert verify_case_to_decide_on("p01", "minsk-open-2026", case) is case
    assert [_rule(e) for e in (unregistered, no_case)] == ["bfsp 7.2.1", "bfsp 7.2.3"]


def test_what_a_discipline_record_reports_is_the_case_s_own_count() -> None:
    case = DisciplinaryCase.open("minsk-open-2026", "p01", at(0))
    case.verify_reported_occurrence("7.1.6", 1)
    with pytest.raises(DisciplineError, match="the record says violation 7.1.6 occurs for the time 2; the rules give 1"):
        case.verify_reported_occurrence("7.1.6", 2)
    case.verify_served_towards(7)  # serving nothing: nothing to agree with
    case.record_violation("7.1.6", "1/3", False, at(1), Role.JUDGE)
    case.impose(1, PenaltyKind.MISSED_ROUNDS, Role.JUDGE, at(2), rounds=1, players_at_table=9)
    case.verify_served_towards(1)
    with pytest.raises(DisciplineError, match="the hand is served towards penalty 2; the rules give 1"):
        case.verify_served_towards(2)


def test_what_a_competition_record_reports_is_the_rules_own() -> None:
    c = drawn(18, regulations(breaks=(Break(1, 10),)))
    verify_next_level(c, LevelStarted(LEVELS[1], at(40)))
    with pytest.raises(CompetitionError, match="level 2 is"):
        verify_next_level(c, LevelStarted(replace(LEVELS[1], small_blind=75, big_blind=150), at(40)))
    # the level clock's break after level 1 runs 12:30–12:40
    verify_break_after(c, BreakStarted(1, 10), at(31))
    with pytest.raises(CompetitionError, match="the break follows level 2"):
        verify_break_after(c, BreakStarted(2, 10), at(31))
    verify_players_left(c, HandForHandStarted(18, 600))
    with pytest.raises(CompetitionError, match="players left 17; the rules give 18"):
        verify_players_left(c, HandForHandStarted(17, 600))
    drawn_record = SeatDrawConducted("seed", (), (), "cj")
    verify_starting_buttons(c, drawn_record)
    with pytest.raises(CompetitionError, match="starting buttons"):
        verify_starting_buttons(c, SeatDrawConducted("seed", (), (StartingButton(1, 1),), "cj"))


def test_an_ofc_round_is_recorded_at_the_table_one_round_at_a_time_at_a_numbered_table() -> None:
    book = staffed().rulebook
    with pytest.raises(NotPermittedError, match="a secretary may not record the deal or the setting of an OFC round"):
        verify_dealt_by(Role.SECRETARY)
    verify_dealt_by(Role.DEALER)
    with pytest.raises(OfcError, match="round 3 at table T1 is still being played"):
        verify_previous_round_over("T1", 4, False, book)
    verify_previous_round_over("T1", 4, True, book)
    verify_previous_round_over("T1", 1, None, book)
    assert numbered_table("c", "T3", book) == 3
    with pytest.raises(OfcError, match="c plays at numbered tables; there is no table rail"):
        numbered_table("c", "rail", book)


# --- an act naming the official who did it: its event type, not the handler, says which rule a record breaks ----


def _naming_acts() -> list[object]:
    from datetime import UTC, datetime

    from domain.discipline.events import PenaltyImposed
    from domain.protests.events import ProtestDecided, ProtestDecision
    from domain.protocol import ProtocolSigned
    from domain.rulings.events import RulingIssued, RulingKind

    return [
        PenaltyImposed("p01", 1, PenaltyKind.WARNING, Role.CHIEF_JUDGE),
        ProtestDecided("protest-1", ProtestDecision.DISMISSED, Role.CHIEF_JUDGE, "no grounds",
                       datetime(2026, 5, 9, 12, tzinfo=UTC)),
        RulingIssued("r1", "1/1", RulingKind.FINDING_OF_FACT, "judge-2", Role.JUDGE, "bfsp 6.5.1", "a card exposed"),
        ProtocolSigned("minsk-open-2026", 1, "0" * 64, "sec-petrova", Role.SECRETARY),
    ]


def test_every_act_that_names_its_official_declares_on_its_event_type_the_fields_and_the_rule() -> None:
    import dataclasses

    from domain.officials import NamesItsOfficial

    rules = {}
    for act in _naming_acts():
        names = type(act).NAMES_ITS_OFFICIAL  # type: ignore[attr-defined]
        assert isinstance(names, NamesItsOfficial)
        fields = {f.name for f in dataclasses.fields(act)}  # type: ignore[arg-type]
        assert names.role in fields and (not names.person or names.person in fields), type(act).__name__
        assert "NAMES_ITS_OFFICIAL" not in fields, "a class attribute, never a stored field"
        rules[type(act).__name__] = str(names.rule)
    assert rules == {
        "PenaltyImposed": "bfsp 7.2.1", "ProtestDecided": "bfsp 7.3.4", "RulingIssued": "bfsp 2.1.1",
        "ProtocolSigned": "bfsp 2.1.4",
    }  # fmt: skip


def test_a_record_naming_another_official_is_refused_with_the_rule_its_event_type_declares() -> None:
    from domain.officials import verify_recorded_by_named

    penalty, decision, ruling, signature = _naming_acts()
    verify_recorded_by_named(penalty, Role.CHIEF_JUDGE, "anyone")  # the penalty names an office only
    with pytest.raises(NotPermittedError) as by_judge:
        verify_recorded_by_named(penalty, Role.JUDGE, "judge-1")
    assert by_judge.value.message == (
        "the penalty says the chief judge imposed it, and it was recorded by the judge (bfsp 7.2.1)"
    )
    verify_recorded_by_named(decision, Role.CHIEF_JUDGE, "cj-ivanov")
    with pytest.raises(NotPermittedError, match=r"the decision says the chief judge decided it") as decided:
        verify_recorded_by_named(decision, Role.FEDERATION, "fed-1")
    verify_recorded_by_named(ruling, Role.JUDGE, "judge-2")
    with pytest.raises(NotPermittedError, match=r"the ruling says judge-2 \(judge\) issued it, and it was recorded "
                                                r"by judge-1 \(judge\)") as ruled:
        verify_recorded_by_named(ruling, Role.JUDGE, "judge-1")
    verify_recorded_by_named(signature, Role.SECRETARY, "sec-petrova")
    with pytest.raises(NotPermittedError, match=r"^an official signs in his own name: the signature says sec-petrova "
                                                r"\(secretary\) signed it, and it was recorded by cj-ivanov "
                                                r"\(chief judge\)") as signed:
        verify_recorded_by_named(signature, Role.CHIEF_JUDGE, "cj-ivanov")
    assert [_rule(decided), _rule(ruled), _rule(signed)] == ["bfsp 7.3.4", "bfsp 2.1.1", "bfsp 2.1.4"]


def test_an_act_that_names_no_official_is_a_wiring_fault_not_a_refusal() -> None:
    from domain.discipline.events import PenaltyServed
    from domain.officials import verify_recorded_by_named

    with pytest.raises(TypeError, match="PenaltyServed names no official who did it"):
        verify_recorded_by_named(PenaltyServed("p01", 1), Role.JUDGE, "judge-1")


def test_no_handler_chooses_the_rule_a_record_breaks() -> None:
    """The write path orchestrates: every rule it cites is the domain's (a handler naming a rule, or choosing the one
    an act's named official is checked under, would be a rule check outside domain/)."""
    from pathlib import Path

    handlers = Path(__file__).resolve().parents[3] / "ingest" / "handlers"
    written = {p.name: p.read_text() for p in handlers.glob("*.py")}
    assert written, handlers
    assert [name for name, text in written.items() if "RuleRef(" in text or "verify_named_recorder(" in text] == []
