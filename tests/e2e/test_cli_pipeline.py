"""The embedded pipeline as an operator drives it: publish → referee → status → verify, and a tampered
store caught by verify."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT / ".." / "shared" / "data" / "phh"))
POKERAUDIT = Path(sys.executable).parent / "pokeraudit"
WSOP = PHH_DIR / "data" / "wsop" / "2023" / "43" / "5"


def pokeraudit(data_dir: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KAFKA_BOOTSTRAP_SERVERS", "DATABASE_URL")}
    env["POKERAUDIT_DATA_DIR"] = str(data_dir)
    return subprocess.run([str(POKERAUDIT), *map(str, args)], capture_output=True, text=True, timeout=300, env=env)


def test_published_hands_are_judged_once_tracked_and_their_chains_verify(tmp_path: Path) -> None:
    assert pokeraudit(tmp_path, "publish", "--quiet", "--competition", "wsop-43", WSOP).returncode == 0
    judged = pokeraudit(tmp_path, "referee")
    assert judged.returncode == 0, judged.stderr
    outcomes = json.loads(judged.stdout)
    # The razz hand's 6th-street raise breaks the fixed-limit size (bfsp 4.7.3): one rejection.
    assert outcomes["rejected"] == 1 and outcomes["accepted"] > 1500
    accepted = outcomes["accepted"]
    # stdout is this run's counts; stderr labels them and adds the store's totals over all runs (issue 13)
    assert judged.stderr.splitlines()[-2:] == [
        f"judged this run: {accepted + 1} records (accepted {accepted}, rejected 1)",
        f"in the store, all runs: accepted {accepted}, rejected 1, lag 0",
    ]
    again = pokeraudit(tmp_path, "referee")
    assert json.loads(again.stdout) == {}, "a second run finds nothing new to judge"
    assert again.stderr.splitlines()[-2:] == [
        "judged this run: 0 records",
        f"in the store, all runs: accepted {accepted}, rejected 1, lag 0",
    ]
    republished = pokeraudit(tmp_path, "publish", "--quiet", "--competition", "wsop-43", WSOP)
    assert republished.returncode == 0
    assert json.loads(pokeraudit(tmp_path, "referee").stdout) == {"duplicate": sum(outcomes.values())}
    status = json.loads(pokeraudit(tmp_path, "status", "--json").stdout)
    assert status["lag"] == 0 and status["accepted"] == outcomes["accepted"] and status["rejected"] == 1
    verified = pokeraudit(tmp_path, "verify")
    assert verified.returncode == 0 and "every chain holds" in verified.stdout


def test_verify_finds_a_single_changed_byte_in_any_stored_event(tmp_path: Path) -> None:
    hand = WSOP / "00-02-07.phh"
    pokeraudit(tmp_path, "publish", "--quiet", hand)
    pokeraudit(tmp_path, "referee")
    db = sqlite3.connect(tmp_path / "store.sqlite")
    rows = db.execute("SELECT rowid, state FROM stored_events ORDER BY rowid").fetchall()
    assert len(rows) > 10
    for rowid, state in (rows[1], rows[len(rows) // 2], rows[-1]):
        original = bytes(state)
        digit = next(i for i, b in enumerate(original) if chr(b).isdigit())
        changed = original[:digit] + bytes([ord("0") + (original[digit] - ord("0") + 1) % 10]) + original[digit + 1 :]
        db.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (changed, rowid))
        db.commit()
        broken = pokeraudit(tmp_path, "verify")
        assert broken.returncode == 1 and "BROKEN" in broken.stdout, broken.stdout
        db.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (original, rowid))
        db.commit()
    assert pokeraudit(tmp_path, "verify").returncode == 0

