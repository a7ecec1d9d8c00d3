"""`pokeraudit verify` on a tampered embedded store (issue 11, §5): a stream cut short, a whole stream gone, a
checkpoint taken out of its chain, the last transaction removed with its checkpoint — and every break reported,
each with its event id, type, competition, table and hand, in text and with --json (exit 1)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT / ".." / "shared" / "data" / "phh"))
POKERAUDIT = Path(sys.executable).parent / "pokeraudit"
WSOP = PHH_DIR / "data" / "wsop" / "2023" / "43" / "5"
FIRST = [WSOP / "00-02-07.phh", WSOP / "00-22-43.phh"]
THEN = [WSOP / "03-50-24.phh", WSOP / "00-15-36.phh"]


def pokeraudit(data_dir: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KAFKA_BOOTSTRAP_SERVERS", "DATABASE_URL")}
    env["POKERAUDIT_DATA_DIR"] = str(data_dir)
    return subprocess.run([str(POKERAUDIT), *map(str, args)], capture_output=True, text=True, timeout=300, env=env)


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four hands judged in two referee runs: two transactions, two checkpoints of one chain."""
    folder = tmp_path_factory.mktemp("judged")
    for hands in (FIRST, THEN):
        assert pokeraudit(folder, "publish", "--quiet", "--competition", "wsop-43", *hands).returncode == 0
        run = pokeraudit(folder, "referee")
        assert run.returncode == 0, run.stderr
    return folder


@pytest.fixture
def store(judged: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(judged, folder)
    return folder


def rows(folder: Path, where: str = "1", args: tuple[Any, ...] = ()) -> list[tuple[int, str, int, str]]:
    with sqlite3.connect(folder / "store.sqlite") as db:
        found: list[tuple[int, str, int, str]] = db.execute(
            f"SELECT rowid, originator_id, originator_version, topic FROM stored_events WHERE {where} ORDER BY rowid",
            args,
        ).fetchall()
        return found


def delete(folder: Path, rowids: list[int]) -> None:
    with sqlite3.connect(folder / "store.sqlite") as db:
        db.executemany("DELETE FROM stored_events WHERE rowid = ?", [(r,) for r in rowids])


def breaks(folder: Path) -> list[dict[str, Any]]:
    run = pokeraudit(folder, "verify", "--json")
    assert run.returncode == 1, run.stdout
    report = json.loads(run.stdout)
    assert report["ok"] is False
    found: list[dict[str, Any]] = report["breaks"]
    return found


def hand_ends(folder: Path) -> list[tuple[int, str, int, str]]:
    return rows(folder, "topic LIKE ?", ("%Hand.HandEnded",))


def test_an_untouched_store_verifies_against_its_checkpoints(judged: Path) -> None:
    run = pokeraudit(judged, "verify", "--json")
    assert run.returncode == 0, run.stdout
    report = json.loads(run.stdout)
    assert report["ok"] and report["breaks"] == []
    assert report["checkpoints"] == 2 and report["published_checkpoints"] == 3  # the chain's opening, two checkpoints
    text = pokeraudit(judged, "verify")
    assert text.returncode == 0 and "every chain holds" in text.stdout


def test_a_hand_cut_short_of_its_hand_ended_is_reported(store: Path) -> None:
    rowid, stream, version, _ = hand_ends(store)[0]
    delete(store, [rowid])
    (found,) = breaks(store)
    assert found["kind"] == "truncated"
    assert (found["event_type"], found["version"]) == ("HandEnded", version)
    assert found["competition_id"] == "wsop-43" and found["table_id"] and found["hand_id"]
    assert found["event_id"] and found["stream"].replace("-", "") == stream
    text = pokeraudit(store, "verify")
    assert text.returncode == 1 and "1 BROKEN" in text.stdout
    assert (f"truncated: HandEnded {found['event_id']} in competition wsop-43, table {found['table_id']},"
            f" hand {found['hand_id']}") in text.stdout


def test_the_last_transaction_removed_with_its_checkpoint_is_caught_by_the_logs_copy(store: Path) -> None:
    checkpoint = rows(store, "topic LIKE ?", ("%HeadsAnchored",))[-1]
    last_hand = hand_ends(store)[-1]
    delete(store, [checkpoint[0], last_hand[0]])
    found = breaks(store)
    kinds = sorted(b["kind"] for b in found)
    assert kinds == ["checkpoint", "truncated"], found
    truncated = next(b for b in found if b["kind"] == "truncated")
    assert truncated["event_type"] == "HandEnded" and truncated["stream"].replace("-", "") == last_hand[1]


def test_a_whole_stream_deleted_is_reported_missing(store: Path) -> None:
    stream = hand_ends(store)[0][1]
    delete(store, [r[0] for r in rows(store, "originator_id = ?", (stream,))])
    (found,) = breaks(store)
    assert found["kind"] == "missing_stream" and found["stream"].replace("-", "") == stream
    assert found["event_type"] == "HandEnded"


def test_a_checkpoint_taken_out_of_its_chain_is_reported(store: Path) -> None:
    first = rows(store, "topic LIKE ?", ("%HeadsAnchored",))[0]
    delete(store, [first[0]])
    found = breaks(store)
    assert [b["kind"] for b in found] == ["missing", "checkpoint"], found
    assert {b["stream"].replace("-", "") for b in found} == {first[1]}


def test_every_break_is_reported_not_only_the_first(store: Path) -> None:
    ends = hand_ends(store)
    changed = [ends[0], ends[1], *rows(store, "topic LIKE ?", ("%PlayerActed",))[:1]]
    with sqlite3.connect(store / "store.sqlite") as db:
        for rowid, *_ in changed:
            (state,) = db.execute("SELECT state FROM stored_events WHERE rowid = ?", (rowid,)).fetchone()
            at = bytes(state).index(b'"at":"') + 6
            tampered = bytes(state)[:at] + b"1999" + bytes(state)[at + 4 :]  # the year of the event's time
            db.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (tampered, rowid))
    found = breaks(store)
    assert [b["kind"] for b in found] == ["altered"] * 3, found
    assert sorted((b["stream"].replace("-", ""), b["version"]) for b in found) == sorted((s, v) for _, s, v, _ in changed)
    for b in found:
        assert b["event_id"] and b["event_type"] in ("HandEnded", "PlayerActed")
        assert b["competition_id"] == "wsop-43" and b["table_id"] and b["hand_id"]
    text = pokeraudit(store, "verify")
    assert text.returncode == 1 and "3 BROKEN" in text.stdout
    assert all(b["event_id"] in text.stdout for b in found)
