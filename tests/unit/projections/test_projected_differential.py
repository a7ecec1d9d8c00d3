"""The chip accountant against the engine: every read model the fast projector makes equals, table by table,
what the projector replaying each hand through the rules engine makes — for all 2,149 shared PHH hands put
through the embedded referee, and for simulated competitions (all-ins, side pots, split pots, refused acts),
whether rebuilt in big pages or caught up a few events at a time (hands handed to the engine mid-play)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from projection_setup import PHH_DIR, Pipeline, everything

from ingest.simulator import simulate
from projections.chip_account import ChipAccount, ProjectedHand
from projections.database import SqliteReadDatabase
from projections.hand_projection import HandProjection
from projections.runner import Projector

pytestmark = pytest.mark.unit


class EngineProjector(Projector):
    """The reference: every stored event read by the store's mapper, every hand replayed through the
    engine, as the read models were first made."""

    hand_type = HandProjection
    reads_raw = False


class CountingHand(ProjectedHand):
    """Counts the hands the accountant follows to their end, so the test knows it compared something."""

    followed: list[str] = []

    def settle(self) -> None:
        if isinstance(self.account, ChipAccount) and self.account.is_over:
            CountingHand.followed.append(self.account.hand_id)
        super().settle()


class CountingProjector(Projector):
    hand_type = CountingHand


def project(pipeline: Pipeline, path: Path, kind: type[Projector], page: int) -> dict[str, list[Any]]:
    projector = kind(pipeline.store, SqliteReadDatabase(path), page=page)
    try:
        assert projector.rebuild() == pipeline.store.recorder.max_notification_id()
        return everything(projector.database)
    finally:
        projector.database.close()


def assert_same_tables(found: dict[str, list[Any]], expected: dict[str, list[Any]]) -> None:
    assert found.keys() == expected.keys()
    for table, rows in expected.items():
        assert len(found[table]) == len(rows), table
        differing = [(f, e) for f, e in zip(found[table], rows, strict=True) if f != e]
        assert not differing, f"{table}: {len(differing)} rows differ, the first {differing[0]}"


@pytest.fixture(scope="module")
def every_phh_hand(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Pipeline, Path]]:
    if not (PHH_DIR / "data").is_dir():
        pytest.fail(f"the shared hand histories are not at {PHH_DIR}; set POKERAUDIT_PHH_DIR")
    folder = tmp_path_factory.mktemp("phh")
    pipeline = Pipeline(folder)
    counts = pipeline.phh([PHH_DIR / "data"], "shared")
    assert counts["accepted"] > 50_000
    yield pipeline, folder
    pipeline.close()


@pytest.mark.slow
def test_every_shared_phh_hand_projects_as_the_engine_replays_it(every_phh_hand: tuple[Pipeline, Path]) -> None:
    pipeline, folder = every_phh_hand
    expected = project(pipeline, folder / "engine.sqlite", EngineProjector, 2000)
    assert len(expected["rm_hands"]) == 2149 and expected["rm_showdowns"] and expected["rm_rejections"]
    CountingHand.followed.clear()
    assert_same_tables(project(pipeline, folder / "fast.sqlite", CountingProjector, 2000), expected)
    assert len(CountingHand.followed) > 1500, "most hands are followed by the accountant to their end"


@pytest.mark.slow
def test_caught_up_a_few_events_at_a_time_the_same(every_phh_hand: tuple[Pipeline, Path]) -> None:
    pipeline, folder = every_phh_hand
    expected = project(pipeline, folder / "engine-pages.sqlite", EngineProjector, 2000)
    # pages of 7 end inside most hands: those are handed to the engine for their live rows
    assert_same_tables(project(pipeline, folder / "fast-pages.sqlite", Projector, 7), expected)


@pytest.mark.parametrize(
    ("seed", "variant", "mistakes", "board_plays"),
    [(1, "NT", 0.0, 0.1), (2, "NT", 0.05, 0.3), (3, "PO", 0.02, 0.0), (4, "NT", 0.0, 0.0)],
)
def test_simulated_competitions_project_as_the_engine_replays_them(
    tmp_path: Path, seed: int, variant: str, mistakes: float, board_plays: float
) -> None:
    pipeline = Pipeline(tmp_path)
    try:
        simulation = simulate(
            seed, tables=3, seats=9, hands_per_table=25, variant=variant, mistakes=mistakes,
            board_plays=board_plays, starting_stack=3000,
        )
        pipeline.records(list(simulation.records()))
        expected = project(pipeline, tmp_path / "engine.sqlite", EngineProjector, 500)
        assert expected["rm_pots"] and expected["rm_showdowns"]
        assert_same_tables(project(pipeline, tmp_path / "fast.sqlite", Projector, 500), expected)
        assert_same_tables(project(pipeline, tmp_path / "fast-pages.sqlite", Projector, 5), expected)
        assert any(row[2] > 0 for row in expected["rm_pots"]), "the simulation has side pots"
    finally:
        pipeline.close()
