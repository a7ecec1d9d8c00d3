"""One read of the API sees one state of the read models: inside a snapshot every read of the thread runs in
one read-only transaction, so a rebuild swapped in by another connection between two reads is not seen by the
second (outside one, it is); a snapshot belongs to its thread, and the pinned read models of a request keep
one state whichever threads read through them."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from projection_setup import ALL_IN, Pipeline, checked_down, everything
from read_model_checks import on_a_thread

from projections import schema
from projections.database import SqliteReadDatabase
from projections.read_models import ReadModels
from projections.runner import Projector

pytestmark = pytest.mark.unit


@dataclass
class Rebuilt:
    """Read models projected from two hands, and a rebuild (on the projector's own connection) ready to swap
    in two more."""

    pipeline: Pipeline
    reader: SqliteReadDatabase
    old: dict[str, list[Any]]
    rebuild: Callable[[], int]

    def position(self) -> int:
        row = self.reader.one(schema.POSITION_OF, (schema.POSITION_NAME,))
        assert row is not None
        return int(row[0])


@pytest.fixture
def rebuilt(tmp_path: Path) -> Iterator[Rebuilt]:
    pipeline = Pipeline(tmp_path)
    pipeline.hand(ALL_IN)
    pipeline.hand(checked_down("t2", 1))
    projector = Projector(pipeline.store, SqliteReadDatabase(tmp_path / "read.sqlite"))
    projector.catch_up()
    reader = SqliteReadDatabase(tmp_path / "read.sqlite")
    old = everything(reader)
    pipeline.hand(checked_down("t3", 1))
    pipeline.hand(checked_down("t4", 1), competition="cup")
    try:
        yield Rebuilt(pipeline, reader, old, projector.rebuild)
    finally:
        reader.close()
        projector.database.close()
        pipeline.close()


def test_outside_a_snapshot_the_second_read_sees_the_rebuild(rebuilt: Rebuilt) -> None:
    before = rebuilt.position()
    rebuilt.rebuild()
    assert rebuilt.position() > before
    assert everything(rebuilt.reader) != rebuilt.old


def test_inside_a_snapshot_a_rebuild_swapped_in_between_two_reads_is_not_seen(rebuilt: Rebuilt) -> None:
    head = rebuilt.pipeline.store.recorder.max_notification_id() or 0
    with rebuilt.reader.snapshot():
        before = rebuilt.position()
        assert rebuilt.rebuild() > 0
        assert rebuilt.position() == before < head
        assert everything(rebuilt.reader) == rebuilt.old
    assert rebuilt.position() == head
    new = everything(rebuilt.reader)
    assert {row[1] for row in new[schema.HANDS]} == {"open", "cup"}


def test_the_read_models_snapshot_keeps_a_table_and_its_hand_count_together(rebuilt: Rebuilt) -> None:
    models = ReadModels(rebuilt.reader)
    with models.snapshot():
        first = models.tables("open", 0, 10)
        rebuilt.rebuild()
        assert models.tables("open", 0, 10) == first
        assert models.competitions()[-1].competition_id == "open", "the cup is not in this state"
    assert [c.competition_id for c in models.competitions()] == ["cup", "open"]


def test_a_snapshot_nested_in_another_of_the_same_thread_is_that_one(rebuilt: Rebuilt) -> None:
    with rebuilt.reader.snapshot() as outer:
        before = rebuilt.position()
        rebuilt.rebuild()
        with rebuilt.reader.snapshot() as inner:
            assert inner is outer
            assert rebuilt.position() == before
        assert rebuilt.position() == before, "the inner block ended nothing"


def test_a_snapshot_is_the_threads_own(rebuilt: Rebuilt) -> None:
    """While one thread holds a snapshot from before the rebuild, another thread reads the rebuild — alone,
    and in a snapshot of its own — and the first keeps its state."""
    head = rebuilt.pipeline.store.recorder.max_notification_id() or 0
    other: dict[str, Any] = {}

    def read_elsewhere() -> None:
        other["plain"] = rebuilt.position()
        with rebuilt.reader.snapshot() as snapshot:
            other["snapshot"] = snapshot
            other["in its snapshot"] = rebuilt.position()

    with rebuilt.reader.snapshot() as mine:
        before = rebuilt.position()
        rebuilt.rebuild()
        thread = threading.Thread(target=read_elsewhere)
        thread.start()
        thread.join()
        assert rebuilt.position() == before
    assert other["plain"] == other["in its snapshot"] == head > before
    assert other["snapshot"] is not mine


def test_pinned_read_models_keep_one_state_across_threads(rebuilt: Rebuilt) -> None:
    """What FastAPI does with a request: the dependency enters on one thread, the route reads on another, the
    dependency's end runs on a third."""
    models = ReadModels(rebuilt.reader)
    seen: list[int] = []
    pinned_models = models.pinned()
    pinned = on_a_thread(pinned_models.__enter__)
    on_a_thread(lambda: seen.append(pinned.position()))
    rebuilt.rebuild()
    on_a_thread(lambda: seen.append(pinned.position()))
    assert models.position() > seen[0] == seen[1], "the plain read models see the rebuild, the pinned do not"
    on_a_thread(lambda: pinned_models.__exit__(None, None, None))
    with models.pinned() as after:
        assert after.position() == models.position()
