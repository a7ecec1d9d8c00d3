"""``pokeraudit validate`` shared out to worker processes prints what one process prints, in the order of the
files; the console script answers it without importing the rest of the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from api import cli, cli_validate, console
from api.cli_validate import validated
from ingest.phh import phh_files

pytestmark = [pytest.mark.unit]

ROOT = Path(__file__).resolve().parents[2]
PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT / ".." / "shared" / "data" / "phh"))


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Files from every corner of the shared set in an order that is not the sorted one (so the output's order
    can only come from the input's), a missing file and an unreadable one among them."""
    assert PHH_DIR.is_dir(), f"the shared hands are not at {PHH_DIR} (set POKERAUDIT_PHH_DIR)"
    shared = [str(path) for path in phh_files([PHH_DIR / "data"])]
    broken = tmp_path_factory.mktemp("broken") / "broken.phh"
    broken.write_text("variant = 'NT'\nantes = [0, 0\n", encoding="utf-8")
    picked = shared[::37][::-1] + [path for path in shared if path.endswith(".phhs")]  # tables: many hands
    picked[5:5] = [str(broken), str(PHH_DIR / "no-such-file.phh")]
    return picked


def test_the_pool_prints_what_one_process_prints_in_input_order(files: list[str]) -> None:
    alone = [line for chunk in validated(files, "bfsp", True, jobs=1) for line in chunk]
    chunks = list(validated(files, "bfsp", True, jobs=2))
    pooled = [line for chunk in chunks for line in chunk]
    assert len(chunks) > 2, "the files were not shared out"
    assert pooled == alone
    order = [json.loads(line.out)["file"] for line in pooled if line.out is not None]
    assert list(dict.fromkeys(order)) == files
    assert [line.err is not None for line in pooled] == [line.unreadable for line in pooled]
    assert sum(line.unreadable for line in pooled) == 2


@pytest.mark.parametrize("count", [0, 1, 7, 8, 9, 63, 2000])
@pytest.mark.parametrize("jobs", [2, 3])
def test_the_chunks_are_the_files_in_order_large_first_then_smaller(count: int, jobs: int) -> None:
    files = [f"{i}.phh" for i in range(count)]
    chunks = list(cli_validate.chunks(files, jobs))
    assert [file for chunk in chunks for file in chunk] == files
    sizes = [len(chunk) for chunk in chunks]
    assert all(a >= b for a, b in zip(sizes, sizes[1:], strict=False)), sizes  # so the last ones are short
    assert all(size >= cli_validate.MIN_CHUNK for size in sizes[:-1]), sizes
    if count == 2000:
        assert sizes[0] == 2000 // (jobs * cli_validate.CHUNK_SHARE) and sizes[-1] <= cli_validate.MIN_CHUNK


def test_many_jobs_on_few_files_stay_in_one_process(files: list[str]) -> None:
    assert len(list(validated(files[:3], "bfsp", False, jobs=4))) == 1


@pytest.mark.parametrize("as_json", [False, True])
def test_the_console_script_and_the_whole_cli_print_the_same(
    files: list[str], as_json: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["validate", *(["--json"] if as_json else []), *files]
    code = console.main(argv)
    lean = capsys.readouterr()
    assert cli.main([*argv, "--jobs", "1"]) == code == 2  # the unreadable files
    whole = capsys.readouterr()
    assert (lean.out, lean.err) == (whole.out, whole.err)
    assert lean.out.count("\n") > len(files)  # the .phhs files hold many hands each


def test_jobs_below_one_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_validate.main(["validate", "--jobs", "0", str(PHH_DIR / "data")]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err


def test_validate_starts_without_the_services_and_web_stack() -> None:
    hand = PHH_DIR / "data" / "pluribus" / "100" / "11.phh"
    probe = (
        "import sys\nfrom api.console import main\n"
        f"assert main(['validate', {str(hand)!r}]) == 0\n"
        "print(' '.join(sorted(sys.modules)))"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    loaded = set(run.stdout.split("\n")[-2].split())
    unneeded = {"api.cli", "api.settings", "api.observe", "fastapi", "kafka", "psycopg", "eventsourcing",
                "ingest.ofc_history", "tomllib",
                # the reports' JSON is written by hand (ingest/phh_report.py): no pydantic models to import or build
                "pydantic.main", "ingest.phh_report_model"}
    assert not unneeded & loaded
