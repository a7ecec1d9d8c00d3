"""The floor by the service's clock: when each table's last hand ended and each seat was last left, so a move, a
halt or a break is refused when its time falls before what the log already holds of the tables it touches.

The referee judges a competition's records in the log's order, and in live play the log's times only go forward
(DESIGN decision 9: a record is judged at the time the log received it). A floor act timed before a hand's end or
an elimination the log already holds would be judged against tables that, at its own time, did not stand so: a
player moved into a seat still occupied in a hand in play, a player moved out of a hand in play, tables balanced
that were then still equal, a table broken while its hand was being played (bfsp 3.1, TDA 2022 10-B, 11-A).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain.competition.events import (
    FinalTableDrawConducted,
    PlayerEliminated,
    SeatDrawConducted,
    TableHandEnded,
)
from domain.competition.floor_events import PlayerMoved, TableBreakCommitted, TableBroken, TableHalted
from domain.errors import CompetitionError
from domain.rulebooks import Rulebook


@dataclass(frozen=True, slots=True)
class SeatLeft:
    """Who left a seat, when, and why (eliminated, moved to another table)."""

    participant: str
    at: datetime
    why: str


@dataclass(frozen=True, slots=True)
class FloorChange:
    """The floor's latest change of who sits where, and what it was."""

    at: datetime
    what: str


class FloorClock:
    """Followed by the Competition along its stream (:meth:`follow`); asked before each floor act is recorded
    (:meth:`verify_in_time`)."""

    __slots__ = ("hands_ended", "seats_left", "changed")

    def __init__(self) -> None:
        #: table → when its last hand ended
        self.hands_ended: dict[int, datetime] = {}
        #: (table, seat) → who left it last
        self.seats_left: dict[tuple[int, int], SeatLeft] = {}
        self.changed: FloorChange | None = None

    def follow(self, event: Any, at: datetime, seats: dict[str, tuple[int, int]]) -> None:
        """``event`` was recorded at ``at``; ``seats`` is who sat where before it."""
        if isinstance(event, TableHandEnded):
            self.hands_ended[event.table] = max(at, self.hands_ended.get(event.table, at))
        elif isinstance(event, PlayerEliminated):
            where = seats.get(event.participant)
            if where is not None:
                self.seats_left[where] = SeatLeft(event.participant, at, "eliminated")
            self._change(at, f"{event.participant} eliminated" + (f" at table {where[0]}" if where else ""))
        elif isinstance(event, PlayerMoved):
            self._left(event, at)
            self._change(at, f"{event.participant} moved to table {event.to_table} seat {event.to_seat}")
        elif isinstance(event, TableBroken):
            for move in event.moves:
                self._left(move, at)
            self._change(at, f"table {event.table} broken")
        elif isinstance(event, SeatDrawConducted | FinalTableDrawConducted):
            self.seats_left.clear()
            self._change(at, "the final table's draw" if isinstance(event, FinalTableDrawConducted) else "the seat draw")

    def _left(self, move: PlayerMoved, at: datetime) -> None:
        self.seats_left[(move.from_table, move.from_seat)] = SeatLeft(
            move.participant, at, f"moved to table {move.to_table} seat {move.to_seat}"
        )

    def _change(self, at: datetime, what: str) -> None:
        if self.changed is None or at >= self.changed.at:
            self.changed = FloorChange(at, what)

    def verify_in_time(self, act: Any, at: datetime, rulebook: Rulebook) -> None:
        """Refuse ``act`` (a move, a halt, a break) timed before what the log holds of the tables it touches."""
        if isinstance(act, PlayerMoved):
            self._verify_move(act, at, rulebook)
        elif isinstance(act, TableBroken):
            self._verify_between_hands(act.table, at, "a table breaks when its hand has ended", rulebook, "table_break")
            for move in act.moves:
                self._verify_seat_free(move, at, rulebook, "table_break")
        elif isinstance(act, TableBreakCommitted | TableHalted):
            what = "a table breaks" if isinstance(act, TableBreakCommitted) else "play halts"
            topic = "table_break" if isinstance(act, TableBreakCommitted) else "halt"
            self._verify_between_hands(act.table, at, f"{what} between hands", rulebook, topic)
        else:
            return
        self._verify_after_last_change(at, rulebook)

    def _verify_move(self, move: PlayerMoved, at: datetime, rulebook: Rulebook) -> None:
        self._verify_seat_free(move, at, rulebook, "balancing")
        ended = self.hands_ended.get(move.from_table)
        if ended is not None and ended > at:
            raise CompetitionError(
                f"table {move.from_table}'s hand ended at {_clock(ended)}, after this move ({_clock(at)}): "
                f"{move.participant} was still in a hand in play there, and a player is moved between hands",
                rulebook.cite("balancing"),
            )

    def _verify_seat_free(self, move: PlayerMoved, at: datetime, rulebook: Rulebook, topic: str) -> None:
        left = self.seats_left.get((move.to_table, move.to_seat))
        if left is None or left.at <= at:
            return
        ended = self.hands_ended.get(move.to_table)
        in_play = " in a hand in play" if ended is not None and ended > at else ""
        raise CompetitionError(
            f"table {move.to_table} seat {move.to_seat} was still {left.participant}'s at {_clock(at)}, when "
            f"{move.participant} is moved into it: {left.participant} left it at {_clock(left.at)} ({left.why}); "
            f"no player is moved into a seat still occupied{in_play}",
            rulebook.cite(topic),
        )

    def _verify_between_hands(self, table: int, at: datetime, what: str, rulebook: Rulebook, topic: str) -> None:
        ended = self.hands_ended.get(table)
        if ended is not None and ended > at:
            raise CompetitionError(
                f"table {table} was playing a hand until {_clock(ended)}, after this act ({_clock(at)}): {what}",
                rulebook.cite(topic),
            )

    def _verify_after_last_change(self, at: datetime, rulebook: Rulebook) -> None:
        if self.changed is not None and self.changed.at > at:
            raise CompetitionError(
                f"the tables changed at {_clock(self.changed.at)} ({self.changed.what}), after this act's time "
                f"({_clock(at)}): the floor is judged against the tables as they stood at its time, and players are "
                "moved only to balance tables that were unequal then",
                rulebook.cite("balancing"),
            )


def _clock(at: datetime) -> str:
    return at.isoformat(timespec="seconds")
