"""The seeded field: reproducible, every hand legal under the rules engine and readable back from its PHH,
the seating and the rings as the truth says, and the colluders' changed decisions counted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.rulebooks import get_rulebook
from ingest.phh_integrity import read_records
from ingest.phh_validate import HandReport, validate_file
from ingest.simulator.field import Field, field_files, generate_field, write_field


@pytest.fixture(scope="module")
def field() -> Field:
    return generate_field(11, players=60, hands=720, hands_per_session=40)


def test_the_same_seed_gives_the_same_field(field: Field) -> None:
    again = generate_field(11, players=60, hands=720, hands_per_session=40)
    assert again.truth() == field.truth()
    assert next(field_files(again)) == next(field_files(field))


def test_every_hand_written_is_legal_and_ends_with_the_stacks_it_records(field: Field, tmp_path: Path) -> None:
    write_field(field, tmp_path)
    files = sorted(tmp_path.glob("*.phhs"))
    assert files
    reports = [r for f in files[:6] for r in validate_file(f, get_rulebook("bfsp"))]
    assert reports and all(isinstance(r, HandReport) and r.ok and r.matches is not False for r in reports), reports[:1]


def test_hands_name_their_players_session_and_table(field: Field, tmp_path: Path) -> None:
    write_field(field, tmp_path)
    records = list(read_records([tmp_path]))
    assert len(records) == len(field.hands)
    truth = json.loads((tmp_path / "truth.json").read_text())
    assert {p for r in records for p in r.players} <= set(truth["players"])
    assert all(r.session.startswith("S") and r.table.startswith(r.session) for r in records)
    # every hand's chips are conserved
    assert all(sum(r.net) == 0 for r in records)


def test_rings_and_clubs_are_disjoint_and_changed_decisions_are_ring_pairs(field: Field) -> None:
    ring_members = [m for ring in field.rings for m in ring.members]
    club_members = [m for club in field.clubs for m in club]
    assert len(set(ring_members)) == len(ring_members)
    assert not set(ring_members) & set(club_members)
    partners = {tuple(sorted((a, b))) for ring in field.rings for a in ring.members for b in ring.members if a != b}
    assert field.changed and set(field.changed) <= partners


def test_a_field_too_small_for_its_rings_is_refused() -> None:
    with pytest.raises(ValueError, match="players"):
        generate_field(1, players=20, hands=10)


def test_chip_dumping_moves_chips_from_the_dumper_to_the_receiver_and_the_flow_signal_says_so(tmp_path: Path) -> None:
    from projections.integrity.counters import PairCounts
    from projections.integrity.parallel import count
    from projections.integrity.score import Scorer

    dumping = generate_field(11, players=60, hands=2400, hands_per_session=40)
    write_field(dumping, tmp_path)
    counters = count(read_records([tmp_path]))
    scores = {(s.player_a, s.player_b): s for s in Scorer(counters).scores(30)}
    rings = [r for r in dumping.rings if r.behaviour.value == "chip_dumping"]
    assert len(rings) == 2
    for ring in rings:
        dumper, receiver = ring.members
        key = tuple(sorted(ring.members))
        pair = counters.pairs[key]  # type: ignore[index]
        towards_receiver = pair.flow if key[0] == dumper else -pair.flow
        # most chips that moved between them went one way (over a few dozen pots)
        assert towards_receiver > 0.5 * pair.gross > 0, (ring.members, pair.flow, pair.gross)
        score = scores[key]  # type: ignore[index]
        # the flow's z points from the dumper to the receiver; it is more than 1 where the dump moved real
        # chips: one of the two rings changed a single decision (1,000 chips over 12 pots, which four
        # pseudo-pots of the field's typical flow rightly make little of), the other a dozen (14,325 chips)
        assert (score.chip_flow_z > 0) == (key[0] == dumper)
        if dumping.changed.get(key, 0) >= 12:  # type: ignore[call-overload]
            assert abs(score.chip_flow_z) > 1, (ring.members, score.chip_flow_z)
    # the prior is what a few small pots all one way are measured against: the same pots a hundredth the
    # size say almost nothing, a hundred times the size nearly their own t-statistic
    key, pair = next((k, p) for k, p in counters.pairs.items() if p.pots >= 10 and p.flow and p.flow_sq)
    t = pair.flow / pair.flow_sq**0.5
    zs = []
    for scale in (0.01, 100.0):
        counters.pairs[key] = PairCounts(pair.hands, pair.pots, pair.flow * scale, pair.gross * scale,
                                         pair.flow_sq * scale * scale, decisions=pair.decisions)
        scorer = Scorer(counters)
        assert scorer.typical_flow_sq > 0
        zs.append(next(s for s in scorer.scores(30) if (s.player_a, s.player_b) == key).chip_flow_z)
    assert abs(zs[0]) < 0.05 * abs(t) and 0.95 * abs(t) < abs(zs[1]) <= abs(t)
