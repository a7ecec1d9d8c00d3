"""Protests in two tiers: to the Chief Judge at the event, and in writing through him to the federation, which
decides within 30 days, finally (bfsp 2.1.3, 2.2.3, 7.3)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from domain.chained import first_broken_link_in
from domain.errors import NotPermittedError, ProtestError, RuleRef
from domain.officials.codec import decode, encode
from domain.protests import (
    CATALOG,
    Contested,
    ContestedKind,
    Protest,
    ProtestDecision,
    ProtestFiled,
    ProtestState,
    ProtestTier,
    protest_id,
)
from domain.roles import Role

pytestmark = pytest.mark.unit

FILED_AT = datetime(2026, 3, 15, 1, 10, tzinfo=UTC)
ENDS_AT = datetime(2026, 3, 15, 4, 0, tzinfo=UTC)
HEAD = "ab" * 32
DQ = Contested("penalty-2", ContestedKind.PENALTY, Role.CHIEF_JUDGE, sanctioned="athlete-5")
FINDING = Contested("ruling-7", ContestedKind.FINDING_OF_FACT, Role.JUDGE)


def _to_federation(**changes: object) -> ProtestFiled:
    filed = ProtestFiled(
        "protest-1",
        "bfsp-cup-2026",
        ProtestTier.FEDERATION,
        "athlete-5",
        DQ,
        "I did not insult the dealer; the words were addressed to my phone",
        True,
        Role.CHIEF_JUDGE,
        FILED_AT,
    )
    return replace(filed, **changes)  # type: ignore[arg-type]


def _forwarded(at: datetime = FILED_AT + timedelta(hours=1)) -> Protest:
    protest = Protest.file(_to_federation(), competition_ended_at=None)
    protest.forward("protocol-snapshot-12", HEAD, Role.CHIEF_JUDGE, at)
    return protest


def test_a_protest_filed_after_the_competition_ended_is_refused() -> None:
    late = _to_federation(filed_at=ENDS_AT + timedelta(minutes=5))
    with pytest.raises(ProtestError, match="before the end of the competition") as refused:
        Protest.file(late, competition_ended_at=ENDS_AT)
    assert refused.value.rule == RuleRef("bfsp", "7.3.2")
    Protest.file(_to_federation(), competition_ended_at=ENDS_AT)


def test_a_protest_filed_by_another_participant_is_refused() -> None:
    with pytest.raises(ProtestError) as refused:
        Protest.file(_to_federation(filer="athlete-6"), competition_ended_at=None)
    assert refused.value.message == (
        "only the participant the sanction was imposed on (athlete-5) may protest it to the federation; "
        "athlete-6 may not (bfsp 7.3.1)"
    )


def test_a_protest_sent_to_the_federation_without_going_through_the_chief_judge_is_refused() -> None:
    with pytest.raises(ProtestError, match="filed through the Chief Judge; this one went to the federation") as refused:
        Protest.file(_to_federation(received_by=Role.FEDERATION), competition_ended_at=None)
    assert refused.value.rule == RuleRef("bfsp", "7.3.1")


def test_a_spoken_protest_to_the_federation_is_refused() -> None:
    with pytest.raises(ProtestError, match="written statement"):
        Protest.file(_to_federation(written=False), competition_ended_at=None)


def test_a_judges_finding_goes_to_the_chief_judge_first() -> None:
    with pytest.raises(ProtestError, match="goes to the Chief Judge first"):
        Protest.file(_to_federation(contested=FINDING), competition_ended_at=None)


def test_an_official_does_not_file_a_protest() -> None:
    with pytest.raises(NotPermittedError, match="the Chief Judge may not file a protest"):
        Protest.file(_to_federation(), competition_ended_at=None, filed_by=Role.CHIEF_JUDGE)


def test_a_federation_decision_on_day_31_is_recorded_and_flagged_overdue() -> None:
    forwarded_at = FILED_AT + timedelta(hours=1)
    protest = _forwarded(forwarded_at)
    assert protest.deadline == forwarded_at + timedelta(days=30)
    assert not protest.is_overdue(forwarded_at + timedelta(days=30))
    assert protest.is_overdue(forwarded_at + timedelta(days=30, seconds=1))
    decided = protest.decide(ProtestDecision.DISMISSED, "the report of the judge stands", Role.FEDERATION,
                             forwarded_at + timedelta(days=31))
    assert decided.overdue and protest.is_overdue(forwarded_at + timedelta(days=31))
    assert protest.state is ProtestState.DECIDED


def test_a_decision_in_time_is_not_overdue() -> None:
    protest = _forwarded()
    protest.decide(ProtestDecision.UPHELD, "the words were not addressed to anyone", Role.FEDERATION,
                   FILED_AT + timedelta(days=12))
    assert not protest.is_overdue(FILED_AT + timedelta(days=90))


def test_the_federations_decision_is_final_and_the_filer_is_notified() -> None:
    protest = _forwarded()
    protest.decide(ProtestDecision.DISMISSED, "the sanction stands", Role.FEDERATION, FILED_AT + timedelta(days=3))
    with pytest.raises(NotPermittedError):
        protest.notify_filer(Role.JUDGE, FILED_AT + timedelta(days=3))
    with pytest.raises(ProtestError, match="notified by whoever decided"):
        protest.notify_filer(Role.CHIEF_JUDGE, FILED_AT + timedelta(days=3))
    protest.notify_filer(Role.FEDERATION, FILED_AT + timedelta(days=4))
    assert protest.state is ProtestState.FILER_NOTIFIED
    with pytest.raises(ProtestError, match="final; nothing follows it") as refused:
        protest.decide(ProtestDecision.UPHELD, "second thoughts", Role.FEDERATION, FILED_AT + timedelta(days=5))
    assert refused.value.rule == RuleRef("bfsp", "7.3.4")


def test_the_federation_decides_only_what_the_chief_judge_forwarded_with_the_protocol() -> None:
    protest = Protest.file(_to_federation(), competition_ended_at=None)
    with pytest.raises(ProtestError, match="has not been forwarded") as refused:
        protest.decide(ProtestDecision.UPHELD, "upheld", Role.FEDERATION, FILED_AT + timedelta(days=1))
    assert refused.value.rule == RuleRef("bfsp", "7.3.3")
    with pytest.raises(ProtestError, match="together with the competition protocol"):
        protest.forward("protocol-snapshot-12", "not-a-chain-head", Role.CHIEF_JUDGE, FILED_AT)
    with pytest.raises(NotPermittedError, match="a judge may not forward a protest"):
        protest.forward("protocol-snapshot-12", HEAD, Role.JUDGE, FILED_AT)
    forty_days = (FILED_AT, FILED_AT + timedelta(days=40))
    with pytest.raises(ProtestError, match=r"decides by \(30 days from receipt\)") as wrong:
        protest.forward("protocol-snapshot-12", HEAD, Role.CHIEF_JUDGE, FILED_AT, reported=forty_days)
    assert wrong.value.rule == RuleRef("bfsp", "7.3.4")
    assert str(FILED_AT + timedelta(days=30)) in str(wrong.value)
    forwarded = protest.forward("protocol-snapshot-12", HEAD, Role.CHIEF_JUDGE, FILED_AT)
    assert (forwarded.protocol_snapshot, forwarded.chain_head) == ("protocol-snapshot-12", HEAD)
    with pytest.raises(NotPermittedError, match="the Chief Judge may not decide a protest to the federation"):
        protest.decide(ProtestDecision.UPHELD, "upheld", Role.CHIEF_JUDGE, FILED_AT)


def test_tier_one_the_chief_judge_decides_a_protest_against_a_judges_finding_at_the_event() -> None:
    filed = _to_federation(tier=ProtestTier.CHIEF_JUDGE, contested=FINDING, written=False, filer="athlete-9")
    protest = Protest.file(filed, competition_ended_at=None)
    with pytest.raises(ProtestError, match="not forwarded") as refused:
        protest.forward("protocol-snapshot-12", HEAD, Role.CHIEF_JUDGE, FILED_AT)
    assert refused.value.rule == RuleRef("bfsp", "2.1.3")
    with pytest.raises(NotPermittedError):
        protest.decide(ProtestDecision.UPHELD, "the bet was in", Role.JUDGE, FILED_AT)
    protest.decide(ProtestDecision.UPHELD, "the video shows the bet was in", Role.CHIEF_JUDGE, FILED_AT)
    assert protest.deadline is None and not protest.is_overdue(FILED_AT + timedelta(days=400))
    protest.notify_filer(Role.CHIEF_JUDGE, FILED_AT)
    with pytest.raises(ProtestError, match="written protest to the federation") as next_step:
        protest.decide(ProtestDecision.DISMISSED, "again", Role.CHIEF_JUDGE, FILED_AT)
    assert next_step.value.rule == RuleRef("bfsp", "7.3.1")


def test_tier_one_is_against_a_judges_finding_only_and_goes_to_the_chief_judge() -> None:
    against_the_chief = _to_federation(tier=ProtestTier.CHIEF_JUDGE)
    with pytest.raises(ProtestError, match="against a judge's finding of fact") as refused:
        Protest.file(against_the_chief, competition_ended_at=None)
    assert refused.value.rule == RuleRef("bfsp", "2.2.3")
    to_a_judge = _to_federation(tier=ProtestTier.CHIEF_JUDGE, contested=FINDING, received_by=Role.JUDGE)
    with pytest.raises(ProtestError, match="this one went to the judge"):
        Protest.file(to_a_judge, competition_ended_at=None)


def test_the_protest_is_hash_chained_and_reads_back() -> None:
    protest = _forwarded()
    events = protest.collect_events()
    assert protest.id == protest_id("bfsp-cup-2026", "protest-1")
    assert first_broken_link_in(events) is None
    for stored in events:
        assert encode(decode(stored.payload, CATALOG)) == stored.payload
    assert protest.filing == _to_federation()
