"""`pokeraudit integrity` as tools call it: the installed console script on a small seeded field."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.simulator.field import generate_field, write_field

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT / ".." / "shared" / "data" / "phh"))
POKERAUDIT = Path(sys.executable).parent / "pokeraudit"


def pokeraudit(*args: str | Path, data_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    assert POKERAUDIT.exists(), f"the console script is not installed at {POKERAUDIT}"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    if data_dir is not None:
        env["POKERAUDIT_DATA_DIR"] = str(data_dir)
    return subprocess.run([str(POKERAUDIT), *map(str, args)], capture_output=True, text=True, timeout=300, env=env)


@pytest.fixture(scope="module")
def field_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("field")
    write_field(generate_field(7, players=60, hands=1200, hands_per_session=40), folder)
    return folder


def test_pairs_csv_has_the_contract_header_and_only_pairs_with_enough_hands(field_dir: Path) -> None:
    run = pokeraudit("integrity", "pairs", field_dir, "--min-hands", "30", "--format", "csv")
    assert run.returncode == 0, run.stderr
    rows = list(csv.reader(io.StringIO(run.stdout)))
    assert rows[0][:3] == ["player_a", "player_b", "score"]
    assert len(rows) > 10
    scores = [float(r[2]) for r in rows[1:]]
    assert scores == sorted(scores, reverse=True)
    names = json.loads((field_dir / "truth.json").read_text())["players"]
    hands = rows[0].index("hands")
    for row in rows[1:]:
        assert row[0] < row[1] and row[0] in names and row[1] in names
        assert int(row[hands]) >= 30
    # a higher minimum leaves pairs out rather than scoring them zero
    fewer = pokeraudit("integrity", "pairs", field_dir, "--min-hands", "200", "--format", "csv")
    kept = list(csv.reader(io.StringIO(fewer.stdout)))[1:]
    assert 0 < len(kept) < len(rows) - 1 and all(int(r[hands]) >= 200 for r in kept)


def test_pairs_json_carries_the_evidence(field_dir: Path) -> None:
    run = pokeraudit("integrity", "pairs", field_dir, "--min-hands", "30", "--format", "json", "--workers", "1")
    assert run.returncode == 0, run.stderr
    pairs = json.loads(run.stdout)
    assert {"player_a", "player_b", "score", "evidence"} <= set(pairs[0])
    reasons = [e["reason"] for p in pairs for e in p["evidence"]]
    assert reasons and all(" " in r for r in reasons)


def test_players_and_alerts(field_dir: Path) -> None:
    players = pokeraudit("integrity", "players", field_dir, "--format", "json")
    assert players.returncode == 0, players.stderr
    first = json.loads(players.stdout)[0]
    assert first["vpip"]["sample"] > 0 and first["vpip"]["low"] <= first["vpip"]["value"] <= first["vpip"]["high"]
    alerts = pokeraudit("integrity", "alerts", field_dir)
    assert alerts.returncode == 0, alerts.stderr
    assert isinstance(json.loads(alerts.stdout), list)


def test_a_file_whose_hands_name_no_players_is_refused_naming_the_file(tmp_path: Path) -> None:
    anonymous = tmp_path / "anonymous.phh"
    anonymous.write_text(
        'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [50, 100]\nmin_bet = 100\n'
        'starting_stacks = [1000, 1000]\nactions = ["d dh p1 AsKs", "d dh p2 2c2d", "p2 f"]\n'
    )
    run = pokeraudit("integrity", "pairs", anonymous, "--min-hands", "1", "--format", "csv")
    assert run.returncode == 2
    assert str(anonymous) in run.stderr and "players" in run.stderr
    assert run.stdout == ""


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An embedded store holding a simulated competition's hands, and its read models projected."""
    from api.bootstrap import bootstrap, open_projector
    from api.operations import publish, referee_once
    from api.settings import Settings
    from ingest.simulator import simulate

    folder = tmp_path_factory.mktemp("store")
    settings = Settings(POKERAUDIT_DATA_DIR=folder)  # type: ignore[call-arg]
    pipeline = bootstrap(settings)
    try:
        publish(pipeline, list(simulate(5, tables=1, seats=6, hands_per_table=40).records()), progress=False)
        assert referee_once(pipeline).get("rejected", 0) == 0
        projector = open_projector(settings)
        projector.catch_up()
        projector.close()
    finally:
        pipeline.close()
    return folder


def pairs_of(run: subprocess.CompletedProcess[str]) -> list[list[str]]:
    assert run.returncode == 0, run.stderr
    rows = list(csv.reader(io.StringIO(run.stdout)))
    assert rows[0][:3] == ["player_a", "player_b", "score"]
    return rows[1:]


def test_competition_reads_the_read_model_and_since_a_window_of_the_store(store_dir: Path) -> None:
    live = pairs_of(pokeraudit("integrity", "pairs", "--competition", "sim-5", "--min-hands", "10",
                               data_dir=store_dir))
    assert live
    # every hand started after 2000: the window is the whole competition, counted from the store
    window = pairs_of(pokeraudit("integrity", "pairs", "--competition", "sim-5", "--min-hands", "10",
                                 "--since", "2000-01-01T00:00:00+00:00", data_dir=store_dir))
    assert [r[:2] + [r[4]] for r in live] == [r[:2] + [r[4]] for r in window]
    assert [round(float(r[2]), 3) for r in live] == [round(float(r[2]), 3) for r in window]
    players = pokeraudit("integrity", "players", "--competition", "sim-5", "--min-hands", "1", "--format", "json",
                         data_dir=store_dir)
    assert players.returncode == 0, players.stderr
    assert len(json.loads(players.stdout)) == 6


def test_a_window_with_no_hands_and_an_unknown_competition_are_clear_errors(store_dir: Path) -> None:
    later = pokeraudit("integrity", "pairs", "--competition", "sim-5", "--since", "2999-01-01T00:00:00+00:00",
                       data_dir=store_dir)
    assert later.returncode == 2 and "sim-5" in later.stderr and "2999-01-01" in later.stderr
    unknown = pokeraudit("integrity", "alerts", "--competition", "no-such-cup", data_dir=store_dir)
    assert unknown.returncode == 2 and "no-such-cup" in unknown.stderr
    alone = pokeraudit("integrity", "pairs", "--since", "2000-01-01T00:00:00+00:00", data_dir=store_dir)
    assert alone.returncode == 2 and "--competition" in alone.stderr
