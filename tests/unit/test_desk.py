"""The desk in the embedded referee: the federation's acts judged into their aggregates, every act checked
against the roles table, refusals stored as rejections citing the rule, cross-aggregate facts supplied."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from pathlib import Path
from uuid import uuid4

import embedded_referee
import pytest
from federation_records import (
    CHIEF,
    COMPETITION,
    DEALER,
    FEDERATION,
    JUDGE,
    REGULATIONS,
    SECRETARY,
    Records,
    at,
    blinds_stolen,
    hand,
    opening,
    play_to_the_end,
    table,
    three_way_hand,
)

from domain.competition.events import (
    EliminationReason,
    OfficialAppointed,
    ParticipantRegistered,
    PlayerEliminated,
)
from domain.discipline import DisciplinaryCase, PenaltyKind, case_id, season_record_id
from domain.discipline.events import (
    PenaltyImposed,
    SeasonDisqualificationDecided,
    ViolationEnteredInProtocol,
    ViolationRecorded,
)
from domain.errors import NotPermittedError
from domain.hand.codec import REPORTED
from domain.hand.events import HandVoided, MisdealDeclared
from domain.officials import Act
from domain.officials.acts import act_of
from domain.officials.permissions import permission
from domain.protests import Contested, ContestedKind, ProtestFiled, ProtestTier, protest_id
from domain.protests.events import ChallengeKind, HandChallenged, ProtestDecided, ProtestDecision
from domain.protocol import challenges_id
from domain.rejections import Rejection, RejectionLog, rejection_log_id
from domain.roles import Role
from domain.rulings import RulingIssued, RulingKind
from ingest.catalog import FEDERATION_CATALOG
from ingest.desk import desk_of
from ingest.envelope import CATALOG, Envelope, RecordedBy
from ingest.referee import Verdict

pytestmark = pytest.mark.unit

PARTICIPANT = RecordedBy(person="person-p01", role=Role.PARTICIPANT)


class Pipeline(embedded_referee.Pipeline):
    def rejections(self) -> list[dict[str, object]]:
        stored = self.store.events.get(rejection_log_id(COMPETITION))
        return [e.payload for e in stored if type(e).__name__ == "RecordRejected"]


@pytest.fixture
def pipeline(tmp_path: Path) -> Pipeline:
    return Pipeline(tmp_path)


def outcomes(verdicts: list[Verdict]) -> list[str]:
    return [v.outcome for v in verdicts]


def refusal(verdicts: list[Verdict]) -> Rejection:
    assert outcomes(verdicts) == ["rejected"], [v.rejection for v in verdicts]
    rejection = verdicts[0].rejection
    assert rejection is not None
    return rejection


def test_the_envelope_takes_every_federation_act_beside_the_hands_events() -> None:
    assert set(FEDERATION_CATALOG) <= set(CATALOG)
    assert "CompetitionWinnerDeclared" not in CATALOG, "what an aggregate derives never comes off the log"


def test_a_competition_is_played_to_its_winner_through_the_desk(pipeline: Pipeline) -> None:
    records = Records()
    verdicts = pipeline.judge([*opening(records), *play_to_the_end(records)])
    assert set(outcomes(verdicts)) == {"accepted"}, [v.rejection for v in verdicts if v.rejection]
    competition = pipeline.competition()
    assert competition.winner == "p01"
    assert {p: e.place for p, e in competition.eliminated.items()} == {"p02": 3, "p03": 2}
    case = pipeline.store.repository.get(case_id(COMPETITION, "p01"))
    assert isinstance(case, DisciplinaryCase)
    assert [p.kind for p in case.penalties] == [PenaltyKind.WARNING]
    assert all(e.meta["competition_id"] == COMPETITION for e in pipeline.store.events.get(competition.id))


def test_an_act_recorded_by_a_role_that_may_not_do_it_is_refused_with_the_roles_tables_rule(
    pipeline: Pipeline,
) -> None:
    records = Records()
    pipeline.judge(opening(records))
    late = ParticipantRegistered("p09", "person-p09", date(1990, 1, 1))
    rejection = refusal(pipeline.judge([records.record(late, DEALER, at(1))]))
    assert rejection.kind == "illegal"
    assert rejection.rule == "bfsp 2.3.1"
    assert rejection.reason == "a dealer may not register a participant; only the Chief Judge or the secretary may"
    assert "p09" not in pipeline.competition().entries


def test_a_judge_may_not_disqualify_from_the_competition(pipeline: Pipeline) -> None:
    records = Records()
    pipeline.judge(opening(records))
    disqualified = PlayerEliminated("p02", "", EliminationReason.DISQUALIFIED, 3, ruling="collusion")
    rejection = refusal(pipeline.judge([records.record(disqualified, JUDGE, at(3))]))
    assert rejection.rule == "bfsp 7.2.2"
    assert rejection.reason.startswith("a judge may not disqualify from the competition")
    pipeline.judge([records.record(disqualified, CHIEF, at(4))])
    assert pipeline.competition().eliminated["p02"].reason is EliminationReason.DISQUALIFIED


def test_an_officials_act_at_a_hand_passes_the_roles_table_too(pipeline: Pipeline) -> None:
    records = Records()
    pipeline.judge(opening(records))
    started = list(hand(records, 1, "p01", "p02", 10))[:3]
    assert set(outcomes(pipeline.judge(started))) == {"accepted"}
    voided = HandVoided("the deck was found one card short", "6.1.1")
    rejection = refusal(pipeline.judge([records.record(voided, DEALER, at(11), table(), "1", seq=3)]))
    assert (rejection.rule, rejection.event_type) == ("bfsp 6.1.1", "HandVoided")
    assert rejection.reason == "a dealer may not void a hand; only a judge or the Chief Judge may"
    assert outcomes(pipeline.judge([records.record(voided, JUDGE, at(12), table(), "1", seq=3)])) == ["accepted"]


def test_a_ruling_amends_a_hand_played_out_and_is_refused_while_it_runs(pipeline: Pipeline) -> None:
    records = Records()
    pipeline.judge(opening(records))
    played = list(hand(records, 1, "p01", "p02", 10))
    assert set(outcomes(pipeline.judge(played[:3]))) == {"accepted"}
    finding = RulingIssued("r-1", f"{table()}/1", RulingKind.FINDING_OF_FACT, JUDGE.person, Role.JUDGE,
                           "bfsp 2.2.3", "the board was dealt from the top of the deck")
    early = refusal(pipeline.judge([records.record(finding, JUDGE, at(10.5), table(), "1")]))
    assert (early.rule, early.reason) == (
        "bfsp 2.2.3", f"hand {table()}/1 has not ended: a ruling amends the outcome of a hand played out",
    )
    assert set(outcomes(pipeline.judge(played[3:]))) == {"accepted"}
    assert outcomes(pipeline.judge([records.record(finding, JUDGE, at(12), table(), "1")])) == ["accepted"]


def test_a_derived_value_the_record_gets_wrong_is_refused_with_the_rule_that_fixes_it(pipeline: Pipeline) -> None:
    records = Records()
    pipeline.judge(opening(records))
    pipeline.judge(hand(records, 1, "p01", "p02", 10))
    wrong_place = PlayerEliminated("p02", f"{table()}/1", EliminationReason.NO_CHIPS, 1, starting_stack=10_000)
    rejection = refusal(pipeline.judge([records.record(wrong_place, JUDGE, at(12))]))
    assert rejection.rule == "bfsp 5.10.2"
    assert "place 1" in rejection.reason and "3" in rejection.reason


def test_missed_rounds_count_the_players_at_the_offenders_table(pipeline: Pipeline) -> None:
    records = Records()
    pipeline.judge(opening(records))
    pipeline.judge([records.record(ViolationRecorded("p03", "7.1.6", "", False, 1), JUDGE, at(2))])
    told_two = PenaltyImposed("p03", 1, PenaltyKind.MISSED_ROUNDS, Role.JUDGE, rounds=1, players_at_table=2)
    rejection = refusal(pipeline.judge([records.record(told_two, JUDGE, at(3))]))
    assert rejection.rule == "tda-2022 71-A" or rejection.rule.startswith("bfsp 7.1")
    assert "players at the table 2" in rejection.reason and "3" in rejection.reason
    right = replace(told_two, players_at_table=3, hands_to_miss=3)
    assert outcomes(pipeline.judge([records.record(right, JUDGE, at(4))])) == ["accepted"]
    case = pipeline.store.repository.get(case_id(COMPETITION, "p03"))
    assert case.penalties[0].hands_to_miss == 3


def test_a_penalty_naming_another_official_as_its_imposer_is_refused(pipeline: Pipeline) -> None:
    records = Records()
    pipeline.judge(opening(records))
    pipeline.judge([records.record(ViolationRecorded("p03", "7.1.6", "", False, 1), JUDGE, at(2))])
    chiefs = PenaltyImposed("p03", 1, PenaltyKind.MISSED_ROUNDS, Role.CHIEF_JUDGE, rounds=1, players_at_table=3,
                            hands_to_miss=3)
    rejection = refusal(pipeline.judge([records.record(chiefs, JUDGE, at(3))]))
    assert rejection.rule == "bfsp 7.2.1"
    assert rejection.reason == "the penalty says the chief judge imposed it, and it was recorded by the judge"


def test_a_wrong_count_of_hands_to_miss_is_refused_never_stored_corrected(pipeline: Pipeline) -> None:
    """Issue 13, silent corrections: ``hands_to_miss: 2`` for one round at a table of three was stored as 3."""
    records = Records()
    pipeline.judge(opening(records))
    pipeline.judge([records.record(ViolationRecorded("p03", "7.1.6", "", False, 1), JUDGE, at(2))])
    told_two = PenaltyImposed("p03", 1, PenaltyKind.MISSED_ROUNDS, Role.JUDGE, rounds=1, players_at_table=3,
                              hands_to_miss=2)
    rejection = refusal(pipeline.judge([records.record(told_two, JUDGE, at(3))]))
    assert rejection.rule.startswith("bfsp 7.1")
    assert rejection.reason == "the record says hands to miss 2; the rules give 3"
    assert not pipeline.store.repository.get(case_id(COMPETITION, "p03")).penalties
    right = PenaltyImposed("p03", 1, PenaltyKind.MISSED_ROUNDS, Role.JUDGE, rounds=1, players_at_table=3,
                           hands_to_miss=3)
    assert outcomes(pipeline.judge([records.record(right, JUDGE, at(4))])) == ["accepted"]


def test_a_penalty_at_a_competition_never_adopted_is_out_of_sequence(pipeline: Pipeline) -> None:
    records = Records("nowhere-cup")
    rejection = refusal(pipeline.judge([records.record(ViolationRecorded("p01", "7.1.2", "", False, 1), JUDGE, at(1))]))
    assert rejection.kind == "out_of_sequence"
    assert "nowhere-cup has adopted no Regulations" in rejection.reason
    assert rejection.field == "competition_id"


def test_a_decision_on_a_protest_never_filed_names_the_protest_field(pipeline: Pipeline) -> None:
    records = Records()
    pipeline.judge(opening(records))
    decided = ProtestDecided("protest-9", ProtestDecision.DISMISSED, Role.CHIEF_JUDGE, "no grounds", at(3))
    rejection = refusal(pipeline.judge([records.record(decided, CHIEF, at(3))]))
    assert (rejection.kind, rejection.field) == ("out_of_sequence", "payload.protest")
    assert "no protest protest-9 has been filed" in rejection.reason


def sanctioned_protest(filer: str, filed_minutes: float, written: bool = True) -> ProtestFiled:
    return ProtestFiled(
        "protest-1", COMPETITION, ProtestTier.FEDERATION, filer,
        Contested("penalty-1", ContestedKind.PENALTY, Role.CHIEF_JUDGE, sanctioned="p01"),
        "I folded in time", written, Role.CHIEF_JUDGE, at(filed_minutes),
    )


def test_a_protest_to_the_federation_is_refused_after_the_end_and_from_anyone_but_the_sanctioned(
    pipeline: Pipeline,
) -> None:
    records = Records()
    pipeline.judge(opening(records))
    pipeline.judge(play_to_the_end(records))
    by_p02 = RecordedBy(person="person-p02", role=Role.PARTICIPANT)
    wrong_filer = refusal(pipeline.judge([records.record(sanctioned_protest("p02", 21), by_p02, at(21))]))
    assert wrong_filer.rule == "bfsp 7.3.1"
    assert "only the participant the sanction was imposed on (p01)" in wrong_filer.reason
    late = refusal(pipeline.judge([records.record(sanctioned_protest("p01", 30), PARTICIPANT, at(30))]))
    assert late.rule == "bfsp 7.3.2"
    assert "before the end of the competition" in late.reason
    in_time = records.record(sanctioned_protest("p01", 21), PARTICIPANT, at(21))
    assert outcomes(pipeline.judge([in_time])) == ["accepted"]
    assert pipeline.store.repository.get(protest_id(COMPETITION, "protest-1")).state == "filed"


def test_a_protest_must_contest_a_penalty_that_was_imposed(pipeline: Pipeline) -> None:
    records = Records()
    pipeline.judge(opening(records))
    rejection = refusal(pipeline.judge([records.record(sanctioned_protest("p01", 3), PARTICIPANT, at(3))]))
    assert rejection.rule == "bfsp 7.3.1"
    assert "penalty-1 is not a penalty in force on p01" in rejection.reason


def test_registration_is_refused_while_a_season_disqualification_stands(pipeline: Pipeline) -> None:
    """The federation disqualifies person-p02 (entry p02 at the Minsk Open) for season 2026 on a violation the
    Chief Judge entered in the protocol (bfsp 7.2.3): every later competition of 2026 refuses his registration,
    under any entry id; a 2027 one takes it."""
    records = Records()
    pipeline.judge(opening(records))
    steps = [
        records.record(ViolationRecorded("p02", "7.1.4", "", True, 1, "team play with p03"), JUDGE, at(5)),
        records.record(
            PenaltyImposed("p02", 1, PenaltyKind.MISSED_ROUNDS, Role.JUDGE, rounds=2, players_at_table=3, hands_to_miss=6),
            JUDGE, at(6),
        ),
        records.record(ViolationRecorded("p02", "7.1.4", "", True, 2, "team play again"), JUDGE, at(7)),
        records.record(ViolationEnteredInProtocol("p02", 2), CHIEF, at(8)),
    ]
    assert outcomes(pipeline.judge(steps)) == ["accepted"] * 4
    # the season record is the person's: a decision naming his entry is refused, saying whom to name
    on_entry = SeasonDisqualificationDecided("p02", "2026", COMPETITION, 2, "7.1.4", at(9))
    rejection = refusal(pipeline.judge([records.record(on_entry, FEDERATION, at(9))]))
    assert rejection.rule == "bfsp 7.2.3"
    assert rejection.reason.startswith("p02 is an entry at minsk-open-2026, person-p02's: the federation names")
    wrong_season = SeasonDisqualificationDecided("person-p02", "2027", COMPETITION, 2, "7.1.4", at(9))
    rejection = refusal(pipeline.judge([records.record(wrong_season, FEDERATION, at(9))]))
    assert rejection.rule == "bfsp 7.2.3"
    assert rejection.reason.startswith("minsk-open-2026 counts in season 2026 (the year it starts), not 2027")
    decided = SeasonDisqualificationDecided("person-p02", "2026", COMPETITION, 2, "7.1.4", at(10))
    assert outcomes(pipeline.judge([records.record(decided, FEDERATION, at(10))])) == ["accepted"]
    # a later competition of the same season refuses him, whatever his entry there is called
    later = Records("gomel-cup-2026")
    assert set(outcomes(pipeline.judge(list(opening(later))[:5]))) == {"accepted"}
    again = ParticipantRegistered("g-17", "person-p02", date(1990, 1, 1))
    rejection = refusal(pipeline.judge([later.record(again, SECRETARY, at(11))]))
    assert rejection.rule == "bfsp 7.2.3"
    assert rejection.reason == "person-p02 is disqualified from official competitions for the season by the federation"
    others = ParticipantRegistered("g-18", "person-p03", date(1990, 1, 1))
    assert outcomes(pipeline.judge([later.record(others, SECRETARY, at(11))])) == ["accepted"]
    # the next season's competition takes him
    next_season = Records("minsk-open-2027")
    regulations = replace(REGULATIONS, title="Minsk Open 2027", starts_on=date(2027, 5, 8))
    assert set(outcomes(pipeline.judge(list(opening(next_season, regulations))[:5]))) == {"accepted"}
    back = ParticipantRegistered("p02", "person-p02", date(1990, 1, 1))
    assert outcomes(pipeline.judge([next_season.record(back, SECRETARY, at(12))])) == ["accepted"]


def test_a_batch_asks_the_store_once_for_its_season_records_and_still_finds_one_stored(pipeline: Pipeline) -> None:
    """The referee asks the store which of a batch's registering athletes have a season record in one query with
    the batch's other look-ups (not one round trip per registration), in the batch that adopts the Regulations
    too — and a season record stored before, not hot in a referee just started, is still found."""
    records = Records()
    pipeline.judge(opening(records))
    steps = [
        records.record(ViolationRecorded("p02", "7.1.4", "", True, 1, "team play with p03"), JUDGE, at(5)),
        records.record(
            PenaltyImposed("p02", 1, PenaltyKind.MISSED_ROUNDS, Role.JUDGE, rounds=2, players_at_table=3, hands_to_miss=6),
            JUDGE, at(6),
        ),
        records.record(ViolationRecorded("p02", "7.1.4", "", True, 2, "team play again"), JUDGE, at(7)),
        records.record(ViolationEnteredInProtocol("p02", 2), CHIEF, at(8)),
        records.record(SeasonDisqualificationDecided("person-p02", "2026", COMPETITION, 2, "7.1.4", at(10)), FEDERATION, at(10)),
    ]
    judged = pipeline.judge(steps)
    assert outcomes(judged) == ["accepted"] * 5, [v.rejection for v in judged if v.rejection]
    pipeline.restart()  # nothing hot: what the store holds is all the referee knows
    asked: list[object] = []
    get = pipeline.store.repository.get

    def counted(stream: object, *args: object, **kwargs: object) -> object:
        asked.append(stream)
        return get(stream, *args, **kwargs)  # type: ignore[arg-type]

    pipeline.store.repository.get = counted  # type: ignore[method-assign]
    other = Records("gomel-cup-2026")
    opened = list(opening(other))[:5]  # the Regulations and the officials, then two registrations, one batch
    registrations = [
        other.record(ParticipantRegistered("q01", "person-q01", date(1990, 1, 1)), SECRETARY, at(11)),
        other.record(ParticipantRegistered("p02-b", "person-p02", date(1990, 1, 1)), SECRETARY, at(12)),
    ]
    verdicts = pipeline.judge([*opened, *registrations])
    assert outcomes(verdicts) == ["accepted"] * 6 + ["rejected"]
    rejection = verdicts[-1].rejection
    assert rejection is not None and rejection.rule == "bfsp 7.2.3"
    assert season_record_id("person-q01", "2026") not in asked, "known absent for the whole batch: not asked again"
    assert season_record_id("person-p02", "2026") in asked, "the one stored is read"


def test_refusals_are_stored_in_the_competitions_rejection_log(pipeline: Pipeline) -> None:
    records = Records()
    pipeline.judge(opening(records))
    pipeline.judge([records.record(ParticipantRegistered("p09", "person-p09", date(2010, 1, 1)), SECRETARY, at(1))])
    stored = pipeline.rejections()
    assert [r["rule"] for r in stored] == ["bfsp 1.1"]
    assert isinstance(pipeline.store.repository.get(rejection_log_id(COMPETITION)), RejectionLog)


def test_a_hands_result_is_challenged_until_the_next_hand_at_the_table_starts(pipeline: Pipeline) -> None:
    records = Records()
    pipeline.judge(opening(records))
    pipeline.judge(hand(records, 1, "p01", "p02", 10))
    p02 = RecordedBy(person="person-p02", role=Role.PARTICIPANT)
    name = f"{table()}/1"

    def challenged(minutes: float, by: RecordedBy = p02, deadline: datetime | None = None) -> tuple[bytes, bytes]:
        raised = HandChallenged(name, "p02", ChallengeKind.RESULT, "my queens played", at(minutes), deadline)
        return records.record(raised, by, at(minutes), table(), "1")

    in_anothers_name = refusal(pipeline.judge([challenged(10.5, RecordedBy(person="person-p03", role=Role.PARTICIPANT))]))
    assert (in_anothers_name.rule, in_anothers_name.reason) == (
        "bfsp 5.9.1", "a participant challenges in his own name: person-p03 may not challenge in the name of p02"
    )
    assert outcomes(pipeline.judge([challenged(11)])) == ["accepted"]
    by_a_judge = refusal(pipeline.judge([challenged(11.5, JUDGE)]))
    assert (by_a_judge.rule, by_a_judge.reason) == (
        "bfsp 5.9.1", "a judge may not challenge a hand's result; only a participant may"
    )
    out = PlayerEliminated("p02", name, EliminationReason.NO_CHIPS, 3, starting_stack=10_000)
    assert outcomes(pipeline.judge([records.record(out, JUDGE, at(12)), *list(hand(records, 2, "p01", "p03", 20))[:1]])) == [
        "accepted", "accepted"
    ]
    late = refusal(pipeline.judge([challenged(21, deadline=at(20))]))
    assert late.rule == "bfsp 5.9.1"
    assert "ended with the start of the next hand" in late.reason
    stored = pipeline.store.repository.get(challenges_id(COMPETITION))
    assert [c.raised_at for c in stored.challenges] == [at(11)]


def envelope_of(type_name: str, role: Role) -> Envelope:
    return Envelope(
        event_id=uuid4(), competition_id=COMPETITION, seq=0, type=type_name, payload={},
        recorded_by=RecordedBy(person="someone", role=role), occurred_at=at(0),
    )


@pytest.mark.parametrize("type_name", sorted(set(REPORTED) & {a.value for a in Act}))
def test_every_hand_event_passes_the_roles_table(pipeline: Pipeline, type_name: str) -> None:
    desk = desk_of(pipeline.referee)
    rule = permission(type_name)
    for role in Role:
        refusal = desk.refusal_of_hand_event(envelope_of(type_name, role))
        if role in rule.roles:
            assert refusal is None, (type_name, role)
        else:
            assert refusal is not None and refusal.rule == rule.cite(), (type_name, role)


def bare(cls: type, **fields: object) -> object:
    """An event of ``cls`` carrying only what the roles table looks at (the desk asks the table first)."""
    event = object.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(event, name, value)
    return event


@pytest.mark.parametrize("type_name", sorted(FEDERATION_CATALOG))
def test_every_federation_act_passes_the_roles_table_before_anything_else(pipeline: Pipeline, type_name: str) -> None:
    cls = FEDERATION_CATALOG[type_name]
    kinds: dict[str, tuple[str, type]] = {
        "PlayerEliminated": ("reason", EliminationReason),
        "PenaltyImposed": ("kind", PenaltyKind),
        "RulingIssued": ("kind", RulingKind),
    }
    choice = kinds.get(type_name)
    variants = [bare(cls, **{choice[0]: v}) for v in choice[1]] if choice else [bare(cls)]
    desk = desk_of(pipeline.referee)
    for event in variants:
        act = act_of(event)
        if act is None:  # the aggregate decides who may (a protest's decision: by its tier)
            continue
        rule = permission(act)
        for role in set(Role) - rule.roles - {Role.AUTHORISED}:
            with pytest.raises(NotPermittedError) as refused:
                desk.judge(envelope_of(type_name, role), event, {})
            assert refused.value.rule == rule.cite(), (type_name, role)


@pytest.mark.parametrize(
    ("type_name", "role", "rule", "reason"),
    [
        ("FinalTableDrawCommitted", Role.JUDGE, "bfsp 2.3.2",
         "a judge may not commit the final-table draw; only the Chief Judge, the secretary or a person the Chief "
         "Judge authorised may"),
        ("HandForHandHandStarted", Role.JUDGE, "tda-2022 RP-8",
         "a judge may not start a hand of hand-for-hand play; only the Chief Judge may"),
        ("HandForHandEnded", Role.SECRETARY, "tda-2022 RP-8",
         "the secretary may not end hand-for-hand play; only the Chief Judge may"),
        ("TableBreakCommitted", Role.JUDGE, "bfsp 3.1",
         "a judge may not commit the draw that breaks a table; only the Chief Judge or a person the Chief Judge "
         "authorised may"),
        ("DealAgreed", Role.SECRETARY, "bfsp 2.1.6",
         "the secretary may not approve a deal among the players left; only the Chief Judge may"),
    ],
)
def test_an_act_with_its_own_row_in_the_roles_table_is_refused_by_that_row(
    pipeline: Pipeline, type_name: str, role: Role, rule: str, reason: str
) -> None:
    """Each of these acts is judged by its own row, not by the row of a neighbouring act."""
    desk = desk_of(pipeline.referee)
    with pytest.raises(NotPermittedError) as refused:
        desk.judge(envelope_of(type_name, role), bare(FEDERATION_CATALOG[type_name]), {})
    assert (str(refused.value.rule), refused.value.reason) == (rule, reason)


def test_an_elimination_is_checked_against_the_hand_it_names(pipeline: Pipeline) -> None:
    records = Records()
    pipeline.judge([*opening(records), *blinds_stolen(records, 8), *three_way_hand(records, 2, 10)])
    name = f"{table()}/2"

    def busted(participant: str, place: int, stack: int) -> tuple[bytes, bytes]:
        out = PlayerEliminated(participant, name, EliminationReason.NO_CHIPS, place, starting_stack=stack)
        return records.record(out, JUDGE, at(12))

    winner = refusal(pipeline.judge([busted("p01", 3, 10_075)]))
    assert (winner.rule, winner.reason) == (
        "bfsp 5.10.2", "p01 finished hand 1/2 with 30,000 chips; a player is eliminated when he has none left"
    )
    wrong_stack = refusal(pipeline.judge([busted("p03", 3, 6_000)]))
    assert "the record says p03 started hand 1/2 with 6000; the rules give 9950" in wrong_stack.reason
    larger_first = refusal(pipeline.judge([busted("p02", 3, 9_975)]))
    assert larger_first.rule == "bfsp 5.10.2"
    assert larger_first.reason.startswith("p03 also busted in hand 1/2 and started it with fewer chips (9,950")
    in_order = pipeline.judge([busted("p03", 3, 9_950), busted("p02", 2, 9_975)])
    assert outcomes(in_order) == ["accepted", "accepted"]
    competition = pipeline.competition()
    assert competition.winner == "p01"
    assert {p: e.place for p, e in competition.eliminated.items()} == {"p03": 3, "p02": 2}


def test_a_misdeal_is_declared_by_a_person_the_chief_judge_authorised_for_it(pipeline: Pipeline) -> None:
    records = Records()
    floor_man = RecordedBy(person="floor-novik", role=Role.AUTHORISED)
    deputy = RecordedBy(person="deputy-lis", role=Role.AUTHORISED)
    appointed = [
        records.record(OfficialAppointed(floor_man.person, Role.AUTHORISED, ("misdeal",)), CHIEF, at(-570)),
        records.record(OfficialAppointed(deputy.person, Role.AUTHORISED, ("balancing",)), CHIEF, at(-570)),
    ]
    assert set(outcomes(pipeline.judge([*opening(records), *appointed]))) == {"accepted"}
    pipeline.judge(list(hand(records, 1, "p01", "p02", 10))[:3])
    misdeal = MisdealDeclared("the first card was exposed", "6.3.1")
    refused = refusal(pipeline.judge([records.record(misdeal, deputy, at(11), table(), "1", seq=3)]))
    assert refused.rule == "bfsp 6.3"
    assert refused.reason.startswith("a person the Chief Judge authorised may not declare a misdeal unless")
    accepted = pipeline.judge([records.record(misdeal, floor_man, at(12), table(), "1", seq=3)])
    assert outcomes(accepted) == ["accepted"], accepted[0].rejection
