"""What every concern of the Competition reads: its state, what it knows from it, the checks its acts share.

The Competition (:mod:`domain.competition.aggregate`) is one aggregate whose acts are split by concern, each a
mixin over :class:`CompetitionState`: the officials and the entries (``roster_acts``), the draws
(``draw_acts``), the levels and breaks (``level_acts``), the floor (``floor_acts``) and the results
(``result_acts``). The state is set by the Competition's opening and by its appliers alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain.chained import JSON
from domain.competition import floor_events, levels, ofc_points, prizes
from domain.competition.closing import verify_not_ended
from domain.competition.events import (
    CATALOG,
    BreakStarted,
    CompetitionEnded,
    CompetitionEvent,
    DealAgreed,
    EliminationReason,
    HandForHandStarted,
    OfcRoundCounted,
    OfficialAppointed,
    OlympicStageStarted,
    ParticipantRegistered,
    PlayerEliminated,
)
from domain.competition.floor import Floor
from domain.competition.floor_clock import FloorClock
from domain.competition.floor_events import FloorEvent
from domain.competition.levels import LevelClock, LevelStart, Phase
from domain.competition.regulations import Break, Level, Regulations, cite
from domain.errors import CompetitionError, NotPermittedError
from domain.ofc.events import OFC
from domain.officials import Act, Delegation, verify_permitted
from domain.officials.permissions import permission
from domain.roles import Role
from domain.rulebooks import Rulebook

#: roles that act for a body or report for one, not as an official appointed at this competition (the roles
#: table already limits the importer and the simulator to the game as dealt)
BODIES = frozenset({Role.FEDERATION, Role.IMPORTER, Role.SIMULATOR})
#: every event type the Competition's stream stores: its own, and the floor's it records after the floor judged them
STREAM_CATALOG: dict[str, type] = {**CATALOG, **floor_events.CATALOG}
#: what a stored event of the Competition's stream records
RecordedEvent = CompetitionEvent | FloorEvent


@dataclass(frozen=True, slots=True)
class Recorder:
    """Who records an act: a person and the role he records it in."""

    person: str
    role: Role


def recorded_meta(by: Recorder, meta: JSON | None) -> JSON:
    return {"recorded_by": {"person": by.person, "role": by.role.value}, **(meta or {})}


def verify_digest(digest: str, rule: Any) -> None:
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise CompetitionError(f"{digest!r} is not a SHA-256 digest in lower-case hex", rule)


class CompetitionState:
    """What every concern of the Competition reads: its state (set by the Competition's opening and its appliers,
    never by an act), what it knows from that state, the checks every act shares, and the two steps an act may
    take that another concern owns (recording an event; starting the next level)."""

    competition_id: str
    regulations: Regulations
    levels: tuple[Level, ...]
    breaks: tuple[Break, ...]
    officials: dict[str, OfficialAppointed]
    entries: dict[str, ParticipantRegistered]
    seats: dict[str, tuple[int, int]]
    buttons: dict[int, int]
    commitment: str | None
    drawn: bool
    level_starts: list[LevelStart]
    clock: LevelClock | None
    last_at: datetime
    on_break: BreakStarted | None
    denominations: tuple[int, ...]
    races: set[tuple[int, int]]
    eliminated: dict[str, PlayerEliminated]
    hand_for_hand: HandForHandStarted | None
    hand_for_hand_round: int
    level_seconds_left: int
    final_commitment: str | None
    final_table: bool
    stage: OlympicStageStarted | None
    table_winners: dict[int, str]
    stage_stack: int
    deal: DealAgreed | None
    floor: Floor | None
    winner: str | None
    ended_at: datetime | None
    ofc_rounds: list[OfcRoundCounted]
    closed: CompetitionEnded | None
    closed_at: datetime | None
    closed_by: str
    chain_head: str

    def _record(self, recorded: RecordedEvent, at: datetime, meta: JSON) -> None:
        """Record ``recorded`` on the competition's stream (the Competition's own: it stores the event)."""
        raise NotImplementedError

    def _start_next_level(self, at: datetime, meta: JSON) -> Level:
        """Start the level after the current one (the levels' concern: :class:`LevelActs`)."""
        raise NotImplementedError

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

    def phase_at(self, at: datetime) -> Phase | None:
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
    @property
    def has_ended(self) -> bool:
        """The Chief Judge has closed the competition (its ``CompetitionEnded``), not only play being over."""
        return getattr(self, "closed", None) is not None

    def _table_floor(self) -> Floor:
        if self.floor is None:
            raise CompetitionError(
                "no table is in play before the seat draw seats it", cite(self.rulebook, "seat_draw")
            )
        return self.floor

    @property
    def floor_clock(self) -> FloorClock:
        """When each table's last hand ended and each seat was last left (domain/competition/floor_clock.py)."""
        clock: FloorClock | None = getattr(self, "_floor_clock", None)
        if clock is None:  # a Competition made before the clock was followed (a snapshot) starts one now
            clock = self._floor_clock = FloorClock()
        return clock

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
        if by.role in BODIES:
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
