"""Officials and discipline: appointments and removals (bfsp 2.1), the service's deny list of API tokens,
violations, penalties, missed rounds served, penalties rescinded, season disqualifications (bfsp 7.1-7.2).
Each handler loads the Competition, the participant's DisciplinaryCase or the athlete's SeasonRecord by
natural key through the desk and calls the act; the rules (domain/discipline/) decide."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from eventsourcing.domain import Aggregate

from domain.competition.aggregate import Competition, competition_stream_id
from domain.discipline import DisciplinaryCase, PenaltyKind, SeasonRecord, case_id, season_record_id
from domain.discipline.penalties import verify_killed, verify_players_at_table
from domain.discipline.season import entry_of, verify_case_to_decide_on, verify_counts_in
from domain.hand.aggregate import Hand, hand_id
from domain.officials import Delegation, verify_recorded_by_named
from domain.officials.revocations import DENY_LIST_ID, TokenDenyList
from domain.protests import Protest, protest_id
from domain.protests.contested import verify_upheld
from domain.rating import SeasonRating, season_rating_id
from ingest.envelope import MalformedRecord
from ingest.handlers.competition import on_competition
from ingest.handlers.desk import (
    Desk,
    Handler,
    NotYet,
    Reported,
    season_of,
)


def _appoint(desk: Desk, c: Competition, act: Reported) -> None:
    e = act.event
    try:
        delegations = [Delegation(d) for d in e.delegations]
    except ValueError as err:
        raise MalformedRecord(str(err), "payload.delegations") from None
    c.appoint(e.person, e.role, act.at, act.by, delegations, act.meta, tables=e.tables)





def _on_case(do: Callable[[Desk, Competition, DisciplinaryCase, Reported], None]) -> Callable[[Desk, Reported], Aggregate]:
    def handle(desk: Desk, act: Reported) -> Aggregate:
        competition = desk.competition(act.competition_id)
        case = desk.case(competition, act.event.participant, act)
        do(desk, competition, case, act)
        return case

    return handle


def _violation(desk: Desk, c: Competition, case: DisciplinaryCase, act: Reported) -> None:
    e = act.event
    case.verify_reported_occurrence(e.code, e.occurrence)
    case.record_violation(e.code, e.hand, e.intentional, act.at, act.role, e.description, act.meta)


def _impose(desk: Desk, c: Competition, case: DisciplinaryCase, act: Reported) -> None:
    e = act.event
    verify_recorded_by_named(e, act.role, act.by.person)
    players = 0
    if e.kind is PenaltyKind.MISSED_ROUNDS:
        players = verify_players_at_table(e.players_at_table, e.participant, c.seats, c.eliminated)
    case.impose(
        e.violation, e.kind, act.role, act.at,
        rounds=e.rounds, players_at_table=players, chips_removed=e.chips_removed,
        reported_hands_to_miss=e.hands_to_miss, meta=act.meta,
    )


def _enter_in_protocol(desk: Desk, c: Competition, case: DisciplinaryCase, act: Reported) -> None:
    case.enter_in_protocol(act.event.violation, act.role, act.at, act.meta)


def _serve(desk: Desk, c: Competition, case: DisciplinaryCase, act: Reported) -> None:
    e = act.event
    case.verify_served_towards(e.penalty)
    if not e.misdealt:
        verify_killed(e.participant, e.hand, _played(desk, c, e.hand))
    case.serve_hand(e.hand, act.at, act.role, misdealt=e.misdealt, meta=act.meta)


def _rescind(desk: Desk, c: Competition, case: DisciplinaryCase, act: Reported) -> None:
    e = act.event
    found = desk.find(protest_id(c.competition_id, e.protest))
    verify_upheld(e.protest, found if isinstance(found, Protest) else None)
    case.rescind(e.penalty, e.protest, act.role, act.at, act.meta)


def _season(desk: Desk, act: Reported) -> Aggregate:
    e = act.event
    competition = desk.find(competition_stream_id(e.competition))
    if not isinstance(competition, Competition):
        raise NotYet(f"competition {e.competition} has adopted no Regulations", "payload.competition")
    persons = {p: entry.person for p, entry in competition.entries.items()}
    participant = entry_of(e.competition, persons, e.athlete, e.participant)
    verify_counts_in(e.competition, season_of(competition), e.season)
    record = desk.find(season_record_id(e.athlete, e.season))
    if record is None:
        record = SeasonRecord.open(e.athlete, e.season, act.at, act.meta)
    assert isinstance(record, SeasonRecord)
    found = desk.find(case_id(e.competition, participant))
    case = verify_case_to_decide_on(e.athlete, e.competition, found if isinstance(found, DisciplinaryCase) else None)
    record.decide(case, e.violation, act.role, act.at, e.protocol, act.meta, person=e.athlete,
                  participant=e.participant)
    return record


def _rating_rules(desk: Desk, act: Reported) -> Aggregate:
    """The federation's rules of a season's rating list, on the season's own record (domain/rating.py)."""
    e = act.event
    found = desk.find(season_rating_id(e.season))
    rating = found if isinstance(found, SeasonRating) else SeasonRating.open(e.season, act.at, act.meta)
    rating.adopt(e, act.role, act.at, act.meta)
    return rating


def _revoke(desk: Desk, act: Reported) -> Aggregate:
    found = desk.find(DENY_LIST_ID)
    deny_list = found if isinstance(found, TokenDenyList) else TokenDenyList.open(act.at)
    deny_list.revoke(act.event, act.by.person, act.role, act.at, act.meta)
    return deny_list




def _played(desk: Desk, c: Competition, named: str) -> list[Any]:
    """The stored events of hand ``named``; out of sequence while it is not recorded."""
    table, _, number = named.rpartition("/")
    found = desk.find(hand_id(table, int(number), c.competition_id)) if table and number.isdigit() else None
    if not isinstance(found, Hand):
        raise NotYet(f"hand {named} is not recorded at {c.competition_id}", "payload.hand")
    return desk.hand_events(found)


HANDLERS: dict[str, Handler] = {
    "OfficialAppointed": on_competition(_appoint),
    "OfficialRemoved": on_competition(lambda d, c, a: c.remove_official(a.event.person, a.event.reason, a.at, a.by, a.meta)),
    "TokenRevoked": _revoke,
    "ViolationRecorded": _on_case(_violation),
    "PenaltyImposed": _on_case(_impose),
    "ViolationEnteredInProtocol": _on_case(_enter_in_protocol),
    "PenaltyHandServed": _on_case(_serve),
    "PenaltyRescinded": _on_case(_rescind),
    "SeasonDisqualificationDecided": _season,
    "RatingRulesAdopted": _rating_rules,
}
