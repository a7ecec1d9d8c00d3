"""A rebuild in PostgreSQL readers never see half done: fresh tables swapped in by renames in one
transaction with the position; a reader on its own connection sees the old read models while the rebuild
writes (a page written and not yet committed included) and the new ones after, and the swapped-in tables
have their primary keys and indexes under their own names, so the next rebuild swaps again."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from test_projections_pg import COMPETITION, WSOP, Pipeline, everything

from api.operations import phh_records
from projections import schema
from projections.database import PostgresReadDatabase, ReadDatabase, Writer
from projections.runner import Projector
from projections.stored import part_of, stored_rows

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = pytest.mark.integration


class Watched(Projector):
    reader: ReadDatabase
    seen: list[dict[str, list[Any]]]

    def _write(self, w: Writer, page: Any, sql: schema.Writes, last_id: int | None) -> None:
        super()._write(w, page, sql, last_id)
        self.seen.append(everything(self.reader))


def test_a_reader_sees_the_old_read_models_until_the_rebuild_swaps_in_the_new(
    tmp_path: Path, pg_database: PgDatabase
) -> None:
    pipeline = Pipeline(tmp_path, pg_database)
    files = sorted(WSOP.glob("*.phh"))
    projector = pipeline.projector(page=500)
    reader = PostgresReadDatabase(pipeline.url, pool_size=1)
    try:
        pipeline.judge(list(phh_records(files[:10], COMPETITION)))
        projector.catch_up()
        old = everything(reader)
        pipeline.judge(list(phh_records(files[10:20], "cup")))
        rebuilding = pipeline.projector(Watched, page=100)
        rebuilding.reader, rebuilding.seen = reader, []
        try:
            assert rebuilding.rebuild() == pipeline.store.recorder.max_notification_id()
        finally:
            rebuilding.database.close()
        assert len(rebuilding.seen) > 3 and all(seen == old for seen in rebuilding.seen)
        new = everything(reader)
        assert new != old and {row[1] for row in new["rm_hands"]} == {COMPETITION, "cup"}
        assert projector.catch_up() == 0, "the position moved with the swap"
        assert projector.rebuild() == pipeline.store.recorder.max_notification_id()
        assert everything(reader) == new
        indexes = {row[0] for row in reader.query("SELECT indexname FROM pg_indexes WHERE left(tablename, 3) = 'rm_'")}
        assert {f"{t}_pkey" for t in schema.TABLES} | {"rm_hands_by_table", "rm_rejections_by_kind"} <= indexes
        assert not [name for name in indexes if schema.REBUILT in name]
    finally:
        reader.close()
        projector.database.close()
        pipeline.close()


class Where:
    """Settings naming the PostgreSQL database of the store and the read models (for worker processes)."""

    def __init__(self, url: str, folder: Path) -> None:
        self.database_url: str | None = url
        self.data_dir = folder


def test_the_stores_rows_and_a_rebuild_by_two_processes_in_postgresql(tmp_path: Path, pg_database: PgDatabase) -> None:
    pipeline = Pipeline(tmp_path, pg_database)
    recorder = pipeline.store.recorder
    try:
        pipeline.judge(list(phh_records(sorted(WSOP.glob("*.phh"))[:12], COMPETITION)))
        expected = [
            (n.id, str(n.originator_id), n.originator_version, n.topic, bytes(n.state))
            for n in recorder.select_notifications(1, 100_000)
        ]
        assert [(*row[:4], bytes(row[4])) for row in stored_rows(recorder, 1, 100_000)] == expected
        halves = [stored_rows(recorder, 1, 100_000, part=(k, 2)) for k in (0, 1)]
        assert all(half and all(part_of(row[1], 2) == k for row in half) for k, half in enumerate(halves))
        assert sorted((*row[:4], bytes(row[4])) for half in halves for row in half) == expected
        projector = Projector.from_settings(Where(pipeline.url, tmp_path), page=50)
        try:
            alone = projector.rebuild()
            rebuilt = everything(projector.database)
            assert projector.rebuild(workers=2) == alone == len(expected)
            assert everything(projector.database) == rebuilt and projector.lag() == 0
        finally:
            projector.close()
    finally:
        pipeline.close()
