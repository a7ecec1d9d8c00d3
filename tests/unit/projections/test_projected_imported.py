"""An imported hand history is marked so wherever a hand is read (issue 11 §3): a PHH hand recorded by the
importer keeps its own times and was judged against no live deadline, and the hands read model, the API's hand
reads and the protocol's hands say ``imported``; a dealer's live hand says it was not. The mark survives a
rebuild, and a read-model store made before the column existed gains it, its hands taken as live."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from projection_setup import ALL_IN, PHH_DIR, Pipeline, everything

from api.app import create_app
from api.auth import issue_token
from api.bootstrap import READ_MODELS_FILE
from api.settings import Settings
from domain.hand.aggregate import hand_id
from projections import schema
from projections.database import SqliteReadDatabase
from projections.protocol import protocol
from projections.protocol_render import to_html
from projections.read_models import ReadModels
from projections.runner import Projector

pytestmark = pytest.mark.unit

PLURIBUS_HAND = PHH_DIR / "data" / "pluribus" / "100" / "11.phh"
SECRET = "test-secret-of-at-least-thirty-two-bytes"
IMPORTED = "pluribus-archive"
LIVE = "open"


class Played:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.pipeline = Pipeline(folder)
        self.projector = Projector(self.pipeline.store, SqliteReadDatabase(folder / READ_MODELS_FILE))
        self.models = ReadModels(self.projector.database)

    def imported_hand(self) -> str:
        (table,) = self.models.tables(IMPORTED, 0, 10)[0]
        (hand,), _ = self.models.hands(IMPORTED, table.table_id, 0, 10)
        return hand.hand_id


@pytest.fixture
def played(tmp_path: Path) -> Iterator[Played]:
    if not PLURIBUS_HAND.is_file():
        pytest.fail(f"the shared hand histories are not at {PHH_DIR}; set POKERAUDIT_PHH_DIR")
    played = Played(tmp_path)
    assert set(played.pipeline.phh([PLURIBUS_HAND], IMPORTED)) == {"accepted"}
    assert set(played.pipeline.hand(ALL_IN, competition=LIVE)) == {"accepted"}
    played.projector.catch_up()
    yield played
    played.projector.close()
    played.pipeline.close()


def test_an_imported_hand_reads_imported_and_a_dealers_live_hand_does_not(played: Played) -> None:
    imported = played.models.hand(played.imported_hand())
    live = played.models.hand(str(hand_id("t1", 1, LIVE)))
    assert imported is not None and imported.imported is True
    assert live is not None and live.imported is False
    (listed,), _ = played.models.hands(LIVE, "t1", 0, 10)
    assert listed.imported is False


def test_the_api_shows_the_mark_on_a_hand_and_in_a_tables_hands(played: Played) -> None:
    settings = Settings(POKERAUDIT_DATA_DIR=played.folder, POKERAUDIT_JWT_SECRET=SECRET)
    judge = {"Authorization": f"Bearer {issue_token(SECRET, 'judge-1', 'judge')}"}
    imported = played.models.hand(played.imported_hand())
    assert imported is not None
    with TestClient(create_app(settings, workers=False)) as api:
        one = api.get(f"/v1/hands/{imported.hand_id}", headers=judge)
        assert one.status_code == 200 and one.json()["imported"] is True
        listed = api.get(f"/v1/competitions/{IMPORTED}/tables/{quote(imported.table_id)}/hands", headers=judge)
        assert listed.status_code == 200, listed.text
        assert [h["imported"] for h in listed.json()["items"]] == [True]
        live = api.get(f"/v1/hands/{hand_id('t1', 1, LIVE)}", headers=judge)
        assert live.status_code == 200 and live.json()["imported"] is False
        by_number = api.get(f"/v1/competitions/{LIVE}/tables/t1/hands/1", headers=judge)
        assert by_number.json()["imported"] is False


def test_the_protocol_marks_an_imported_hand(played: Played) -> None:
    (hand,) = protocol(played.pipeline.store, IMPORTED)["hands"]
    assert hand["imported"] is True
    (live,) = protocol(played.pipeline.store, LIVE)["hands"]
    assert live["imported"] is False
    page = to_html(protocol(played.pipeline.store, IMPORTED))
    assert f"{hand['started_at']} (imported)" in page
    assert "(imported)" not in to_html(protocol(played.pipeline.store, LIVE))


def test_a_rebuild_keeps_the_mark(played: Played) -> None:
    before = everything(played.projector.database)
    assert played.projector.rebuild() == played.pipeline.store.recorder.max_notification_id()
    assert everything(played.projector.database) == before
    rebuilt = played.models.hand(played.imported_hand())
    assert rebuilt is not None and rebuilt.imported is True


def test_a_read_model_store_made_before_the_mark_gains_it_with_its_hands_taken_as_live(played: Played) -> None:
    database = played.projector.database
    with database.transaction() as w:
        w.execute(f"ALTER TABLE {schema.HANDS} DROP COLUMN imported")  # as a store made before the column was
    database.create()
    assert {h.imported for h in played.models.hands(LIVE, "t1", 0, 10)[0]} == {False}
    assert played.models.hand(played.imported_hand()).imported is False  # type: ignore[union-attr]
    # a rebuild reads the mark again from each hand's start
    played.projector.rebuild()
    assert played.models.hand(played.imported_hand()).imported is True  # type: ignore[union-attr]
