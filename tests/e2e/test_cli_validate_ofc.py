"""`pokeraudit validate` on OFC hand histories (docs/OFC_FORMAT.md), as a user runs it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from domain.ofc.events import OfcPlayer, OfcRoundStarted
from domain.rulebooks import BFSP
from ingest.ofc_history import history_of
from ingest.simulator.ofc import next_fantasy, play_round

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "ofc-example.ofc.json"
POKERAUDIT = Path(sys.executable).parent / "pokeraudit"


def pokeraudit(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(POKERAUDIT), *map(str, args)], capture_output=True, text=True, timeout=120)


def test_the_documented_example_is_legal_and_scored_as_worked_out_in_the_document() -> None:
    run = pokeraudit("validate", EXAMPLE)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        f"ok {EXAMPLE} [T1 round 1]: Ann +7 royalties 8, Bob -7",
        "1 OFC rounds: 1 legal, 0 refused",
    ]


def test_json_gives_each_players_rows_fouls_royalties_and_points() -> None:
    run = pokeraudit("validate", "--json", EXAMPLE)
    assert run.returncode == 0, run.stderr
    (line,) = run.stdout.splitlines()
    report = json.loads(line)
    assert report["variant"] == "OFC" and report["ok"] and report["complete"]
    ann, bob = report["players"]
    assert ann["rows"] == {
        "bottom": ["2c", "8s", "2h", "Ah", "8h"],
        "middle": ["3c", "5c", "Qs", "3s", "5s"],
        "top": ["Kc", "4s", "Kh"],
    }
    assert ann["royalties"] == {"bottom": 0, "middle": 0, "top": 8, "total": 8} and ann["earns_fantasy"]
    assert not ann["fouled"] and not bob["fouled"]
    assert (ann["points"], bob["points"]) == (7, -7)
    assert report["pairs"] == [
        {"first": 1, "second": 2, "rows": [-1, -1, 1], "scoop": False, "royalties": 8, "points": 7}
    ]


def test_an_illegal_act_is_refused_with_its_bfsp_8_rule(tmp_path: Path) -> None:
    data = json.loads(EXAMPLE.read_text())
    data["acts"][2]["top"] = ["Kc", "4s", "Ah"]  # seat 1 sets a card he was not dealt, and not his 8s
    data["acts"][2]["bottom"] = ["2c"]  # (Ah is dealt to him later)
    broken = tmp_path / "broken.ofc.json"
    broken.write_text(json.dumps(data))
    run = pokeraudit("validate", broken)
    assert run.returncode == 1
    assert run.stdout.splitlines()[0].startswith(f"REFUSED {broken} [T1 round 1]: act 3: seat 1 was dealt")
    assert run.stdout.splitlines()[0].endswith("(bfsp 8 (later deals))")


def test_an_unreadable_file_exits_2_naming_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ofc.json"
    bad.write_text(
        json.dumps(
            {
                "format": "pokeraudit-ofc/1",
                "table": "T1",
                "round": 1,
                "button": 1,
                "players": [],
                "acts": [{"act": "deal", "seat": 1, "cards": ["Zz"]}],
            }
        )
    )
    run = pokeraudit("validate", bad)
    assert run.returncode == 2
    assert "field 'acts.0.deal.cards.0'" in run.stderr


def test_a_file_of_rounds_checks_fantasy_against_the_round_before(tmp_path: Path) -> None:
    rng = random.Random(163)
    seated = (OfcPlayer(1, "Ann"), OfcPlayer(2, "Bob"))
    first = play_round(OfcRoundStarted("T1", 1, 2, seated), BFSP, rng, noise=0.5)
    assert any(h.earns_fantasy for h in first.scored.hands)
    second = play_round(OfcRoundStarted("T1", 2, 1, seated, next_fantasy(first.scored, rng)), BFSP, rng)
    rounds = [
        history_of(first.events).model_dump(mode="json"),
        history_of(second.events).model_dump(mode="json"),
    ]
    good = tmp_path / "two.ofc.json"
    good.write_text(json.dumps(rounds))
    run = pokeraudit("validate", "--json", good)
    assert run.returncode == 0, run.stdout
    reports = [json.loads(line) for line in run.stdout.splitlines()]
    assert [r["round"] for r in reports] == [1, 2]
    assert any(p["fantasy"] for p in reports[1]["players"])
    rounds[1]["fantasy"] = []  # the player who earned fantasy left out of it
    bad = tmp_path / "left-out.ofc.json"
    bad.write_text(json.dumps(rounds))
    run = pokeraudit("validate", bad)
    assert run.returncode == 1
    assert "plays this round in fantasy (bfsp 8 (fantasy))" in run.stdout.splitlines()[1]
