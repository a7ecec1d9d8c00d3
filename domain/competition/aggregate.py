"""The Competition aggregate: one competition from its Regulations to its winner (bfsp 3, 5.1–5.3, 5.10).

One method per act. Each checks who records it (the officials' roles table,
:func:`domain.officials.verify_permitted`, and that the recorder holds that office at this competition), then
the rules, and only then records the event, a typed value (``events``, ``floor_events``) stored under its
type's name (``self._record(event, at, meta)``) and applied by the one method registered for its type
(``@_applies(EventType)``); a refused act raises its :class:`domain.errors.RuleError` and nothing is stored.
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
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any, TypeVar
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.chained import JSON, ChainedAggregate
from domain.competition import chip_race, draw, floor_events, levels, ofc_points, olympic, placings, prizes
from domain.competition.closing import verify_not_ended, verify_play_over
from domain.competition.events import (
    CATALOG,
    BreakEnded,
    BreakStarted,
    ChipRaceConducted,
    CompetitionEnded,
    CompetitionEvent,
    CompetitionWinnerDeclared,
    DealAgreed,
    EliminationReason,
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
    RaceEntry,
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
from domain.competition.floor_clock import FloorClock
from domain.competition.floor_events import (
    BalanceToleranceWidened,
    FloorEvent,
    MoverExceptionDecided,
    PlayerMoved,
    TableBreakCommitted,
    TableBroken,
    TableHalted,
)
from domain.competition.regulations import (
    Break,
    Format,
    Level,
    Regulations,
    cite,
    verify_regulations,
    verify_schedule,
)
from domain.errors import CompetitionError, NotPermittedError, chips, verify_agrees
from domain.ofc.events import OFC
from domain.officials import Act, Delegation, codec, verify_permitted
from domain.officials.permissions import permission
from domain.roles import Role
from domain.rulebooks import Rulebook

COMPETITION_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/competition")
#: roles that act for a body or report for one, not as an official appointed at this competition (the roles
#: table already limits the importer and the simulator to the game as dealt)
_BODIES = frozenset({Role.FEDERATION, Role.IMPORTER, Role.SIMULATOR})


#: every event type the Competition's stream stores: its own, and the floor's it records after the floor judged them
STREAM_CATALOG: dict[str, type] = {**CATALOG, **floor_events.CATALOG}
#: what a stored event of the Competition's stream records
RecordedEvent = CompetitionEvent | FloorEvent


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


@dataclass(frozen=True, slots=True)
class Recorder:
    """Who records an act: a person and the role he records it in."""

    person: str
    role: Role


class Competition(ChainedAggregate):
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
            "RegulationsAdopted", stream, at, payload, _meta(by, meta)
        )
        return competition

    # --- what the competition knows -----------------------------------------------------------------------

    @property
    def rulebook(self) -> Rulebook:
        return self.regulations.book

    @property
    def remaining(self) -> tuple[str, ...]:
        """The entries still playing, in registration order."""
        return tuple(p for p in self.entries if p not in self.eliminated)

    @property
    def players_left(self) -> int:
        return len(self.remaining)

    @property
    def seats_per_table(self) -> int:
        """Seats per table now: 10-max events play the pre-final and final tables 9-max (bfsp 3.1)."""
        return self.regulations.seats_at(self.players_left)

    @property
    def current_level(self) -> Level | None:
        """The level in force by the clock when the latest event was recorded (on a break: the level before it)."""
        return self.level_at(self.last_at)

    def phase_at(self, at: datetime) -> levels.Phase | None:
        """Where the level clock is at ``at``: the level in force or the scheduled break, when it began and ends,
        and whether the clock is stopped; None before level 1 starts it."""
        return self.clock.phase_at(at) if self.clock is not None else None

    @property
    def raise_cap_lifted(self) -> bool:
        """Fixed limit: the raise cap is lifted once the event is down to two players (TDA 2022 48, TV-45);
        under the federation it is lifted at any table heads-up from the start of the round (bfsp 4.7.3).

        The hand cannot know how many players the event has left: whoever starts a competition's hand reads this
        when the hand starts (eliminations are recorded between hands, so it is the value for the next hand)."""
        return self.players_left == 2

    def level_at(self, at: datetime) -> Level | None:
        """The level in force by the clock at ``at`` (on a break: the level the break follows)."""
        phase = self.phase_at(at)
        return phase.level if phase is not None else None

    def verify_hand_level(self, hand_started_at: datetime, level: int, substantial_action: bool) -> None:
        """Refuse a hand played at a level other than the one in force by the clock when it started, unless it
        started at the old level by mistake and substantial action has made it stand (TDA 2022 23, TV-102)."""
        levels.verify_hand_level(
            self.clock, hand_started_at, level, substantial_action, cite(self.rulebook, "levels")
        )

    def standings(self) -> tuple[prizes.Standing, ...]:
        """Every finishing place known so far: the eliminated, and the winner once declared (OFC: by points,
        once every table has played its rounds)."""
        if self.regulations.variant == OFC:
            barred = [p for p, e in self.eliminated.items() if e.reason is EliminationReason.DISQUALIFIED]
            return ofc_points.standings(self.entries, self.ofc_rounds, barred) if self.is_over else ()
        out = [
            prizes.Standing(
                e.participant,
                e.place,
                len(e.shared_with) + 1,
                e.shared_with,
                e.reason is EliminationReason.DISQUALIFIED,
            )
            for e in self.eliminated.values()
        ]
        if self.winner is not None:
            out.append(prizes.Standing(self.winner, 1))
        elif self.is_over:
            dealt = self.remaining
            out.extend(prizes.Standing(p, 1, len(dealt), tuple(q for q in dealt if q != p)) for p in dealt)
        return tuple(out)

    def payouts(self) -> tuple[prizes.Payout, ...]:
        if self.deal is None:
            return prizes.payouts(self.standings(), self.regulations)
        shares = {s.participant: s.amount for s in self.deal.shares}
        return prizes.payouts(self.standings(), self.regulations, shares, self.deal.left_to_play_for)

    @property
    def is_over(self) -> bool:
        if self.regulations.variant == OFC:
            return ofc_points.is_over(self.regulations, self.ofc_tables, self.ofc_rounds)
        return self.winner is not None or (self.deal is not None and self.deal.left_to_play_for == 0)

    # --- an OFC competition (bfsp 8): rounds and points (domain/competition/ofc_points.py) ------------------

    @property
    def ofc_tables(self) -> dict[int, dict[int, str]]:
        return ofc_points.tables_of(self.seats, self.remaining)

    @property
    def ofc_points(self) -> dict[str, int]:
        """Each player's points over the rounds counted so far."""
        return ofc_points.totals(self.ofc_rounds)

    def verify_ofc_round(self, table: int, round_number: int, button: int, players: tuple[tuple[int, str], ...]) -> None:
        """Refuse an OFC round the draw, the count of rounds or the button's move contradicts (bfsp 8)."""
        ofc_points.verify_round_start(
            self.regulations, self.ofc_tables, self.buttons, self.ofc_rounds, table, round_number, button, players
        )

    def count_ofc_round(self, counted: OfcRoundCounted, at: datetime, meta: JSON | None = None) -> None:
        """A round of the competition was scored at its table (the referee records it, as the floor's hands)."""
        self._record(counted, at, meta or {})

    # --- a final-table deal (TDA 2017 Part G) ---------------------------------------------------------------

    def agree_deal(
        self,
        shares: Iterable[prizes.DealShare],
        left_to_play_for: int,
        at: datetime,
        by: Recorder,
        meta: JSON | None = None,
    ) -> None:
        """The players left share out the prizes still to pay, on the Chief Judge's approval; with nothing left
        to play for the competition ends there (2017/TV-58)."""
        self._authorise(Act.DEAL_AGREED, by)
        self._verify_not_over()
        rule = cite(self.rulebook, "prizes")
        if self.deal is not None:
            raise CompetitionError("the players left have made their deal already", rule)
        shares = tuple(shares)
        pool = prizes.still_to_pay(self.players_left, self.regulations)
        prizes.verify_deal(shares, left_to_play_for, self.remaining, pool, rule)
        self._record(DealAgreed(shares, left_to_play_for), at, _meta(by, meta))

    # --- the end (bfsp 2.1.1, 5.10.1; domain/competition/closing.py) -----------------------------------------

    @property
    def has_ended(self) -> bool:
        """The Chief Judge has closed the competition (its ``CompetitionEnded``), not only play being over."""
        return getattr(self, "closed", None) is not None

    def end(self, at: datetime, by: Recorder, meta: JSON | None = None, winner: str = "") -> CompetitionEnded:
        """The Chief Judge closes the competition: refused while play is not over (more than one player with
        chips, an OFC table with rounds to play, a hand being played). From then on the competition's acts are
        refused, and the final protocol is compiled from the record as it stands (bfsp 2.3.3). ``winner``: the
        winner the record names, if it names one (it must be the one declared)."""
        self._authorise(Act.COMPETITION_ENDED, by)
        running = [t.number for t in self.floor.tables if t.hand_running] if self.floor is not None else []
        verify_play_over(
            over=self.is_over, players_left=self.players_left, ofc=self.regulations.variant == OFC, running=running
        )
        if winner:
            verify_agrees(winner, self.winner or "", "the winner is", cite(self.rulebook, "winner"))
        ended = CompetitionEnded(self.competition_id, self.winner or "")
        self._record(ended, at, _meta(by, meta))
        return ended

    # --- officials (bfsp 2) ---------------------------------------------------------------------------------

    def appoint(
        self,
        person: str,
        role: Role,
        at: datetime,
        by: Recorder,
        delegations: Collection[Delegation] = (),
        meta: JSON | None = None,
        tables: Collection[int] = (),
    ) -> None:
        """Appoint an official: the Chief Judge by the federation, the others by the Chief Judge (bfsp 2.1.1);
        an authorised person holds only what the Chief Judge delegates (bfsp 3.1, 5.2, 6.3), a dealer deals at
        the tables the Chief Judge assigns him (bfsp 2.1.1, 2.4.1)."""
        self._authorise(Act.OFFICIAL_APPOINTED, by)
        rule = cite(self.rulebook, "officials")
        if role is Role.CHIEF_JUDGE and by.role is not Role.FEDERATION:
            raise NotPermittedError("only the federation appoints the Chief Judge", rule)
        if role is not Role.CHIEF_JUDGE and by.role is not Role.CHIEF_JUDGE:
            raise NotPermittedError(f"the Chief Judge appoints the {role.value.replace('_', ' ')}s", rule)
        if role not in {Role.JUDGE, Role.CHIEF_JUDGE, Role.SECRETARY, Role.DEALER, Role.AUTHORISED}:
            raise CompetitionError(f"a {role.value} is not an office of the competition", rule)
        if person in self.officials:
            raise CompetitionError(
                f"{person} already serves as {self.officials[person].role.value.replace('_', ' ')}", rule
            )
        if role is Role.CHIEF_JUDGE and self._chief_judge() is not None:
            raise CompetitionError(f"{self._chief_judge()} is already the Chief Judge", rule)
        if delegations and role is not Role.AUTHORISED:
            raise CompetitionError("only an authorised person holds delegations of the Chief Judge", rule)
        if tables and role is not Role.DEALER:
            raise CompetitionError("only a dealer is assigned tables", rule)
        if any(not isinstance(t, int) or isinstance(t, bool) or t < 1 for t in tables):
            raise CompetitionError(f"tables are numbered from 1; the appointment names {sorted(tables)}", rule)
        if role is Role.AUTHORISED:
            self._authorise(Act.AUTHORITY_DELEGATED, by)
        appointed = OfficialAppointed(
            person, role, tuple(sorted(Delegation(d).value for d in delegations)), tuple(sorted(set(tables)))
        )
        self._record(appointed, at, _meta(by, meta))

    def remove_official(
        self, person: str, reason: str, at: datetime, by: Recorder, meta: JSON | None = None
    ) -> None:
        """The Chief Judge removes a judge or dealer from duty (bfsp 2.1.5)."""
        self._authorise(Act.OFFICIAL_REMOVED, by)
        if person not in self.officials:
            raise CompetitionError(
                f"{person} holds no office at this competition", cite(self.rulebook, "schedule")
            )
        if person == by.person:
            raise CompetitionError("the Chief Judge cannot remove himself", cite(self.rulebook, "schedule"))
        self._record(OfficialRemoved(person, reason), at, _meta(by, meta))

    # --- registration (bfsp 1.1, 3.1, 7.2.3) ------------------------------------------------------------------

    def register(
        self,
        participant: str,
        person: str,
        birth_date: date,
        at: datetime,
        by: Recorder,
        *,
        season_disqualified: Collection[str] = (),
        membership_valid: bool = True,
        entry_fee_paid: bool = True,
        consent_personal_data: bool = True,
        consent_media: bool = False,
        seat: SeatAssignment | None = None,
        meta: JSON | None = None,
    ) -> None:
        """Register an entry. ``season_disqualified`` are the persons the federation's standing season
        disqualifications bar (the caller reads them; the domain does no I/O)."""
        self._authorise(Act.PARTICIPANT_REGISTERED, by)
        self._verify_not_over()
        book = self.rulebook
        if participant in self.entries:
            raise CompetitionError(f"entry {participant} is already registered", cite(book, "re_entry"))
        age = _age(birth_date, self.regulations.starts_on)
        if age < self.regulations.min_age:
            raise CompetitionError(
                f"{person} is {age} on {self.regulations.starts_on:%d %B %Y}, when the competition starts; "
                f"players must be {self.regulations.min_age} or older",
                cite(book, "min_age"),
            )
        if person in season_disqualified:
            raise CompetitionError(
                f"{person} is disqualified from official competitions for the season by the federation",
                cite(book, "season_disqualification"),
            )
        entry = self._entry_number(person, at)
        self._verify_seat_for_entry(participant, entry, seat)
        registered = ParticipantRegistered(
            participant,
            person,
            birth_date,
            entry,
            seat,
            membership_valid=membership_valid,
            entry_fee_paid=entry_fee_paid,
            consent_personal_data=consent_personal_data,
            consent_media=consent_media,
        )
        self._record(registered, at, _meta(by, meta))

    def _entry_number(self, person: str, at: datetime) -> int:
        earlier = [e for e in self.entries.values() if e.person == person]
        if not earlier:
            if self.drawn:
                raise CompetitionError(
                    f"{person} cannot enter after the seat draw: the draw is among all participants",
                    cite(self.rulebook, "seat_draw"),
                )
            return 1
        rule = cite(self.rulebook, "re_entry")
        live = [e.participant for e in earlier if e.participant not in self.eliminated]
        if live:
            raise CompetitionError(f"{person} is still playing as entry {live[0]}", rule)
        re_entry = self.regulations.re_entry
        if re_entry is None:
            raise CompetitionError(f"{person} was eliminated, and the regulations allow no re-entry", rule)
        if len(earlier) >= re_entry.max_entries:
            raise CompetitionError(
                f"{person} has used all {re_entry.max_entries} entries the regulations allow", rule
            )
        level = self.level_at(at)
        if level is not None and level.number > re_entry.until_level:
            raise CompetitionError(
                f"re-entry closed at the end of level {re_entry.until_level}; level {level.number} is being played",
                rule,
            )
        return len(earlier) + 1

    def _verify_seat_for_entry(self, participant: str, entry: int, seat: SeatAssignment | None) -> None:
        rule = cite(self.rulebook, "re_entry")
        if not self.drawn:
            if seat is not None:
                raise CompetitionError(
                    "the seat draw seats every entry made before it", cite(self.rulebook, "seat_draw")
                )
            return
        if seat is None or seat.participant != participant:
            raise CompetitionError(f"re-entry {participant} (entry {entry}) needs a seat of its own", rule)
        assert self.floor is not None, "the seat draw opened the floor"
        self.floor.seat_newcomer(participant, seat.table, seat.seat)

    # --- the seat draw (bfsp 2.3.2, 5.2, 5.3.1) -------------------------------------------------------------

    def commit_draw(self, seed_sha256: str, at: datetime, by: Recorder, meta: JSON | None = None) -> None:
        """Record the seed's SHA-256 before the draw (an Olympic stage's draw too)."""
        self._authorise(Act.SEAT_DRAW_COMMITTED, by)
        self._verify_not_over()
        rule = cite(self.rulebook, "seat_draw")
        stage = self._next_stage_name()
        if self.drawn and stage is None:
            raise CompetitionError("the seat draw has been conducted already", rule)
        if self.commitment is not None:
            raise CompetitionError("a seat draw is committed already and waits to be conducted", rule)
        if len(self._draw_players()) < 2:
            raise CompetitionError(
                f"a seat draw needs two players at least, and there are {len(self._draw_players())}", rule
            )
        _verify_digest(seed_sha256, rule)
        committed = SeatDrawCommitted(seed_sha256, stage or "")
        self._record(committed, at, _meta(by, meta))

    def conduct_draw(
        self,
        seed: str,
        assignments: Iterable[SeatAssignment],
        ordered_by: str,
        at: datetime,
        by: Recorder,
        meta: JSON | None = None,
    ) -> None:
        """Record the draw: the seed revealed and the seats it gives, ordered by the Chief Judge, conducted by
        the Secretary or a person authorised for it; refused unless the seed hashes to the commitment and the
        seats are the seed's (:mod:`domain.competition.draw`). Each table's button starts at its highest seat
        (bfsp 5.3.1). An Olympic competition then starts the stage, every player with the same stack (3.2)."""
        self._authorise(Act.SEAT_DRAW_CONDUCTED, by)
        rule = cite(self.rulebook, "seat_draw")
        if self.commitment is None:
            raise CompetitionError("the seed's hash must be recorded before the draw is conducted", rule)
        self._verify_ordered_by(ordered_by)
        players = self._draw_players()
        seats = tuple(assignments)
        draw.verify_draw(seed, self.commitment, players, self.regulations.max_seats, seats, rule)
        stage = self._next_stage_name() or ""
        conducted = SeatDrawConducted(seed, seats, draw.starting_buttons(seats), ordered_by, stage)
        meta = _meta(by, meta)
        self._record(conducted, at, meta)
        if stage:
            self._start_stage(stage, players, at, meta)

    def _draw_players(self) -> tuple[str, ...]:
        if self.stage is not None:
            return tuple(self.table_winners.values())
        return self.remaining

    def _verify_ordered_by(self, ordered_by: str) -> None:
        chief = self._chief_judge()
        if ordered_by != chief:
            raise NotPermittedError(
                f"the draw is conducted by decision of the Chief Judge ({chief or 'none appointed'}), "
                f"not of {ordered_by}",
                cite(self.rulebook, "draw_order"),
            )

    # --- levels and breaks (bfsp 2.1.5, 3.3; TDA 2022 23) -----------------------------------------------------

    def start_level(
        self, at: datetime, by: Recorder, meta: JSON | None = None, number: int | None = None
    ) -> Level:
        """Level 1 starts the level clock; every later level starts by the clock (bfsp 3.3; TDA 2022 23), and its
        announcement (level ``number``; None: the one the clock has in force) is recorded when it agrees with the
        clock, refused with the level in force when it does not."""
        self._authorise(Act.LEVEL_STARTED, by)
        self._verify_not_over()
        rule = cite(self.rulebook, "levels")
        if not self.drawn:
            raise CompetitionError("play starts after the seat draw", cite(self.rulebook, "seat_draw"))
        phase = self.phase_at(at)
        if phase is None:
            if self.clock is not None:
                raise CompetitionError(
                    f"the level clock started at {self.clock.started_at:%H:%M:%S}; {at:%H:%M:%S} is before it", rule
                )
            if number not in (None, 1):
                raise CompetitionError(
                    f"the level clock starts with level 1, not level {number}: no level has been played", rule
                )
            return self._start_next_level(at, _meta(by, meta))
        clock = f"at {at:%H:%M:%S} the clock is in {phase.describe()}"
        if phase.on_break is not None or phase.paused:
            raise CompetitionError(f"no level starts now: {clock}", rule)
        level = phase.level
        if number is not None and number != level.number:
            raise CompetitionError(f"level {number} is not the level in force: {clock}", rule)
        if any(s.level.number == level.number for s in self.level_starts):
            raise CompetitionError(f"level {level.number} has started already: {clock}", rule)
        self._record(LevelStarted(level, at), at, _meta(by, meta))
        return level

    def _start_next_level(self, at: datetime, meta: JSON) -> Level:
        current = self.level_at(at)
        number = current.number + 1 if current else 1
        if number > len(self.levels):
            raise CompetitionError(
                f"the schedule has {len(self.levels)} levels; there is no level {number}",
                cite(self.rulebook, "levels"),
            )
        level = self.levels[number - 1]
        self._record(LevelStarted(level, at), at, meta)
        return level

    def start_break(
        self, minutes: int, at: datetime, by: Recorder, meta: JSON | None = None, after_level: int | None = None
    ) -> None:
        """A scheduled break comes by the clock (bfsp 2.1.5, 3.3): its announcement (after level ``after_level``,
        of ``minutes``) is recorded when the clock is in it, and refused with the schedule's break otherwise. A
        break outside the schedule is the Chief Judge's pause of the clock (:meth:`pause_clock`)."""
        self._authorise(Act.BREAK_STARTED, by)
        rule = cite(self.rulebook, "schedule")
        phase = self.phase_at(at)
        if phase is None or minutes <= 0:
            raise CompetitionError("a break of some minutes follows a level being played", rule)
        due = phase.on_break
        clock = f"at {at:%H:%M:%S} the clock is in {phase.describe()}"
        if due is None:
            raise CompetitionError(
                f"no scheduled break is due: {clock}; a break the schedule does not have is a pause of the clock "
                "(LevelClockPaused)",
                rule,
            )
        if (after_level is not None and after_level != due.after_level) or minutes != due.minutes:
            raise CompetitionError(
                f"the break in force is the {due.minutes}-minute break after level {due.after_level}, not "
                f"{minutes} minutes after level {after_level if after_level is not None else phase.level.number}: "
                f"{clock}",
                rule,
            )
        if self.on_break is not None and self.on_break.after_level == due.after_level:
            raise CompetitionError(f"the break after level {due.after_level} has started already", rule)
        self._record(BreakStarted(due.after_level, due.minutes), at, _meta(by, meta))

    def end_break(self, at: datetime, by: Recorder, meta: JSON | None = None) -> None:
        """The end of a scheduled break, recorded once the clock has run it out (bfsp 2.1.5, 3.3)."""
        self._authorise(Act.BREAK_ENDED, by)
        rule = cite(self.rulebook, "schedule")
        if self.on_break is None:
            raise CompetitionError("there is no break to end", rule)
        phase = self.phase_at(at)
        if phase is not None and phase.on_break is not None:
            raise CompetitionError(
                f"the break has not ended: at {at:%H:%M:%S} the clock is in {phase.describe()}; the Chief Judge "
                "shortens a break by changing the schedule (ScheduleChanged)",
                rule,
            )
        ended = BreakEnded(self.on_break.after_level)
        self._record(ended, at, _meta(by, meta))

    def pause_clock(self, reason: str, at: datetime, by: Recorder, meta: JSON | None = None) -> None:
        """The Chief Judge stops the level clock (bfsp 2.1.5: a break he announces): no hand starts until it runs
        again, and the level in play keeps what was left of it."""
        self._authorise(Act.LEVEL_CLOCK_PAUSED, by)
        self._verify_not_over()
        rule = cite(self.rulebook, "schedule")
        phase = self.phase_at(at)
        if phase is None or self.clock is None:
            raise CompetitionError("the level clock has not started: level 1 starts it", rule)
        if self.clock.stopped:
            raise CompetitionError(f"the level clock is stopped already ({self.clock.stopped})", rule)
        if not reason.strip():
            raise CompetitionError("reason: the Chief Judge says why he stops the clock", rule)
        self._record(LevelClockPaused(reason), at, _meta(by, meta))

    def resume_clock(self, paused_at: datetime, at: datetime, by: Recorder, meta: JSON | None = None) -> None:
        """The level clock runs again with what was left when the Chief Judge stopped it (bfsp 2.1.5)."""
        self._authorise(Act.LEVEL_CLOCK_RESUMED, by)
        rule = cite(self.rulebook, "schedule")
        clock = self.clock
        if clock is None or not clock.stopped or clock.stopped == levels.HAND_FOR_HAND:
            raise CompetitionError("the Chief Judge has not stopped the level clock", rule)
        since = clock.anchors[-1].at
        if paused_at != since:
            raise CompetitionError(
                f"paused_at: the clock was stopped at {since.isoformat()}, not {paused_at.isoformat()}", rule
            )
        self._record(LevelClockResumed(since), at, _meta(by, meta))

    def change_schedule(
        self,
        new_levels: tuple[Level, ...],
        breaks: tuple[Break, ...],
        reason: str,
        at: datetime,
        by: Recorder,
        meta: JSON | None = None,
    ) -> None:
        """The Chief Judge changes the schedule (bfsp 2.1.5); the levels already played stay as they were."""
        self._authorise(Act.SCHEDULE_CHANGED, by)
        verify_schedule(new_levels, breaks, self.rulebook)
        in_force = self.level_at(at)
        played = in_force.number if in_force else 0
        if new_levels[:played] != self.levels[:played]:
            raise CompetitionError(
                f"levels 1 to {played} have been played; a schedule change cannot rewrite them",
                cite(self.rulebook, "schedule"),
            )
        changed = ScheduleChanged(new_levels, breaks, reason)
        self._record(changed, at, _meta(by, meta))

    # --- chip race (TDA 2022 24) ----------------------------------------------------------------------------

    def conduct_chip_race(
        self,
        table: int,
        removed: int,
        entries: Iterable[RaceEntry],
        dealt: Iterable[str],
        at: datetime,
        by: Recorder,
        meta: JSON | None = None,
    ) -> ChipRaceConducted:
        """Colour up ``removed`` at ``table``: exchange, race the odd chips from seat 1, one chip at most per
        player, nobody raced out, what wins nothing removed (:mod:`domain.competition.chip_race`)."""
        self._authorise(Act.CHIP_RACE_CONDUCTED, by)
        rule = cite(self.rulebook, "chip_race")
        entries = tuple(entries)
        if removed not in self.regulations.denominations or (table, removed) in self.races:
            raise CompetitionError(f"chips of {chips(removed)} are not in play at table {table}", rule)
        larger = [d for d in self.regulations.denominations if d > removed]
        if not larger:
            raise CompetitionError(
                f"chips of {chips(removed)} are the largest in play and cannot be coloured up", rule
            )
        seated = {p: seat for p, (t, seat) in self.seats.items() if t == table and p not in self.eliminated}
        listed = {e.participant: e.seat for e in entries}
        if listed != seated:
            raise CompetitionError(
                f"a chip race takes in every player at table {table} in his own seat: "
                f"{_seating(seated)}, not {_seating(listed)}",
                rule,
            )
        rounds_up = self.rulebook.chip_race_rounds_up
        results, raced = chip_race.race(removed, larger[0], entries, tuple(dealt), rule, rounds_up)
        conducted = ChipRaceConducted(table, removed, larger[0], entries, tuple(dealt), results, raced)
        self._record(conducted, at, _meta(by, meta))
        return conducted

    # --- the floor: hands at the tables, moves, halts, breaks (domain/competition/floor.py) -------------------

    def start_table_hand(
        self,
        table: int,
        button: int,
        at: datetime,
        by: Recorder,
        after_misdeal: bool = False,
        meta: JSON | None = None,
    ) -> None:
        """A hand starts at ``table``: refused where the button is wrong, the table is halted, or it owes a player
        to a short table (bfsp 3.1, 5.3.2; TDA 2022 11-D, 32)."""
        self._authorise(Act.TABLE_HAND_STARTED, by)
        self._verify_not_over()
        self._table_floor().hand_started(table, button, after_misdeal)
        started = TableHandStarted(table, button, after_misdeal)
        self._record(started, at, _meta(by, meta))

    def end_table_hand(self, table: int, at: datetime, by: Recorder, meta: JSON | None = None) -> None:
        self._authorise(Act.TABLE_HAND_ENDED, by)
        if not self._table_floor().table(table).hand_running:
            raise CompetitionError(f"table {table} is playing no hand", self.rulebook.cite("button"))
        self._record(TableHandEnded(table), at, _meta(by, meta))

    def move_player(self, move: PlayerMoved, at: datetime, by: Recorder, meta: JSON | None = None) -> None:
        """A balancing move, judged by the floor: the next big blind of the fullest table to the free seat the
        rules give (bfsp 3.1, TDA 2022 11-A)."""
        self._authorise(Act.PLAYER_MOVED, by)
        self._table_floor().verify_move(move, by.role, self._delegations(by))
        self._record_floor(move, at, by, meta)

    def widen_tolerance(
        self, widened: BalanceToleranceWidened, at: datetime, by: Recorder, meta: JSON | None = None
    ) -> None:
        self._authorise(Act.BALANCE_TOLERANCE_WIDENED, by)
        self._table_floor().widen_tolerance(widened, by.role)
        self._record_floor(widened, at, by, meta)

    def decide_mover_exception(
        self, decided: MoverExceptionDecided, at: datetime, by: Recorder, meta: JSON | None = None
    ) -> None:
        self._authorise(Act.MOVER_EXCEPTION_DECIDED, by)
        self._table_floor().decide_mover_exception(decided, by.role)
        self._record_floor(decided, at, by, meta)

    def halt_table(self, halted: TableHalted, at: datetime, by: Recorder, meta: JSON | None = None) -> None:
        self._authorise(Act.TABLE_HALTED, by)
        self._table_floor().halt(halted, by.role, self._delegations(by))
        self._record_floor(halted, at, by, meta)

    def commit_table_break(
        self, committed: TableBreakCommitted, at: datetime, by: Recorder, meta: JSON | None = None
    ) -> None:
        self._authorise(Act.TABLE_BREAK_COMMITTED, by)
        self._table_floor().commit_break(committed, by.role, self._delegations(by))
        self._record_floor(committed, at, by, meta)

    def break_table(self, broken: TableBroken, at: datetime, by: Recorder, meta: JSON | None = None) -> None:
        """A table broken by its two-step draw, recomputed from the seed committed first (TDA 2022 10-B)."""
        self._authorise(Act.TABLE_BROKEN, by)
        self._table_floor().apply_break(broken, by.role, self._delegations(by))
        self._record_floor(broken, at, by, meta)

    def _table_floor(self) -> Floor:
        if self.floor is None:
            raise CompetitionError(
                "no table is in play before the seat draw seats it", cite(self.rulebook, "seat_draw")
            )
        return self.floor

    def _record_floor(self, recorded: FloorEvent, at: datetime, by: Recorder, meta: JSON | None) -> None:
        self._verify_not_over()
        self.floor_clock.verify_in_time(recorded, at, self.rulebook)
        self._record(recorded, at, _meta(by, meta))

    # --- eliminations, placings, the winner (bfsp 5.10; TDA 2022 RP-8) ------------------------------------------

    def eliminate(
        self, hand: str, busts: Iterable[placings.Bust], at: datetime, by: Recorder, meta: JSON | None = None
    ) -> tuple[PlayerEliminated, ...]:
        """Players who lost all their chips in ``hand`` (at one table, or in one hand-for-hand hand at several):
        their places (:mod:`domain.competition.placings`), then the winner if one player is left."""
        self._authorise(Act.PLAYER_ELIMINATED, by)
        self._verify_not_over()
        busts = tuple(busts)
        rule = cite(self.rulebook, "elimination")
        if not busts:
            raise CompetitionError("an elimination names the players busted", rule)
        for bust in busts:
            self._verify_playing(bust.participant, rule)
            if self.seats[bust.participant][0] != bust.table:
                raise CompetitionError(
                    f"{bust.participant} sits at table {self.seats[bust.participant][0]}, not table {bust.table}",
                    rule,
                )
        if len({b.participant for b in busts}) != len(busts):
            raise CompetitionError("a player is busted once", rule)
        if len(busts) >= self.players_left:
            raise CompetitionError(
                f"{len(busts)} players cannot all bust when {self.players_left} are left: someone wins the chips",
                rule,
            )
        self._verify_one_table_per_stage(busts, rule)
        placed = placings.placings(self.players_left, busts, self._busts_share(busts))
        meta = _meta(by, meta)
        recorded = []
        for p in placed:
            eliminated = PlayerEliminated(
                p.participant, hand, EliminationReason.NO_CHIPS, p.place, p.shared_with, p.starting_stack
            )
            self._record(eliminated, at, meta)
            recorded.append(eliminated)
        self._after_eliminations({b.table for b in busts}, at, meta)
        return tuple(recorded)

    def disqualify(
        self, participant: str, reason: str, at: datetime, by: Recorder, meta: JSON | None = None
    ) -> None:
        """The Chief Judge disqualifies a participant from the competition: he is eliminated, his chips leave
        play and he gets no prize (bfsp 7.2.2, 5.10.2)."""
        self._authorise(Act.COMPETITION_DISQUALIFICATION, by)
        self._verify_not_over()
        self._verify_playing(participant, cite(self.rulebook, "competition_disqualification"), seated=False)
        eliminated = PlayerEliminated(
            participant, "", EliminationReason.DISQUALIFIED, self.players_left, ruling=reason
        )
        meta = _meta(by, meta)
        self._record(eliminated, at, meta)
        self._after_eliminations(
            {self.seats[participant][0]} if participant in self.seats else set(), at, meta
        )

    def _verify_playing(self, participant: str, rule: Any, seated: bool = True) -> None:
        if participant not in self.entries:
            raise CompetitionError(f"{participant} is not registered", rule)
        if participant in self.eliminated:
            raise CompetitionError(f"{participant} was eliminated already", rule)
        if seated and participant not in self.seats:
            raise CompetitionError(f"{participant} has no seat", rule)

    def _verify_one_table_per_stage(self, busts: tuple[placings.Bust, ...], rule: Any) -> None:
        tables = {b.table for b in busts}
        if len(tables) > 1 and self.hand_for_hand is None:
            raise CompetitionError(
                "players busted at different tables are eliminated one hand at a time, except hand-for-hand",
                rule,
            )
        waiting = [b.participant for b in busts if b.participant in self.table_winners.values()]
        if waiting:
            raise CompetitionError(
                f"{waiting[0]} has won his table and waits for the next stage's draw", rule
            )
        for table in tables:
            left = [p for p in self.remaining if self.seats.get(p, (0, 0))[0] == table]
            busted = [b for b in busts if b.table == table]
            if self.regulations.format is Format.OLYMPIC and len(busted) >= len(left):
                raise CompetitionError(
                    f"table {table} plays down to one winner; someone keeps its chips", rule
                )

    def _busts_share(self, busts: tuple[placings.Bust, ...]) -> bool:
        if self.hand_for_hand is None or not self.rulebook.hand_for_hand_busts_share:
            return False
        return self.hand_for_hand_round == 0 or len({b.table for b in busts}) > 1

    def _after_eliminations(self, tables: set[int], at: datetime, meta: JSON) -> None:
        follows = {**meta, "follows": "PlayerEliminated"}
        if self.regulations.format is Format.OLYMPIC and self.stage is not None:
            for table in sorted(tables):
                left = [p for p in self.remaining if self.seats[p][0] == table]
                if len(left) == 1 and self.stage.tables > 1:
                    won = TableWinnerDeclared(self.stage.stage, table, left[0])
                    self._record(won, at, follows)
        if self.players_left == 1:
            winner = CompetitionWinnerDeclared(self.remaining[0])
            self._record(winner, at, follows)

    # --- hand-for-hand (TDA 2022 RP-8) ----------------------------------------------------------------------

    def start_hand_for_hand(
        self, level_seconds_left: int, at: datetime, by: Recorder, meta: JSON | None = None
    ) -> None:
        """ "Finish the current hand; we are going hand-for-hand": payout eligibility starts now (RP-8-a)."""
        self._authorise(Act.HAND_FOR_HAND_STARTED, by)
        self._verify_not_over()
        rule = cite(self.rulebook, "hand_for_hand")
        paid = len(self.regulations.prizes)
        if self.hand_for_hand is not None:
            raise CompetitionError("play is hand-for-hand already", rule)
        if self.players_left <= paid:
            raise CompetitionError(
                f"{self.players_left} players are left and {paid} places are paid: the money is reached", rule
            )
        phase = self.phase_at(at)
        if phase is None or phase.on_break is not None or phase.paused:
            raise CompetitionError(
                f"{level_seconds_left} s is not what is left of a level being played"
                + (f": at {at:%H:%M:%S} the clock is in {phase.describe()}" if phase else ""),
                rule,
            )
        left = int(phase.left.total_seconds())
        if abs(level_seconds_left - phase.left.total_seconds()) > 1:
            raise CompetitionError(
                f"level_seconds_left: at {at:%H:%M:%S} the clock has {left} s left of level {phase.level.number}, "
                f"not {level_seconds_left} s",
                rule,
            )
        started = HandForHandStarted(self.players_left, level_seconds_left)
        self._record(started, at, _meta(by, meta))

    def start_hand_for_hand_hand(
        self, at: datetime, by: Recorder, meta: JSON | None = None
    ) -> HandForHandHandStarted:
        """Every table starts its next hand; the clock is charged a fixed time for the hand just played, and
        when it runs out the next level starts (RP-8-b, c, d; TV-113)."""
        self._authorise(Act.HAND_FOR_HAND_HAND_STARTED, by)
        if self.hand_for_hand is None:
            raise CompetitionError("play is not hand-for-hand", cite(self.rulebook, "hand_for_hand"))
        meta = _meta(by, meta)
        left = levels.hand_for_hand_clock(
            self.level_seconds_left, self.rulebook.hand_for_hand_seconds_per_hand
        )
        if left <= 0:
            left = self._start_next_level(at, meta).minutes * 60
        started = HandForHandHandStarted(self.hand_for_hand_round + 1, left)
        self._record(started, at, meta)
        return started

    def end_hand_for_hand(self, at: datetime, by: Recorder, meta: JSON | None = None) -> None:
        self._authorise(Act.HAND_FOR_HAND_ENDED, by)
        if self.hand_for_hand is None:
            raise CompetitionError("play is not hand-for-hand", cite(self.rulebook, "hand_for_hand"))
        self._record(HandForHandEnded(self.players_left), at, _meta(by, meta))

    # --- the final table (bfsp 3.1; TDA 2022 RP-9) ----------------------------------------------------------

    def commit_final_table_draw(
        self, seed_sha256: str, at: datetime, by: Recorder, meta: JSON | None = None
    ) -> None:
        """Record the final-table draw's seed hash, once the players left are the final table's size."""
        self._authorise(Act.FINAL_TABLE_DRAW_COMMITTED, by)
        self._verify_final_table_due()
        if self.final_commitment is not None:
            raise CompetitionError(
                "the final-table draw is committed already", cite(self.rulebook, "final_table")
            )
        _verify_digest(seed_sha256, cite(self.rulebook, "final_table"))
        committed = FinalTableDrawCommitted(seed_sha256)
        self._record(committed, at, _meta(by, meta))

    def conduct_final_table_draw(
        self,
        seed: str,
        assignments: Iterable[SeatAssignment],
        ordered_by: str,
        at: datetime,
        by: Recorder,
        meta: JSON | None = None,
    ) -> None:
        """A new draw among all finalists sets their seats at the final table (bfsp 3.1), proved like the
        opening draw; the final table is table 1 and its button starts at its highest seat (5.3.1)."""
        self._authorise(Act.FINAL_TABLE_DRAW_CONDUCTED, by)
        self._verify_final_table_due()
        rule = cite(self.rulebook, "final_table")
        if self.final_commitment is None:
            raise CompetitionError("the seed's hash must be recorded before the final-table draw", rule)
        self._verify_ordered_by(ordered_by)
        seats = tuple(assignments)
        draw.verify_draw(
            seed, self.final_commitment, self.remaining, self.regulations.final_table_size, seats, rule
        )
        self._table_floor().verify_final_table({a.participant: (a.table, a.seat) for a in seats})
        conducted = FinalTableDrawConducted(seed, seats, draw.starting_buttons(seats), ordered_by)
        self._record(conducted, at, _meta(by, meta))

    def _verify_final_table_due(self) -> None:
        rule = cite(self.rulebook, "final_table")
        if self.regulations.format is not Format.AMERICAN or self.final_table:
            raise CompetitionError("the final table is formed once, in the American format", rule)
        size = self.regulations.final_table_size
        if self.players_left > size:
            raise CompetitionError(
                f"the final table forms when {size} players are left, and {self.players_left} are", rule
            )

    # --- the Olympic format (bfsp 3.2) ----------------------------------------------------------------------

    def stage_plan(self) -> tuple[olympic.Stage, ...]:
        players = len(self.remaining) if self.stage is None else len(self.stage.participants)
        return olympic.stage_plan(players, self.regulations.max_seats, cite(self.rulebook, "olympic"))

    def _next_stage_name(self) -> str | None:
        """The Olympic stage the next draw seats: the first, or the next once every table has its winner."""
        if self.regulations.format is not Format.OLYMPIC:
            return None
        if self.stage is None:
            return self.stage_plan()[0].name
        if len(self.table_winners) < self.stage.tables or self.stage.tables == 1:
            return None
        names = olympic.STAGE_NAMES
        return names[names.index(self.stage.stage) - 1]

    def _start_stage(self, name: str, players: tuple[str, ...], at: datetime, meta: JSON) -> None:
        tables = len({t for p, (t, _) in self.seats.items() if p in players})
        follows = {**meta, "follows": "SeatDrawConducted"}
        started = OlympicStageStarted(name, tables, players)
        self._record(started, at, follows)
        reset = StacksReset(name, self.regulations.starting_stack, players)
        self._record(reset, at, follows)

    # --- checks shared by the acts --------------------------------------------------------------------------

    def _delegations(self, by: Recorder) -> list[Delegation]:
        office = self.officials.get(by.person)
        return [Delegation(d) for d in office.delegations] if office else []

    def _authorise(self, act: Act, by: Recorder) -> None:
        """The roles table allows ``by.role`` to record ``act``, and ``by.person`` holds that office here."""
        office = self.officials.get(by.person)
        verify_permitted(act, by.role, delegations=self._delegations(by))
        if self.has_ended:
            verify_not_ended(self.closed_at, self.closed_by, permission(act).doing)
        if by.role in _BODIES:
            return
        if office is None or office.role is not by.role:
            raise NotPermittedError(
                f"{by.person} is not appointed {by.role.value.replace('_', ' ')} of this competition",
                permission(act).cite(),
            )

    def _chief_judge(self) -> str | None:
        return next((p for p, o in self.officials.items() if o.role is Role.CHIEF_JUDGE), None)

    def _verify_not_over(self) -> None:
        if self.winner is not None:
            raise CompetitionError(
                f"the competition is over: {self.winner} won it", cite(self.rulebook, "winner")
            )
        if self.is_over:
            raise CompetitionError(
                "the competition is over: the players left shared out the prizes in a deal",
                cite(self.rulebook, "prizes"),
            )

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

    @property
    def floor_clock(self) -> FloorClock:
        """When each table's last hand ended and each seat was last left (domain/competition/floor_clock.py)."""
        clock: FloorClock | None = getattr(self, "_floor_clock", None)
        if clock is None:  # a Competition made before the clock was followed (a snapshot) starts one now
            clock = self._floor_clock = FloorClock()
        return clock

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


def _meta(by: Recorder, meta: JSON | None) -> JSON:
    return {"recorded_by": {"person": by.person, "role": by.role.value}, **(meta or {})}


def _age(born: date, on: date) -> int:
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))


def _verify_digest(digest: str, rule: Any) -> None:
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise CompetitionError(f"{digest!r} is not a SHA-256 digest in lower-case hex", rule)


def _seating(seats: dict[str, int]) -> str:
    return ", ".join(f"{p} in seat {s}" for p, s in sorted(seats.items(), key=lambda i: i[1])) or "nobody"
