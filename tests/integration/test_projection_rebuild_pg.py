"""A rebuild in PostgreSQL readers never see half done: fresh tables swapped in by renames in one
transaction with the position; a reader on its own connection sees the old read models while the rebuild
writes (a page written and not yet committed included) and the new ones after, and the swapped-in tables
have their primary keys and indexes under their own names, so the next rebuild swaps again. A snapshot (one
API request's reads) sees one state: a swap waits for it to end, and each thread's snapshot is its own."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psycopg
import pytest
from psycopg.sql import SQL
from read_model_checks import Watched, everything, on_a_thread
from test_projections_pg import COMPETITION, WSOP, Pipeline

from api.bootstrap import open_projector
from api.operations import phh_records
from projections import schema
from projections.database import PostgresReadDatabase, ReadDatabase
from projections.read_models import ReadModels
from projections.stored import page_statement, part_of, stored_rows

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = pytest.mark.integration


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


def test_the_fresh_tables_keys_are_made_before_the_swap_and_one_that_cannot_be_leaves_the_read_models_in_use(
    tmp_path: Path, pg_database: PgDatabase
) -> None:
    """The history's and the stack changes' keys and the secondary indexes are made on the fresh tables before the
    swap's transaction (in two groups at once, each on its own connection), which then only drops and renames: the
    tables in use end with the same indexes as the read models were made with. A key that cannot be made (here a
    history row written twice) fails the rebuild there, with the read models in use and their position as they
    were; the next rebuild makes them."""
    pipeline = Pipeline(tmp_path, pg_database)
    projector = pipeline.projector(page=200)
    reader = PostgresReadDatabase(pipeline.url, pool_size=1)
    database = projector.database
    assert isinstance(database, PostgresReadDatabase)
    made: list[str] = []
    key = database._key

    def keyed(statements: tuple[str, ...]) -> None:
        key(statements)
        made.extend(statements)

    database._key = keyed  # type: ignore[method-assign]
    indexed = "SELECT indexname, indexdef FROM pg_indexes WHERE left(tablename, 3) = 'rm_' ORDER BY 1"
    try:
        created = reader.query(indexed)
        pipeline.judge(list(phh_records(sorted(WSOP.glob("*.phh"))[:6], COMPETITION)))
        assert projector.rebuild() == pipeline.store.recorder.max_notification_id()
        assert sorted(made) == sorted([*schema.KEYS_AHEAD, *schema.INDEXES_AHEAD])
        assert reader.query(indexed) == created, "the same indexes, by name and definition, as create() made"
        assert not any(
            "PRIMARY KEY" in statement or statement.startswith("CREATE INDEX ")
            for statement in schema.swap("postgresql", keyed=True)
        )
        before, at = everything(reader), position(reader)
        history = f"{schema.HISTORY}{schema.REBUILT}"

        def doubled() -> bool:
            with database.transaction() as w:
                w.execute(f"INSERT INTO {history} SELECT * FROM {history} LIMIT 1")
            return type(database).key_fresh(database)

        database.key_fresh = doubled  # type: ignore[method-assign]
        with pytest.raises(psycopg.errors.UniqueViolation):
            projector.rebuild()
        assert everything(reader) == before and position(reader) == at, "the swap did not happen"
        del database.key_fresh
        assert projector.rebuild() == at and everything(reader) == before
    finally:
        reader.close()
        database.close()
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
        projector = open_projector(Where(pipeline.url, tmp_path), page=50)
        try:
            alone = projector.rebuild()
            rebuilt = everything(projector.database)
            assert projector.rebuild(workers=2) == alone == len(expected)
            assert everything(projector.database) == rebuilt and projector.lag() == 0
        finally:
            projector.close()
    finally:
        pipeline.close()


def test_each_process_of_a_rebuild_reads_its_partition_along_the_notification_index_and_adds_no_index(
    tmp_path: Path, pg_database: PgDatabase
) -> None:
    """A process of a rebuild by several reads its partition's rows in notification order along the store's
    notification index, in one walk (no parallel plan, no sort), keeping exactly its own; the rebuild leaves the
    store's indexes as they were (an index a partition would cost the store's writer every event it stores), and
    the read models are the same as one process makes."""
    pipeline = Pipeline(tmp_path, pg_database)
    recorder = pipeline.store.recorder
    table = recorder.events_table_name
    try:
        pipeline.judge(list(phh_records(sorted(WSOP.glob("*.phh"))[:8], COMPETITION)))
        indexes = indexes_of(pipeline.url, table)
        projector = open_projector(Where(pipeline.url, tmp_path), page=40)
        try:
            projector.rebuild()
            alone = everything(projector.database)
            for _ in range(2):
                assert projector.rebuild(workers=2) == recorder.max_notification_id()
                assert everything(projector.database) == alone and projector.lag() == 0
                assert indexes_of(pipeline.url, table) == indexes, "the store's indexes as they were"
        finally:
            projector.close()
        with psycopg.connect(pipeline.url) as conn:
            for k in (0, 1):
                with conn.transaction(force_rollback=True):
                    conn.execute(_ALONG)
                    explained = SQL("EXPLAIN (ANALYZE, FORMAT JSON) ") + page_statement(recorder, 2, k)
                    found = conn.execute(explained, (1, 10**9, 10**6)).fetchone()
                assert found is not None
                scan = found[0][0]["Plan"]["Plans"][0]
                assert scan["Node Type"] == "Index Scan" and scan["Index Name"] == f"{table}_notification_id_idx", scan
                assert scan["Actual Rows"] == sum(1 for row in stored_rows(recorder, 1, 10**6) if part_of(row[1], 2) == k)
    finally:
        pipeline.close()


#: the reading transaction's settings (projections/stored.py), for the plan of a page
_ALONG = "SET LOCAL max_parallel_workers_per_gather = 0; SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off"


def indexes_of(url: str, table: str) -> set[str]:
    reader = PostgresReadDatabase(url, pool_size=1)
    try:
        return {str(row[0]) for row in reader.query("SELECT indexname FROM pg_indexes WHERE tablename = ?", (table,))}
    finally:
        reader.close()


def position(database: ReadDatabase) -> int:
    row = database.one(schema.POSITION_OF, (schema.POSITION_NAME,))
    assert row is not None
    return int(row[0])


def waiting_on_a_lock(watcher: ReadDatabase) -> bool:
    row = watcher.one(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
    return row is not None and int(row[0]) > 0


def test_a_snapshot_sees_one_state_and_a_rebuild_swaps_in_after_it(tmp_path: Path, pg_database: PgDatabase) -> None:
    pipeline = Pipeline(tmp_path, pg_database)
    files = sorted(WSOP.glob("*.phh"))
    projector = pipeline.projector(page=500)
    reader = PostgresReadDatabase(pipeline.url, pool_size=2)
    watcher = PostgresReadDatabase(pipeline.url, pool_size=1)
    rebuilding = pipeline.projector(page=100)
    try:
        pipeline.judge(list(phh_records(files[:6], COMPETITION)))
        projector.catch_up()
        before = position(reader)
        pipeline.judge(list(phh_records(files[6:12], "cup")))
        head = pipeline.store.recorder.max_notification_id() or 0
        old = everything(reader)

        outside = position(reader)
        rebuilding.rebuild()
        assert position(reader) == head > outside, "outside a snapshot the second read sees the swap"
        new = everything(reader)
        assert new != old

        pipeline.judge(list(phh_records(files[12:14], COMPETITION)))
        with reader.snapshot():
            assert position(reader) == head
            swap = threading.Thread(target=rebuilding.rebuild)
            swap.start()
            deadline = time.monotonic() + 60
            while not waiting_on_a_lock(watcher):
                assert time.monotonic() < deadline and swap.is_alive(), "the swap did not wait for the snapshot"
                time.sleep(0.05)
            assert position(reader) == head
            assert everything(reader) == new, "the snapshot saw the rebuild's tables"
            assert swap.is_alive()
        swap.join(60)
        assert not swap.is_alive()
        assert position(reader) == (pipeline.store.recorder.max_notification_id() or 0) > head
        assert everything(reader) != new
        assert before < head
    finally:
        rebuilding.database.close()
        watcher.close()
        reader.close()
        projector.database.close()
        pipeline.close()


def test_each_threads_snapshot_is_its_own_and_pinned_read_models_cross_threads(
    tmp_path: Path, pg_database: PgDatabase
) -> None:
    pipeline = Pipeline(tmp_path, pg_database)
    files = sorted(WSOP.glob("*.phh"))
    projector = pipeline.projector(page=500)
    reader = PostgresReadDatabase(pipeline.url, pool_size=3)
    try:
        pipeline.judge(list(phh_records(files[:4], COMPETITION)))
        projector.catch_up()
        first = position(reader)
        models = ReadModels(reader)
        request = models.pinned()
        pinned = on_a_thread(request.__enter__)
        assert on_a_thread(pinned.position) == first
        pipeline.judge(list(phh_records(files[4:8], COMPETITION)))
        projector.catch_up()
        with reader.snapshot() as mine:
            mine_at = position(reader)
            pipeline.judge(list(phh_records(files[8:10], COMPETITION)))
            projector.catch_up()
            other = on_a_thread(lambda: _snapshot_and_position(reader))
            assert other[0] is not mine and other[1] > mine_at == position(reader) > first
            assert on_a_thread(pinned.position) == first, "the request's reads stay where they began"
        on_a_thread(lambda: request.__exit__(None, None, None))
        with models.pinned() as next_request:
            assert next_request.position() == position(reader) > first
    finally:
        reader.close()
        projector.database.close()
        pipeline.close()


def _snapshot_and_position(database: ReadDatabase) -> tuple[Any, int]:
    with database.snapshot() as snapshot:
        return snapshot, position(database)


def test_an_older_read_model_store_gains_the_imported_mark_and_a_rebuild_reads_it_again(
    tmp_path: Path, pg_database: PgDatabase
) -> None:
    """The hands table of a store made before ``imported`` existed gets the column (its hands read as live),
    and a rebuild reads each imported PHH hand's mark from its start again (issue 11 §3)."""
    pipeline = Pipeline(tmp_path, pg_database)
    projector = pipeline.projector(page=500)
    models = ReadModels(projector.database)
    try:
        assert set(pipeline.judge(list(phh_records(sorted(WSOP.glob("*.phh"))[:2], COMPETITION)))) == {"accepted"}
        projector.catch_up()
        hands = [r[0] for r in projector.database.query(f"SELECT hand_id FROM {schema.HANDS}")]
        assert hands and all(models.hand(h).imported for h in hands)  # type: ignore[union-attr]
        with projector.database.transaction() as w:
            w.execute(f"ALTER TABLE {schema.HANDS} DROP COLUMN imported")
        projector.database.create()
        projector.database.create()  # the column there: nothing to add
        assert not any(models.hand(h).imported for h in hands)  # type: ignore[union-attr]
        projector.rebuild()
        assert all(models.hand(h).imported for h in hands)  # type: ignore[union-attr]
    finally:
        projector.close()
        pipeline.close()
