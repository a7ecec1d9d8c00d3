"""The referee over an embedded log and a SQLite store in a test's folder, as the desk's and the protocol's unit
tests drive it: the records a test appends to the log are judged at once."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from federation_records import COMPETITION

from domain.competition.aggregate import Competition, competition_stream_id
from domain.protocol import ProtocolSnapshotTaken
from ingest.envelope import RecordedBy
from ingest.log import EmbeddedLog
from ingest.protocol_acts import snapshot_request
from ingest.referee import Referee, Verdict
from ingest.simulator.clock import simulation_clock
from ingest.store import Store, store_env
from projections.protocol import compile_snapshot, snapshots


class Pipeline:
    """One partition, so the referee judges the records in the order the test appended them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / "store.sqlite"
        # the scenarios are dated: the log receives each record at its time (the tests drive the log's clock)
        self.log = EmbeddedLog(folder / "log.sqlite", "events", partitions=1, clock=simulation_clock)
        self.store = Store(env=store_env(None, str(self.path)))
        self.referee = Referee(self.store, "events", protocols=compile_snapshot)

    def judge(self, records: Iterable[tuple[bytes, bytes]]) -> list[Verdict]:
        """Appends ``records`` and judges every record the referee has not judged yet."""
        self.log.append(list(records))
        return self.referee.judge(0, self.log.read(0, self.referee.resume_offset(0), 100_000))

    def restart(self) -> None:
        """A new referee on the same log and store: nothing of the desk's memory survives."""
        self.referee = Referee(self.store, "events", protocols=compile_snapshot)

    def take_snapshot(self, by: RecordedBy, when: datetime, competition_id: str = COMPETITION) -> ProtocolSnapshotTaken:
        """``by`` asks for a snapshot of the protocol on the log; the one the referee kept (the test fails if
        it refused)."""
        [verdict] = self.judge([snapshot_request(competition_id, by, when)])
        assert verdict.outcome == "accepted", verdict.rejection
        return snapshots(self.store, competition_id)[-1]

    def competition(self, competition_id: str = COMPETITION) -> Competition:
        found: object = self.store.repository.get(competition_stream_id(competition_id))
        assert isinstance(found, Competition)
        return found
