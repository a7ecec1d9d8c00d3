"""The federation's live views of a competition (federation digest §3.4): the penalty register, the protests
and hand challenges, the table balance, the level clock, the standings and the rulings.

**Computed on read** from the store's aggregates, not kept in tables of their own: a competition is tens of
participants, a handful of protests and rulings, and each view replays only its own streams — the
Competition's (one stream, ids from natural keys), each participant's DisciplinaryCase and SeasonRecord, and the
Protest and HandReview streams, found by one query of the store's index of the competition's streams (their
ids hash names the Competition does not list). So the views are never behind the referee (each stream's replay is
kept between requests while the store holds nothing newer of it: projections/replays.py), and the floor's, the
ladder's and the protest's own rules answer them (``Floor.next_balancing_move``, ``DisciplinaryCase
.hands_remaining``, ``Protest.is_overdue``, ``rulings.amend``): nothing here re-decides what the domain decides.
Only the chip counts come from the hand read models (each table's last hand, :class:`ReadModels`), with the
chips the officials' rulings moved since added (the read models replay the hands as the engine played them).

Time is an argument (``now``): the caller reads the clock, so "overdue" and "time remaining" are judged at the
moment of the request while the domain stays clock-free.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic
from pydantic import BaseModel, Field

from domain.competition import balancing, ofc_points
from domain.competition.aggregate import Competition, competition_stream_id
from domain.competition.events import EliminationReason
from domain.discipline import (
    DisciplinaryCase,
    PenaltyKind,
    SeasonRecord,
    case_id,
    season_record_id,
    violation,
)
from domain.discipline.events import CATALOG as DISCIPLINE_CATALOG
from domain.hand.aggregate import hand_id
from domain.ofc.events import OFC
from domain.officials.codec import decode as decode_officials
from domain.officials.permissions import permission
from domain.protests import ChallengeKind, ChallengeWindow, Protest, challenge_deadline, protest_id
from domain.protests.events import CATALOG as PROTEST_CATALOG
from domain.rulebooks import get_rulebook
from domain.rulings import HandReview, MechanicalOutcome, RulingIssued, amend
from domain.rulings.amend import chips_moved, standing
from domain.rulings.outcome import stored_outcome
from projections import replays
from projections.read_models import ReadModels
from projections.replays import Replayed
from projections.stored import EventSource, iso, recorded_by

# --- the views ---------------------------------------------------------------------------------------------


class Who(BaseModel):
    person: str
    role: str


class ViolationEntry(BaseModel):
    number: int
    code: str
    rule: str
    what: str = Field(description="the violation as the federation's rules name it")
    occurrence: int = Field(description="the how-many-th time this participant committed it here")
    hand: str | None = Field(description="the hand it happened in; withheld from viewers (grounds)")
    intentional: bool | None
    description: str | None = Field(description="what happened: the grounds, withheld from viewers")
    entered_in_protocol: bool
    at: str
    recorded_by: Who


class PenaltyEntry(BaseModel):
    number: int
    reference: str = Field(description="how a protest names it: penalty-<number>")
    violation: int
    kind: str
    imposed_by: Who
    rule: str
    rounds: int
    hands_to_miss: int
    hands_remaining: int
    in_force: bool
    rescinded_by_protest: str
    at: str


class SeasonDisqualification(BaseModel):
    season: str
    competition: str
    violation: int
    code: str
    decided_at: str
    rule: str = "bfsp 7.2.3"


class ParticipantRecord(BaseModel):
    participant: str
    person: str
    violations: list[ViolationEntry]
    penalties: list[PenaltyEntry]
    serving: PenaltyEntry | None = Field(description="the missed-round penalty being served, with hands remaining")
    hands_to_sit_out: int
    disqualified_from_competition: bool
    season_disqualifications: list[SeasonDisqualification]


class ProtestDecisionView(BaseModel):
    decision: str
    decided_by: str
    reasons: str | None
    at: str
    overdue: bool


class ProtestView(BaseModel):
    protest: str
    tier: str
    filer: str
    against: dict[str, str] = Field(description="reference, kind, decided_by, sanctioned")
    grounds: str | None = Field(description="withheld from viewers while the protest is open")
    written: bool
    state: str = Field(description="filed → forwarded → decided → filer_notified")
    filed_at: str
    forwarded_at: str | None
    protocol_snapshot: str | None
    decision_days: int = Field(description="the days the federation has to decide once it receives it")
    deadline: str | None
    overdue: bool = Field(description="the federation's decision is late as of the request (or was made late)")
    decision: ProtestDecisionView | None
    filer_notified_at: str | None


class ChallengeWindowView(BaseModel):
    """The right to challenge the last hand played at a table (bfsp 5.9.1; TDA 2022 22)."""

    table_id: str
    hand_id: str
    hand_number: int
    ended_at: str
    closes_at: str | None = Field(description="None: it closes when the table's next hand starts")
    open: bool
    rule: str


class BalanceTable(BaseModel):
    table: int
    players: int
    seats: list[list[Any]] = Field(description="[seat, participant] pairs")
    halted: bool
    hand_running: bool
    next_big_blind: str | None


class Move(BaseModel):
    participant: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    rule_applied: str


class Balance(BaseModel):
    competition_id: str
    variant: str = ""
    judged_by_the_floor: bool = Field(
        description="False for an Olympic competition and an OFC one: their tables are never balanced"
    )
    tables: list[BalanceTable]
    tolerance: int
    balanced: bool
    next_move: Move | None = Field(description="the next big blind at the fullest table and the seat he goes to")
    required_moves: list[Move]
    halts_due: list[int]
    table_to_break: int | None
    seat_limit: int
    rule: str


class LevelView(BaseModel):
    number: int
    minutes: int
    small_blind: int
    big_blind: int
    ante: int
    stakes: str


class BreakView(BaseModel):
    after_level: int
    minutes: int
    started_at: str | None = None
    ends_at: str | None = None
    seconds_remaining: int | None = None
    announced_at: str | None = Field(default=None, description="when the Chief Judge's BreakStarted recorded it")


class ClockPhase(BaseModel):
    """A level or a scheduled break as the level clock ran it (bfsp 3.3, 2.1.5)."""

    kind: str = Field(description="level | break")
    level: int = Field(description="the level played, or the level the break follows")
    stakes: str
    minutes: int
    started_at: str
    ended_at: str | None = Field(description="None: still in play")
    announced_at: str | None = Field(description="when a LevelStarted or BreakStarted recorded it; None: not announced")


class ClockPause(BaseModel):
    """A stop of the level clock: the Chief Judge's pause (bfsp 2.1.5), or hand-for-hand play (TDA 2022 RP-8)."""

    from_: str = Field(alias="from")
    to: str | None
    reason: str


class OfcRounds(BaseModel):
    """An OFC competition's progress (bfsp 8): the rounds each table plays and those it has played."""

    per_table: int
    played: dict[str, int] = Field(description="table → rounds scored and counted there")


class Clock(BaseModel):
    competition_id: str
    variant: str = ""
    ofc_rounds: OfcRounds | None = Field(
        default=None, description="OFC: the rounds played; its levels keep the time, their blinds are not played for"
    )
    level: LevelView | None
    level_started_at: str | None
    level_ends_at: str | None
    seconds_remaining: int | None = Field(description="of the current level; hand-for-hand: the clock it keeps")
    next_level: LevelView | None
    on_break: BreakView | None
    breaks: list[BreakView] = Field(description="the schedule's breaks")
    hand_for_hand: bool
    levels_played: list[dict[str, Any]]
    paused: str | None = Field(default=None, description="why the Chief Judge stopped the level clock, while he has")
    timeline: list[ClockPhase] = Field(default_factory=list, description="levels and breaks as the clock ran them")
    pauses: list[ClockPause] = Field(default_factory=list, description="each stop of the level clock")
    play_ended_at: str | None = Field(
        default=None, description="the end of play (the winner declared): the clock stopped there, as it read then"
    )


class StandingPlayer(BaseModel):
    participant: str
    chips: int | None = Field(
        description="after his last hand, as the officials' rulings left them; None before his first, and in OFC"
    )
    points: int | None = Field(default=None, description="OFC: his points over the rounds counted (bfsp 8)")
    place: int | None = Field(default=None, description="OFC: his place by points (final once every table is done)")
    moved_by_rulings: int = Field(
        0, description="of which chips the rulings moved against the engine's award (discretionary, not mechanical)"
    )
    table: int | None
    seat: int | None


class Elimination(BaseModel):
    order: int
    participant: str
    place: int
    shared_with: list[str]
    reason: str
    hand: str
    at: str


class Standings(BaseModel):
    competition_id: str
    variant: str = ""
    unit: str = Field(default="chips", description="what the players are ranked by: chips, or points (OFC, bfsp 8)")
    players_left: int
    remaining: list[StandingPlayer]
    eliminations: list[Elimination]
    winner: str | None


class PotOutcome(BaseModel):
    pot_index: int
    half: str
    amount: int
    mechanical_shares: list[list[int]] = Field(description="[seat, amount] as the engine awarded it")
    awarded_shares: list[list[int]] = Field(description="[seat, amount] as it stands after the ruling")
    discretionary: bool


class RulingView(BaseModel):
    ruling: str
    hand: str
    kind: str
    official: str
    role: str
    rule: str
    finding: str
    amends: str
    in_force: bool = Field(description="no later ruling replaced it: it stands for the pots it re-awarded")
    dead: list[int]
    restored: list[int]
    deviates_from: list[str]
    justification: str
    pots: list[PotOutcome] = Field(description="each pot of the hand, mechanical or decided by this ruling")
    at: str


# --- reading the streams -------------------------------------------------------------------------------------


def _replay(store: EventSource, stream: UUID) -> Replayed | None:
    """The stream as stored now, replayed (kept between requests while it has not moved: projections/replays.py)."""
    found = replays.read(store, stream)
    return found if found.events else None


def _who(event: Any) -> Who:
    return Who(**recorded_by(event))


def competition(store: EventSource, competition_id: str) -> Competition | None:
    replayed = _replay(store, competition_stream_id(competition_id))
    return None if replayed is None else replayed.aggregate


def _opened(store: EventSource, topic: str, competition_id: str) -> list[UUID]:
    """The competition's streams opened by ``topic`` events, from the store's index of its streams (one query,
    not a read of every such event the store holds); by id, the callers order what they show."""
    return sorted(store.streams_of(competition_id, opened_by=topic))


# --- the penalty register ------------------------------------------------------------------------------------


def penalty_register(store: EventSource, competition_id: str, grounds: bool = True) -> list[ParticipantRecord] | None:
    """Every participant with a disciplinary record, in registration order (None: no such competition)."""
    found = competition(store, competition_id)
    if found is None:
        return None
    season = str(found.regulations.starts_on.year)
    register = []
    for participant, entry in found.entries.items():
        case = _replay(store, case_id(competition_id, participant))
        # The federation's decision names the athlete by his person or by his entry: his record under either.
        records = [r for athlete in dict.fromkeys((entry.person, participant))
                   if (r := _replay(store, season_record_id(athlete, season))) is not None]
        disqualified_here = participant in found.eliminated and (
            found.eliminated[participant].reason is EliminationReason.DISQUALIFIED
        )
        if case is None and not records and not disqualified_here:
            continue
        register.append(_participant_record(participant, entry.person, case, records, disqualified_here, grounds))
    return register


def _participant_record(
    participant: str, person: str, case: Replayed | None, records: list[Replayed], out: bool, grounds: bool
) -> ParticipantRecord:
    violations, penalties = _case_entries(case, grounds) if case else ([], [])
    kept: DisciplinaryCase | None = case.aggregate if case else None
    serving = kept.serving if kept else None
    seasons = [
        SeasonDisqualification(season=d.season, competition=d.competition, violation=d.violation, code=d.code,
                               decided_at=d.decided_at.isoformat())
        for r in records if isinstance(r.aggregate, SeasonRecord)
        for d in r.aggregate.disqualifications
    ]
    return ParticipantRecord(
        participant=participant, person=person, violations=violations, penalties=penalties,
        serving=penalties[serving - 1] if serving else None,
        hands_to_sit_out=kept.hands_to_sit_out if kept else 0,
        disqualified_from_competition=out or bool(kept and kept.disqualified),
        season_disqualifications=seasons,
    )


def _case_entries(case: Replayed, grounds: bool) -> tuple[list[ViolationEntry], list[PenaltyEntry]]:
    kept: DisciplinaryCase = case.aggregate
    violations: list[ViolationEntry] = []
    penalties: list[PenaltyEntry] = []
    for event in case.events[1:]:
        name = type(event).__name__
        if name == "ViolationRecorded":
            v = decode_officials(event.payload, DISCIPLINE_CATALOG)
            rule = violation(v.code)
            number = len(violations) + 1
            violations.append(ViolationEntry(
                number=number, code=v.code, rule=str(rule.rule), what=rule.name, occurrence=v.occurrence,
                hand=v.hand if grounds else None, intentional=v.intentional if grounds else None,
                description=v.description if grounds else None, entered_in_protocol=kept.entered_in_protocol(number),
                at=event.timestamp.isoformat(), recorded_by=_who(event),
            ))
        elif name == "PenaltyImposed":
            p = decode_officials(event.payload, DISCIPLINE_CATALOG)
            number = len(penalties) + 1
            rescinded = next(
                (r.protest for r in (decode_officials(e.payload, DISCIPLINE_CATALOG) for e in case.events
                                     if type(e).__name__ == "PenaltyRescinded") if r.penalty == number), ""
            )
            penalties.append(PenaltyEntry(
                number=number, reference=f"penalty-{number}", violation=p.violation, kind=p.kind.value,
                imposed_by=Who(person=_who(event).person, role=p.imposed_by.value),
                rule=str(permission(p.kind.act).cite()), rounds=p.rounds, hands_to_miss=p.hands_to_miss,
                hands_remaining=kept.hands_remaining(number) if p.kind is PenaltyKind.MISSED_ROUNDS else 0,
                in_force=not kept.rescinded(number), rescinded_by_protest=rescinded, at=event.timestamp.isoformat(),
            ))
    return violations, penalties


# --- protests and challenges ---------------------------------------------------------------------------------

_PROTEST_FILED = get_topic(Protest.ProtestFiled)  # type: ignore[attr-defined]
_REVIEW_OPENED = get_topic(HandReview.HandReviewOpened)  # type: ignore[attr-defined]


def protests(store: EventSource, competition_id: str, now: datetime, grounds: bool = True) -> list[ProtestView]:
    """Every protest filed at the competition, in the order filed; open ones' grounds only when ``grounds``."""
    found = []
    for stream in _opened(store, _PROTEST_FILED, competition_id):
        replayed = _replay(store, stream)
        assert replayed is not None
        found.append(_protest(replayed, now, grounds))
    return sorted(found, key=lambda p: (p.filed_at, p.protest))


def protest(store: EventSource, competition_id: str, protest: str, now: datetime, grounds: bool = True) -> ProtestView | None:
    """One protest, read from its own stream (None: none of that id was filed at the competition)."""
    replayed = _replay(store, protest_id(competition_id, protest))
    return None if replayed is None else _protest(replayed, now, grounds)


def _protest(replayed: Replayed, now: datetime, grounds: bool) -> ProtestView:
    kept: Protest = replayed.aggregate
    filing, forwarding, decided = kept.filing, kept.forwarding, kept.decision
    notified = [decode_officials(e.payload, PROTEST_CATALOG) for e in replayed.events
                if type(e).__name__ == "FilerNotified"]
    contested = filing.contested
    return ProtestView(
        protest=filing.protest, tier=filing.tier.value, filer=filing.filer,
        against={"reference": contested.reference, "kind": contested.kind.value,
                 "decided_by": contested.decided_by.value, "sanctioned": contested.sanctioned},
        grounds=filing.grounds if grounds or decided else None, written=filing.written, state=kept.state.value,
        filed_at=filing.filed_at.isoformat(), forwarded_at=iso(forwarding.forwarded_at) if forwarding else None,
        protocol_snapshot=forwarding.protocol_snapshot if forwarding else None,
        decision_days=get_rulebook(filing.rulebook).protest_decision_days,
        deadline=iso(kept.deadline), overdue=kept.is_overdue(now),
        decision=None if decided is None else ProtestDecisionView(
            decision=decided.decision.value, decided_by=decided.decided_by.value, reasons=decided.reasons,
            at=decided.decided_at.isoformat(), overdue=decided.overdue,
        ),
        filer_notified_at=iso(notified[-1].notified_at) if notified else None,
    )


def challenge_windows(
    store: EventSource, models: ReadModels, competition_id: str, now: datetime
) -> list[ChallengeWindowView]:
    """Each table's last ended hand and whether its result may still be challenged: until the next hand starts,
    or for the rulebook's seconds after the award when play stopped for a break, or after the competition's end,
    which closes them all (bfsp 5.9.1)."""
    found = competition(store, competition_id)
    book = found.rulebook if found else get_rulebook("bfsp")
    at_break = found is not None and found.on_break is not None
    windows = []
    for table_id, state in _table_states(models, competition_id):
        last = models.hand(state.last_hand_id)
        if last is None or last.ended_at is None:
            continue
        ended = datetime.fromisoformat(last.ended_at)
        window = ChallengeWindow(awarded_at=ended, at_break=at_break,
                                 competition_ended_at=found.ended_at if found is not None else None)
        closes = challenge_deadline(window, ChallengeKind.RESULT, book)
        windows.append(ChallengeWindowView(
            table_id=table_id, hand_id=last.hand_id, hand_number=last.number, ended_at=last.ended_at,
            closes_at=iso(closes), open=closes is None or now <= closes, rule=str(book.cite("dispute")),
        ))
    return windows


def _table_states(models: ReadModels, competition_id: str) -> Iterator[tuple[str, Any]]:
    summaries, _ = models.tables(competition_id, 0, 10_000)
    for summary in summaries:
        state = models.table(competition_id, summary.table_id)
        if state is not None:
            yield summary.table_id, state


# --- the floor -----------------------------------------------------------------------------------------------


def balance(store: EventSource, competition_id: str) -> Balance | None:
    """The tables as the floor sees them and the move its rules call for next (bfsp 3.1)."""
    found = competition(store, competition_id)
    if found is None:
        return None
    book = found.rulebook
    rule = str(book.cite("balance_tolerance"))
    floor = found.floor
    ofc = found.regulations.variant == OFC
    if ofc:  # each drawn table plays its rounds with its own players: nobody leaves, nothing to balance
        rule = str(book.cite("ofc_players"))
    if floor is None or ofc:
        counts: dict[int, list[list[Any]]] = {}
        for participant in found.remaining:
            if participant in found.seats:
                table, seat = found.seats[participant]
                counts.setdefault(table, []).append([seat, participant])
        tables = [BalanceTable(table=t, players=len(s), seats=sorted(s), halted=False, hand_running=False,
                               next_big_blind=None) for t, s in sorted(counts.items())]
        return Balance(competition_id=competition_id, variant=found.regulations.variant, judged_by_the_floor=False,
                       tables=tables, tolerance=0,
                       balanced=True, next_move=None, required_moves=[], halts_due=[], table_to_break=None,
                       seat_limit=found.seats_per_table, rule=rule)
    fullest = {t.number for t in balancing.fullest(floor.tables)} if floor.tables else set()
    tables = [
        BalanceTable(
            table=t.number, players=len(t.seats), seats=[[s, p] for s, p in t.seats], halted=t.halted,
            hand_running=t.hand_running,
            next_big_blind=balancing.next_big_blind(t, floor.book) if t.number in fullest else None,
        )
        for t in floor.tables
    ]
    move = floor.next_balancing_move()
    return Balance(
        competition_id=competition_id, variant=found.regulations.variant, judged_by_the_floor=True, tables=tables, tolerance=floor.tolerance,
        balanced=floor.is_balanced(), next_move=_move(move) if move else None,
        required_moves=[_move(m) for m in floor.required_moves()],
        halts_due=[h.table for h in floor.halts_due()], table_to_break=floor.table_to_break(),
        seat_limit=floor.seat_limit, rule=rule,
    )


def _move(move: Any) -> Move:
    return Move(participant=move.participant, from_table=move.from_table, from_seat=move.from_seat,
                to_table=move.to_table, to_seat=move.to_seat, rule_applied=str(move.rule_applied.value))


# --- the clock -----------------------------------------------------------------------------------------------


def clock(store: EventSource, competition_id: str, now: datetime) -> Clock | None:
    """The level in play by the level clock (bfsp 3.3, 2.1.5; TDA 2022 23, RP-8), its blinds and ante, the time
    left in it, the next level, the breaks, and the levels, breaks and pauses as the clock ran them."""
    replayed = _replay(store, competition_stream_id(competition_id))
    if replayed is None:
        return None
    found: Competition = replayed.aggregate
    # the clock stops with play: a competition whose winner is declared reads as its clock stood then
    ended = found.ended_at if found.ended_at is not None and found.ended_at < now else None
    now = ended or now
    phase = found.phase_at(now)
    level = phase.level if phase is not None else None
    playing = phase is not None and phase.on_break is None
    announced_breaks = replayed.times("BreakStarted")
    on_break = None
    if phase is not None and phase.on_break is not None:
        announced = _announced(announced_breaks, phase.began, phase.ends)
        on_break = BreakView(after_level=phase.on_break.after_level, minutes=phase.on_break.minutes,
                             started_at=phase.began.isoformat(), ends_at=iso(phase.ends),
                             seconds_remaining=max(0, int(phase.left.total_seconds())), announced_at=iso(announced))
    remaining = int(phase.left.total_seconds()) if phase is not None and playing else (0 if phase else None)
    number = level.number if level else 0
    ofc_rounds = None
    if found.regulations.variant == OFC:
        played: dict[str, int] = {}
        for counted in found.ofc_rounds:
            played[str(counted.table)] = played.get(str(counted.table), 0) + 1
        ofc_rounds = OfcRounds(per_table=found.regulations.rounds, played=played)
    history = found.clock.history(now) if found.clock is not None else ()
    announced_levels = {s.level.number: s.at for s in found.level_starts}
    timeline = [
        ClockPhase(kind="break" if p.on_break else "level", level=p.level.number,
                   stakes="" if p.on_break else p.level.stakes,
                   minutes=p.on_break.minutes if p.on_break else p.level.minutes,
                   started_at=p.began.isoformat(), ended_at=iso(ended),
                   announced_at=iso(_announced(announced_breaks, p.began, ended) if p.on_break
                                    else announced_levels.get(p.level.number)))
        for p, ended in history
    ]  # fmt: skip
    pauses = [ClockPause.model_validate({"from": start.isoformat(), "to": iso(to), "reason": why})
              for start, to, why in (found.clock.pauses(now) if found.clock is not None else ())]
    return Clock(
        competition_id=competition_id, variant=found.regulations.variant, ofc_rounds=ofc_rounds,
        level=_level(level) if level else None,
        level_started_at=iso(phase.began if phase is not None and playing else None),
        level_ends_at=iso(phase.ends if phase is not None and playing else None),
        seconds_remaining=remaining,
        next_level=_level(found.levels[number]) if number < len(found.levels) else None,
        on_break=on_break, breaks=[BreakView(after_level=b.after_level, minutes=b.minutes) for b in found.breaks],
        hand_for_hand=found.hand_for_hand is not None,
        levels_played=[{"number": t.level, "stakes": t.stakes, "started_at": t.started_at, "ended_at": t.ended_at,
                        "announced_at": t.announced_at} for t in timeline if t.kind == "level"],
        paused=phase.stopped if phase is not None and phase.paused else None,
        timeline=timeline, pauses=pauses, play_ended_at=iso(ended),
    )


def _announced(times: list[datetime], began: datetime, ended: datetime | None) -> datetime | None:
    """The first of ``times`` (a break's announcements) within the break that ran from ``began`` to ``ended``."""
    return next((t for t in times if began <= t and (ended is None or t < ended)), None)


def _level(level: Any) -> LevelView:
    return LevelView(number=level.number, minutes=level.minutes, small_blind=level.small_blind,
                     big_blind=level.big_blind, ante=level.ante, stakes=level.stakes)


# --- the standings -------------------------------------------------------------------------------------------


def standings(store: EventSource, models: ReadModels | None, competition_id: str) -> Standings | None:
    """Who is left with his chips (biggest stack first), who went out in what order and place, the winner."""
    replayed = _replay(store, competition_stream_id(competition_id))
    if replayed is None:
        return None
    found: Competition = replayed.aggregate
    if found.regulations.variant == OFC:
        return _ofc_standings(competition_id, found)
    chips = _last_stacks(models, competition_id) if models is not None else {}
    moved = _moved_since(chips, _chips_moved_by_rulings(store, competition_id)) if chips else {}
    kept = _STANDINGS.get(competition_id)
    if kept is not None and kept[0] is replayed and kept[1] == chips and kept[2] == moved:
        return kept[3]  # the same stream (the same replay while it has not moved), the same stacks and rulings
    answer = _standings(competition_id, replayed, chips, moved)
    _keep(_STANDINGS, competition_id, (replayed, chips, moved, answer))
    return answer


#: the last standings answered per competition, with what they were worked out from: the competition's replay
#: (the same object while its stream has not moved: projections/replays.py), the stacks its tables' last hands
#: left and the chips rulings moved since — all read again on every request, so a new event, hand or ruling
#: gives a new answer at once; only the answer's making is saved
_STANDINGS: dict[str, tuple[Replayed, dict[str, tuple[str, int]], dict[str, int], Standings]] = {}
#: per hand review: its replay, its hand's replay and the chips its rulings moved (the hand's outcome decoded
#: once while neither stream moves, not on every standings read)
_MOVED: dict[UUID, tuple[Replayed, Replayed | None, list[tuple[datetime, dict[str, int]]]]] = {}
#: most entries kept in each (forgotten all at once beyond: then worked out again)
_MOST_KEPT = 1024


def _keep(kept: dict[Any, Any], key: Any, value: Any) -> None:
    if len(kept) >= _MOST_KEPT and key not in kept:
        kept.clear()
    kept[key] = value


def _standings(
    competition_id: str, replayed: Replayed, chips: dict[str, tuple[str, int]], moved: dict[str, int]
) -> Standings:
    found: Competition = replayed.aggregate
    remaining = [
        StandingPlayer(participant=p, chips=chips[p][1] + moved.get(p, 0) if p in chips else None,
                       moved_by_rulings=moved.get(p, 0), table=found.seats.get(p, (None, None))[0],
                       seat=found.seats.get(p, (None, None))[1])
        for p in found.remaining
    ]
    remaining.sort(key=lambda s: (-(s.chips if s.chips is not None else -1), s.participant))
    times = replayed.times("PlayerEliminated")
    eliminations = [
        Elimination(order=n, participant=e.participant, place=e.place, shared_with=list(e.shared_with),
                    reason=e.reason.value, hand=e.hand, at=times[n - 1].isoformat())
        for n, e in enumerate(found.eliminated.values(), start=1)
    ]
    return Standings(competition_id=competition_id, players_left=found.players_left, remaining=remaining,
                     eliminations=eliminations, winner=found.winner)


def _ofc_standings(competition_id: str, found: Competition) -> Standings:
    """An OFC competition's players by points over the rounds counted, with their places (bfsp 8: "the player with
    the most points wins"); nobody is eliminated, the places are final once every table has played its rounds."""
    barred = [p for p, e in found.eliminated.items() if e.reason is EliminationReason.DISQUALIFIED]
    points = found.ofc_points
    placed = {s.participant: s.place for s in ofc_points.standings(found.remaining, found.ofc_rounds, barred)}
    remaining = [
        StandingPlayer(participant=p, chips=None, moved_by_rulings=0, points=points.get(p, 0), place=placed.get(p),
                       table=found.seats.get(p, (None, None))[0], seat=found.seats.get(p, (None, None))[1])
        for p in found.remaining
    ]
    remaining.sort(key=lambda s: (s.place or 0, s.participant))
    return Standings(competition_id=competition_id, variant=OFC, unit="points", players_left=found.players_left,
                     remaining=remaining, eliminations=[], winner=found.winner)


def _last_stacks(models: ReadModels, competition_id: str) -> dict[str, tuple[str, int]]:
    """Each player's chips as the engine counts them after (or, while it is played, at the start of) the latest
    hand he sat in, with when that hand started ("" unknown)."""
    seen: dict[str, tuple[str, int]] = {}
    for last, seats in models.last_hands(competition_id):  # two queries, whatever the number of tables
        started = last.started_at
        for seat in seats:
            if seat.player not in seen or seen[seat.player][0] < started:
                # The engine's count: the chips rulings moved are added from the rulings themselves, with when.
                engine = seat.engine_stack if seat.engine_stack is not None else seat.stack
                seen[seat.player] = (started, engine)
    return seen


def _moved_since(stacks: dict[str, tuple[str, int]], moved: list[tuple[datetime, dict[str, int]]]) -> dict[str, int]:
    """Player → the chips rulings moved that his engine count does not hold yet: those issued after the hand it
    comes from started (a hand dealt after a ruling was dealt with the chips the ruling left)."""
    out: dict[str, int] = {}
    for at, by_player in moved:
        for player, change in by_player.items():
            started = stacks[player][0] if player in stacks else ""
            if not started or at > datetime.fromisoformat(started):
                out[player] = out.get(player, 0) + change
    return out


def _chips_moved_by_rulings(store: EventSource, competition_id: str) -> list[tuple[datetime, dict[str, int]]]:
    """Each ruling on the competition's hands that moved chips: when, and player → chips moved (given or taken
    back against what the hand's earlier rulings left)."""
    out: list[tuple[datetime, dict[str, int]]] = []
    for stream in _opened(store, _REVIEW_OPENED, competition_id):
        replayed = _replay(store, stream)
        assert replayed is not None
        review: HandReview = replayed.aggregate
        hand = _hand_replayed(store, competition_id, review.hand)
        kept = _MOVED.get(stream)
        if kept is None or kept[0] is not replayed or kept[1] is not hand:
            kept = (replayed, hand, _moved_by(replayed, review, hand.events if hand is not None else []))
            _keep(_MOVED, stream, kept)
        out.extend(kept[2])
    return out


def _moved_by(replayed: Replayed, review: HandReview, events: list[Any]) -> list[tuple[datetime, dict[str, int]]]:
    out: list[tuple[datetime, dict[str, int]]] = []
    outcome = stored_outcome(events)
    if outcome is None:
        return out
    players = {s["seat"]: s["player"] for s in events[0].payload.get("seats", [])}
    rulings = review.rulings
    for n, (ruling, at) in enumerate(zip(rulings, replayed.times("RulingIssued"), strict=True)):
        moved = chips_moved(outcome, rulings[:n], ruling)
        if moved:
            out.append((at, {players[seat]: change for seat, change in moved.items()}))
    return out


# --- the rulings ---------------------------------------------------------------------------------------------


def rulings(store: EventSource, competition_id: str) -> list[RulingView]:
    """Every ruling on the competition's hands, each with the pots it decided and those left mechanical."""
    out: list[RulingView] = []
    for stream in _opened(store, _REVIEW_OPENED, competition_id):
        replayed = _replay(store, stream)
        assert replayed is not None
        review: HandReview = replayed.aggregate
        outcome = _mechanical(store, competition_id, review.hand)
        issued = review.rulings
        kept = standing(issued)
        times = replayed.times("RulingIssued")
        out.extend(_ruling(r, outcome, r in kept, at) for r, at in zip(issued, times, strict=True))
    return sorted(out, key=lambda r: (r.at, r.ruling))


def _hand_events(store: EventSource, competition_id: str, hand: str) -> list[Any]:
    found = _hand_replayed(store, competition_id, hand)
    return found.events if found is not None else []


def _hand_replayed(store: EventSource, competition_id: str, hand: str) -> Replayed | None:
    table, _, number = hand.rpartition("/")
    return replays.read(store, hand_id(table, int(number), competition_id)) if number.isdigit() else None


def _mechanical(store: EventSource, competition_id: str, hand: str) -> MechanicalOutcome | None:
    return stored_outcome(_hand_events(store, competition_id, hand))


def _ruling(ruling: RulingIssued, outcome: MechanicalOutcome | None, in_force: bool, at: datetime) -> RulingView:
    pots = [] if outcome is None else [
        PotOutcome(
            pot_index=p.mechanical.pot_index, half=p.mechanical.half, amount=p.mechanical.amount,
            mechanical_shares=_shares(p.mechanical.shares), awarded_shares=_shares(p.awarded.shares),
            discretionary=p.provenance.discretionary,
        )
        for p in amend(outcome, ruling).pots
    ]
    return RulingView(
        ruling=ruling.ruling, hand=ruling.hand, kind=ruling.kind.value, official=ruling.official,
        role=ruling.role.value, rule=ruling.rule, finding=ruling.finding, amends=ruling.amends, in_force=in_force,
        dead=list(ruling.dead), restored=list(ruling.restored), deviates_from=list(ruling.deviates_from),
        justification=ruling.justification, pots=pots, at=at.isoformat(),
    )


def _shares(shares: Iterable[Any]) -> list[list[int]]:
    return [[s.seat, s.amount] for s in shares]


__all__ = (
    "Balance",
    "ChallengeWindowView",
    "Clock",
    "ParticipantRecord",
    "ProtestView",
    "RulingView",
    "Standings",
    "balance",
    "challenge_windows",
    "clock",
    "competition",
    "penalty_register",
    "protest",
    "protests",
    "rulings",
    "standings",
)
