"""Import, referee, export as an operator drives them in the embedded mode: PokerStars, OHH and PHH files
imported together are judged legal, and a stored hand exported as PHH or OHH reads back as the events imported."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pokerstars_hands import SPLIT_POT
from shared_hands import PHH_DIR, WSOP_HAND, WSOP_TABLE

from api.bootstrap import READ_MODELS_FILE
from domain.hand.events import HandStarted
from ingest.formats import ImportedHand, read_hands, recorded
from ingest.ohh import dumps, loads, to_ohh
from ingest.phh import load_file
from ingest.phh import loads as phh_loads
from ingest.phh_events import hand_events
from projections.database import SqliteReadDatabase
from projections.read_models import ReadModels

pytestmark = pytest.mark.e2e

POKERAUDIT = Path(sys.executable).parent / "pokeraudit"
PLURIBUS_HAND = PHH_DIR / "data" / "pluribus" / "100" / "11.phh"

def pokeraudit(data_dir: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KAFKA_BOOTSTRAP_SERVERS", "DATABASE_URL")}
    env["POKERAUDIT_DATA_DIR"] = str(data_dir)
    return subprocess.run([str(POKERAUDIT), *map(str, args)], capture_output=True, text=True, timeout=300, env=env)


@pytest.fixture
def imported(tmp_path: Path) -> dict[str, ImportedHand]:
    """A PokerStars session, an OHH export of a Pluribus hand and a WSOP PHH hand, imported and judged."""
    (tmp_path / "stars.txt").write_text(SPLIT_POT)
    (pluribus,) = load_file(PLURIBUS_HAND)
    start, *rest = recorded(hand_events(pluribus))
    assert isinstance(start, HandStarted)
    (tmp_path / "pluribus.ohh").write_text(dumps([to_ohh([dataclasses.replace(start, table_id="pluribus-100"), *rest])]))
    sources = [tmp_path / "stars.txt", tmp_path / "pluribus.ohh", WSOP_HAND]
    run = pokeraudit(tmp_path / "var", "import", "--quiet", "--competition", "club", *sources)
    assert run.returncode == 0, run.stderr
    hands = {h.format: h for h in read_hands(sources) if isinstance(h, ImportedHand)}
    events = sum(len(h.events) for h in hands.values())
    assert run.stdout.startswith(f"imported 3 hands ({events} events)")
    judged = pokeraudit(tmp_path / "var", "referee")
    assert judged.returncode == 0, judged.stderr
    assert json.loads(judged.stdout) == {"accepted": events}
    return hands


def test_a_pokerstars_hand_exported_as_phh_reads_back_as_the_events_imported(
    tmp_path: Path, imported: dict[str, ImportedHand]
) -> None:
    out = pokeraudit(tmp_path / "var", "export", "--hand", "club/Aase III/208912340003", "--format", "phh")
    assert out.returncode == 0, out.stderr
    (hand,) = phh_loads(out.stdout, "exported.phh")
    assert tuple(hand_events(hand)) == imported["pokerstars"].events
    # alpha (1.90) and foxtrot (9.85) each put in 1.25 and took 1.30 back; charlie lost his big blind
    assert dict(zip(hand.seats, hand.finishing_stacks or (), strict=True)) == {1: 195, 3: 1175, 6: 990}


def test_a_phh_hand_exported_as_ohh_reads_back_with_its_pots(tmp_path: Path, imported: dict[str, ImportedHand]) -> None:
    out = pokeraudit(tmp_path / "var", "export", "--hand", f"club/{WSOP_TABLE}/1", "--format", "ohh")
    assert out.returncode == 0, out.stderr
    (hand,) = list(loads(out.stdout, "exported.ohh"))
    phh = imported["phh"]
    start, *rest = phh.events
    assert isinstance(start, HandStarted)
    assert hand.events == (dataclasses.replace(start, table_id=WSOP_TABLE, hand_number=1), *rest)
    # Kristopher Tong (id 1) wins the one pot at showdown, as the record's finishing stacks say
    (pot,) = json.loads(out.stdout)["ohh"]["pots"]
    assert pot["player_wins"] == [{"player_id": 1, "win_amount": pot["amount"]}]


def test_an_unknown_hand_and_an_unreadable_file_are_named_with_their_exit_codes(
    tmp_path: Path, imported: dict[str, ImportedHand]
) -> None:
    missing = pokeraudit(tmp_path / "var", "export", "--hand", "club/Aase III/1", "--format", "ohh")
    assert missing.returncode == 1 and "no hand club/Aase III/1" in missing.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text(SPLIT_POT.replace("charlie: folds", "charlie: folds\nzulu: calls $0.20"))
    run = pokeraudit(tmp_path / "var", "import", "--quiet", "--competition", "club", bad, tmp_path / "pluribus.ohh")
    assert run.returncode == 2 and run.stdout.startswith("imported 1 hands")
    line = SPLIT_POT.splitlines().index("charlie: folds") + 2
    assert f"{bad}:{line}: hand 1 field 'action'" in run.stderr


def test_a_hand_exported_for_a_role_shows_only_the_cards_the_role_sees(
    tmp_path: Path, imported: dict[str, ImportedHand]
) -> None:
    """The export goes through the API's sealing policy (api/sealing.py): a viewer's copy of an ended hand keeps
    the hands shown and writes every other hole card unknown; the integrity team's is the operator's."""
    from domain.hand.events import HandShown, HoleCardsDealt

    hand_arg = ("export", "--hand", f"club/{WSOP_TABLE}/1", "--format", "phh")
    whole = pokeraudit(tmp_path / "var", *hand_arg)
    viewer = pokeraudit(tmp_path / "var", *hand_arg, "--as", "viewer")
    integrity = pokeraudit(tmp_path / "var", *hand_arg, "--as", "integrity")
    assert whole.returncode == viewer.returncode == integrity.returncode == 0, viewer.stderr
    assert integrity.stdout == whole.stdout
    (full,) = phh_loads(whole.stdout, "whole.phh")
    (sealed,) = phh_loads(viewer.stdout, "viewer.phh")
    shown = {e.seat for e in hand_events(full) if isinstance(e, HandShown)}
    dealt = {e.seat: e.cards for e in hand_events(full) if isinstance(e, HoleCardsDealt)}
    seen = {e.seat: e.cards for e in hand_events(sealed) if isinstance(e, HoleCardsDealt)}
    assert shown and set(dealt) - shown, "the hand has shown and unshown hands"
    for seat, cards in dealt.items():
        assert seen[seat] == (cards if seat in shown else tuple(None for _ in cards)), seat


def test_every_imported_hand_reads_imported_once_projected_and_after_a_rebuild(
    tmp_path: Path, imported: dict[str, ImportedHand]
) -> None:
    """Issue 11 §3: the importer's hands keep their own times and say so to readers."""
    for action in ("run", "rebuild"):
        projected = pokeraudit(tmp_path / "var", "projections", action)
        assert projected.returncode == 0, projected.stderr
        models = ReadModels(SqliteReadDatabase(tmp_path / "var" / READ_MODELS_FILE))
        try:
            found = [
                hand for table in models.tables("club", 0, 10)[0]
                for hand in models.hands("club", table.table_id, 0, 10)[0]
            ]
        finally:
            models.close()
        assert len(found) == len(imported) and all(hand.imported for hand in found), action
