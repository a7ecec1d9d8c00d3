"""OFC rounds through the referee (embedded log, SQLite store): accepted, refused with bfsp 8's rule, out of
sequence, fantasy checked against the round before, the round's chain intact, the same after a restart."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from uuid import uuid4

import pytest
from embedded_referee import Pipeline

from domain.cards import parse_cards
from domain.chained import first_broken_link_in
from domain.ofc.aggregate import OfcRound, ofc_round_id
from domain.ofc.events import OfcCardsSet, OfcPlayer, OfcRoundStarted
from ingest.envelope import RecordedBy, encode, make_envelope
from ingest.simulator.ofc import simulate_ofc

pytestmark = pytest.mark.unit


def _records(rounds: int = 3, seed: int = 5) -> list[tuple[bytes, bytes]]:
    return list(simulate_ofc(seed, tables=1, seats=2, rounds=rounds, competition_id="ofc").records())


def _record(event: object, seq: int, round_number: int = 1, role: str = "dealer") -> tuple[bytes, bytes]:
    envelope = make_envelope(
        event,
        event_id=uuid4(),
        competition_id="ofc",
        seq=seq,
        recorded_by=RecordedBy(person="dealer-1", role=role),  # type: ignore[arg-type]
        occurred_at=json_at(),
        table_id="T1",
        hand_id=str(round_number),
    )
    return b"ofc", encode(envelope)


def json_at() -> datetime:
    return datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_a_simulated_event_is_accepted_round_by_round(tmp_path: Path) -> None:
    pipeline = Pipeline(tmp_path)
    simulation = simulate_ofc(5, tables=1, seats=2, rounds=3, competition_id="ofc")
    verdicts = pipeline.judge(simulation.records())
    assert {v.outcome for v in verdicts} == {"accepted"}
    for table_round in simulation.rounds:
        stream = ofc_round_id("T1", table_round.played.started.round_number, "ofc")
        stored = pipeline.store.repository.get(stream)
        assert isinstance(stored, OfcRound) and stored.is_over
        assert stored.engine.scored == table_round.played.scored
        assert first_broken_link_in(pipeline.store.events.get(stream)) is None
        types = [type(e).__name__ for e in pipeline.store.events.get(stream)]
        assert types[0] == "OfcRoundStarted" and types[-1] == "OfcRoundScored"


def test_an_illegal_setting_is_refused_with_bfsp_8s_rule(tmp_path: Path) -> None:
    pipeline = Pipeline(tmp_path)
    records = _records(rounds=1)
    pipeline.judge(records[:3])  # the start, and the first deals to both players
    wrong = OfcCardsSet(1, top=tuple(c for c in parse_cards("AsKsQsJs") if c is not None))
    (verdict,) = pipeline.judge([_record(wrong, 3)])
    assert verdict.outcome == "rejected" and verdict.rejection is not None
    assert verdict.rejection.rule.startswith("bfsp 8 (")
    # the rest of the round is still judged in step
    assert {v.outcome for v in pipeline.judge(records[3:])} == {"accepted"}


def test_only_the_table_records_the_game(tmp_path: Path) -> None:
    pipeline = Pipeline(tmp_path)
    (verdict,) = pipeline.judge([_record(_started(), 0, role="participant")])
    assert verdict.outcome == "rejected" and verdict.rejection is not None
    assert verdict.rejection.rule == "bfsp 2.4.1"


def _started(number: int = 1, fantasy: tuple[str, ...] = ()) -> OfcRoundStarted:
    return OfcRoundStarted("T1", number, 2, (OfcPlayer(1, "Ann"), OfcPlayer(2, "Bob")), fantasy)


def test_fantasy_is_checked_against_the_round_before(tmp_path: Path) -> None:
    pipeline = Pipeline(tmp_path)
    (verdict,) = pipeline.judge([_record(_started(1, ("Ann",)), 0)])
    assert verdict.outcome == "rejected" and verdict.rejection is not None
    assert verdict.rejection.rule == "bfsp 8 (fantasy)" and "earned it" in verdict.rejection.reason


def test_a_round_is_started_once_and_its_events_come_in_step(tmp_path: Path) -> None:
    pipeline = Pipeline(tmp_path)
    records = _records(rounds=1)
    pipeline.judge(records[:1])
    (again,) = pipeline.judge([_record(_started(), 0)])
    assert again.outcome == "rejected" and again.rejection is not None
    assert again.rejection.kind == "out_of_sequence"
    (gap,) = pipeline.judge([records[2]])
    assert (
        gap.outcome == "rejected"
        and gap.rejection is not None
        and "expects seq 1 (a gap)" in gap.rejection.reason
    )
    # after a restart the round is read back from the store and goes on from where it was
    pipeline.restart()
    (dealt,) = pipeline.judge([records[1]])
    assert dealt.outcome == "accepted"
    stored = pipeline.store.repository.get(ofc_round_id("T1", 1, "ofc"))
    assert isinstance(stored, OfcRound) and len(stored.reported) == 1


def test_a_fantasy_round_and_its_redeal_are_judged_like_any_round(tmp_path: Path) -> None:
    # seed 9: a player reaches fantasy, and his first fantasy deal is miscounted (a redeal)
    simulation = simulate_ofc(9, tables=1, seats=2, rounds=6, competition_id="ofc", miscount=0.5)
    assert simulation.summary()["fantasies"] == 1 and simulation.summary()["redeals"] == 1
    pipeline = Pipeline(tmp_path)
    assert {v.outcome for v in pipeline.judge(simulation.records())} == {"accepted"}
    fantasy = next(r for r in simulation.rounds if r.played.started.fantasy)
    stream = ofc_round_id("T1", fantasy.played.started.round_number, "ofc")
    types = [type(e).__name__ for e in pipeline.store.events.get(stream)]
    assert "OfcRoundRedealt" in types and types[-1] == "OfcRoundScored"


def test_an_unknown_rulebook_is_malformed_naming_the_field(tmp_path: Path) -> None:
    pipeline = Pipeline(tmp_path)
    started = OfcRoundStarted("T1", 1, 2, (OfcPlayer(1, "Ann"), OfcPlayer(2, "Bob")), rulebook="tda-2099")
    (verdict,) = pipeline.judge([_record(started, 0)])
    assert verdict.outcome == "rejected" and verdict.rejection is not None
    assert verdict.rejection.kind == "malformed" and verdict.rejection.field == "payload.rulebook"
    assert verdict.rejection.reason.startswith("no rulebook is called 'tda-2099'")
