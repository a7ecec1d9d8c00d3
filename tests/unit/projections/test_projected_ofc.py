"""OFC rounds as read models (issue 16): projected exactly once from the stored rounds, each player's points per
round and over the event as the engine scored them, and rebuilt to the same rows — also when a round in play was
begun by another projector run (warmed up from the store)."""

from __future__ import annotations

from pathlib import Path

import pytest
from read_model_checks import everything

from api.bootstrap import bootstrap
from api.operations import publish, referee_once
from api.settings import Settings
from ingest.simulator.ofc import OfcSimulation, simulate_ofc
from projections import schema
from projections.database import SqliteReadDatabase
from projections.read_models import ReadModels
from projections.runner import Projector

pytestmark = pytest.mark.unit

COMPETITION = "ofc-league"


def played(tmp_path: Path, simulation: OfcSimulation, cut: int) -> tuple[Projector, Projector]:
    """The simulation's first ``cut`` records judged and projected by one projector, then the rest judged and
    projected by a second one on the same read models; and a reference that projected it all in one go."""
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path)  # type: ignore[call-arg]
    pipeline = bootstrap(settings)
    records = list(simulation.records())
    publish(pipeline, records[:cut], progress=False)
    referee_once(pipeline)
    first = Projector(pipeline.store, SqliteReadDatabase(tmp_path / "read.sqlite"), page=5)
    first.catch_up()
    left = everything(first.database)[schema.OFC_ROUNDS]
    assert any(r[7] == "in_progress" for r in left), "the first run leaves a round in play for the second to warm up"
    publish(pipeline, records[cut:], progress=False)
    assert referee_once(pipeline).get("rejected", 0) == 0
    second = Projector(pipeline.store, SqliteReadDatabase(tmp_path / "read.sqlite"), page=7)
    assert second.catch_up() > 0
    reference = Projector(pipeline.store, SqliteReadDatabase(tmp_path / "reference.sqlite"))
    reference.catch_up()
    return second, reference


@pytest.fixture
def simulation() -> OfcSimulation:
    # two tables of three, a fantasy round and a miscounted fantasy deal (redealt) among them
    return simulate_ofc(20, tables=2, seats=3, rounds=5, competition_id=COMPETITION, miscount=0.5)


def test_each_round_and_each_players_points_are_projected_once_as_the_engine_scored_them(
    tmp_path: Path, simulation: OfcSimulation
) -> None:
    projector, reference = played(tmp_path, simulation, cut=23)
    rows = everything(projector.database)
    assert rows == everything(reference.database), "a round begun by another run was not followed as one run does"
    rounds = rows[schema.OFC_ROUNDS]
    assert len(rounds) == len(simulation.rounds) and {r[7] for r in rounds} == {"scored"}
    assert sum(r[8] for r in rounds) == sum(len(r.played.redeals) for r in simulation.rounds) > 0
    points = rows[schema.OFC_POINTS]
    expected = sorted(
        (r.table_id, r.played.started.round_number, h.seat, h.player, h.points)
        for r in simulation.rounds
        for h in r.played.scored.hands
    )
    assert sorted((p[3], p[4], p[1], p[5], p[6]) for p in points) == expected
    assert projector.catch_up() == 0 and everything(projector.database) == rows

    models = ReadModels(projector.database)
    event = models.ofc_event(COMPETITION)
    assert event is not None
    totals: dict[str, int] = {}
    for table_round in simulation.rounds:
        for hand in table_round.played.scored.hands:
            totals[hand.player] = totals.get(hand.player, 0) + hand.points
    assert {s.player: s.points for s in event.standings} == totals
    assert sum(totals.values()) == 0
    assert [s.place for s in event.standings][0] == 1
    assert all(len(s.per_round) == 5 for s in event.standings)
    for view in event.rounds:
        assert sum(s.points or 0 for s in view.seats) == 0
        assert view.started_at and view.scored_at and view.version > 1


def test_the_competitions_and_tables_reads_list_ofc_rounds_and_a_table_shows_points(
    tmp_path: Path, simulation: OfcSimulation
) -> None:
    projector, _ = played(tmp_path, simulation, cut=40)
    models = ReadModels(projector.database)
    (listed,) = [c for c in models.competitions() if c.competition_id == COMPETITION]
    assert (listed.tables, listed.hands, listed.ofc_rounds, listed.ofc_rounds_in_progress) == (2, 0, 10, 0)
    assert models.competition_known(COMPETITION)
    tables, total = models.tables(COMPETITION, 0, 10)
    assert total == 2
    assert [(t.hands, t.last_hand_number, t.ofc_rounds, t.last_ofc_round) for t in tables] == [(0, None, 5, 5)] * 2
    table = models.ofc_table(COMPETITION, tables[0].table_id)
    assert table is not None and table.variant == "OFC" and table.rounds == 5 and table.last_round_status == "scored"
    at_table: dict[str, int] = {}
    for table_round in simulation.rounds:
        if table_round.table_id == tables[0].table_id:
            for hand in table_round.played.scored.hands:
                at_table[hand.player] = at_table.get(hand.player, 0) + hand.points
    assert {s.player: s.points for s in table.seats} == at_table
    page, count = models.ofc_rounds(COMPETITION, tables[0].table_id, 1, 2)
    assert count == 5 and [r.round_number for r in page] == [2, 3]
    assert models.ofc_round(COMPETITION, tables[0].table_id, 4) == models.ofc_rounds(COMPETITION, tables[0].table_id, 3, 1)[0][0]


def test_a_rebuild_makes_the_same_ofc_rows(tmp_path: Path, simulation: OfcSimulation) -> None:
    projector, reference = played(tmp_path, simulation, cut=35)
    assert projector.rebuild() == projector.store.recorder.max_notification_id()
    assert everything(projector.database) == everything(reference.database)
