"""The referee over an embedded log and a SQLite store in a test's folder, as the desk's and the protocol's unit
tests drive it: the records a test appends to the log are judged at once."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from federation_records import COMPETITION

from domain.competition.aggregate import Competition, competition_stream_id
from ingest.log import EmbeddedLog
from ingest.referee import Referee, Verdict
from ingest.simulator.clock import simulation_clock
from ingest.store import Store, store_env


class Pipeline:
    """One partition, so the referee judges the records in the order the test appended them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / "store.sqlite"
        # the scenarios are dated: the log receives each record at its time (the tests drive the log's clock)
        self.log = EmbeddedLog(folder / "log.sqlite", "events", partitions=1, clock=simulation_clock)
        self.store = Store(env=store_env(None, str(self.path)))
        self.referee = Referee(self.store, "events")

    def judge(self, records: Iterable[tuple[bytes, bytes]]) -> list[Verdict]:
        """Appends ``records`` and judges every record the referee has not judged yet."""
        self.log.append(list(records))
        return self.referee.judge(0, self.log.read(0, self.referee.resume_offset(0), 100_000))

    def restart(self) -> None:
        """A new referee on the same log and store: nothing of the desk's memory survives."""
        self.referee = Referee(self.store, "events")

    def competition(self, competition_id: str = COMPETITION) -> Competition:
        found: object = self.store.repository.get(competition_stream_id(competition_id))
        assert isinstance(found, Competition)
        return found
