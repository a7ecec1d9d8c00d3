"""``pokeraudit simulate --variant OFC`` as an operator runs it: OFC tables published to the embedded log, every
act judged legal by ``pokeraudit referee``, the chains verified, and the same seed published again stored once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

POKERAUDIT = Path(sys.executable).parent / "pokeraudit"


def pokeraudit(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KAFKA_BOOTSTRAP_SERVERS", "DATABASE_URL")}
    env["POKERAUDIT_DATA_DIR"] = str(data_dir)
    return subprocess.run([str(POKERAUDIT), *args], capture_output=True, text=True, timeout=300, env=env)


def test_ofc_tables_are_published_and_judged_legal(tmp_path: Path) -> None:
    args = ("simulate", "--variant", "OFC", "--seed", "3", "--tables", "2", "--hands", "6")
    published = pokeraudit(tmp_path, *args, "--quiet")
    assert published.returncode == 0, published.stderr
    summary = json.loads(published.stdout.splitlines()[0])
    assert summary["variant"] == "OFC" and summary["players"] == 6 and summary["rounds"] == 12
    assert sum(summary["points"].values()) == 0
    assert f"published {summary['events']} events of sim-ofc-3" in published.stdout
    judged = pokeraudit(tmp_path, "referee")
    assert json.loads(judged.stdout) == {"accepted": summary["events"]}
    again = pokeraudit(tmp_path, *args, "--quiet")
    assert again.stdout == published.stdout
    assert json.loads(pokeraudit(tmp_path, "referee").stdout) == {"duplicate": summary["events"]}
    assert pokeraudit(tmp_path, "verify").returncode == 0


def test_ofc_tables_seat_two_or_three(tmp_path: Path) -> None:
    run = pokeraudit(tmp_path, "simulate", "--variant", "OFC", "--seed", "3", "--seats", "4")
    assert run.returncode == 2 and "2 to 3 players (bfsp 8)" in run.stderr


def test_an_ofc_competition_is_published_judged_and_placed_by_points(tmp_path: Path) -> None:
    args = (
        "simulate",
        "--variant",
        "OFC",
        "--competition-format",
        "american",
        "--players",
        "6",
        "--seed",
        "4",
    )
    published = pokeraudit(tmp_path, *args, "--hands", "2", "--quiet")
    assert published.returncode == 0, published.stderr
    summary = json.loads(published.stdout.splitlines()[0])
    assert summary["competition"] == "sim-ofc-cup-4" and summary["rounds"] == 4
    judged = json.loads(pokeraudit(tmp_path, "referee").stdout)
    assert judged == {"accepted": int(published.stdout.split("published ")[1].split()[0])}
    protocol = json.loads(pokeraudit(tmp_path, "protocol", "sim-ofc-cup-4").stdout)
    best = max(summary["points"], key=lambda p: summary["points"][p])
    assert protocol["placings"][0]["participant"] == best and protocol["placings"][0]["place"] == 1
    assert [s["player"] for s in protocol["ofc"]["standings"]][0] == best
