"""Every row the referee stores, pinned byte for byte: the same records judged by main and by any later change of
the write path (a compiled module, a faster recording) give the very same stored rows.

The records are the bench's kinds (bench/referee_cpu.py), smaller: WSOP final-table hands played again at new
tables (an importer's records, the razz raise refused with its rule) and a small simulated competition (every hand
under a Competition: the floor's checks, registrations, levels, eliminations). The log's times and the store's
clock (the checkpoints' times) are fixed, the records judged in batches as the runner cuts them, then every row of
every table of the SQLite store is dumped in a fixed order and hashed. The digests below were made by main at
6f9f315 (this module run with main's code); a change that stores anything differently — an event's state bytes,
its topic, an answered id, a head, the stream index, a checkpoint, the tracked offset — fails here, naming the table.
A deliberate change of the stored form updates the digests in the same commit, and says why.
"""

from __future__ import annotations

import hashlib
import itertools
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import ingest.store
from ingest.log import LogRecord, from_millis, partition_for
from ingest.referee import Referee
from ingest.runners import fewer_collections
from ingest.store import Store, store_env

pytestmark = pytest.mark.unit

SHARED = Path(__file__).resolve().parents[3] / "shared"
WSOP = SHARED / "data" / "phh" / "data" / "wsop" / "2023" / "43" / "5"
FIXED = datetime(2026, 12, 2, 3, 0, tzinfo=UTC)
PARTITIONS = 6

#: table → (rows, sha256 of its rows as dumped by :func:`dump`), made by main at 6f9f315
PINNED_BARE: dict[str, tuple[int, str]] = {
    "referee_event_ids": (3712, "91bb128914ca5bf87b2c81cf6970c5d20f9e477c288558bc803d85a900fca4bf"),
    "referee_heads": (168, "83585b30e69973c24acf54b00ceef1f4abf6e606fdc70877ea99c9cccd90927a"),
    "referee_streams": (168, "d0751c8ff576393753200088adf2133b8213b34593efa95e19bec51bf446f743"),
    "stored_events": (4164, "f46be432131a6302d652f57013edf6f5437c7422c03ec9625623cfcdf0239449"),
    "tracking": (3, "be083952bedb8783997a8f116e47bd3062c6353d0c7dc722d333e4ec8065f582"),
}
PINNED_SIMULATED: dict[str, tuple[int, str]] = {
    "referee_event_ids": (1740, "c95f32c4f5b2fa92d7ce0db76ce2031b68e83edec9b9711027ed873a2c21ad24"),
    "referee_heads": (53, "fc1d6952e5a1edc536972311cba131892468f925402f5a29af9e65bf1df23571"),
    "referee_streams": (53, "41f8ff1b2f70ee5c1e647aefd5b25bed500763c3ab3069bcc3b98172090f1599"),
    "stored_events": (1991, "d0298d55ec4e179cca99ee84524fdcf7ce6a5a9049432688c9e28587aecf93be"),
    "tracking": (2, "e5c06cf6b04c21f8b0752941613f5a69e12f2fd57d4a7c59dabc29e52b0c4767"),
}


class _FixedClock(datetime):
    @classmethod
    def now(cls, tz: Any = None) -> Any:  # noqa: ARG003
        return FIXED


def bare_records(copies: int, competitions: int) -> list[tuple[bytes, bytes]]:
    """The WSOP hands played ``copies`` times at new tables, as bench/pipeline.py's ``bench_records`` makes them."""
    import os

    from api.operations import EPOCH, IMPORTER
    from domain.errors import HandError
    from ingest.phh import load_hands
    from ingest.phh_events import hand_events
    from ingest.publish import hand_records

    hands = list(load_hands([WSOP]))
    files = [Path(hand.file).resolve() for hand in hands]
    common = Path(os.path.commonpath([f.parent for f in files]))
    names = [f.relative_to(common).with_suffix("").as_posix() for f in files]

    def as_recorded(events: Iterator[Any]) -> Iterator[Any]:
        try:
            yield from events
        except HandError:
            return

    made: list[tuple[bytes, bytes]] = []
    for copy in range(copies):
        for n, hand in enumerate(hands):
            made += hand_records(
                as_recorded(hand_events(hand)),
                f"bench-{copy % competitions}",
                IMPORTER,
                EPOCH + timedelta(minutes=n),
                table_id=f"{names[n]}#{hand.index}@{copy}",
                hand_number=1,
            )
    return made


def simulated_records(players: int) -> list[tuple[bytes, bytes]]:
    from ingest.simulator import simulate_competition

    return list(simulate_competition(1, players, protests=False, competition_id="pinned-sim").records())


def judge_all(made: list[tuple[bytes, bytes]], store: Store, simulated: bool, batch: int) -> dict[str, int]:
    """Judge ``made`` as bench/referee_cpu.py does: spread over the partitions, the log's times fixed (one time
    object per 20 records; the simulation's own clock for a simulated competition), batches interleaved."""
    if simulated:
        from ingest.simulator.clock import simulation_clock as received
    else:
        first_ms = int(FIXED.timestamp() * 1000)
        times: dict[int, datetime | None] = {}
        counter = itertools.count()

        def received(_value: bytes) -> datetime | None:
            millisecond = first_ms + next(counter) // 20
            if millisecond not in times:
                times[millisecond] = from_millis(millisecond)
            return times[millisecond]

    by_partition: dict[int, list[LogRecord]] = {}
    for key, value in made:
        p = partition_for(key, PARTITIONS)
        log = by_partition.setdefault(p, [])
        log.append(LogRecord("t", p, len(log), key, value, received(value)))
    batches = [(p, log[n : n + batch]) for p, log in sorted(by_partition.items()) for n in range(0, len(log), batch)]
    batches.sort(key=lambda b: (b[1][0].offset, b[0]))
    referee = Referee(store, "t", publish_checkpoint=lambda anchored: None)
    outcomes: dict[str, int] = {}
    with fewer_collections():
        for partition, records in batches:
            for verdict in referee.judge(partition, records):
                outcomes[verdict.outcome] = outcomes.get(verdict.outcome, 0) + 1
    return outcomes


def dump(path: Path) -> dict[str, tuple[int, str]]:
    """Every row of every table of the SQLite store, ordered by all its columns: (rows, sha256) per table."""
    summary: dict[str, tuple[int, str]] = {}
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        for table in tables:
            columns = len(conn.execute(f"SELECT * FROM {table} LIMIT 0").description)
            order = ", ".join(str(n + 1) for n in range(columns))
            digest = hashlib.sha256()
            rows = conn.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()
            for row in rows:
                digest.update(repr(row).encode())
                digest.update(b"\n")
            summary[table] = (len(rows), digest.hexdigest())
    return summary


def stored_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, simulated: bool) -> tuple[dict[str, int], dict[str, tuple[int, str]]]:
    monkeypatch.setattr(ingest.store, "datetime", _FixedClock)  # the checkpoints' times
    path = tmp_path / "store.sqlite"
    store = Store(env=store_env(None, str(path)))
    made = simulated_records(24) if simulated else bare_records(2, 4)
    outcomes = judge_all(made, store, simulated, 700 if simulated else 2_000)
    store.close()
    return outcomes, dump(path)


@pytest.mark.skipif(not WSOP.is_dir(), reason="the shared PHH hands are not here")
def test_the_stored_rows_of_bare_hands_are_mains(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outcomes, rows = stored_rows(tmp_path, monkeypatch, simulated=False)
    assert outcomes == {"accepted": 3710, "rejected": 2}
    assert rows == PINNED_BARE


def test_the_stored_rows_of_a_simulated_competition_are_mains(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outcomes, rows = stored_rows(tmp_path, monkeypatch, simulated=True)
    assert outcomes == {"accepted": 1740}
    assert rows == PINNED_SIMULATED
