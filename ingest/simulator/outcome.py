"""What a simulated competition gives: its entries in order, its results, and its log records.

The entries are the federation's acts (:class:`Reported`), the protest's forwarding that waits for its
snapshot (:class:`Forwarding`), and the hands (:class:`SimulatedHand`), in the order the floor reported them;
:meth:`CompetitionSimulation.records` turns them into log records, each act recorded by its official and each
hand by its table's dealer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from itertools import count
from typing import Any
from uuid import uuid5

from domain.competition.regulations import Format
from domain.discipline import PenaltyKind
from domain.protests.events import ProtestDecision, ProtestTier
from domain.roles import Role
from ingest.envelope import RecordedBy, encode, make_envelope
from ingest.publish import EVENT_NAMESPACE
from ingest.simulator.book import Book, Forwarding, Reported
from ingest.simulator.federation import Official
from ingest.simulator.records import simulated_records
from ingest.simulator.run import SimulatedHand

#: (competition id, when) → (the snapshot's name, its chain head): the protocol snapshot a forwarding names
Snapshotter = Callable[[str, datetime, RecordedBy], tuple[str, str]]


@dataclass(frozen=True, slots=True)
class Placing:
    participant: str
    place: int
    hand: str


@dataclass(frozen=True, slots=True)
class PenaltyRecord:
    participant: str
    code: str
    kind: PenaltyKind
    rounds: int
    imposed_by: Role
    official: str
    hand: str


@dataclass(frozen=True, slots=True)
class ProtestRecord:
    protest: str
    tier: ProtestTier
    filer: str
    contested: str
    decision: ProtestDecision


@dataclass
class CompetitionSimulation:
    seed: int
    competition_id: str
    format: Format
    players: int
    #: in the order they happened: federation acts (:class:`Reported`, :class:`Forwarding`) and hands
    entries: list[Any]
    placings: tuple[Placing, ...]
    winner: str
    penalties: tuple[PenaltyRecord, ...]
    protests: tuple[ProtestRecord, ...]
    #: the dealer who records each table's hands
    dealers: dict[str, Official]
    rulebook: str
    book: Book = field(repr=False)

    @property
    def hands(self) -> tuple[SimulatedHand, ...]:
        return tuple(e for e in self.entries if isinstance(e, SimulatedHand))

    @property
    def acts(self) -> tuple[Reported, ...]:
        return tuple(e for e in self.entries if isinstance(e, Reported))

    def records(self, snapshot: Snapshotter | None = None) -> Iterator[tuple[bytes, bytes]]:
        """The log records in the order the floor reported them. A protest's forwarding asks ``snapshot`` for
        the protocol snapshot it goes with (the service that keeps the archive takes it then); without one,
        the simulator's own snapshot of its books is named.

        """
        take = snapshot or self.own_snapshot
        federation = count()
        for entry in self.entries:
            if isinstance(entry, SimulatedHand):
                dealer = self.dealers[entry.table_id].recorded_by
                yield from simulated_records(entry.played, self.competition_id, dealer, entry.started_at)
                continue
            act = (
                entry.reported(*take(self.competition_id, entry.at, entry.recorded_by))
                if isinstance(entry, Forwarding)
                else entry
            )
            n = next(federation)
            envelope = make_envelope(
                act.event,
                event_id=uuid5(EVENT_NAMESPACE, f"{self.competition_id}/federation/{n}"),
                competition_id=self.competition_id,
                seq=n,
                recorded_by=act.recorded_by,
                occurred_at=act.at,
                table_id=act.table_id,
                hand_id=act.hand_id,
                rulebook=self.rulebook,
            )
            yield self.competition_id.encode(), encode(envelope)

    def own_snapshot(self, competition_id: str, at: datetime, by: RecordedBy) -> tuple[str, str]:
        """The simulator's own snapshot of its books (for a log nobody takes snapshots of)."""
        return self.book.snapshot(at)

    def summary(self) -> dict[str, Any]:
        return {
            "competition": self.competition_id,
            "seed": self.seed,
            "format": self.format.value,
            "players": self.players,
            "hands": len(self.hands),
            "acts": len(self.acts),
            "winner": self.winner,
            "penalties": len(self.penalties),
            "protests": len(self.protests),
        }
