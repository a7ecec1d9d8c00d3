"""A rebuild holds integrity's rows back and writes them at its end (projections/integrity/live.py ``hold``):
its rows are byte for byte the ones following the store page by page writes, also when pages fail and are
projected again one event at a time (the counters read back from the rows last written, the hands committed
since added again), whether or not rows were written in between (every ``HELD_HANDS`` hands)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.bootstrap import bootstrap, open_projector
from api.operations import publish, referee_once
from api.settings import Settings
from ingest.simulator import simulate
from projections.integrity import live

pytestmark = pytest.mark.unit

ROWS = (
    "SELECT competition, part, hands, seating FROM rm_integrity_competitions ORDER BY 1, 2",
    "SELECT competition, part, player, state FROM rm_integrity_players ORDER BY 1, 2, 3",
    "SELECT competition, part, player_a, player_b, state FROM rm_integrity_pairs ORDER BY 1, 2, 3, 4",
)


def integrity_rows(projector: Any) -> list[list[tuple[Any, ...]]]:
    return [projector.database.query(sql) for sql in ROWS]


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    folder: Path = tmp_path_factory.mktemp("held")
    settings = Settings(POKERAUDIT_DATA_DIR=folder)  # type: ignore[call-arg]
    pipeline = bootstrap(settings)
    try:
        publish(pipeline, list(simulate(5, tables=2, seats=6, hands_per_table=30).records()), progress=False)
        assert referee_once(pipeline).get("rejected", 0) == 0
    finally:
        pipeline.close()
    yield settings


@pytest.mark.parametrize("held_hands", [live.HELD_HANDS, 7])
#: which calls of ``rows`` fail: a failed page of 23 events is projected again one event at a time (23 calls), so a
#: failure is put beyond them, on a whole page again
@pytest.mark.parametrize("failing", [(), (2,), (1, 26, 52)])
def test_a_rebuild_writes_the_integrity_rows_following_the_store_writes(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, held_hands: int, failing: tuple[int, ...]
) -> None:
    projector = open_projector(settings, page=23)
    try:
        projector.catch_up()
        followed = integrity_rows(projector)
        assert followed[2], "the simulated hands make pairs"

        monkeypatch.setattr(live, "HELD_HANDS", held_hands)
        rows = live.IntegrityProjection.rows
        calls = {"n": 0, "written": 0}

        def failing_rows(self: live.IntegrityProjection, final: bool = False) -> Any:
            # the page's transaction fails after integrity's rows were taken (due or not): it rolls back and
            # the page is projected again one event at a time
            out = rows(self, final)
            calls["n"] += 1
            calls["written"] += bool(out[0])
            if calls["n"] in failing:
                raise ValueError("the page fails")
            return out

        monkeypatch.setattr(live.IntegrityProjection, "rows", failing_rows)
        projector.rebuild()
        monkeypatch.undo()
        assert calls["n"] > max(failing, default=0)
        if held_hands < live.HELD_HANDS:
            assert calls["written"] > 1, "rows written before the end too"
        else:
            assert calls["written"] == 1, "rows written once, at the end"
        assert integrity_rows(projector) == followed
        assert projector.poison_count() == 0
    finally:
        projector.close()
