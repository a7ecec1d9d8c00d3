"""The store's rows as a rebuild reads them (projections/stored.py stored_rows): the same events, ids and
order as eventsourcing's notifications, split into partitions that together hold every stream once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from projection_setup import ALL_IN, Pipeline, checked_down

from projections.stored import part_of, stored_rows

pytestmark = pytest.mark.unit


@pytest.fixture
def pipeline(tmp_path: Path) -> Iterator[Pipeline]:
    p = Pipeline(tmp_path)
    p.hand(ALL_IN)
    for number in range(1, 9):
        p.hand(checked_down("t2", number))
    yield p
    p.close()


def notifications(recorder: Any) -> list[tuple[int, str, int, str, bytes]]:
    return [
        (n.id, str(n.originator_id), n.originator_version, n.topic, bytes(n.state))
        for n in recorder.select_notifications(1, 10_000)
    ]


def paged(recorder: Any, page: int, part: tuple[int, int] | None = None) -> list[tuple[Any, ...]]:
    rows: list[tuple[Any, ...]] = []
    start = 1
    while batch := stored_rows(recorder, start, page, part=part):
        assert len(batch) <= page
        rows.extend((i, stream, version, topic, bytes(state)) for i, stream, version, topic, state in batch)
        start = batch[-1][0] + 1
    return rows


def test_the_rows_are_the_stores_notifications_page_by_page(pipeline: Pipeline) -> None:
    recorder = pipeline.store.recorder
    expected = notifications(recorder)
    assert len(expected) > 100
    assert paged(recorder, 7) == expected
    head = expected[40][0]
    assert stored_rows(recorder, 1, 1000, stop=head) == [tuple(r) for r in stored_rows(recorder, 1, 41)]
    assert [r[0] for r in stored_rows(recorder, 1, 1000, stop=head)][-1] == head


@pytest.mark.parametrize("parts", [2, 3])
def test_the_partitions_hold_every_stream_once(pipeline: Pipeline, parts: int) -> None:
    recorder = pipeline.store.recorder
    expected = notifications(recorder)
    pieces = [paged(recorder, 5, (k, parts)) for k in range(parts)]
    for k, piece in enumerate(pieces):
        assert piece and all(part_of(row[1], parts) == k for row in piece)
    assert sorted(row for piece in pieces for row in piece) == expected


def test_a_recorder_of_another_kind_is_read_through_its_notifications(pipeline: Pipeline) -> None:
    class Other:
        """Not eventsourcing's SQLite nor PostgreSQL recorder: read as its notifications."""

        events_table_name = "stored_events"

        def __init__(self, recorder: Any) -> None:
            self.recorder = recorder

        def select_notifications(self, start: int, limit: int, stop: int | None = None) -> Any:
            return self.recorder.select_notifications(start, limit, stop=stop)

    recorder = pipeline.store.recorder
    assert paged(Other(recorder), 4) == notifications(recorder)
    assert paged(Other(recorder), 4, (1, 2)) == paged(recorder, 9, (1, 2))
