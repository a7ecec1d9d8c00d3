"""`pokeraudit validate` as a user runs it: the installed console script on real and broken files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT / ".." / "shared" / "data" / "phh"))
POKERAUDIT = Path(sys.executable).parent / "pokeraudit"
LEGAL = PHH_DIR / "data" / "pluribus" / "100" / "11.phh"
HALF_CHIPS = PHH_DIR / "data" / "pluribus" / "41b" / "204.phh"
RAZZ = PHH_DIR / "data" / "wsop" / "2023" / "43" / "5" / "03-50-24.phh"


def pokeraudit(*args: str | Path) -> subprocess.CompletedProcess[str]:
    assert POKERAUDIT.exists(), f"the console script is not installed at {POKERAUDIT}"
    return subprocess.run([str(POKERAUDIT), *map(str, args)], capture_output=True, text=True, timeout=120)


def test_legal_hands_exit_0_with_a_line_each_and_a_total() -> None:
    run = pokeraudit("validate", LEGAL, HALF_CHIPS)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == f"ok {LEGAL} [1]"
    assert "odd chip" in lines[1] and "(bfsp 5.9.3)" in lines[1]
    assert lines[-1].startswith("2 hands: 2 legal, 0 refused; finishing stacks match the record in 1 of 2")


def test_json_lines_report_stacks_pots_and_the_recorded_comparison() -> None:
    run = pokeraudit("validate", "--json", "--rulebook", "tda-2022", HALF_CHIPS)
    assert run.returncode == 0, run.stderr
    (line,) = run.stdout.splitlines()
    report = json.loads(line)
    assert (report["file"], report["hand"], report["ok"], report["matches"]) == (
        str(HALF_CHIPS),
        1,
        True,
        False,
    )
    assert report["finishing_stacks"] == [10163, 9900, 10000, 10162, 10000, 9775]
    assert report["expected_finishing_stacks"][0] == 10162.5
    assert report["pots"][0]["eligible"] == ["ORen", "Bill"]
    assert report["showdown_order"] == ["ORen", "Bill"]
    assert "tda-2022" in report["differences"][0]["explanation"]


def test_an_illegal_hand_exits_1_and_names_the_rule() -> None:
    run = pokeraudit("validate", "--json", LEGAL, RAZZ)
    assert run.returncode == 1
    legal, razz = (json.loads(line) for line in run.stdout.splitlines())
    assert legal["ok"] and not razz["ok"]
    assert razz["rejection"]["rule"] == "bfsp 4.7.3"
    assert razz["rejection"]["line"] == 8
    assert razz["rejection"]["event"] == "PlayerActed(seat=2, action=raise, amount=750000)"
    assert razz["rejection"]["action"] == "p2 cbr 750000"


def test_unreadable_input_exits_2_naming_the_file_and_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.phh"
    broken.write_text(LEGAL.read_text().replace("'p3 f'", "'p3 fold'"))
    run = pokeraudit("validate", LEGAL, broken)
    assert run.returncode == 2
    assert f"cannot read {broken}:" in run.stderr and "'fold' is not a PHH action" in run.stderr
    assert run.stdout.splitlines()[0] == f"ok {LEGAL} [1]"
    assert "1 unreadable input" in run.stdout.splitlines()[-1]


def test_a_missing_path_exits_2(tmp_path: Path) -> None:
    run = pokeraudit("validate", tmp_path / "nowhere.phh")
    assert run.returncode == 2
    assert "no such file or folder" in run.stderr
