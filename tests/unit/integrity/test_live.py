"""Integrity's statistics as a read model the projector keeps: after any run of pages, across projector runs
(a hand begun in one and ended in the next), after a rebuild and after a rebuild by two processes, the
counters read from the read models are the ones counted afresh from the store's hands; projecting again
adds nothing (exactly once)."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import pytest

from api.bootstrap import bootstrap, open_projector
from api.operations import publish, referee_once
from api.settings import Settings
from ingest.simulator import simulate
from projections.integrity.counters import Counters
from projections.integrity.live import read_counters
from projections.integrity.parallel import count
from projections.integrity.players import all_statistics
from projections.integrity.score import Scorer
from projections.integrity.stored import competition_records

pytestmark = pytest.mark.unit

COMPETITION = "sim-5"


def scored(counters: Counters) -> list[tuple[str, str, int, float, float]]:
    return [(s.player_a, s.player_b, s.hands, round(s.score, 6), round(s.chip_flow, 6))
            for s in Scorer(counters).scores(5)]


def rounded(value: object) -> object:
    """Sums of floats taken in another order (the projector adds hands as stored, the reference by id)."""
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [rounded(v) for v in value]
    return value


def assert_same(live: Counters | None, reference: Counters) -> None:
    assert live is not None
    assert live.hands == reference.hands > 0
    assert rounded([asdict(s) for s in all_statistics(live)]) == rounded([asdict(s) for s in all_statistics(reference)])
    assert scored(live) == scored(reference)
    assert {k: p.decisions for k, p in live.pairs.items()} == {k: p.decisions for k, p in reference.pairs.items()}
    assert live.seating == reference.seating


def test_the_projector_keeps_the_counters_the_store_s_hands_give(tmp_path: Path) -> None:
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path)  # type: ignore[call-arg]
    pipeline = bootstrap(settings)
    try:
        records = list(simulate(5, tables=2, seats=6, hands_per_table=30).records())
        half = len(records) // 2
        publish(pipeline, records[:half], progress=False)
        assert referee_once(pipeline).get("rejected", 0) == 0
        first = open_projector(settings, page=17)
        first.catch_up()
        assert first.integrity.hands > 0
        live_half = read_counters(first.database.query, COMPETITION)
        assert_same(live_half, count(competition_records(pipeline.store, COMPETITION)))
        first.close()

        publish(pipeline, records[half:], progress=False)
        assert referee_once(pipeline).get("rejected", 0) == 0
        # a new run: the hands in progress at the cut are read back from the store, the counters from the rows
        second = open_projector(settings, page=29)
        second.catch_up()
        reference = count(competition_records(pipeline.store, COMPETITION))
        assert live_half is not None and reference.hands > live_half.hands
        assert_same(read_counters(second.database.query, COMPETITION), reference)
        assert second.catch_up() == 0
        assert_same(read_counters(second.database.query, COMPETITION), reference)

        second.rebuild()
        assert_same(read_counters(second.database.query, COMPETITION), reference)
        second.rebuild(workers=2)
        parts = second.database.query("SELECT DISTINCT part FROM rm_integrity_competitions")
        assert sorted(p for (p,) in parts) == [0, 1], "each process of the rebuild kept its own part"
        assert_same(read_counters(second.database.query, COMPETITION), reference)
        assert read_counters(second.database.query, "no-such-competition") is None
        second.close()
    finally:
        pipeline.close()
