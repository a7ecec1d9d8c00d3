"""The Competition's results: OFC rounds counted (bfsp 8), a final-table deal (TDA 2017 Part G), eliminations,
placings and the winner (bfsp 5.10; TDA 2022 RP-8), and the competition's end (bfsp 2.1.1, 5.10.1)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from domain.chained import JSON
from domain.competition import ofc_points, placings, prizes
from domain.competition.closing import verify_play_over
from domain.competition.competition_state import CompetitionState, Recorder, recorded_meta
from domain.competition.events import (
    CompetitionEnded,
    CompetitionWinnerDeclared,
    DealAgreed,
    EliminationReason,
    OfcRoundCounted,
    PlayerEliminated,
    TableWinnerDeclared,
)
from domain.competition.regulations import Format, cite
from domain.errors import CompetitionError, verify_agrees
from domain.ofc.events import OFC
from domain.officials import Act


class ResultActs(CompetitionState):

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
        self._record(DealAgreed(shares, left_to_play_for), at, recorded_meta(by, meta))

    # --- the end (bfsp 2.1.1, 5.10.1; domain/competition/closing.py) -----------------------------------------

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
        self._record(ended, at, recorded_meta(by, meta))
        return ended
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
        meta = recorded_meta(by, meta)
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
        meta = recorded_meta(by, meta)
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
