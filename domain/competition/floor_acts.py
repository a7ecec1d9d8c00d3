"""The Competition's floor: hands at the tables, moves, halts and table breaks (domain/competition/floor.py), and
hand-for-hand play (TDA 2022 RP-8)."""

from __future__ import annotations

from datetime import datetime

from domain.chained import JSON
from domain.competition import levels
from domain.competition.competition_state import CompetitionState, Recorder, recorded_meta
from domain.competition.events import (
    HandForHandEnded,
    HandForHandHandStarted,
    HandForHandStarted,
    TableHandEnded,
    TableHandStarted,
)
from domain.competition.floor_events import (
    BalanceToleranceWidened,
    FloorEvent,
    MoverExceptionDecided,
    PlayerMoved,
    TableBreakCommitted,
    TableBroken,
    TableHalted,
)
from domain.competition.regulations import cite
from domain.errors import CompetitionError
from domain.officials import Act


class FloorActs(CompetitionState):
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
        self._record(started, at, recorded_meta(by, meta))

    def end_table_hand(self, table: int, at: datetime, by: Recorder, meta: JSON | None = None) -> None:
        self._authorise(Act.TABLE_HAND_ENDED, by)
        if not self._table_floor().table(table).hand_running:
            raise CompetitionError(f"table {table} is playing no hand", self.rulebook.cite("button"))
        self._record(TableHandEnded(table), at, recorded_meta(by, meta))

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
    def _record_floor(self, recorded: FloorEvent, at: datetime, by: Recorder, meta: JSON | None) -> None:
        self._verify_not_over()
        self.floor_clock.verify_in_time(recorded, at, self.rulebook)
        self._record(recorded, at, recorded_meta(by, meta))

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
        self._record(started, at, recorded_meta(by, meta))

    def start_hand_for_hand_hand(
        self, at: datetime, by: Recorder, meta: JSON | None = None
    ) -> HandForHandHandStarted:
        """Every table starts its next hand; the clock is charged a fixed time for the hand just played, and
        when it runs out the next level starts (RP-8-b, c, d; TV-113)."""
        self._authorise(Act.HAND_FOR_HAND_HAND_STARTED, by)
        if self.hand_for_hand is None:
            raise CompetitionError("play is not hand-for-hand", cite(self.rulebook, "hand_for_hand"))
        meta = recorded_meta(by, meta)
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
        self._record(HandForHandEnded(self.players_left), at, recorded_meta(by, meta))
