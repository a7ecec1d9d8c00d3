"""The log of record: one interface, two implementations (DESIGN decisions 1 and 3).

Records are (key, value) byte pairs. The key is the competition id, so one competition's records share a
partition and are totally ordered; the partition is chosen the way Kafka's default partitioner chooses
it (murmur2 of the key), so the embedded log and Kafka place a record alike.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Protocol

#: The referee's batch: the most records judged and committed in one transaction. Per batch the referee
#: pays a fetch, two lookups and a commit's round trips, and the store one table lock; bench/pipeline.py with
#: two referees measured 19,125 events/s at 500, 20,746 at 1,000 and 22,936 at 2,000 and at 5,000
#: (docs/BENCHMARKS.md). A batch fills only while records wait on the log: a quiet table's verdicts still
#: come within the time bound.
BATCH_MAX = 2000
#: how long an append waits for another process's append to the embedded log before giving up (s)
LOCK_WAIT_S = 30.0


@dataclass(frozen=True, slots=True)
class LogRecord:
    topic: str
    partition: int
    offset: int
    key: bytes
    value: bytes
    #: when the log received the record, by the service's clock (DESIGN decision 9): the embedded log's clock at
    #: append, Kafka's append time (or the producing service's clock); None where the log kept no time
    received_at: datetime | None = None


#: the log's clock: the time it receives a record (the record given, for a simulation's clock)
LogClock = Callable[[bytes], datetime]


def service_clock(_value: bytes) -> datetime:
    """The service's own clock: the time a record is received is now."""
    return datetime.now(UTC)


def partition_for(key: bytes, partitions: int) -> int:
    """Kafka's default partitioner: murmur2 of the key, made positive, modulo the partition count."""
    # imported here, not with this module: importing any of kafka-python imports all of it (about 0.5 CPU-s),
    # and the settings (BATCH_MAX) are read by commands that never touch the log, `status` on an outage included
    from kafka.partitioner.default import murmur2

    return int(murmur2(key) & 0x7FFFFFFF) % partitions


class Log(Protocol):
    """What the producers, the referee and the operators' commands need of a log."""

    topic: str

    def partitions(self) -> int: ...

    def append(self, records: Sequence[tuple[bytes, bytes]]) -> list[tuple[int, int]]:
        """Append (key, value) records durably; answer (partition, offset) for each, in order."""
        ...

    def read(self, partition: int, offset: int, max_records: int) -> list[LogRecord]:
        """Records of one partition from ``offset`` on (at most ``max_records``)."""
        ...

    def end_offsets(self) -> dict[int, int]:
        """Per partition, the offset the next appended record will get."""
        ...

    def close(self) -> None: ...


class EmbeddedLog:
    """An append-only SQLite file with Kafka's semantics: partitions, dense offsets from 0, order per key.

    Used by the embedded default mode (``pokeraudit demo``). Appends are one transaction each batch, so a
    crash leaves either the whole batch or none of it. Several processes may append to the same file (``pokeraudit
    publish`` while ``pokeraudit serve`` runs on the data folder): each append takes SQLite's write lock first and
    reads the partitions' ends inside that transaction, so no offset is ever handed out twice; nothing is cached
    between appends, since another process may have appended since.
    """

    def __init__(self, path: Path, topic: str, partitions: int = 6, clock: LogClock = service_clock) -> None:
        self.topic = topic
        #: when each appended record is received (DESIGN decision 9): the service's clock; injectable so that a
        #: simulation's synthetic times, and the tests' deadlines, are driven by the log's clock (:func:`clocked`)
        self.clock = clock
        self._lock = threading.Lock()
        path.parent.mkdir(parents=True, exist_ok=True)
        # A writer in another process holds the lock for one append at most: wait for it rather than fail.
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=LOCK_WAIT_S)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS topics (name TEXT PRIMARY KEY, partitions INTEGER NOT NULL)"
        )
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS records (topic TEXT NOT NULL, partition INTEGER NOT NULL,"
            " offset INTEGER NOT NULL, key BLOB NOT NULL, value BLOB NOT NULL,"
            " PRIMARY KEY (topic, partition, offset)) WITHOUT ROWID"
        )
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(records)")}
        if "received_at" not in columns:
            # microseconds since the epoch by this log's clock at append (a log made before kept none: NULL)
            self._db.execute("ALTER TABLE records ADD COLUMN received_at INTEGER")
        self._db.execute("INSERT OR IGNORE INTO topics VALUES (?, ?)", (topic, partitions))
        (self._partitions,) = self._db.execute(
            "SELECT partitions FROM topics WHERE name = ?", (topic,)
        ).fetchone()

    def _end_of(self, partition: int) -> int:
        # The primary key's order: one index seek per partition, not a scan of the log.
        (last,) = self._db.execute(
            "SELECT MAX(offset) FROM records WHERE topic = ? AND partition = ?", (self.topic, partition)
        ).fetchone()
        return 0 if last is None else int(last) + 1

    def partitions(self) -> int:
        return int(self._partitions)

    def append(self, records: Sequence[tuple[bytes, bytes]]) -> list[tuple[int, int]]:
        with self._lock:
            placed: list[tuple[int, int]] = []
            rows = []
            # The write lock before the ends are read: another process appending now waits, then reads ours.
            self._db.execute("BEGIN IMMEDIATE")
            try:
                ends: dict[int, int] = {}
                for key, value in records:
                    received = _to_micros(self.clock(value))
                    partition = partition_for(key, self._partitions)
                    offset = ends[partition] if partition in ends else self._end_of(partition)
                    ends[partition] = offset + 1
                    placed.append((partition, offset))
                    rows.append((self.topic, partition, offset, key, value, received))
                self._db.executemany(
                    "INSERT INTO records (topic, partition, offset, key, value, received_at) VALUES (?, ?, ?, ?, ?, ?)",
                    rows,
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            return placed

    def read(self, partition: int, offset: int, max_records: int) -> list[LogRecord]:
        rows = self._db.execute(
            "SELECT offset, key, value, received_at FROM records WHERE topic = ? AND partition = ? AND offset >= ?"
            " ORDER BY offset LIMIT ?",
            (self.topic, partition, offset, max_records),
        ).fetchall()
        return [LogRecord(self.topic, partition, o, bytes(k), bytes(v), _micros(r)) for o, k, v, r in rows]

    def end_offsets(self) -> dict[int, int]:
        with self._lock:
            return {p: self._end_of(p) for p in range(self._partitions)}

    def close(self) -> None:
        self._db.close()


@contextmanager
def clocked(log: Log, clock: LogClock) -> Iterator[None]:
    """Appends to ``log`` within are received at ``clock``'s times, where the log's clock is the service's to set
    (the embedded log; Kafka's append time is the broker's, and stays so). For the operator's simulations only:
    the API's appends are never made within."""
    if not isinstance(log, EmbeddedLog):
        yield
        return
    before, log.clock = log.clock, clock
    try:
        yield
    finally:
        log.clock = before


def _to_micros(at: datetime) -> int:
    return (at - _EPOCH) // timedelta(microseconds=1)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _micros(value: int | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value / 1_000_000, UTC)


def from_millis(value: int | None) -> datetime | None:
    """A Kafka record's timestamp (ms since the epoch; -1 or None: none) as a time."""
    return None if value is None or value < 0 else datetime.fromtimestamp(value / 1000, UTC)
