"""A 1,000-player event (issue 13, "the size of a real event"): the simulator plays one to its winner through the
floor, and its seat draw — 1,000 seats, the row the PDF could not print — prints in the protocol's PDF and HTML
with every seat readable. The whole event judged and rendered is measured by bench/protocol.py
(docs/BENCHMARKS.md), too slow for a unit test on a shared machine."""

from __future__ import annotations

import io
from collections import Counter

import pytest
from pypdf import PdfReader

from ingest.simulator import CompetitionSimulation, simulate_competition
from projections.protocol_render import to_html, to_pdf

pytestmark = pytest.mark.unit

PLAYERS = 1000


@pytest.fixture(scope="module")
def festival() -> CompetitionSimulation:
    # no penalties nor protests: the floor is what a field this size tests, and they only slow the run
    return simulate_competition(7, players=PLAYERS, penalties=0.0, protests=False)


def test_the_simulator_plays_a_1000_player_event_to_its_winner(festival: CompetitionSimulation) -> None:
    kinds = Counter(type(a.event).__name__ for a in festival.acts)
    assert kinds["ParticipantRegistered"] == PLAYERS
    # every player but the winner was eliminated (players busted in one hand with equal stacks share a record)
    eliminated = {p.participant for p in festival.placings}
    assert len(eliminated) == PLAYERS - 1 and festival.winner not in eliminated
    [drawn] = [a.event for a in festival.acts if type(a.event).__name__ == "SeatDrawConducted"]
    assert len({a.table for a in drawn.assignments}) == 112
    # the floor broke its way down from 112 tables to the final one
    assert kinds["TableBroken"] >= 100 and kinds["FinalTableDrawConducted"] == 1


def test_the_seat_draw_of_1000_prints_every_seat_across_pages(festival: CompetitionSimulation) -> None:
    [drawn] = [a for a in festival.acts if type(a.event).__name__ == "SeatDrawConducted"]
    assignments = [{"participant": a.participant, "table": a.table, "seat": a.seat} for a in drawn.event.assignments]
    seats = "; ".join(f"{a['participant']} {a['table']}/{a['seat']}" for a in assignments)
    document = {
        "competition": {"id": festival.competition_id, "title": "1,000 players"},
        "draws": [{"kind": "seat", "stage": "", "commitment": "c" * 64, "committed_at": None, "seed": drawn.event.seed,
                   "conducted_at": None, "conducted_by": {"person": "sec", "role": "secretary"}, "ordered_by": "cj",
                   "seed_matches_commitment": True, "seats_match_seed": True, "assignments": assignments,
                   "buttons": [], "rule": "bfsp 5.2"}],
        # one cell longer than a printed page: it goes on over continuation rows
        "other_acts": [{"type": "ScheduleChanged", "at": None, "recorded_by": {}, "note": seats}],
    }
    printed = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(to_pdf(document))).pages)
    last = assignments[-1]
    assert f"{last['participant']} {last['table']} {last['seat']}" in printed
    assert " ".join(printed.split()).count(f"{last['participant']} {last['table']}/{last['seat']}") == 1
    assert f"<tr><td>{last['participant']}</td><td>{last['table']}</td><td>{last['seat']}</td></tr>" in to_html(document)
