"""The Competition aggregate: one competition from its Regulations to its winner (bfsp 3, 5.1–5.3, 5.10).

One method per act, grouped by concern in mixins (:mod:`.roster_acts` the officials and entries, :mod:`.draw_acts`
the draws, :mod:`.level_acts` the levels and breaks, :mod:`.floor_acts` the floor, :mod:`.result_acts` the results),
each over :class:`domain.competition.competition_state.CompetitionState` — the state they read, what the
competition knows from it and the checks they share; this module keeps the opening, the recording and the
appliers, the only code that changes the state (the floor clock aside: it is started on first use). Each act
checks who records it (the officials' roles table, :func:`domain.officials.verify_permitted`, and that the
recorder holds that office at this competition), then the rules, and only then records the event, a typed value
(``events``, ``floor_events``) stored under its type's name (``self._record(event, at, meta)``) and applied by
the one method registered for its type (``@_applies(EventType)``); a refused act raises its
:class:`domain.errors.RuleError` and nothing is stored.
What follows mechanically is recorded as its own event after the act: the places of the players busted in one
hand, the winner once one player is left, an Olympic table's winner and the next stage.

An American competition's tables are its :class:`domain.competition.floor.Floor`, opened by the seat draw:
hands starting at the tables, balancing moves, halts and table breaks are judged by the floor's rules and
recorded on this stream as the floor's own events (``floor_events``); eliminations, re-entries and the
final table change the floor as they change the seats. An Olympic stage's draw opens a floor of that stage's
tables (bfsp 3.2): its hands' buttons are judged by the same rules, eliminations leave its seats, nobody is
moved and no table is broken there, and the next stage's draw replaces it.

Every event carries ``meta`` (``recorded_by`` and what the edge adds) and a link of the competition's hash
chain (:mod:`domain.chained`). Time comes in as ``at``; the draws' randomness comes in as a seed whose hash was
recorded first (:mod:`domain.competition.draw`). The id is ``uuid5`` of the competition's natural id.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, TypeVar
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.chained import JSON, ChainedAggregate
from domain.competition import levels
from domain.competition.competition_state import STREAM_CATALOG as STREAM_CATALOG
from domain.competition.competition_state import CompetitionState, RecordedEvent, recorded_meta
from domain.competition.competition_state import Recorder as Recorder
from domain.competition.draw_acts import DrawActs
from domain.competition.events import (
    BreakEnded,
    BreakStarted,
    ChipRaceConducted,
    CompetitionEnded,
    CompetitionWinnerDeclared,
    DealAgreed,
    FinalTableDrawCommitted,
    FinalTableDrawConducted,
    HandForHandEnded,
    HandForHandHandStarted,
    HandForHandStarted,
    LevelClockPaused,
    LevelClockResumed,
    LevelStarted,
    OfcRoundCounted,
    OfficialAppointed,
    OfficialRemoved,
    OlympicStageStarted,
    ParticipantRegistered,
    PlayerEliminated,
    RegulationsAdopted,
    ScheduleChanged,
    SeatAssignment,
    SeatDrawCommitted,
    SeatDrawConducted,
    StacksReset,
    StartingButton,
    TableHandEnded,
    TableHandStarted,
    TableWinnerDeclared,
    decode,
    encode,
)
from domain.competition.floor import Floor
from domain.competition.floor_acts import FloorActs
from domain.competition.floor_events import FloorEvent, PlayerMoved, TableBroken
from domain.competition.level_acts import LevelActs
from domain.competition.regulations import Break, Format, Level, Regulations, verify_regulations
from domain.competition.result_acts import ResultActs
from domain.competition.roster_acts import RosterActs
from domain.officials import Act, codec, verify_permitted

COMPETITION_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/competition")



def decode_recorded(payload: JSON) -> RecordedEvent:
    """The typed event a stored payload of the Competition's stream holds, the competition's or the floor's."""
    typed: RecordedEvent = codec.decode(payload, STREAM_CATALOG)
    return typed


def recorded_event(stored: Any) -> RecordedEvent:
    """The typed event a stored event of the Competition's stream records (``recorded_event(e).participant``):
    how a projection, a handler or a route reads one, rather than its ``payload``'s keys."""
    return decode_recorded(stored.payload)


_Applier = TypeVar("_Applier", bound=Callable[..., None])
#: event type → the Competition's method that applies it (filled by :func:`_applies` as the class is defined)
_APPLIERS: dict[type, Callable[[Any, Any, datetime], None]] = {}


def _applies(*kinds: type) -> Callable[[_Applier], _Applier]:
    """Register the decorated method as what recording (or replaying) an event of ``kinds`` does to the state;
    it is given the event and the time it was recorded at."""

    def register(method: _Applier) -> _Applier:
        for kind in kinds:
            if kind in _APPLIERS:
                raise TypeError(f"{kind.__name__} is applied twice")
            _APPLIERS[kind] = method
        return method

    return register


@lru_cache(maxsize=4096)
def competition_stream_id(competition_id: str) -> UUID:
    # asked for every record of a competition (its officials, its floor): a SHA-1 each time was 4 % of judging one
    return uuid5(COMPETITION_NAMESPACE, competition_id)



class Competition(ChainedAggregate, RosterActs, DrawActs, LevelActs, FloorActs, ResultActs, CompetitionState):
    @event("RegulationsAdopted")
    def __init__(self, payload: JSON, meta: JSON, prev_link: str, link: str, timestamp: datetime) -> None:
        adopted = decode(payload)
        assert isinstance(adopted, RegulationsAdopted)
        self.competition_id = adopted.competition_id
        self.regulations = adopted.regulations
        self.levels: tuple[Level, ...] = adopted.regulations.levels
        self.breaks: tuple[Break, ...] = adopted.regulations.breaks
        self.officials: dict[str, OfficialAppointed] = {}
        self.entries: dict[str, ParticipantRegistered] = {}
        self.seats: dict[str, tuple[int, int]] = {}
        self.buttons: dict[int, int] = {}
        self.commitment: str | None = None
        self.drawn = False
        #: the levels announced, each when it was (the clock, not these, says which level is in force)
        self.level_starts: list[levels.LevelStart] = []
        #: the level clock (bfsp 3.3, 2.1.5; TDA 2022 23, RP-8), started with level 1
        self.clock: levels.LevelClock | None = None
        #: the time of the latest event recorded: where "now" is for what the competition knows without a time
        self.last_at = timestamp
        self.on_break: BreakStarted | None = None
        self.denominations: tuple[int, ...] = adopted.regulations.denominations
        self.races: set[tuple[int, int]] = set()
        self.eliminated: dict[str, PlayerEliminated] = {}
        self.hand_for_hand: HandForHandStarted | None = None
        self.hand_for_hand_round = 0
        self.level_seconds_left = 0
        self.final_commitment: str | None = None
        self.final_table = False
        self.stage: OlympicStageStarted | None = None
        self.table_winners: dict[int, str] = {}
        self.stage_stack = 0
        self.deal: DealAgreed | None = None
        #: the tables in play, judged by the floor's rules (domain/competition/floor.py): an American
        #: competition's, or the current Olympic stage's
        self.floor: Floor | None = None
        self.winner: str | None = None
        #: when the winner was declared: the competition's end, which closes every challenge window (bfsp 5.9.1)
        self.ended_at: datetime | None = None
        #: OFC (bfsp 8): the rounds counted, whose points place the players (domain/competition/ofc_points.py)
        self.ofc_rounds: list[OfcRoundCounted] = []
        #: the Chief Judge's act that closed the competition (bfsp 2.1.1, 2.3.3), and when it was recorded
        self.closed: CompetitionEnded | None = None
        self.closed_at: datetime | None = None
        self.closed_by = ""
        self.chain_head = link

    # --- creation ---------------------------------------------------------------------------------------------

    @classmethod
    def adopt(
        cls,
        competition_id: str,
        regulations: Regulations,
        at: datetime,
        by: Recorder,
        meta: JSON | None = None,
    ) -> Competition:
        """A new competition under ``regulations`` (adopted by the federation or the Chief Judge, bfsp 2.1.1)."""
        verify_permitted(Act.REGULATIONS_ADOPTED, by.role)
        verify_regulations(regulations)
        payload = encode(RegulationsAdopted(competition_id, regulations))
        stream = competition_stream_id(competition_id)
        competition: Competition = cls._create_chained(
            "RegulationsAdopted", stream, at, payload, recorded_meta(by, meta)
        )
        return competition

    # --- the events: recorded by their type, applied by the method registered for their type ---------------

    def _record(self, recorded: RecordedEvent, at: datetime, meta: JSON) -> None:
        """Record ``recorded`` on the competition's stream: stored under its type's name, as the codec writes its
        fields; the method ``@_applies`` registered for its type then applies it (and may still refuse it)."""
        self._trigger_chained(type(recorded).__name__, codec.encode(recorded), at, meta)

    def _recorded(self, payload: JSON, meta: JSON, prev_link: str, link: str, timestamp: datetime) -> None:
        # the body every stored event after the creation runs, recorded now or replayed from the store
        typed = decode_recorded(payload)
        self.floor_clock.follow(typed, timestamp, self.seats)
        _APPLIERS[type(typed)](self, typed, timestamp)
        self.last_at = max(self.last_at, timestamp)
        self.chain_head = link

    # One stored event class per type of the stream (``Competition.PlayerMoved``, …: the topic the store keeps),
    # each made by eventsourcing from an @event method; all run ``_recorded``. The names come from the catalogs,
    # so a new event type needs no method of its own here, only its applier.
    for _name in STREAM_CATALOG:
        if _name != "RegulationsAdopted":
            locals()[f"_{_name}"] = event(_name)(_recorded)
    del _name

    @_applies(OfficialAppointed)
    def _appointed(self, e: OfficialAppointed, at: datetime) -> None:
        self.officials[e.person] = e

    @_applies(OfficialRemoved)
    def _removed(self, e: OfficialRemoved, at: datetime) -> None:
        del self.officials[e.person]

    @_applies(ParticipantRegistered)
    def _registered(self, e: ParticipantRegistered, at: datetime) -> None:
        self.entries[e.participant] = e
        if e.seat is not None:
            self.seats[e.participant] = (e.seat.table, e.seat.seat)
            if self.floor is not None:
                self.floor = self.floor.seat_newcomer(e.participant, e.seat.table, e.seat.seat)

    @_applies(SeatDrawCommitted)
    def _draw_committed(self, e: SeatDrawCommitted, at: datetime) -> None:
        self.commitment = e.seed_sha256

    @_applies(SeatDrawConducted)
    def _draw_conducted(self, e: SeatDrawConducted, at: datetime) -> None:
        self._seat(e.assignments, e.buttons)
        self.commitment = None
        self.drawn = True
        olympic = self.regulations.format is Format.OLYMPIC
        self.floor = Floor.from_draw(
            e.assignments, e.buttons, self.regulations.max_seats, self.regulations.rulebook, olympic
        )

    @_applies(FinalTableDrawCommitted)
    def _final_committed(self, e: FinalTableDrawCommitted, at: datetime) -> None:
        self.final_commitment = e.seed_sha256

    @_applies(FinalTableDrawConducted)
    def _final_conducted(self, e: FinalTableDrawConducted, at: datetime) -> None:
        self._seat(e.assignments, e.buttons)
        self.final_table = True
        if self.floor is not None:
            seating = {a.participant: (a.table, a.seat) for a in e.assignments}
            self.floor = self.floor.form_final_table(seating, self.buttons.get(1))

    def _seat(self, assignments: tuple[SeatAssignment, ...], buttons: Iterable[StartingButton]) -> None:
        for p in [p for p in self.seats if p not in self.eliminated]:
            del self.seats[p]
        self.seats.update({a.participant: (a.table, a.seat) for a in assignments})
        self.buttons = {b.table: b.seat for b in buttons}

    @_applies(LevelStarted)
    def _level_started(self, e: LevelStarted, at: datetime) -> None:
        self.level_starts.append(levels.LevelStart(e.level, e.at))
        if self.clock is None:
            self.clock = levels.LevelClock.start(self.levels, self.breaks, e.at)
            return
        phase = self.clock.phase_at(e.at)
        if self.clock.stopped == levels.HAND_FOR_HAND and phase is not None and e.level.number > phase.level.number:
            # hand-for-hand, the charges ran the level out: the next one starts whole (TDA 2022 RP-8-d)
            self.clock = self.clock.charge(e.at, e.level.number, timedelta(minutes=e.level.minutes))

    @_applies(LevelClockPaused)
    def _clock_paused(self, e: LevelClockPaused, at: datetime) -> None:
        assert self.clock is not None
        self.clock = self.clock.stop(at, e.reason)

    @_applies(LevelClockResumed)
    def _clock_resumed(self, e: LevelClockResumed, at: datetime) -> None:
        assert self.clock is not None
        self.clock = self.clock.run(at)

    @_applies(BreakStarted)
    def _break_started(self, e: BreakStarted, at: datetime) -> None:
        self.on_break = e

    @_applies(BreakEnded)
    def _break_ended(self, e: BreakEnded, at: datetime) -> None:
        self.on_break = None

    @_applies(ScheduleChanged)
    def _schedule_changed(self, e: ScheduleChanged, at: datetime) -> None:
        self.levels, self.breaks = e.levels, e.breaks
        if self.clock is not None:
            self.clock = self.clock.reschedule(at, e.levels, e.breaks)

    @_applies(ChipRaceConducted)
    def _chip_race(self, e: ChipRaceConducted, at: datetime) -> None:
        self.races.add((e.table, e.removed_denomination))

    @_applies(PlayerEliminated)
    def _eliminated(self, e: PlayerEliminated, at: datetime) -> None:
        self.eliminated[e.participant] = e
        if self.floor is not None and self.floor.seat_of(e.participant) is not None:
            self.floor = self.floor.eliminate(e.participant)

    @_applies(DealAgreed)
    def _deal_agreed(self, e: DealAgreed, at: datetime) -> None:
        self.deal = e

    @_applies(TableHandStarted)
    def _table_hand_started(self, e: TableHandStarted, at: datetime) -> None:
        assert self.floor is not None
        self.floor = self.floor.hand_started(e.table, e.button, e.after_misdeal)

    @_applies(TableHandEnded)
    def _table_hand_ended(self, e: TableHandEnded, at: datetime) -> None:
        assert self.floor is not None
        self.floor = self.floor.hand_ended(e.table)

    @_applies(OfcRoundCounted)
    def _ofc_round_counted(self, e: OfcRoundCounted, at: datetime) -> None:
        if not hasattr(self, "ofc_rounds"):  # a snapshot taken before OFC competitions existed
            self.ofc_rounds = []
        self.ofc_rounds.append(e)

    @_applies(HandForHandStarted)
    def _hand_for_hand_started(self, e: HandForHandStarted, at: datetime) -> None:
        self.hand_for_hand = e
        self.hand_for_hand_round = 0
        self.level_seconds_left = e.level_seconds_left
        if self.clock is not None:
            # from now the level clock runs by a fixed charge per hand, not by the wall (TDA 2022 RP-8-b)
            stopped = self.clock.stop(at, levels.HAND_FOR_HAND)
            level = stopped.phase_at(at)
            assert level is not None
            self.clock = stopped.charge(at, level.level.number, timedelta(seconds=e.level_seconds_left))

    @_applies(HandForHandHandStarted)
    def _hand_for_hand_hand(self, e: HandForHandHandStarted, at: datetime) -> None:
        self.hand_for_hand_round = e.round
        self.level_seconds_left = e.level_seconds_left
        phase = self.phase_at(at)
        if self.clock is not None and phase is not None:
            self.clock = self.clock.charge(at, phase.level.number, timedelta(seconds=e.level_seconds_left))

    @_applies(HandForHandEnded)
    def _hand_for_hand_ended(self, e: HandForHandEnded, at: datetime) -> None:
        self.hand_for_hand = None
        if self.clock is not None:
            self.clock = self.clock.run(at)

    @_applies(CompetitionWinnerDeclared)
    def _winner_declared(self, e: CompetitionWinnerDeclared, at: datetime) -> None:
        self.winner = e.participant
        self.ended_at = at

    @_applies(CompetitionEnded)
    def _competition_ended(self, e: CompetitionEnded, at: datetime) -> None:
        self.closed, self.closed_at = e, at
        self.closed_by = self._chief_judge() or ""

    @_applies(OlympicStageStarted)
    def _stage_started(self, e: OlympicStageStarted, at: datetime) -> None:
        self.stage = e
        self.table_winners = {}

    @_applies(TableWinnerDeclared)
    def _table_winner(self, e: TableWinnerDeclared, at: datetime) -> None:
        self.table_winners[e.table] = e.participant

    @_applies(StacksReset)
    def _stacks_reset(self, e: StacksReset, at: datetime) -> None:
        self.stage_stack = e.stack

    @_applies(*typing.get_args(FloorEvent))
    def _floor_changed(self, e: FloorEvent, at: datetime) -> None:
        """A floor event: the floor judged it when it was recorded; here it moves the players it moved."""
        assert self.floor is not None
        self.floor = self.floor.apply(e)
        moves = (e,) if isinstance(e, PlayerMoved) else e.moves if isinstance(e, TableBroken) else ()
        for move in moves:
            self.seats[move.participant] = (move.to_table, move.to_seat)


_unapplied = sorted(n for n, kind in STREAM_CATALOG.items() if kind not in _APPLIERS and n != "RegulationsAdopted")
if _unapplied:
    raise TypeError(f"the Competition records {', '.join(_unapplied)} and applies none of them: add an @_applies method")


