"""The read models in PostgreSQL: the WSOP final table's pots and final stacks equal validate's, a refused
act is a rejection, rebuild equals incremental projection across restarts, and a crash between a page's
rows and its position leaves neither, so the next run projects each event exactly once; a ruling's stacks
are kept beside the engine's and rebuilt the same."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from read_model_checks import everything
from shared_hands import WSOP_TABLE

from api.operations import phh_records
from domain.hand.aggregate import hand_id
from domain.hand.events import PotShare
from domain.roles import Role
from domain.rulebooks import get_rulebook
from domain.rulings import HandReview, PotReaward, RulingIssued, RulingKind
from domain.rulings.outcome import stored_outcome
from ingest.log import EmbeddedLog
from ingest.phh import load_hands
from ingest.phh_validate import validate_hand
from ingest.referee import Referee
from ingest.runners import drain_embedded
from ingest.store import Store, store_env
from projections import schema
from projections.database import PostgresReadDatabase, Writer
from projections.read_models import ReadModels
from projections.runner import Projector
from projections.views import RulingRef

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT / ".." / "shared" / "data" / "phh"))
WSOP = PHH_DIR / "data" / "wsop" / "2023" / "43" / "5"
COMPETITION = "wsop-2023-43"
AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


class Pipeline:
    """The embedded log, the referee and the PostgreSQL store; the read models in the same database."""

    def __init__(self, folder: Path, pg: PgDatabase) -> None:
        self.log = EmbeddedLog(folder / "log.sqlite", "events", partitions=3)
        self.store = Store(env=store_env(pg.url))
        self.referee = Referee(self.store, "events")
        self.url = pg.url

    def judge(self, records: list[tuple[bytes, bytes]]) -> dict[str, int]:
        self.log.append(records)
        counts: dict[str, int] = {}
        for verdict in drain_embedded(self.log, self.referee):
            counts[verdict.outcome] = counts.get(verdict.outcome, 0) + 1
        return counts

    def projector(self, cls: type[Projector] = Projector, **kwargs: Any) -> Projector:
        return cls(self.store, PostgresReadDatabase(self.url, pool_size=2), **kwargs)

    def close(self) -> None:
        self.log.close()
        self.store.close()


@pytest.fixture
def pipeline(tmp_path: Path, pg_database: PgDatabase) -> Iterator[Pipeline]:
    if not WSOP.is_dir():
        pytest.fail(f"the shared hand histories are not at {WSOP}; set POKERAUDIT_PHH_DIR")
    p = Pipeline(tmp_path, pg_database)
    yield p
    p.close()


def test_the_final_tables_pots_and_stacks_equal_validates(pipeline: Pipeline) -> None:
    assert pipeline.judge(list(phh_records([WSOP], COMPETITION))) == {"accepted": 1855, "rejected": 1}
    projector = pipeline.projector(page=400)
    try:
        assert projector.catch_up() == pipeline.store.recorder.max_notification_id()
        assert projector.lag() == 0
        models = ReadModels(projector.database)
        rulebook = get_rulebook("bfsp")
        for hand in load_hands([WSOP]):
            report = validate_hand(hand, rulebook)
            found = models.hand(str(hand_id(WSOP_TABLE, hand.hand_number, COMPETITION)))
            assert found is not None
            stacks = {s.seat: s.stack for s in found.seats}
            for player, (seat, expected) in enumerate(zip(hand.seats, report.finishing_stacks, strict=True), 1):
                if player not in hand.unknown_stacks:
                    assert stacks[seat] == expected * hand.scale, f"{hand.file}: seat {seat}"
            awarded = [(p.amount, [s.amount for s in p.shares]) for p in models.pots(found.hand_id) if p.awarded]
            assert awarded == [
                (p.amount * hand.scale, [w.amount * hand.scale for w in p.winners]) for p in report.pots
            ], hand.file
        (refused,), total = models.rejections(COMPETITION, "illegal", 0, 10)
        assert total == 1 and refused.rule == "bfsp 4.7.3" and refused.table_id == WSOP_TABLE
        (competition,) = models.competitions()
        assert (competition.tables, competition.hands, competition.hands_in_progress) == (1, 83, 1)
    finally:
        projector.close()
        projector.database.close()


def test_rebuild_equals_incremental_projection_across_restarts(pipeline: Pipeline) -> None:
    records = list(phh_records(sorted(WSOP.glob("0[0-2]-*.phh")), COMPETITION))
    # the records of many hands arrive interleaved with projection runs, each by a new projector
    for start in range(0, len(records), 97):
        pipeline.judge(records[start : start + 97])
        projector = pipeline.projector(page=50)
        projector.catch_up()
        projector.database.close()
    projector = pipeline.projector()
    try:
        incremental = everything(projector.database)
        assert len(incremental["rm_hands"]) > 10 and incremental["rm_stack_changes"]
        assert projector.rebuild() == pipeline.store.recorder.max_notification_id()
        assert everything(projector.database) == incremental
    finally:
        projector.database.close()


class CrashBeforeCommit(Projector):
    """Writes a page's rows into the open transaction, then its process dies."""

    def _write(self, w: Writer, page: Any, sql: schema.Writes, last_id: int | None) -> None:
        super()._write(w, page, sql, last_id)
        raise SystemExit("the projector's process was killed")


def test_a_crash_before_commit_leaves_nothing_and_the_next_run_projects_each_event_once(pipeline: Pipeline) -> None:
    records = list(phh_records(sorted(WSOP.glob("00-*.phh")), COMPETITION))
    half = len(records) // 2
    pipeline.judge(records[:half])
    first = pipeline.projector()
    first.catch_up()
    before = everything(first.database)
    pipeline.judge(records[half:])
    crashing = pipeline.projector(CrashBeforeCommit, page=30)
    with pytest.raises(SystemExit):
        crashing.catch_up()
    crashing.database.close()
    assert everything(first.database) == before
    assert first.lag() > 0
    again = pipeline.projector()
    try:
        again.catch_up()
        assert again.lag() == 0
        projected = everything(again.database)
        again.rebuild()
        assert everything(again.database) == projected
    finally:
        again.database.close()
        first.database.close()


class Overtaken(Projector):
    """Before it writes its first page, another projector on the same read models projects everything."""

    other: Projector

    def _project(self, notifications: Any, writes: schema.Writes, after: int | None) -> None:
        if after == 0:
            self.other.catch_up()
        super()._project(notifications, writes, after)


def test_two_projectors_on_the_same_read_models_project_each_event_once(pipeline: Pipeline) -> None:
    pipeline.judge(list(phh_records(sorted(WSOP.glob("00-*.phh")), COMPETITION)))
    first = pipeline.projector(Overtaken, page=50)
    first.other = pipeline.projector(page=70)
    try:
        assert first.catch_up() == 0, "the other projector wrote the page first"
        assert first.lag() == 0
        projected = everything(first.database)
        first.other.rebuild()
        assert everything(first.database) == projected
    finally:
        first.database.close()
        first.other.database.close()


def test_a_ruling_that_re_awards_a_pot_leaves_its_stacks_in_the_read_models_and_a_rebuild_the_same(
    pipeline: Pipeline,
) -> None:
    files = sorted(WSOP.glob("0[0-2]-*.phh"))
    # the first hand whose pot went to a showdown: the judge finds the dealer misread it for another seat in it.
    # The hands are judged one by one up to it, so it is its table's last hand and the table shows its stacks.
    table = WSOP_TABLE
    for hand in load_hands(files):
        pipeline.judge(list(phh_records([hand.file], COMPETITION)))
        number = hand.hand_number
        outcome = stored_outcome(pipeline.store.events.get(hand_id(table, number, COMPETITION)))
        contested = [p for p in (outcome.pots if outcome else ()) if len(p.eligible) > 1 and len(p.shares) == 1]
        if contested:
            break
    assert outcome is not None and contested, "a hand of the final table went to a showdown"
    pot = contested[0]
    winner = pot.shares[0].seat
    other = next(seat for seat in pot.eligible if seat != winner)
    ruling = RulingIssued(
        "r-1", f"{table}/{number}", RulingKind.FINDING_OF_FACT, "judge-1", Role.JUDGE, "bfsp 2.2.3",
        "the dealer misread the hands", reawards=(PotReaward(pot.pot_index, (PotShare(other, pot.amount),), pot.half),),
    )
    review = HandReview.open(COMPETITION, f"{table}/{number}", AT)
    review.issue(ruling, outcome, AT)
    pipeline.store.save(review)
    projector = pipeline.projector(page=300)
    try:
        projector.catch_up()
        models = ReadModels(projector.database)
        found = models.hand(str(hand_id(table, number, COMPETITION)))
        assert found is not None
        engine = dict(outcome.ended.final_stacks)
        ruled = {s.seat: (s.stack, s.engine_stack, s.ruled_by) for s in models.final_stacks(found)}
        # the API's one-statement read of the hand and its ruled stacks (api/fast_reads.py) answers the same
        assert ReadModels.final_stacks_of_rows(models.final_stacks_rows(found.hand_id)) == (
            found, models.final_stacks(found)
        )
        assert models.hand_row(found.hand_id) is not None
        # gathered, with another hand and an unknown one (api/fast_reads.py): each hand's rows, in one statement
        others = [str(r[0]) for r in projector.database.query("SELECT hand_id FROM rm_hands ORDER BY hand_id")]
        gathered = models.hands_and_ruled_stacks([found.hand_id, *others[:3], "no-such-hand"])
        assert set(gathered) == {found.hand_id, *others[:3]}
        for hand in gathered:
            assert gathered[hand] == models.final_stacks_rows(hand)
            assert ReadModels.hand_of_rows(gathered[hand]) == models.hand_row(hand)
        assert ReadModels.hand_of_row(models.hand_row(found.hand_id)) == found  # type: ignore[arg-type]
        by = RulingRef(number=2, ruling="r-1", kind="finding_of_fact")
        assert ruled[winner] == (engine[winner] - pot.amount, engine[winner], by)
        assert ruled[other] == (engine[other] + pot.amount, engine[other], by)
        state = models.table(COMPETITION, table)
        assert state is not None and {s.seat: s.stack for s in state.seats} == {s: r[0] for s, r in ruled.items()}
        incremental = everything(projector.database)
        assert len(incremental["rm_ruled_stacks"]) == len(engine)
        assert projector.rebuild() == pipeline.store.recorder.max_notification_id()
        assert everything(projector.database) == incremental
    finally:
        projector.database.close()
