"""The competition and its floor: Regulations adopted, registrations, draws, levels and breaks, the floor's
moves, chip races, eliminations, hand-for-hand, deals (bfsp 2-5). One handler per act; each loads the
Competition by its natural key (``competition_stream_id``) through the desk, checks what the record derives
against the rules (domain/), and calls the act."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from eventsourcing.domain import Aggregate

from domain.competition.aggregate import Competition, competition_stream_id
from domain.competition.eliminations import verify_bust
from domain.competition.events import (
    EliminationReason,
    PlayerEliminated,
    SeatDrawConducted,
)
from domain.competition.placings import Bust
from domain.competition.regulations import verify_first_adoption
from domain.competition.reported import (
    verify_break_after,
    verify_next_level,
    verify_place,
    verify_players_left,
    verify_starting_buttons,
)
from domain.discipline import SeasonRecord, season_record_id
from domain.hand.aggregate import Hand, hand_id
from domain.rulings.events import RulingIssued
from ingest.envelope import MalformedRecord
from ingest.handlers.desk import (
    Desk,
    Handler,
    Reported,
    season_of,
)


def _adopt(desk: Desk, act: Reported) -> Aggregate:
    e = act.event
    if e.competition_id != act.competition_id:
        raise MalformedRecord(
            f"the envelope is for {act.competition_id}, the Regulations for {e.competition_id}", "competition_id"
        )
    verify_first_adoption(act.competition_id, desk.find(competition_stream_id(act.competition_id)))
    desk.adopted(act.competition_id)
    return Competition.adopt(act.competition_id, e.regulations, act.at, act.by, act.meta)


def on_competition(do: Callable[[Desk, Competition, Reported], None]) -> Callable[[Desk, Reported], Aggregate]:
    def handle(desk: Desk, act: Reported) -> Aggregate:
        competition = desk.competition(act.competition_id)
        do(desk, competition, act)
        return competition

    return handle


def _register(desk: Desk, c: Competition, act: Reported) -> None:
    e = act.event
    season = season_of(c)
    record = desk.find(season_record_id(e.person, season))
    barred = [e.person] if isinstance(record, SeasonRecord) and record.is_disqualified(season, act.at) else []
    entered = e.participant in c.entries
    c.register(
        e.participant,
        e.person,
        e.birth_date,
        act.at,
        act.by,
        season_disqualified=barred,
        membership_valid=e.membership_valid,
        entry_fee_paid=e.entry_fee_paid,
        consent_personal_data=e.consent_personal_data,
        consent_media=e.consent_media,
        seat=e.seat,
        meta=act.meta,
    )
    if not entered:
        desk.registered(c.competition_id, e.participant)


def _conduct_draw(desk: Desk, c: Competition, act: Reported) -> None:
    e: SeatDrawConducted = act.event
    verify_starting_buttons(c, e)
    c.conduct_draw(e.seed, e.assignments, e.ordered_by, act.at, act.by, act.meta)


def _start_level(desk: Desk, c: Competition, act: Reported) -> None:
    """A level's announcement: its values are the schedule's for its number (the aggregate refuses a number the
    clock contradicts, naming the level in force)."""
    verify_next_level(c, act.event)
    c.start_level(act.recorded_at, act.by, act.meta, number=act.event.level.number)


def _start_break(desk: Desk, c: Competition, act: Reported) -> None:
    verify_break_after(c, act.event, act.recorded_at)
    c.start_break(act.event.minutes, act.recorded_at, act.by, act.meta, after_level=act.event.after_level)


def _eliminate(desk: Desk, c: Competition, act: Reported) -> None:
    """One record per bust, or one for the players busted in the same hand with equal starting stacks, who share
    their places (``shared_with``; bfsp 5.10.2, tda-club 28-C)."""
    e: PlayerEliminated = act.event
    if e.reason is EliminationReason.DISQUALIFIED:
        c.disqualify(e.participant, e.ruling, act.at, act.by, act.meta)
        return
    group = (e.participant, *e.shared_with)
    if all(p in c.entries and p not in c.eliminated for p in group):
        for participant in group:
            verify_bust(c, e, participant, group, *_played(desk, c, e.hand))
        verify_place(c, e, group)
    busts = [Bust(p, c.seats.get(p, (0, 0))[0], e.starting_stack) for p in group]
    c.eliminate(e.hand, busts, act.at, act.by, act.meta)


def _hand_for_hand(desk: Desk, c: Competition, act: Reported) -> None:
    verify_players_left(c, act.event)
    c.start_hand_for_hand(act.event.level_seconds_left, act.recorded_at, act.by, act.meta)


_ON_THE_COMPETITION: dict[str, Callable[[Desk, Competition, Reported], None]] = {
    "ParticipantRegistered": _register,
    "SeatDrawCommitted": lambda d, c, a: c.commit_draw(a.event.seed_sha256, a.at, a.by, a.meta),
    "SeatDrawConducted": _conduct_draw,
    "LevelStarted": _start_level,
    "BreakStarted": _start_break,
    # the level clock's acts are timed as the hands are: at their recorded time (Reported.recorded_at)
    "BreakEnded": lambda d, c, a: c.end_break(a.recorded_at, a.by, a.meta),
    "LevelClockPaused": lambda d, c, a: c.pause_clock(a.event.reason, a.recorded_at, a.by, a.meta),
    "LevelClockResumed": lambda d, c, a: c.resume_clock(a.event.paused_at, a.recorded_at, a.by, a.meta),
    "ScheduleChanged": lambda d, c, a: c.change_schedule(
        a.event.levels, a.event.breaks, a.event.reason, a.recorded_at, a.by, a.meta
    ),
    "ChipRaceConducted": lambda d, c, a: _chip_race(c, a),
    "PlayerEliminated": _eliminate,
    "HandForHandStarted": _hand_for_hand,
    "HandForHandHandStarted": lambda d, c, a: _hand_for_hand_hand(c, a),
    "HandForHandEnded": lambda d, c, a: c.end_hand_for_hand(a.recorded_at, a.by, a.meta),
    "FinalTableDrawCommitted": lambda d, c, a: c.commit_final_table_draw(a.event.seed_sha256, a.at, a.by, a.meta),
    "FinalTableDrawConducted": lambda d, c, a: c.conduct_final_table_draw(
        a.event.seed, a.event.assignments, a.event.ordered_by, a.at, a.by, a.meta
    ),
    "DealAgreed": lambda d, c, a: c.agree_deal(a.event.shares, a.event.left_to_play_for, a.at, a.by, a.meta),
    "PlayerMoved": lambda d, c, a: c.move_player(a.event, a.at, a.by, a.meta),
    "BalanceToleranceWidened": lambda d, c, a: c.widen_tolerance(a.event, a.at, a.by, a.meta),
    "MoverExceptionDecided": lambda d, c, a: c.decide_mover_exception(a.event, a.at, a.by, a.meta),
    "TableHalted": lambda d, c, a: c.halt_table(a.event, a.at, a.by, a.meta),
    "TableBreakCommitted": lambda d, c, a: c.commit_table_break(a.event, a.at, a.by, a.meta),
    "TableBroken": lambda d, c, a: c.break_table(a.event, a.at, a.by, a.meta),
}


def _chip_race(c: Competition, act: Reported) -> None:
    e = act.event
    # The exchange and the race are recomputed from the entries and the race cards: the stored results are
    # the rules', whatever the record's own say.
    c.conduct_chip_race(e.table, e.removed_denomination, e.entries, e.dealt, act.at, act.by, act.meta)


def _hand_for_hand_hand(c: Competition, act: Reported) -> None:
    c.start_hand_for_hand_hand(act.recorded_at, act.by, act.meta)




def _played(desk: Desk, c: Competition, named: str) -> tuple[list[Any] | None, tuple[RulingIssued, ...]]:
    """The stored events of hand ``named`` (None when it is not recorded) and the rulings in force on it."""
    table, _, number = named.rpartition("/")
    found = desk.find(hand_id(table, int(number), c.competition_id)) if table and number.isdigit() else None
    if not isinstance(found, Hand):
        return None, ()
    review = desk.review(c.competition_id, named)
    return desk.hand_events(found), tuple(review.rulings) if review is not None else ()


HANDLERS: dict[str, Handler] = {
    "RegulationsAdopted": _adopt,
    **{name: on_competition(do) for name, do in _ON_THE_COMPETITION.items()},
}
