"""One hand followed live: stacks and pots mid-hand, then awarded; its history with what the engine derived;
the showdown record with a hand mucked unshown; a rejection; rebuild equal to incremental projection; and
a crash between a page's rows and its position leaving neither."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from projection_setup import ALL_IN, AT, BLINDS_AND_CARDS, DEALER, Pipeline, checked_down, everything

from api.bootstrap import open_projector
from domain.discipline.season import SeasonRecord
from domain.hand.aggregate import hand_id
from domain.hand.events import ActionKind, PlayerActed
from domain.roles import Role
from domain.rulings.events import InspectionOutcome
from domain.rulings.review import HandReview
from ingest.publish import hand_records
from projections import schema
from projections.database import SqliteReadDatabase, Writer
from projections.read_models import ReadModels
from projections.runner import Projector

pytestmark = pytest.mark.unit

HAND = str(hand_id("t1", 1, "open"))


@pytest.fixture
def pipeline(tmp_path: Path) -> Iterator[Pipeline]:
    p = Pipeline(tmp_path)
    yield p
    p.close()


def projector_for(pipeline: Pipeline, folder: Path, **kwargs: Any) -> Projector:
    return Projector(pipeline.store, SqliteReadDatabase(folder / "read.sqlite"), **kwargs)


def test_stacks_and_pots_while_the_hand_is_played_then_awarded(pipeline: Pipeline, tmp_path: Path) -> None:
    records = list(hand_records(ALL_IN, "open", DEALER, AT))
    pipeline.records(records[:6])  # up to Bob's shove
    projector = projector_for(pipeline, tmp_path)
    projector.catch_up()
    models = ReadModels(projector.database)
    live = models.hand(HAND)
    assert live is not None and live.status == "in_progress"
    assert [(s.seat, s.stack, s.committed) for s in live.seats] == [(1, 900, 100), (2, 0, 1000)]
    main, shove = models.pots(HAND)
    assert (main.amount, main.eligible, main.contributors, main.awarded) == (200, [1, 2], [1, 2], False)
    assert (shove.amount, shove.eligible, shove.uncalled) == (900, [2], True), "Bob's shove is not called yet"
    assert models.stacks(HAND)[-1].type == "PlayerActed"

    pipeline.records(records[6:])
    projector.catch_up()
    ended = models.hand(HAND)
    assert ended is not None and ended.status == "ended" and ended.ended_at is not None
    assert [(s.seat, s.stack) for s in ended.seats] == [(1, 2000), (2, 0)]
    (won,) = models.pots(HAND)
    assert (won.amount, won.awarded, [(s.seat, s.amount) for s in won.shares]) == (2000, True, [(1, 2000)])
    assert won.winning_hand and won.contributors == [1, 2]
    after = {a.version: a for a in models.stacks(HAND)}
    assert [(s.seat, s.stack, s.committed) for s in after[1].seats] == [(1, 1000, 0), (2, 1000, 0)]
    awarded = next(a for a in after.values() if a.type == "PotAwarded")
    assert [s.stack for s in awarded.seats] == [2000, 0]
    before_award = after[awarded.version - 1]
    assert [s.stack for s in before_award.seats] == [0, 0], "the river card moves no chips; the award does"


def test_the_history_keeps_who_recorded_each_event_and_what_followed_from_it(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    pipeline.hand(ALL_IN)
    projector = projector_for(pipeline, tmp_path)
    projector.catch_up()
    history = ReadModels(projector.database).history(HAND, 0, 100)
    assert [h.version for h in history] == list(range(1, len(history) + 1))
    assert history[0].type == "HandStarted" and history[0].role == "dealer" and history[0].seq == 0
    assert history[3].payload == {"type": "HoleCardsDealt", "seat": 1, "cards": ["As", "Kd"], "face_up": []}
    derived = [h for h in history if h.type in ("PotAwarded", "HandEnded")]
    river = next(h for h in history if h.type == "BoardDealt" and h.payload["cards"] == ["3h"])
    assert [h.follows for h in derived] == [river.event_id] * 2 and not derived[0].recorded_by


def test_the_showdown_record_names_the_order_the_shown_and_the_mucked(pipeline: Pipeline, tmp_path: Path) -> None:
    pipeline.hand(checked_down("t2", 1))
    projector = projector_for(pipeline, tmp_path)
    projector.catch_up()
    models = ReadModels(projector.database)
    hand = models.hand(str(hand_id("t2", 1, "open")))
    assert hand is not None and hand.status == "ended"
    showdown = models.showdown(hand)
    assert showdown.order == [1, 2]
    assert [(s.seat, s.cards) for s in showdown.shown] == [(1, ["As", "Kd"])]
    assert [(m.seat, m.must_not_reveal) for m in showdown.mucked_unshown] == [(2, True)]
    assert [(s.seat, s.stack) for s in hand.seats] == [(1, 1100), (2, 900)]


def test_a_refused_act_is_a_rejection_and_the_hand_stays_as_it_was(pipeline: Pipeline, tmp_path: Path) -> None:
    assert pipeline.hand([*BLINDS_AND_CARDS, PlayerActed(2, ActionKind.RAISE, 120)]) == {
        "accepted": 5, "rejected": 1,
    }
    projector = projector_for(pipeline, tmp_path)
    projector.catch_up()
    models = ReadModels(projector.database)
    (refused,), total = models.rejections("open", "illegal", 0, 10)
    assert total == 1 and refused.rule.startswith("bfsp") and "minimum raise" in refused.reason
    assert (refused.event_type, refused.table_id, refused.hand, refused.seq) == ("PlayerActed", "t1", "1", 5)
    hand = models.hand(HAND)
    assert hand is not None and hand.version == 5 and [s.stack for s in hand.seats] == [900, 950]


def play_in_pieces(pipeline: Pipeline, projector_of: Any) -> None:
    """Several hands arriving a few events at a time, each piece projected by a new projector (a restart:
    hands in play are warmed up from the store)."""
    pieces = [list(hand_records(ALL_IN, "open", DEALER, AT)), list(hand_records(checked_down("t2", 1), "open", DEALER, AT))]
    refused = list(hand_records([*checked_down("t3", 1)[:5], PlayerActed(2, ActionKind.RAISE, 120)], "cup", DEALER, AT))
    pieces.append(refused)
    step = 0
    while any(pieces):
        for piece in pieces:
            chunk, piece[:] = piece[:3 + step % 4], piece[3 + step % 4:]
            if chunk:
                pipeline.records(chunk)
        projector = projector_of()
        projector.catch_up()
        step += 1


def test_rebuild_equals_incremental_projection(pipeline: Pipeline, tmp_path: Path) -> None:
    play_in_pieces(pipeline, lambda: projector_for(pipeline, tmp_path, page=7))
    review = HandReview.open("open", "t2/1", AT)
    review.inspect((2,), {2}, Role.JUDGE, "a winning hand mucked", InspectionOutcome.NO_TEAM_PLAY, False,
                   Role.CHIEF_JUDGE, AT)
    pipeline.store.save(review)
    projector = projector_for(pipeline, tmp_path)
    projector.catch_up()
    incremental = everything(projector.database)
    assert incremental["rm_hands"] and incremental["rm_rejections"] and incremental["rm_showdowns"]
    assert incremental["rm_rulings"] and incremental["rm_reviews"]
    assert projector.rebuild() == pipeline.store.recorder.max_notification_id()
    assert everything(projector.database) == incremental


class CrashBeforeCommit(Projector):
    """Writes a page's rows, then dies before the transaction commits."""

    def _write(self, w: Writer, page: Any, sql: schema.Writes, last_id: int | None) -> None:
        super()._write(w, page, sql, last_id)
        raise SystemExit("the projector's process was killed")


def test_a_crash_between_rows_and_position_leaves_neither_and_the_next_run_projects_once(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    records = list(hand_records(ALL_IN, "open", DEALER, AT))
    pipeline.records(records[:6])
    first = projector_for(pipeline, tmp_path)
    first.catch_up()
    before = everything(first.database)
    pipeline.records(records[6:])
    crashing = CrashBeforeCommit(pipeline.store, first.database)
    with pytest.raises(SystemExit):
        crashing.catch_up()
    assert everything(first.database) == before
    assert first.lag() > 0
    again = projector_for(pipeline, tmp_path)
    again.catch_up()
    assert again.lag() == 0
    projected = everything(again.database)
    assert again.rebuild() > 0
    assert everything(again.database) == projected


def test_other_aggregates_events_are_passed_over_and_the_position_moves_past_them(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    pipeline.hand(ALL_IN)
    pipeline.store.save(SeasonRecord.open("Ann", "2026", AT))
    projector = projector_for(pipeline, tmp_path)
    projected = projector.catch_up()
    assert projected == pipeline.store.recorder.max_notification_id() and projector.lag() == 0
    assert [h.type for h in ReadModels(projector.database).history(HAND, 0, 100)][0] == "HandStarted"


class Folder:
    """Settings naming the embedded store and read models in one folder."""

    def __init__(self, path: Path) -> None:
        self.database_url: str | None = None
        self.data_dir = path


def test_a_rebuild_by_several_processes_equals_one_by_a_single_process(pipeline: Pipeline, tmp_path: Path) -> None:
    play_in_pieces(pipeline, lambda: projector_for(pipeline, tmp_path, page=7))
    projector = open_projector(Folder(tmp_path), page=5)
    try:
        alone = projector.rebuild()
        expected = everything(projector.database)
        assert projector.rebuild(workers=3) == alone
        assert everything(projector.database) == expected and projector.lag() == 0
    finally:
        projector.close()


class CutShort(Projector):
    """A rebuild whose process dies after its second page into the fresh tables."""

    pages = 0

    def _write(self, w: Writer, page: Any, sql: schema.Writes, last_id: int | None) -> None:
        super()._write(w, page, sql, last_id)
        if sql is schema.FRESH:
            self.pages += 1
            if self.pages == 2:
                raise SystemExit("the rebuild's process was killed")


def test_a_rebuild_cut_short_leaves_the_read_models_in_use_as_they_were(pipeline: Pipeline, tmp_path: Path) -> None:
    play_in_pieces(pipeline, lambda: projector_for(pipeline, tmp_path, page=7))
    projector = projector_for(pipeline, tmp_path)
    projector.catch_up()
    before = everything(projector.database)
    pipeline.hand(checked_down("t4", 1))
    with pytest.raises(SystemExit):
        CutShort(pipeline.store, projector.database, page=4).rebuild()
    assert everything(projector.database) == before, "nothing of the cut-short rebuild is in use"
    assert projector.catch_up() > 0 and projector.lag() == 0
    caught_up = everything(projector.database)
    assert projector.rebuild() == pipeline.store.recorder.max_notification_id()
    assert everything(projector.database) == caught_up


class Overtaken(Projector):
    """Before it writes its first page, another projector on the same read models projects everything."""

    other: Projector

    def _project(self, notifications: Any, writes: schema.Writes, after: int | None) -> None:
        if after == 0:
            self.other.catch_up()
        super()._project(notifications, writes, after)


def test_two_projectors_on_the_same_read_models_project_each_event_once(pipeline: Pipeline, tmp_path: Path) -> None:
    pipeline.hand(ALL_IN)
    pipeline.hand(checked_down("t2", 1))
    first = Overtaken(pipeline.store, SqliteReadDatabase(tmp_path / "read.sqlite"), page=4)
    first.other = projector_for(pipeline, tmp_path, page=3)
    assert first.catch_up() == 0, "the other projector wrote the page first"
    assert first.lag() == 0
    projected = everything(first.database)
    again = projector_for(pipeline, tmp_path)
    assert again.rebuild() == pipeline.store.recorder.max_notification_id()
    assert everything(again.database) == projected
