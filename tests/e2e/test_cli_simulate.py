"""``pokeraudit simulate`` as an operator runs it: a seeded competition published to the embedded log, judged
by ``pokeraudit referee`` with every mistake refused, and the same seed published again stored once."""

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


def test_a_simulated_competition_is_published_judged_and_its_mistakes_refused(tmp_path: Path) -> None:
    args = ("simulate", "--seed", "7", "--tables", "3", "--seats", "9", "--hands", "8", "--mistakes", "0.05")
    published = pokeraudit(tmp_path, *args, "--quiet")
    assert published.returncode == 0, published.stderr
    summary = json.loads(published.stdout.splitlines()[0])
    assert summary["competition"] == "sim-7" and summary["players"] == 27 and summary["mistakes"] > 0
    assert f"published {summary['events'] + summary['mistakes']} events of sim-7" in published.stdout
    judged = pokeraudit(tmp_path, "referee")
    assert judged.returncode == 0, judged.stderr
    assert json.loads(judged.stdout) == {"accepted": summary["events"], "rejected": summary["mistakes"]}
    again = pokeraudit(tmp_path, *args, "--quiet")
    assert again.stdout == published.stdout
    total = summary["events"] + summary["mistakes"]
    assert json.loads(pokeraudit(tmp_path, "referee").stdout) == {"duplicate": total}
    assert pokeraudit(tmp_path, "verify").returncode == 0


def test_a_game_the_simulator_cannot_deal_is_refused_with_exit_code_2(tmp_path: Path) -> None:
    refused = pokeraudit(tmp_path, "simulate", "--seed", "1", "--variant", "F7S", "--quiet")
    assert refused.returncode == 2 and "flop games" in refused.stderr
