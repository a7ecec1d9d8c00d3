"""OFC rounds in the competition protocol: each round's hands and points, the standings by points, no discard
listed, rendered as its own sections."""

from __future__ import annotations

from pathlib import Path

import pytest
from embedded_referee import Pipeline

from ingest.simulator.ofc import simulate_ofc
from projections.protocol import protocol
from projections.protocol_render import sections, to_html

pytestmark = pytest.mark.unit

COMPETITION = "ofc"


def test_the_protocol_lists_each_round_and_the_points_over_the_event(tmp_path: Path) -> None:
    pipeline = Pipeline(tmp_path)
    simulation = simulate_ofc(9, tables=1, seats=2, rounds=4, competition_id=COMPETITION, miscount=0.5)
    records = list(simulation.records())
    pipeline.judge(records[:-1])  # the last round is still being played
    document = protocol(pipeline.store, COMPETITION)
    ofc = document["ofc"]
    assert [r["number"] for r in ofc["rounds"]] == [1, 2, 3, 4]
    assert [bool(r["hands"]) for r in ofc["rounds"]] == [True, True, True, False]
    for listed, played in zip(ofc["rounds"][:3], simulation.rounds, strict=False):
        scored = played.played.scored
        assert [h["points"] for h in listed["hands"]] == [h.points for h in scored.hands]
        assert listed["rule"] == "bfsp 8" and listed["redeals"] == len(played.played.redeals)
        assert all("discarded" not in h for h in listed["hands"])
    assert ofc["rounds"][2]["fantasy"] and ofc["rounds"][2]["redeals"] == 1
    totals: dict[str, int] = {}
    for played in simulation.rounds[:3]:
        for hand in played.played.scored.hands:
            totals[hand.player] = totals.get(hand.player, 0) + hand.points
    assert {s["player"]: s["points"] for s in ofc["standings"]} == totals
    assert ofc["standings"][0]["place"] == 1 and ofc["standings"][0]["points"] == max(totals.values())
    titles = [section.title for section in sections(document)]
    assert titles[-3:-1] == ["OFC rounds", "OFC standings (points)"]
    assert "being played" in to_html(document)


def test_a_competition_without_ofc_has_no_ofc_section(tmp_path: Path) -> None:
    pipeline = Pipeline(tmp_path)
    assert "ofc" not in protocol(pipeline.store, "nothing")
