"""A rebuild readers never see half done: the read models are rebuilt into fresh tables and swapped in with
the position in one transaction, so a reader (the API, on its own connection) sees the old read models
while the rebuild runs — even with a page of the rebuild written and not yet committed — and the new ones
once it is over."""

from __future__ import annotations

from pathlib import Path

import pytest
from projection_setup import ALL_IN, Pipeline, checked_down, everything
from read_model_checks import Watched

from projections import schema
from projections.database import SqliteReadDatabase
from projections.runner import Projector

pytestmark = pytest.mark.unit


def test_a_reader_sees_the_old_read_models_until_the_rebuild_swaps_in_the_new(tmp_path: Path) -> None:
    pipeline = Pipeline(tmp_path)
    try:
        pipeline.hand(ALL_IN)
        pipeline.hand(checked_down("t2", 1))
        projector = Projector(pipeline.store, SqliteReadDatabase(tmp_path / "read.sqlite"))
        projector.catch_up()
        reader = SqliteReadDatabase(tmp_path / "read.sqlite")
        old = everything(reader)
        pipeline.hand(checked_down("t3", 1))
        pipeline.hand(checked_down("t4", 1), competition="cup")
        reference = Projector(pipeline.store, SqliteReadDatabase(tmp_path / "reference.sqlite"))
        reference.catch_up()
        new = everything(reference.database)
        assert new != old

        rebuilding = Watched(pipeline.store, SqliteReadDatabase(tmp_path / "read.sqlite"), page=4)
        rebuilding.reader, rebuilding.seen = reader, []
        assert rebuilding.rebuild() == pipeline.store.recorder.max_notification_id()
        assert len(rebuilding.seen) > 5, "the rebuild was looked at page by page"
        assert all(seen == old for seen in rebuilding.seen), "a reader saw a half-built read model"
        assert everything(reader) == new
        assert reader.one(schema.POSITION_OF, (schema.POSITION_NAME,)) == (
            pipeline.store.recorder.max_notification_id(),
        )
    finally:
        pipeline.close()


def test_the_swapped_in_tables_keep_their_indexes_and_a_second_rebuild_swaps_again(tmp_path: Path) -> None:
    pipeline = Pipeline(tmp_path)
    try:
        pipeline.hand(ALL_IN)
        projector = Projector(pipeline.store, SqliteReadDatabase(tmp_path / "read.sqlite"))
        projector.rebuild()
        first = everything(projector.database)
        assert projector.rebuild() == pipeline.store.recorder.max_notification_id()
        assert everything(projector.database) == first
        names = {row[0] for row in projector.database.query("SELECT name FROM sqlite_master")}
        assert {"rm_hands_by_table", "rm_rejections_by_kind", *schema.TABLES} <= names
        assert not [n for n in names if schema.REBUILT in n], "no rebuild table is left behind"
    finally:
        pipeline.close()
