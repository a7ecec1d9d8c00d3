"""`status` and `projections lag` in an outage: answered by the entry point with the settings and the probes
alone, the way the full command line answers, and everything else left to the full command line."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

import pytest

from api import cli, console


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@pytest.fixture
def services_down(monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    kafka, postgres = _closed_port(), _closed_port()
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", f"127.0.0.1:{kafka}")
    monkeypatch.setenv("DATABASE_URL", f"postgresql://postgres@127.0.0.1:{postgres}/store")
    return kafka, postgres


@pytest.mark.parametrize("args", [["status"], ["status", "--json"], ["projections", "lag"],
                                  ["projections", "lag", "--json"]])
def test_the_entry_answers_an_outage_as_the_full_command_line_does(
    services_down: tuple[int, int], args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert console.main(args) == 3
    quick = capsys.readouterr()
    assert cli.main(args) == 3
    full = capsys.readouterr()
    assert (quick.out, quick.err) == (full.out, full.err)
    kafka, postgres = services_down
    named = f"Kafka at 127.0.0.1:{kafka}" if args[0] == "status" else f"PostgreSQL at 127.0.0.1:{postgres}"
    assert quick.err.startswith(f"{' '.join(a for a in args if a != '--json')}: {named} is not reachable")
    if "--json" in args:
        assert json.loads(quick.out)["error"].startswith(f"{named} is not reachable")
    else:
        assert quick.out == ""


@pytest.mark.parametrize("args", [["status", "--help"], ["projections", "--help"], ["validate", "--help"]])
def test_anything_else_is_the_full_command_lines(services_down: tuple[int, int], args: list[str],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        console.main(args)
    assert ended.value.code == 0 and "usage: pokeraudit" in capsys.readouterr().out


def test_the_outage_answer_imports_neither_the_rules_engine_nor_kafkas_client(services_down: tuple[int, int]) -> None:
    """What made `status` take 13–24 s on a loaded machine: ~2 CPU-s of imports it did not need."""
    probe = (
        "import sys\n"
        "from api.console import main\n"
        "code = main(['status'])\n"
        "heavy = sorted(m for m in ('kafka', 'domain.hand', 'ingest.referee', 'api.cli', 'fastapi') if m in sys.modules)\n"
        "print(code, heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "3 []", done.stdout + done.stderr
