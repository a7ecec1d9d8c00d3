"""The Competition's draws: the seat draw (bfsp 2.3.2, 5.2, 5.3.1), the final table's (bfsp 3.1; TDA 2022
RP-9) and the Olympic format's stages (bfsp 3.2)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from domain.chained import JSON
from domain.competition import draw, olympic
from domain.competition.competition_state import CompetitionState, Recorder, recorded_meta, verify_digest
from domain.competition.events import (
    FinalTableDrawCommitted,
    FinalTableDrawConducted,
    OlympicStageStarted,
    SeatAssignment,
    SeatDrawCommitted,
    SeatDrawConducted,
    StacksReset,
)
from domain.competition.regulations import Format, cite
from domain.errors import CompetitionError, NotPermittedError
from domain.officials import Act


class DrawActs(CompetitionState):
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
        verify_digest(seed_sha256, rule)
        committed = SeatDrawCommitted(seed_sha256, stage or "")
        self._record(committed, at, recorded_meta(by, meta))

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
        meta = recorded_meta(by, meta)
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
        verify_digest(seed_sha256, cite(self.rulebook, "final_table"))
        committed = FinalTableDrawCommitted(seed_sha256)
        self._record(committed, at, recorded_meta(by, meta))

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
        self._record(conducted, at, recorded_meta(by, meta))

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
