"""After an official's ruling moves chips, the table and the hand's final stacks show the stacks as the latest
such ruling left them, the engine's beside them and the ruling; a ruling that moves no chips changes nothing;
a rebuild gives the same rows.

The hand: Bob shoves, Ann calls, both show; the engine gives Ann the 2000 pot (2000 / 0).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import pytest
from eventsourcing.application import AggregateNotFoundError
from projection_setup import ALL_IN, AT, Pipeline, everything

from domain.hand.aggregate import hand_id
from domain.hand.events import PotShare
from domain.roles import Role
from domain.rulings import HandReview, PotReaward, RulingIssued, RulingKind, hand_review_id
from domain.rulings.outcome import stored_outcome
from projections.database import SqliteReadDatabase
from projections.read_models import ReadModels
from projections.runner import Projector
from projections.views import RulingRef

pytestmark = pytest.mark.unit

HAND = str(hand_id("t1", 1, "open"))
JUDGE = {"recorded_by": {"person": "judge-1", "role": "judge"}}
CHIEF = {"recorded_by": {"person": "cj", "role": "chief_judge"}}
#: the judge finds the dealer misread the shown hands: Bob's was the winner
TO_BOB = RulingIssued(
    "r-1", "t1/1", RulingKind.FINDING_OF_FACT, "judge-1", Role.JUDGE, "bfsp 2.2.3",
    "the dealer misread the hands and mucked the winner's", reawards=(PotReaward(0, (PotShare(2, 2000),)),),
)
#: a finding that re-awards nothing
NOTHING_MOVED = RulingIssued(
    "r-0", "t1/1", RulingKind.FINDING_OF_FACT, "judge-1", Role.JUDGE, "bfsp 2.2.3",
    "the board was dealt from the top of the deck",
)
#: the Chief Judge upholds the protest against r-1: the pot goes back to Ann
BACK_TO_ANN = RulingIssued(
    "r-2", "t1/1", RulingKind.CHIEF_JUDGE_DECISION, "cj", Role.CHIEF_JUDGE, "bfsp 2.1.3",
    "the hands were read right at the table", reawards=(PotReaward(0, (PotShare(1, 2000),)),), amends="r-1",
)


@pytest.fixture
def pipeline(tmp_path: Path) -> Iterator[Pipeline]:
    p = Pipeline(tmp_path)
    p.hand(ALL_IN)
    yield p
    p.close()


def rule(pipeline: Pipeline, *rulings: RulingIssued) -> None:
    """The rulings issued on the hand, in order, in its review record (opened with the first)."""
    outcome = stored_outcome(pipeline.store.events.get(UUID(HAND)))
    assert outcome is not None
    try:
        review: HandReview = pipeline.store.repository.get(hand_review_id("open", "t1/1"))
    except AggregateNotFoundError:
        review = HandReview.open("open", "t1/1", AT, CHIEF)
    for ruling in rulings:
        review.issue(ruling, outcome, AT, CHIEF if ruling.role is Role.CHIEF_JUDGE else JUDGE)
    pipeline.store.save(review)


def projected(pipeline: Pipeline, folder: Path) -> tuple[Projector, ReadModels]:
    projector = Projector(pipeline.store, SqliteReadDatabase(folder / "read.sqlite"))
    projector.catch_up()
    return projector, ReadModels(projector.database)


def seats(models: ReadModels) -> list[tuple[int, str, int, int | None, RulingRef | None]]:
    hand = models.hand(HAND)
    assert hand is not None
    # the API's one-statement read of the hand and its ruled stacks (api/fast_reads.py) answers the same
    assert ReadModels.final_stacks_of_rows(models.final_stacks_rows(HAND)) == (hand, models.final_stacks(hand))
    # and its gathered form, several hands in one statement (an unknown one left out): the same rows, the hand's row
    gathered = models.hands_and_ruled_stacks([HAND, "no-such-hand", HAND])
    assert gathered == {HAND: models.final_stacks_rows(HAND)}
    assert ReadModels.hand_of_rows(gathered[HAND]) == models.hand_row(HAND)
    return [(s.seat, s.player, s.stack, s.engine_stack, s.ruled_by) for s in models.final_stacks(hand)]


def table_seats(models: ReadModels) -> list[tuple[int, str, int, int | None, RulingRef | None]]:
    table = models.table("open", "t1")
    assert table is not None and table.last_hand_id == HAND
    return [(s.seat, s.player, s.stack, s.engine_stack, s.ruled_by) for s in table.seats]


def test_a_pot_re_awarded_shows_the_ruled_stacks_the_engines_and_the_ruling(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    _, models = projected(pipeline, tmp_path)
    assert seats(models) == [(1, "Ann", 2000, None, None), (2, "Bob", 0, None, None)]
    rule(pipeline, TO_BOB)
    _, models = projected(pipeline, tmp_path)
    by = RulingRef(number=2, ruling="r-1", kind="finding_of_fact")
    assert seats(models) == [(1, "Ann", 0, 2000, by), (2, "Bob", 2000, 0, by)]
    assert table_seats(models) == seats(models)
    (ruling,) = models.rulings(HAND)
    assert (ruling.number, ruling.payload["ruling"]) == (by.number, by.ruling), "the ruling the hand's rulings list"
    hand = models.hand(HAND)
    assert hand is not None and [s.stack for s in hand.seats] == [2000, 0], "the hand's own record is the engine's"


def test_an_unruled_seat_is_answered_as_before_a_ruled_one_with_the_engines_stack_and_the_ruling(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    _, models = projected(pipeline, tmp_path)
    hand = models.hand(HAND)
    assert hand is not None
    assert [s.model_dump() for s in models.final_stacks(hand)] == [
        {"seat": 1, "player": "Ann", "stack": 2000}, {"seat": 2, "player": "Bob", "stack": 0},
    ]
    rule(pipeline, TO_BOB)
    _, models = projected(pipeline, tmp_path)
    ann = models.final_stacks(hand)[0].model_dump()
    assert ann == {
        "seat": 1, "player": "Ann", "stack": 0, "engine_stack": 2000,
        "ruled_by": {"number": 2, "ruling": "r-1", "kind": "finding_of_fact"},
    }


def test_a_ruling_that_moves_no_chips_changes_nothing(pipeline: Pipeline, tmp_path: Path) -> None:
    rule(pipeline, NOTHING_MOVED)
    _, models = projected(pipeline, tmp_path)
    assert [r.payload["ruling"] for r in models.rulings(HAND)] == ["r-0"]
    assert seats(models) == [(1, "Ann", 2000, None, None), (2, "Bob", 0, None, None)]
    assert table_seats(models) == seats(models)


def test_the_latest_ruling_that_moved_chips_is_the_one_shown(pipeline: Pipeline, tmp_path: Path) -> None:
    rule(pipeline, TO_BOB)
    projected(pipeline, tmp_path)
    rule(pipeline, NOTHING_MOVED)
    _, models = projected(pipeline, tmp_path)
    first = RulingRef(number=2, ruling="r-1", kind="finding_of_fact")
    assert seats(models) == [(1, "Ann", 0, 2000, first), (2, "Bob", 2000, 0, first)], "r-0 moved nothing"
    rule(pipeline, BACK_TO_ANN)
    _, models = projected(pipeline, tmp_path)
    back = RulingRef(number=4, ruling="r-2", kind="chief_judge_decision")
    assert seats(models) == [(1, "Ann", 2000, 2000, back), (2, "Bob", 0, 0, back)]
    assert table_seats(models) == seats(models)


def test_a_rebuild_gives_the_same_ruled_stacks(pipeline: Pipeline, tmp_path: Path) -> None:
    rule(pipeline, TO_BOB)
    projected(pipeline, tmp_path)
    rule(pipeline, NOTHING_MOVED, BACK_TO_ANN)
    projector, models = projected(pipeline, tmp_path)
    incremental = everything(projector.database)
    assert [row[:5] for row in incremental["rm_ruled_stacks"]] == [
        (HAND, 2, "r-1", "finding_of_fact", 1), (HAND, 2, "r-1", "finding_of_fact", 2),
        (HAND, 4, "r-2", "chief_judge_decision", 1), (HAND, 4, "r-2", "chief_judge_decision", 2),
    ]
    shown = seats(models)
    assert projector.rebuild() == pipeline.store.recorder.max_notification_id()
    assert everything(projector.database) == incremental
    assert seats(models) == shown
