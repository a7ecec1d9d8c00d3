"""Challenges of a hand's result and protests (bfsp 5.9, 7.3): each handler loads the Protest, the hand and the
competition's HandChallenges by natural key through the desk; the windows and the contested penalty are
judged by domain/protests/."""

from __future__ import annotations

from datetime import datetime

from eventsourcing.domain import Aggregate

from domain.competition.aggregate import Competition
from domain.competition.hand_checks import hand_name
from domain.discipline import DisciplinaryCase, case_id
from domain.officials import verify_recorded_by_named
from domain.protests import Protest, challenge, protest_id
from domain.protests.challenges import verify_own_challenge, verify_reported_deadline
from domain.protests.contested import verify_contested_penalty
from domain.protests.events import ContestedKind, HandChallenged, ProtestFiled, ProtestReceived
from domain.protests.protest import (
    verify_filed_time,
    verify_forwarded_snapshot,
    verify_new_protest,
    verify_own_filing,
)
from domain.protocol import (
    HandChallenges,
    challenges_id,
)
from domain.roles import Role
from ingest.envelope import MalformedRecord
from ingest.handlers.desk import (
    Desk,
    Handler,
    Reported,
    challenge_window,
    rulebook_of,
)


def _file(desk: Desk, act: Reported) -> Aggregate:
    e: ProtestFiled = act.event
    competition = _verify_filing(desk, act, e, e.filed_at)
    if act.role is Role.PARTICIPANT:
        entry = competition.entries.get(e.filer)
        verify_own_filing(e, entry.person if entry is not None else None, act.by.person)
    protest = Protest.file(e, competition.ended_at, act.role, act.meta, received_at=act.at)
    return protest


def _receive(desk: Desk, act: Reported) -> Aggregate:
    """A participant's protest handed in, its receipt recorded by the Secretary or the Chief Judge (bfsp 7.3.1)."""
    e: ProtestReceived = act.event
    competition = _verify_filing(desk, act, e, e.received_at)
    return Protest.receive(e, competition.ended_at, act.role, act.meta, received_at=act.at)


def _verify_filing(desk: Desk, act: Reported, e: ProtestFiled | ProtestReceived, claimed: datetime) -> Competition:
    """What a protest's filing or receipt is checked against beside its own rules: its envelope, its time, that it
    is new, and the penalty it contests; the competition it is filed at."""
    if e.competition != act.competition_id:
        raise MalformedRecord(f"the envelope is for {act.competition_id}, the protest for {e.competition}", "competition_id")
    verify_filed_time(claimed, act.envelope.occurred_at)
    verify_new_protest(e.protest, desk.find(protest_id(e.competition, e.protest)))
    competition = desk.competition(act.competition_id)
    if e.contested.kind is ContestedKind.PENALTY:
        sanctioned = e.contested.sanctioned
        case = desk.find(case_id(competition.competition_id, sanctioned)) if sanctioned else None
        verify_contested_penalty(
            competition.competition_id, e, case if isinstance(case, DisciplinaryCase) else None
        )
    return competition


def _forward(desk: Desk, act: Reported) -> Aggregate:
    e = act.event
    protest = desk.protest(act.competition_id, e.protest)
    archive = desk.archive(act.competition_id)
    snapshot = archive.named(e.protocol_snapshot) if archive is not None else None
    verify_forwarded_snapshot(e.protocol_snapshot, e.chain_head, snapshot.chain_head if snapshot is not None else None)
    protest.forward(e.protocol_snapshot, e.chain_head, act.role, act.at, act.meta, reported=(e.forwarded_at, e.deadline))
    return protest


def _decide(desk: Desk, act: Reported) -> Aggregate:
    e = act.event
    protest = desk.protest(act.competition_id, e.protest)
    verify_recorded_by_named(e, act.role, act.by.person)
    protest.decide(e.decision, e.reasons, act.role, act.at, act.meta)
    return protest


def _notify(desk: Desk, act: Reported) -> Aggregate:
    protest = desk.protest(act.competition_id, act.event.protest)
    protest.notify_filer(act.role, act.at, act.meta)
    return protest


def _challenge(desk: Desk, act: Reported) -> Aggregate:
    """A challenge of a hand's result, judged against the window the hands give: open until the next hand at
    the table starts, or for the rulebook's seconds after the award when the hand was the last before a break
    (bfsp 5.9.1; TDA 2022 22)."""
    e: HandChallenged = act.event
    hand = desk.hand(act.envelope)
    assert act.envelope.table_id is not None and act.envelope.hand_id is not None
    named = hand_name(act.envelope.table_id, act.envelope.hand_id)
    if e.hand != named:
        raise MalformedRecord(f"the challenge is of hand {e.hand}; the envelope names hand {named}", "payload.hand")
    if e.raised_at != act.envelope.occurred_at:
        raise MalformedRecord(
            f"the challenge says it was raised at {e.raised_at.isoformat()}, the record at "
            f"{act.envelope.occurred_at.isoformat()}",
            "payload.raised_at",
        )
    book = rulebook_of(desk, act)
    if act.role is Role.PARTICIPANT:
        competition = desk.competition_of(act.competition_id)
        entry = competition.entries.get(e.participant) if competition is not None else None
        verify_own_challenge(e.participant, entry.person if entry is not None else None, act.by.person, book)
    window = challenge_window(desk, act, hand)
    judged = challenge(e.hand, e.participant, e.kind, e.grounds, act.at, window, book, act.role)  # service's clock
    verify_reported_deadline(e.deadline, judged, book)
    found = desk.find(challenges_id(act.competition_id))
    kept = found if isinstance(found, HandChallenges) else HandChallenges.open(act.competition_id, act.at, act.meta)
    kept.record(judged, act.meta)
    return kept




HANDLERS: dict[str, Handler] = {
    "HandChallenged": _challenge,
    "ProtestFiled": _file,
    "ProtestReceived": _receive,
    "ProtestForwarded": _forward,
    "ProtestDecided": _decide,
    "FilerNotified": _notify,
}
