"""The roles table (federation digest §3.5): every act against every role, allowed or refused with its rule."""

from __future__ import annotations

import pytest

from domain.errors import NotPermittedError, RuleRef
from domain.hand.codec import REPORTED
from domain.officials import (
    Act,
    Delegation,
    UnknownActError,
    is_permitted,
    verify_named_recorder,
    verify_permitted,
)
from domain.roles import Role

pytestmark = pytest.mark.unit

D, J, CJ, S = Role.DEALER, Role.JUDGE, Role.CHIEF_JUDGE, Role.SECRETARY
F, P, IMP, SIM = Role.FEDERATION, Role.PARTICIPANT, Role.IMPORTER, Role.SIMULATOR
TABLE_HANDS = {D, J, CJ, IMP, SIM}

# act → (who may, the delegation that lets an authorised person do it, the rule cited on a refusal),
# written out from the digest rather than read back from the code
EXPECTED: dict[str, tuple[set[Role], Delegation | None, str]] = {
    "HandStarted": (TABLE_HANDS, None, "bfsp 5.5.6"),
    "ForcedBetPosted": (TABLE_HANDS, None, "bfsp 6.4.4"),
    "HoleCardsDealt": (TABLE_HANDS, None, "bfsp 2.4.1"),
    "CardBurned": (TABLE_HANDS, None, "bfsp 2.4.1"),
    "BoardDealt": (TABLE_HANDS, None, "bfsp 2.4.1"),
    "PlayerActed": (TABLE_HANDS, None, "bfsp 2.4.1"),
    "RawActReported": (TABLE_HANDS, None, "bfsp 2.4.1"),
    "CardsDiscarded": (TABLE_HANDS, None, "bfsp 2.4.1"),
    "HandShown": (TABLE_HANDS, None, "bfsp 2.4.1"),
    "HandMucked": (TABLE_HANDS, None, "bfsp 2.4.1"),
    "DealtShort": (TABLE_HANDS, None, "bfsp 6.3.5"),
    "MissingCardDealt": (TABLE_HANDS, None, "bfsp 6.3.5"),
    "HandKilled": (TABLE_HANDS, None, "bfsp 6.3.7"),
    "PenaltyHandKilled": (TABLE_HANDS, None, "bfsp 6.4.4"),
    "FlopDealtUnburned": (TABLE_HANDS, None, "bfsp 6.6.2"),
    "FlopReformed": (TABLE_HANDS, None, "bfsp 6.6.2"),
    "HandMuckedByMistake": (TABLE_HANDS, None, "bfsp 6.4.2"),
    "ForeignCardFound": (TABLE_HANDS, None, "bfsp 6.4.5"),
    "PrematureCardsDealt": (TABLE_HANDS, None, "bfsp 6.6.5"),
    "PrematureCardsReturned": (TABLE_HANDS, None, "bfsp 6.6.6"),
    "BurnsShuffledIntoStub": (TABLE_HANDS, None, "bfsp 6.5.3"),
    "CommunityCardDealt": (TABLE_HANDS, None, "bfsp 6.5.3"),
    "HoleCardExposed": (TABLE_HANDS, None, "bfsp 6.6.1"),
    "ExposedCardReplaced": (TABLE_HANDS, None, "bfsp 6.6.1"),
    "MuckShuffledIntoStub": (TABLE_HANDS, None, "bfsp 6.5.3"),
    "IncorrectBetAccepted": (TABLE_HANDS, None, "bfsp 4.13"),
    "IncorrectBetCorrected": (TABLE_HANDS, None, "bfsp 4.13"),
    "ExtraCardDealt": (TABLE_HANDS, None, "bfsp 6.3.5"),
    "BoxedCardFound": (TABLE_HANDS, None, "bfsp 6.4.5"),
    "ShowRequested": (TABLE_HANDS, None, "bfsp 5.9.2"),
    "FourCardFlopDealt": ({J, CJ}, None, "bfsp 6.6.3"),
    "MisdealDeclared": ({D, J, CJ}, Delegation.MISDEAL, "bfsp 6.3"),
    "HandVoided": ({J, CJ}, None, "bfsp 6.1.1"),
    "CardsRestored": ({CJ}, None, "bfsp 6.6.9"),
    "MuckedCardsInspected": ({CJ}, None, "bfsp 5.9.2"),
    "ClockCalled": ({J, CJ}, None, "tda-2022 29"),
    "ClockExpired": ({D, J, CJ}, None, "tda-2022 29"),
    "FindingOfFact": ({J, CJ}, None, "bfsp 2.2.3"),
    "ChiefJudgeDecision": ({CJ}, None, "bfsp 2.1.6"),
    "FairnessRuling": ({CJ}, None, "bfsp 7.4.1"),
    "RegulationsAdopted": ({F, CJ}, None, "bfsp 2.1.1"),
    "OfficialAppointed": ({F, CJ}, None, "bfsp 2.1.1"),
    "AuthorityDelegated": ({CJ}, None, "bfsp 3.1"),
    "OfficialRemoved": ({CJ}, None, "bfsp 2.1.5"),
    "ParticipantRegistered": ({S, CJ}, None, "bfsp 2.3.1"),
    "SeatDrawCommitted": ({S, CJ}, Delegation.DRAW, "bfsp 2.3.2"),
    "SeatDrawConducted": ({S, CJ}, Delegation.DRAW, "bfsp 2.3.2"),
    "SeatingVerified": ({J, CJ, S}, None, "bfsp 5.2"),
    "StartTimeChanged": ({CJ}, None, "bfsp 2.1.5"),
    "ScheduleChanged": ({CJ}, None, "bfsp 2.1.5"),
    "LevelStarted": ({J, CJ, S}, None, "bfsp 3.3"),
    "BreakStarted": ({CJ}, None, "bfsp 2.1.5"),
    "BreakEnded": ({CJ}, None, "bfsp 2.1.5"),
    "LevelClockPaused": ({CJ}, None, "bfsp 2.1.5"),
    "LevelClockResumed": ({CJ}, None, "bfsp 2.1.5"),
    "PlayerMoved": ({CJ}, Delegation.BALANCING, "bfsp 3.1"),
    "BalanceToleranceWidened": ({CJ}, None, "bfsp 3.1"),
    "MoverExceptionDecided": ({CJ}, None, "bfsp 3.1"),
    "TableBreakCommitted": ({CJ}, Delegation.BALANCING, "bfsp 3.1"),
    "TableBroken": ({CJ}, Delegation.BALANCING, "bfsp 3.1"),
    "TableHalted": ({CJ}, Delegation.BALANCING, "tda-2022 11-D"),
    "HandForHandStarted": ({CJ}, None, "tda-2022 RP-8"),
    "HandForHandHandStarted": ({CJ}, None, "tda-2022 RP-8"),
    "HandForHandEnded": ({CJ}, None, "tda-2022 RP-8"),
    "ChipRaceOrdered": ({CJ}, None, "tda-2022 24"),
    "ChipRaceConducted": ({D, J, CJ}, None, "tda-2022 24"),
    "FinalTableDrawCommitted": ({S, CJ}, Delegation.DRAW, "bfsp 2.3.2"),
    "FinalTableDrawConducted": ({S, CJ}, Delegation.DRAW, "bfsp 3.1"),
    "TableHandStarted": (TABLE_HANDS, None, "bfsp 5.5.6"),
    "TableHandEnded": (TABLE_HANDS, None, "bfsp 2.4.1"),
    "DealAgreed": ({CJ}, None, "bfsp 2.1.6"),
    "PlayerEliminated": ({J, CJ, S}, None, "bfsp 5.10.2"),
    "CompetitionWinnerDeclared": ({CJ, S}, None, "bfsp 5.10.1"),
    "CompetitionEnded": ({CJ}, None, "bfsp 2.1.1"),
    "FinalProtocolCompiled": ({S}, None, "bfsp 2.3.3"),
    "FinalProtocolSigned": ({S, CJ}, None, "bfsp 2.1.4"),
    "ProtocolSnapshotRequested": ({S, CJ}, None, "bfsp 2.3.3"),
    "ResultDocumentsIssued": ({S}, None, "bfsp 2.3.3"),
    "ViolationRecorded": ({J, CJ}, None, "bfsp 7.2.1"),
    "WarningGiven": ({J, CJ}, None, "bfsp 7.2.1"),
    "MissedRoundsImposed": ({J, CJ}, None, "bfsp 7.2.1"),
    "CompetitionDisqualification": ({CJ}, None, "bfsp 7.2.2"),
    "SeasonDisqualificationDecided": ({F}, None, "bfsp 7.2.3"),
    "RatingRulesAdopted": ({F}, None, "bfsp 2.10"),
    "PenaltyHandServed": ({D, J, CJ}, None, "bfsp 6.4.4"),
    "ViolationEnteredInProtocol": ({CJ}, None, "bfsp 7.2.3"),
    "PenaltyRescinded": ({CJ, F}, None, "bfsp 7.3.4"),
    "HandChallenged": ({P}, None, "bfsp 5.9.1"),
    "ChallengeDecided": ({J, CJ}, None, "bfsp 5.9.1"),
    "ProtestFiled": ({P}, None, "bfsp 7.3.1"),
    "ProtestReceived": ({S, CJ}, None, "bfsp 7.3.1"),
    "ProtestDecidedAtEvent": ({CJ}, None, "bfsp 2.1.3"),
    "ProtestForwarded": ({CJ}, None, "bfsp 7.3.3"),
    "ProtestDecidedByFederation": ({F}, None, "bfsp 7.3.4"),
    "FilerNotified": ({CJ, F}, None, "bfsp 7.3.4"),
    # integrity cases: the integrity team and the federation, investigating collusion (bfsp 7.1.4)
    "IntegrityCaseOpened": ({Role.INTEGRITY, F}, None, "bfsp 7.1.4"),
    "IntegrityCaseNoted": ({Role.INTEGRITY, F}, None, "bfsp 7.1.4"),
    "IntegrityCaseConcluded": ({Role.INTEGRITY, F}, None, "bfsp 7.1.4"),
    "IntegrityCaseReported": ({Role.INTEGRITY, F}, None, "bfsp 7.1.4"),
}

PAIRS = [(act, role) for act in EXPECTED for role in Role]


def test_the_expected_table_names_every_act_and_nothing_else() -> None:
    assert set(EXPECTED) == {act.value for act in Act}


@pytest.mark.parametrize(("act", "role"), PAIRS, ids=[f"{a}-{r}" for a, r in PAIRS])
def test_every_role_is_allowed_or_refused_every_act_with_its_rule(act: str, role: Role) -> None:
    allowed, delegation, rule = EXPECTED[act]
    if role in allowed:
        verify_permitted(act, role)
        assert is_permitted(act, role)
        return
    with pytest.raises(NotPermittedError) as refused:
        verify_permitted(act, role)
    assert str(refused.value.rule) == rule
    assert " may not " in refused.value.reason and "; " in refused.value.reason
    assert not is_permitted(act, role)
    if role is Role.AUTHORISED:
        # a delegation opens exactly the acts it names, and no other
        every = tuple(Delegation)
        assert is_permitted(act, role, delegations=every) is (delegation is not None)
        if delegation is not None:
            others = tuple(d for d in Delegation if d is not delegation)
            assert not is_permitted(act, role, delegations=others)
            verify_permitted(act, role, delegations=(delegation,))


def test_every_event_a_hand_can_report_is_in_the_table() -> None:
    assert set(REPORTED) <= set(EXPECTED)


def test_a_viewer_records_nothing_and_the_integrity_team_only_its_cases() -> None:
    for act in Act:
        assert not is_permitted(act, Role.VIEWER, delegations=tuple(Delegation))
        assert is_permitted(act, Role.INTEGRITY) is act.value.startswith("IntegrityCase")


def test_a_judge_may_not_disqualify_from_the_competition() -> None:
    with pytest.raises(NotPermittedError) as refused:
        verify_permitted("CompetitionDisqualification", Role.JUDGE)
    assert refused.value.reason == "a judge may not disqualify from the competition; only the Chief Judge may"
    assert refused.value.rule == RuleRef("bfsp", "7.2.2")


def test_an_authorised_person_declares_a_misdeal_only_when_the_chief_judge_delegated_it() -> None:
    with pytest.raises(NotPermittedError) as refused:
        verify_permitted(Act.MISDEAL_DECLARED, Role.AUTHORISED, delegations=(Delegation.BALANCING,))
    assert refused.value.message == (
        "a person the Chief Judge authorised may not declare a misdeal unless the Chief Judge delegated misdeal "
        "to him; otherwise only the dealer, a judge, the Chief Judge or a person the Chief Judge authorised may "
        "(bfsp 6.3)"
    )
    verify_permitted(Act.MISDEAL_DECLARED, Role.AUTHORISED, delegations=(Delegation.MISDEAL,))


def test_the_season_disqualification_is_the_federations_alone() -> None:
    with pytest.raises(NotPermittedError, match="the Chief Judge may not disqualify for the season; only the "
                       "federation may"):
        verify_permitted(Act.SEASON_DISQUALIFICATION, Role.CHIEF_JUDGE)


def test_an_imported_history_never_acts_for_an_official() -> None:
    verify_permitted(Act.PLAYER_ACTED, Role.IMPORTER)
    with pytest.raises(NotPermittedError, match="an importer may not give a warning"):
        verify_permitted(Act.WARNING_GIVEN, Role.IMPORTER)


def test_an_act_the_table_does_not_have_is_a_programming_error_not_a_refusal() -> None:
    with pytest.raises(UnknownActError, match="no act called 'PlayerTeleported'"):
        verify_permitted("PlayerTeleported", Role.CHIEF_JUDGE)


def test_an_act_naming_who_did_it_is_recorded_by_that_official_never_reattributed() -> None:
    """One check for every act that names its official (a penalty's imposer, a decision's decider, a ruling's
    official): refused with the act's rule, saying who the record names and who recorded it."""
    verify_named_recorder("penalty", "imposed", Role.JUDGE, Role.JUDGE, RuleRef("bfsp", "7.2.1"))
    with pytest.raises(NotPermittedError) as refused:
        verify_named_recorder("penalty", "imposed", Role.CHIEF_JUDGE, Role.JUDGE, RuleRef("bfsp", "7.2.1"))
    assert refused.value.message == (
        "the penalty says the chief judge imposed it, and it was recorded by the judge (bfsp 7.2.1)"
    )
    assert refused.value.rule == RuleRef("bfsp", "7.2.1")
    verify_named_recorder("ruling", "issued", Role.JUDGE, Role.JUDGE, RuleRef("bfsp", "2.1.1"),
                          named_person="judge-1", recorder_person="judge-1")
    with pytest.raises(NotPermittedError, match=r"the ruling says judge-2 \(judge\) issued it, and it was recorded "
                                                r"by judge-1 \(judge\)"):
        verify_named_recorder("ruling", "issued", Role.JUDGE, Role.JUDGE, RuleRef("bfsp", "2.1.1"),
                              named_person="judge-2", recorder_person="judge-1")
