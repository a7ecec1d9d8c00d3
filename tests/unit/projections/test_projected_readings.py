"""The engine's interpretation in the hand history: a raw act and the action it was read as (with the rule
and the reading), a ruling the director was asked for and the judge's entry of it, a voided hand, and the
officials' review of a hand (the Chief Judge's inspection of a mucked hand)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from uuid import uuid4

import pytest
from projection_setup import AT, BLINDS_AND_CARDS, DEALER, Pipeline, checked_down

from domain.hand.aggregate import hand_id
from domain.hand.events import (
    ActionKind,
    ChipsPlaced,
    HandVoided,
    PlayerActed,
    RawAct,
    RawActReported,
    Timing,
)
from domain.hand.interpretation import parse_declaration
from domain.roles import Role
from domain.rulings.events import InspectionOutcome
from domain.rulings.review import HandReview
from ingest.envelope import RecordedBy, encode, make_envelope
from ingest.publish import hand_records
from projections.database import SqliteReadDatabase
from projections.read_models import ReadModels
from projections.runner import Projector

pytestmark = pytest.mark.unit

HAND = str(hand_id("t1", 1, "open"))


@pytest.fixture
def pipeline(tmp_path: Path) -> Iterator[Pipeline]:
    p = Pipeline(tmp_path)
    yield p
    p.close()


def project(pipeline: Pipeline, folder: Path) -> ReadModels:
    Projector(pipeline.store, SqliteReadDatabase(folder / "read.sqlite")).catch_up()
    return ReadModels(SqliteReadDatabase(folder / "read.sqlite"))


def test_a_raw_act_and_its_reading_are_both_in_the_history(pipeline: Pipeline, tmp_path: Path) -> None:
    oversized = RawActReported(2, RawAct(chips=ChipsPlaced.one_motion(1000)))  # the button, facing the big blind
    assert pipeline.hand([*BLINDS_AND_CARDS, oversized]) == {"accepted": 6}
    models = project(pipeline, tmp_path)
    raw, reading = models.history(HAND, 5, 10)
    assert (raw.type, reading.type) == ("RawActReported", "PlayerActed")
    assert reading.payload == {"type": "PlayerActed", "seat": 2, "action": "call", "amount": 100}
    assert reading.interprets == raw.event_id and reading.rule == "bfsp 4.12" and reading.reading
    assert reading.follows == raw.event_id and not reading.recorded_by
    hand = models.hand(HAND)
    assert hand is not None and [(s.seat, s.stack, s.committed) for s in hand.seats] == [(1, 900, 100), (2, 900, 100)]
    *_, after_raw, after_reading = models.stacks(HAND)
    assert after_raw.seats == after_reading.seats, "the raw act moved the chips; its reading follows it"


def test_a_ruling_requested_and_the_judges_entry(pipeline: Pipeline, tmp_path: Path) -> None:
    unclear = RawActReported(  # "three hundred", not clearly heard, then one 1,000 chip: the director decides
        2, RawAct(parse_declaration("three hundred", clear=False), ChipsPlaced.one_motion(1000), Timing.VERBAL_FIRST)
    )
    records = list(hand_records([*BLINDS_AND_CARDS, unclear], "open", DEALER, AT))
    entry = make_envelope(
        PlayerActed(2, ActionKind.RAISE, 300), event_id=uuid4(), competition_id="open", seq=6,
        recorded_by=RecordedBy(person="floor-1", role="judge"), occurred_at=AT, table_id="t1", hand_id="1",
    )
    assert pipeline.records([*records, (b"open", encode(entry))]) == {"accepted": 7}
    models = project(pipeline, tmp_path)
    raw, asked, ruled = models.history(HAND, 5, 10)
    assert (raw.type, asked.type, ruled.type) == ("RawActReported", "RulingRequested", "PlayerActed")
    assert asked.payload["rule"] == "bfsp 4.8.1" and asked.follows == raw.event_id
    assert (ruled.role, ruled.recorded_by, ruled.ruling) == ("judge", "floor-1", True)
    assert not raw.ruling
    hand = models.hand(HAND)
    assert hand is not None and [s.committed for s in hand.seats] == [100, 300]


def test_a_voided_hand_gives_every_chip_back_and_has_no_pot(pipeline: Pipeline, tmp_path: Path) -> None:
    records = list(hand_records([*BLINDS_AND_CARDS, PlayerActed(2, ActionKind.RAISE, 300)], "open", DEALER, AT))
    void = make_envelope(  # only a judge or the Chief Judge may void a hand (bfsp 6.1.1)
        HandVoided("the deck was found one card short", "bfsp 6.3"), event_id=uuid4(), competition_id="open",
        seq=6, recorded_by=RecordedBy(person="floor-1", role="judge"), occurred_at=AT, table_id="t1", hand_id="1",
    )
    assert pipeline.records([*records, (b"open", encode(void))]) == {"accepted": 7}
    models = project(pipeline, tmp_path)
    hand = models.hand(HAND)
    assert hand is not None and hand.status == "voided" and hand.ended_at is not None
    assert [(s.stack, s.committed) for s in hand.seats] == [(1000, 0), (1000, 0)]
    assert models.pots(HAND) == []
    assert [h.type for h in models.history(HAND, 6, 10)] == ["HandVoided", "HandEnded"]


def test_the_chief_judges_inspection_of_a_mucked_hand_is_in_the_hands_rulings(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    pipeline.hand(checked_down("t2", 1))
    review = HandReview.open("open", "t2/1", AT, {"recorded_by": {"person": "cj", "role": "chief_judge"}})
    review.inspect(
        (2,), {2}, Role.JUDGE, "seat 2 mucked a winning hand to seat 1", InspectionOutcome.NO_TEAM_PLAY, False,
        Role.CHIEF_JUDGE, AT, {"recorded_by": {"person": "cj", "role": "chief_judge"}, "event_id": "e-1"},
    )
    pipeline.store.save(review)
    models = project(pipeline, tmp_path)
    (inspection,) = models.rulings(str(hand_id("t2", 1, "open")))
    assert (inspection.type, inspection.role, inspection.recorded_by) == ("MuckedCardsInspected", "chief_judge", "cj")
    assert inspection.payload["seats"] == [2] and inspection.payload["shown_to_table"] is False
    assert models.rulings(HAND) == []
