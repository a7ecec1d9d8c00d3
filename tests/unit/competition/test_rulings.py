"""Rulings amend a hand's mechanical outcome, and the record says which part is whose (bfsp 2.2.3, 2.1.6, 7.4.1);
the Chief Judge's inspection of mucked cards (bfsp 5.9.2)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from hand_table import B, C, F, X, start
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cards import parse_cards
from domain.chained import first_broken_link_in
from domain.errors import DisciplineError, NotPermittedError, RuleRef
from domain.hand.events import HandEnded, HandMucked, HandShown, PotAwarded, PotShare
from domain.officials.codec import decode, encode
from domain.roles import Role
from domain.rulings import (
    CATALOG,
    HandReview,
    InspectionOutcome,
    MechanicalOutcome,
    PotReaward,
    RulingIssued,
    RulingKind,
    amend,
)

pytestmark = pytest.mark.unit

AT = datetime(2026, 3, 14, 22, 15, tzinfo=UTC)


def _dealer_mucks_the_winner() -> MechanicalOutcome:
    """Kings bet the river and show; the aces call, are tabled, and the dealer mucks them: the engine gives the
    pot to the kings (bfsp 7.4.1's example)."""
    table = start(stacks=(10_000,) * 3).post().deal(s1="KsKd", s2="AsAd", s3="7c2h")
    table.acts((3, C), (1, C), (2, X))
    table.board("2c7d9h")
    table.acts((1, X), (2, X), (3, X))
    table.board("Jc")
    table.acts((1, X), (2, X), (3, X))
    table.board("4s")
    table.acts((1, B, 200), (2, C), (3, F))
    table.apply(HandShown(1, parse_cards("KsKd")))
    derived = table.apply(HandMucked(2))
    pots = tuple(e for e in derived if isinstance(e, PotAwarded))
    ended = next(e for e in derived if isinstance(e, HandEnded))
    return MechanicalOutcome(pots, ended)


def _ruling(**changes: object) -> RulingIssued:
    ruling = RulingIssued(
        ruling="ruling-1",
        hand="hand-77",
        kind=RulingKind.FAIRNESS_OVERRIDE,
        official="cj-1",
        role=Role.CHIEF_JUDGE,
        rule="bfsp 7.4.1",
        finding="the dealer mucked seat 2's tabled aces; the cards were identified exactly",
        reawards=(PotReaward(0, (PotShare(2, 700),)),),
        restored=(2,),
        deviates_from=("bfsp 5.9.2",),
        justification="the aces were tabled and won; the muck was the dealer's error, not the player's",
    )
    return replace(ruling, **changes)  # type: ignore[arg-type]


def test_the_chief_judge_awards_the_pot_to_the_real_winner_and_the_record_keeps_both() -> None:
    mechanical = _dealer_mucks_the_winner()
    assert mechanical.pots[0].shares == (PotShare(1, 700),)
    amended = amend(mechanical, _ruling())
    pot = amended.pots[0]
    assert pot.awarded.shares == (PotShare(2, 700),)
    assert pot.mechanical.shares == (PotShare(1, 700),)
    assert pot.provenance.discretionary
    assert (pot.provenance.official, pot.provenance.role, pot.provenance.rule) == ("cj-1", Role.CHIEF_JUDGE, "bfsp 7.4.1")
    assert dict(amended.final_stacks) == {1: 9_700, 2: 10_400, 3: 9_900}
    assert dict(mechanical.ended.final_stacks) == {1: 10_400, 2: 9_700, 3: 9_900}


def test_a_ruling_that_changes_nothing_leaves_every_pot_mechanical() -> None:
    mechanical = _dealer_mucks_the_winner()
    upheld = _ruling(kind=RulingKind.FINDING_OF_FACT, role=Role.JUDGE, reawards=(), restored=(), deviates_from=(),
                     justification="", finding="seat 2 mucked his own hand", rule="bfsp 2.2.3")
    amended = amend(mechanical, upheld)
    assert not amended.discretionary_pots
    assert amended.final_stacks == mechanical.ended.final_stacks


def test_only_the_chief_judge_restores_a_mucked_hand() -> None:
    with pytest.raises(NotPermittedError, match="a judge may not restore folded or mucked cards") as refused:
        amend(_dealer_mucks_the_winner(), _ruling(kind=RulingKind.FINDING_OF_FACT, role=Role.JUDGE))
    assert refused.value.rule == RuleRef("bfsp", "6.6.9")


def test_only_the_chief_judge_departs_from_the_rules() -> None:
    with pytest.raises(NotPermittedError) as refused:
        amend(_dealer_mucks_the_winner(), _ruling(role=Role.JUDGE, restored=()))
    assert refused.value.rule == RuleRef("bfsp", "7.4.1")


def test_a_fairness_override_says_what_it_departs_from_and_why() -> None:
    with pytest.raises(DisciplineError, match="justifies it") as refused:
        amend(_dealer_mucks_the_winner(), _ruling(justification=" "))
    assert refused.value.rule == RuleRef("bfsp", "7.4.1")


def test_the_shares_must_add_up_to_the_pot() -> None:
    split = (PotShare(1, 350), PotShare(2, 300))
    with pytest.raises(DisciplineError) as refused:
        amend(_dealer_mucks_the_winner(), _ruling(reawards=(PotReaward(0, split),)))
    assert refused.value.reason == "the shares of the main pot add up to 650; the pot is 700"


def test_a_pot_goes_only_to_a_seat_that_may_win_it() -> None:
    mechanical = _dealer_mucks_the_winner()
    with pytest.raises(DisciplineError, match=r"seat\(s\) 3 may not win the main pot"):
        amend(mechanical, _ruling(reawards=(PotReaward(0, (PotShare(3, 700),)),)))
    with pytest.raises(DisciplineError, match=r"seat\(s\) 7 were not in the hand"):
        amend(mechanical, _ruling(reawards=(PotReaward(0, (PotShare(7, 700),)),)))
    with pytest.raises(DisciplineError, match=r"seat\(s\) 2 may not win"):
        # without restoring the mucked aces, seat 2 has no hand to win with
        amend(mechanical, _ruling(restored=()))
    with pytest.raises(DisciplineError, match="no side pot 1 to award again"):
        amend(mechanical, _ruling(reawards=(PotReaward(1, (PotShare(2, 700),)),)))


def test_a_hand_declared_dead_gives_up_its_share_and_the_ruling_must_award_it_again() -> None:
    mechanical = _dealer_mucks_the_winner()
    dead_only = _ruling(kind=RulingKind.CHIEF_JUDGE_DECISION, reawards=(), restored=(), dead=(1,),
                        deviates_from=(), justification="", rule="bfsp 6.3.9")
    with pytest.raises(DisciplineError, match=r"seat\(s\) 1 were declared dead but keep their share of the main pot"):
        amend(mechanical, dead_only)
    with pytest.raises(DisciplineError, match=r"seat\(s\) 1 may not win"):
        amend(mechanical, replace(dead_only, reawards=(PotReaward(0, (PotShare(1, 700),)),)))
    amended = amend(mechanical, replace(dead_only, restored=(2,), reawards=(PotReaward(0, (PotShare(2, 700),)),)))
    assert amended.pots[0].provenance.kind is RulingKind.CHIEF_JUDGE_DECISION


def test_the_review_records_rulings_and_the_chief_judge_amends_a_judges_finding() -> None:
    mechanical = _dealer_mucks_the_winner()
    review = HandReview.open("bfsp-cup-2026", "hand-77", AT)
    finding = _ruling(ruling="ruling-1", kind=RulingKind.FINDING_OF_FACT, role=Role.JUDGE, official="judge-2",
                      reawards=(), restored=(), deviates_from=(), justification="", rule="bfsp 2.2.3",
                      finding="seat 2 threw his own cards into the muck")
    review.issue(finding, mechanical, AT)
    decision = _ruling(ruling="ruling-2", amends="ruling-1")
    with pytest.raises(DisciplineError, match="only the Chief Judge amends"):
        review.issue(replace(finding, ruling="ruling-3", amends="ruling-1"), mechanical, AT)
    with pytest.raises(DisciplineError, match="no ruling ruling-9 to amend"):
        review.issue(replace(decision, amends="ruling-9"), mechanical, AT)
    amended = review.issue(decision, mechanical, AT)
    assert amended.pots[0].awarded.shares == (PotShare(2, 700),)
    assert review.ruling_in_force == decision
    with pytest.raises(DisciplineError, match="already recorded"):
        review.issue(decision, mechanical, AT)
    events = review.collect_events()
    assert first_broken_link_in(events) is None
    assert decode(events[-1].payload, CATALOG) == decision
    assert encode(decision) == events[-1].payload


def test_the_chief_judge_alone_inspects_mucked_cards_and_shows_them_only_on_finding_team_play() -> None:
    review = HandReview.open("bfsp-cup-2026", "hand-77", AT)
    suspicion = "seats 2 and 5 never bet into each other all evening"
    with pytest.raises(NotPermittedError, match="a judge may not inspect mucked cards"):
        review.inspect((2,), {2}, Role.PARTICIPANT, suspicion, InspectionOutcome.NO_TEAM_PLAY, False, Role.JUDGE, AT)
    with pytest.raises(DisciplineError, match="revealing them to the table is forbidden") as refused:
        review.inspect((2,), {2}, Role.PARTICIPANT, suspicion, InspectionOutcome.NO_TEAM_PLAY, True,
                       Role.CHIEF_JUDGE, AT)
    assert refused.value.rule == RuleRef("bfsp", "5.9.2")
    with pytest.raises(DisciplineError, match="showing the cards to all participants"):
        review.inspect((2,), {2}, Role.JUDGE, suspicion, InspectionOutcome.TEAM_PLAY_FOUND, False,
                       Role.CHIEF_JUDGE, AT)
    with pytest.raises(DisciplineError, match=r"seat\(s\) 4 mucked no hand"):
        review.inspect((2, 4), {2}, Role.JUDGE, suspicion, InspectionOutcome.NO_TEAM_PLAY, False,
                       Role.CHIEF_JUDGE, AT)
    with pytest.raises(DisciplineError, match="not from viewer"):
        review.inspect((2,), {2}, Role.VIEWER, suspicion, InspectionOutcome.NO_TEAM_PLAY, False,
                       Role.CHIEF_JUDGE, AT)
    with pytest.raises(DisciplineError, match="reasonable suspicion"):
        review.inspect((2,), {2}, Role.JUDGE, "", InspectionOutcome.NO_TEAM_PLAY, False, Role.CHIEF_JUDGE, AT)
    quiet = review.inspect((2,), {2}, Role.PARTICIPANT, suspicion, InspectionOutcome.NO_TEAM_PLAY, False,
                           Role.CHIEF_JUDGE, AT)
    found = review.inspect((2,), {2}, Role.JUDGE, suspicion, InspectionOutcome.TEAM_PLAY_FOUND, True,
                           Role.CHIEF_JUDGE, AT)
    assert review.inspections == (quiet, found)
    assert not quiet.shown_to_table and found.shown_to_table


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=1, max_value=699))
def test_a_reaward_moves_chips_between_seats_and_creates_none(to_seat_1: int) -> None:
    mechanical = _dealer_mucks_the_winner()
    split = (PotShare(1, to_seat_1), PotShare(2, 700 - to_seat_1))
    amended = amend(mechanical, _ruling(reawards=(PotReaward(0, split),)))
    assert sum(c for _, c in amended.final_stacks) == sum(c for _, c in mechanical.ended.final_stacks)
    assert dict(amended.final_stacks)[1] == 10_400 - 700 + to_seat_1
