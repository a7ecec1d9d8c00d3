"""``pokeraudit draw`` (issue 13): its draws are the ones the referee accepts, and docs/DRAW.md's examples are
what it prints."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from api.cli import main
from api.cli_draw import floor_from_json
from domain.competition.breaking import verify_table_broken
from domain.competition.draw import commitment, verify_draw
from domain.competition.events import SeatAssignment
from domain.competition.floor_events import TableBreakCommitted, TableBroken
from domain.errors import CompetitionError, RuleRef
from domain.officials.codec import decode

ROOT = Path(__file__).resolve().parents[2]
DRAW_MD = ROOT / "docs" / "DRAW.md"
FLOOR = ROOT / "docs" / "examples" / "floor-before-break.json"
RULE = RuleRef("bfsp", "5.2")
PLAYERS = [f"p-{n:02d}" for n in range(1, 46)]


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["draw", *argv, "--json"]) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


def assignments(record: dict[str, object]) -> tuple[SeatAssignment, ...]:
    return tuple(SeatAssignment(**a) for a in record["assignments"])  # type: ignore[attr-defined]


def test_the_seat_draw_printed_is_the_one_the_referee_accepts(capsys: pytest.CaptureFixture[str]) -> None:
    record = run_json(capsys, "seats", "--seed", "spring-45", "--seats-per-table", "9", *reversed(PLAYERS))
    seats = assignments(record)
    assert record["seed_sha256"] == commitment("spring-45")
    verify_draw("spring-45", commitment("spring-45"), PLAYERS, 9, seats, RULE)
    assert len({(a.table, a.seat) for a in seats}) == 45 and {a.table for a in seats} == {1, 2, 3, 4, 5}
    assert record["buttons"] == [{"table": t, "seat": 9} for t in range(1, 6)]
    # another seed seats them otherwise, and the referee refuses this seating for it
    with pytest.raises(CompetitionError, match="not the ones the seed gives"):
        verify_draw("spring-46", commitment("spring-46"), PLAYERS, 9, seats, RULE)


def test_the_final_table_draw_seats_the_players_left_at_one_table(capsys: pytest.CaptureFixture[str]) -> None:
    left = PLAYERS[:9]
    record = run_json(capsys, "final-table", "--seed", "ft", "--seats-per-table", "9", *left)
    seats = assignments(record)
    verify_draw("ft", commitment("ft"), left, 9, seats, RuleRef("bfsp", "3.1"))
    assert {a.table for a in seats} == {1} and sorted(a.seat for a in seats) == list(range(1, 10))
    assert record["type"] == "FinalTableDrawConducted" and record["final_table_size"] == 9


def test_too_many_players_for_the_final_table_is_refused_with_the_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draw", "final-table", "--seed", "ft", "--seats-per-table", "9", *PLAYERS[:10]]) == 2
    assert "the final table seats 9 and 10 were given" in capsys.readouterr().err


def test_the_break_draw_printed_is_the_one_the_referee_accepts(capsys: pytest.CaptureFixture[str]) -> None:
    record = run_json(capsys, "break", "--seed", "b-77", "--table", "3", "--floor", str(FLOOR), "--authorised-by", "cj")
    floor = floor_from_json(json.loads(FLOOR.read_text()), "bfsp")
    event = decode({k: v for k, v in record.items() if k != "seed_sha256"}, {"TableBroken": TableBroken})
    committed = TableBreakCommitted(3, str(record["seed_sha256"]))
    verify_table_broken(floor.tables, event, floor.book, floor.seat_limit_after_a_break, committed)
    assert {m.participant for m in event.moves} == {"jon", "kim"}
    # the same moves under another seed's commitment are refused
    with pytest.raises(CompetitionError, match="not the one committed"):
        verify_table_broken(
            floor.tables, event, floor.book, floor.seat_limit_after_a_break, TableBreakCommitted(3, commitment("x"))
        )


def test_a_table_that_cannot_break_is_refused_with_the_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    full = {"seats_per_table": 6, "tables": [
        {"table": 1, "seats": {"1": "a", "2": "b"}, "first_button": 2},
        {"table": 2, "seats": {str(s): f"p{s}" for s in range(1, 7)}, "first_button": 6},
    ]}
    (tmp_path / "full.json").write_text(json.dumps(full))
    assert main(["draw", "break", "--seed", "s", "--table", "1", "--floor", str(tmp_path / "full.json")]) == 2
    assert "table 1 cannot break: its 2 players need 2 seats and the other tables have 0 open" in capsys.readouterr().err
    (tmp_path / "floor.json").write_text('{"seats_per_table": 6, "tables": [{"table": 1, "seats": {"1": "a"}}]}')
    assert main(["draw", "break", "--seed", "s", "--table", "1", "--floor", str(tmp_path / "floor.json")]) == 2
    assert "tables[0]: last_hand (button, small_blind, big_blind) or first_button is needed" in capsys.readouterr().err


def test_a_player_given_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draw", "seats", "--seed", "s", "--seats-per-table", "9", "ann", "bob", "ann"]) == 2
    assert "players: ann given twice" in capsys.readouterr().err


def documented_commands() -> list[tuple[str, str]]:
    """Every ``$ command`` of DRAW.md's console blocks with the output printed under it."""
    pairs: list[tuple[str, str]] = []
    for block in re.findall(r"```console\n(.*?)```", DRAW_MD.read_text(), flags=re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            pairs.append((command, output))
    return pairs


def test_draw_md_has_examples_of_every_draw() -> None:
    commands = [c for c, _ in documented_commands()]
    for kind in ("seats", "final-table", "break"):
        assert any(c.startswith(f"pokeraudit draw {kind} ") for c in commands), kind
    assert any("sha256sum" in c for c in commands), "the hand computation's hashes"


@pytest.mark.parametrize(("command", "output"), documented_commands())
def test_draw_md_prints_what_the_command_prints(command: str, output: str) -> None:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    ran = subprocess.run(["bash", "-c", command], cwd=ROOT, capture_output=True, text=True, env=env, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == output
