"""The read models of the 2023 WSOP final table (83 real hands, nine games) put through the embedded
referee: every hand's final stacks and pots equal what ``pokeraudit validate`` reports of it, and the
refused razz raise is a rejection citing its rule."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from projection_setup import WSOP, Pipeline
from shared_hands import WSOP_TABLE

from api.bootstrap import open_read_models
from domain.hand.aggregate import hand_id
from domain.rulebooks import get_rulebook
from ingest.phh import load_hands
from ingest.phh_validate import validate_hand
from projections.database import SqliteReadDatabase
from projections.read_models import ReadModels
from projections.runner import Projector

pytestmark = pytest.mark.unit

COMPETITION = "wsop-2023-43"


class Folder:
    def __init__(self, path: Path) -> None:
        self.database_url: str | None = None
        self.data_dir = path


@pytest.fixture(scope="module")
def projected(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReadModels]:
    if not WSOP.is_dir():
        pytest.fail(f"the shared hand histories are not at {WSOP}; set POKERAUDIT_PHH_DIR")
    folder = tmp_path_factory.mktemp("wsop")
    pipeline = Pipeline(folder)
    counts = pipeline.phh([WSOP], COMPETITION)
    assert counts == {"accepted": 1855, "rejected": 1}
    projector = Projector(pipeline.store, SqliteReadDatabase(folder / "read.sqlite"), page=500)
    assert projector.catch_up() == projector.store.recorder.max_notification_id()
    assert projector.lag() == 0
    models = open_read_models(Folder(folder))
    yield models
    models.close()
    projector.close()
    pipeline.close()


def hands_and_reports() -> list[tuple[str, object]]:
    rulebook = get_rulebook("bfsp")
    return [(f"{Path(h.file).stem}#{h.index}", (h, validate_hand(h, rulebook))) for h in load_hands([WSOP])]


@pytest.mark.parametrize(("table", "case"), hands_and_reports(), ids=lambda v: v if isinstance(v, str) else "")
def test_final_stacks_and_pots_equal_the_validators(projected: ReadModels, table: str, case: object) -> None:
    hand, report = case  # type: ignore[misc]
    found = projected.hand(str(hand_id(WSOP_TABLE, hand.hand_number, COMPETITION)))
    assert found is not None, f"{table} was not projected"
    names = dict(zip(hand.seats, hand.players, strict=True))
    stacks = {s.seat: s.stack for s in found.seats}
    for player, (seat, expected) in enumerate(zip(hand.seats, report.finishing_stacks, strict=True), start=1):
        if player not in hand.unknown_stacks:
            assert stacks[seat] == expected * hand.scale, f"{names[seat]}'s final stack"
    assert found.status == ("ended" if report.complete else "in_progress")
    pots = [p for p in projected.pots(found.hand_id) if p.awarded]
    assert [p.amount for p in pots] == [p.amount * hand.scale for p in report.pots]
    assert [[names[s] for s in p.eligible] for p in pots] == [p.eligible for p in report.pots]
    assert [[(names[s.seat], s.amount) for s in p.shares] for p in pots] == [
        [(w.player, w.amount * hand.scale) for w in p.winners] for p in report.pots
    ]
    assert [(p.winning_hand, p.odd_chip, p.half) for p in pots] == [
        (p.winning_hand, p.odd_chip, p.half) for p in report.pots
    ]
    showdown = projected.showdown(found)
    assert [names[s] for s in showdown.order] == report.showdown_order


def test_the_refused_razz_raise_is_a_rejection_with_its_rule(projected: ReadModels) -> None:
    rejections, total = projected.rejections(COMPETITION, None, 0, 10)
    assert total == 1
    (refused,) = rejections
    assert (refused.kind, refused.rule, refused.event_type) == ("illegal", "bfsp 4.7.3", "PlayerActed")
    assert refused.table_id == WSOP_TABLE and refused.hand == "85"  # 03-50-24.phh: hand = 85
    assert projected.rejections(COMPETITION, "malformed", 0, 10) == ([], 0)
    razz = projected.hand(str(hand_id(WSOP_TABLE, 85, COMPETITION)))
    assert razz is not None and razz.status == "in_progress"


def test_competition_and_tables_are_derived_from_the_hands(projected: ReadModels) -> None:
    (competition,) = projected.competitions()
    assert competition.competition_id == COMPETITION
    # the 83 hands of one event's day are one table (issue 13), not 83 tables of one hand
    assert (competition.tables, competition.hands, competition.hands_in_progress) == (1, 83, 1)
    assert competition.rejections == 1
    tables, total = projected.tables(COMPETITION, 0, 2)
    assert total == 1 and [t.table_id for t in tables] == [WSOP_TABLE]
    table = projected.table(COMPETITION, WSOP_TABLE)
    # its last hand is the last one played, hand 85 (the razz hand, stopped at the refused raise)
    assert table is not None and table.last_hand_status == "in_progress"
    hand = projected.hand(table.last_hand_id)
    assert hand is not None and table.last_hand_id == str(hand_id(WSOP_TABLE, 85, COMPETITION))
    # a hand in play: the table shows the stacks it started with (03-50-24.phh's starting_stacks)
    assert [(s.seat, s.player, s.stack) for s in table.seats] == [
        (1, "Talal Shakerchi", 2_650_000), (2, "Brian Rast", 27_050_000)
    ]
    assert [s.seat for s in hand.seats] == [1, 2]
