"""What the operators' commands do, apart from parsing arguments and printing (api/cli.py does that)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tqdm import tqdm

from api.bootstrap import Pipeline, open_read_database
from domain.errors import HandError
from domain.hand.events import ReportedEvent
from domain.roles import Role
from ingest.behind import LogBehindStore, PartitionBehind
from ingest.checkpoints import published_checkpoints
from ingest.envelope import RecordedBy
from ingest.log import EmbeddedLog
from ingest.phh import load_hands
from ingest.phh_events import hand_events
from ingest.phh_tables import seat_hands
from ingest.publish import batched, hand_records
from ingest.runners import drain_embedded
from ingest.verify import ChainReport, verify_store
from projections.runner import poison_count, poison_events

IMPORTER = RecordedBy(person="pokeraudit-import", role=Role.IMPORTER)
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
#: poison events `status` lists (their count is always given)
POISON_SHOWN = 20


def phh_records(
    paths: Sequence[str | Path], competition_id: str, repeat: int = 1
) -> Iterator[tuple[bytes, bytes]]:
    """The hands under ``paths`` as log records, each at its table in hand order (:mod:`ingest.phh_tables`);
    ``repeat`` plays them again at new tables (benchmarks)."""
    seated = seat_hands(list(load_hands(paths)))
    for copy, (n, at) in itertools.product(range(repeat), enumerate(seated)):
        table = at.table_id + (f"@{copy}" if repeat > 1 else "")
        yield from hand_records(
            _as_recorded(hand_events(at.hand)), competition_id, IMPORTER, EPOCH + timedelta(minutes=n),
            table_id=table, hand_number=at.hand_number,
        )


def _as_recorded(events: Iterator[ReportedEvent]) -> Iterator[ReportedEvent]:
    """A hand history's events up to and including the first one the rules refuse.

    The refused event is published so the referee records the rejection with its rule; what follows it
    cannot be read (a PHH ``cc`` or ``cbr`` means check or call, bet or raise, only against a legal state).
    """
    try:
        yield from events
    except HandError:
        return


def publish(pipeline: Pipeline, records: Iterable[tuple[bytes, bytes]], progress: bool = True, batch: int = 2000) -> int:
    count = 0
    with tqdm(desc="published", unit=" events", disable=not progress) as bar:
        for chunk in batched(records, batch):
            pipeline.log.append(chunk)
            count += len(chunk)
            bar.update(len(chunk))
    return count


def referee_once(pipeline: Pipeline) -> dict[str, int]:
    """Judge everything on the embedded log not yet judged (the embedded mode's referee)."""
    assert isinstance(pipeline.log, EmbeddedLog), "the Kafka referee runs as `pokeraudit referee`"
    verdicts = drain_embedded(pipeline.log, pipeline.referee, pipeline.settings.referee_batch_max)
    counts: dict[str, int] = {}
    for v in verdicts:
        counts[v.outcome] = counts.get(v.outcome, 0) + 1
    return counts


def status(pipeline: Pipeline) -> dict[str, Any]:
    ends = pipeline.log.end_offsets()
    partitions: list[dict[str, Any]] = []
    for partition, end in sorted(ends.items()):
        tracked = pipeline.store.tracked_offset(pipeline.settings.topic, partition)
        next_offset = 0 if tracked is None else tracked + 1
        partitions.append(
            {
                "partition": partition, "log_end_offset": end, "tracked_offset": tracked,
                "lag": max(0, end - next_offset),
                # the store has judged offsets this partition no longer reaches (ingest/behind.py)
                "behind_store": tracked is not None and tracked >= end,
            }
        )
    counts = pipeline.store.outcome_counts()
    behind = [p for p in partitions if p["behind_store"]]
    read = open_read_database(pipeline.settings)
    try:
        poison = poison_events(read, POISON_SHOWN)
        passed_over = poison_count(read)
    finally:
        read.close()
    return {
        "log_behind_store": (
            str(LogBehindStore(
                pipeline.settings.topic,
                [PartitionBehind(p["partition"], p["log_end_offset"], p["tracked_offset"]) for p in behind],
            )) if behind else ""
        ),
        "mode": pipeline.settings.mode,
        "topic": pipeline.settings.topic,
        "partitions": partitions,
        "lag": sum(p["lag"] for p in partitions),
        "accepted": counts.get("accepted", 0),
        "rejected": counts.get("rejected", 0),
        # events the projector could not project and passed over (DESIGN decision 10): the service is degraded
        "degraded": passed_over > 0,
        "poison_events": passed_over,
        "poison": poison,
    }


def verify(pipeline: Pipeline) -> ChainReport:
    """Every stored chain, and the store against the checkpoints the log holds."""
    return verify_store(pipeline.store, published=published_checkpoints(pipeline.checkpoints_log))
