"""``pokeraudit validate`` shared out to helper processes prints what one process prints, in the order of the
files, and says when a helper fails; the console script answers it without importing the rest of the CLI."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from api import cli, cli_validate, console
from api.cli_validate import validate
from api.validate_view import Tally
from domain.rulebooks import Rulebook
from ingest.phh import phh_files
from ingest.phh_validate import HandReport, UnreadableReport

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


def printed(
    files: list[str], as_json: bool, jobs: int, capsys: pytest.CaptureFixture[str]
) -> tuple[str, str, tuple[int, ...]]:
    """What validating ``files`` prints (stdout, stderr) and counts."""
    capsys.readouterr()
    tally = Tally()
    validate(files, "bfsp", as_json, tally, jobs=jobs)
    out, err = capsys.readouterr()
    return out, err, tally.counts()


@pytest.mark.parametrize("as_json", [True, False])
@pytest.mark.parametrize("jobs", [2, 3])
def test_shared_out_it_prints_what_one_process_prints_in_input_order(
    files: list[str], as_json: bool, jobs: int, capsys: pytest.CaptureFixture[str]
) -> None:
    alone = printed(files, as_json, 1, capsys)
    assert printed(files, as_json, jobs, capsys) == alone
    out, err, counts = alone
    if as_json:
        order = [json.loads(line)["file"] for line in out.splitlines()]
        assert list(dict.fromkeys(order)) == files
    assert err.count("\n") == counts[-1] == 2  # the broken file and the missing one, each once
    assert err.index("broken.phh") < err.index("no-such-file.phh")


@pytest.mark.parametrize("count", [0, 1, 2, 7, 8, 9, 63, 2000])
@pytest.mark.parametrize("jobs", [2, 3, 5])
def test_the_shares_are_the_files_in_order_about_equal_in_bytes(tmp_path: Path, count: int, jobs: int) -> None:
    files = []
    for i in range(count):
        file = tmp_path / f"{i}.phh"
        file.write_bytes(b"x" * (100 + 37 * (i % 11)))
        files.append(str(file))
    files.insert(count // 2, str(tmp_path / "missing.phh"))  # weighs nothing
    got = cli_validate.shares(files, jobs)
    assert [file for share in got for file in share] == files
    assert len(got) == min(jobs, len(files))
    assert all(got), [len(share) for share in got]
    if count >= 63:
        weights = [sum(Path(f).stat().st_size for f in share if Path(f).exists()) for share in got]
        assert max(weights) - min(weights) <= 2 * max(Path(f).stat().st_size for f in files if Path(f).exists())


def test_few_files_stay_in_one_process(
    files: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_fork() -> int:
        raise AssertionError("forked for a few files")

    monkeypatch.setattr(os, "fork", no_fork)
    out, _, counts = printed(files[:cli_validate.MIN_FILES_PER_PROCESS * 2 - 1], False, 4, capsys)
    assert counts[0] == out.count("\n") > 0


def _fail_at(monkeypatch: pytest.MonkeyPatch, file: str, failure: Callable[[], None]) -> None:
    """``validate_file`` fails as ``failure`` does when it reaches ``file``, in whichever process reads it."""
    from ingest import phh_validate

    read = phh_validate.validate_file

    def failing(path: Path, rulebook: Rulebook) -> Iterator[HandReport | UnreadableReport]:
        if str(path) == file:
            failure()
        return read(path, rulebook)

    monkeypatch.setattr(phh_validate, "validate_file", failing)


@pytest.fixture
def forked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The helpers' pids, as validate forks them."""
    pids: list[int] = []
    fork = os.fork

    def recorded() -> int:
        pid = fork()
        if pid:
            pids.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", recorded)
    return pids


def _all_reaped(pids: list[int]) -> bool:
    """Every one of ``pids`` has ended and been waited for (none left running, none a zombie)."""
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            continue
        return False
    return bool(pids)


def test_a_helper_that_fails_is_raised_with_its_traceback_after_the_shares_before_it(
    files: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], forked: list[int]
) -> None:
    def bug() -> None:
        raise ZeroDivisionError("the engine's bug")

    _fail_at(monkeypatch, files[-1], bug)  # in the last share: a helper's
    with pytest.raises(cli_validate.WorkerFailed, match="(?s)ZeroDivisionError: the engine's bug"):
        validate(files, "bfsp", True, Tally(), jobs=2)
    out = capsys.readouterr().out
    assert json.loads(out.splitlines()[0])["file"] == files[0]  # the first share was printed before
    assert _all_reaped(forked)


def test_a_helper_killed_is_said_so(
    files: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], forked: list[int]
) -> None:
    _fail_at(monkeypatch, files[-1], lambda: os.kill(os.getpid(), signal.SIGKILL))
    with pytest.raises(cli_validate.WorkerFailed, match=f"killed by signal {int(signal.SIGKILL)}"):
        validate(files, "bfsp", True, Tally(), jobs=2)
    assert _all_reaped(forked)


def test_an_interrupt_in_the_first_share_stops_the_helpers(
    files: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], forked: list[int]
) -> None:
    def interrupt() -> None:
        raise KeyboardInterrupt

    _fail_at(monkeypatch, files[0], interrupt)  # in the first share: this process's
    with pytest.raises(KeyboardInterrupt):
        validate(files, "bfsp", True, Tally(), jobs=3)
    assert len(forked) == 2 and _all_reaped(forked)


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


@pytest.mark.parametrize("as_json", [False, True])
def test_the_process_ends_with_all_its_output_out(
    files: list[str], as_json: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    """The console script ends its process without Python's teardown (api/console.py): every line is out first,
    and the exit status is the command's."""
    argv = ["validate", *(["--json"] if as_json else []), *files]
    code = console.main(argv)
    inside = capsys.readouterr()
    buffered = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}  # as users run it
    run = subprocess.run(
        [sys.executable, "-m", "api.console", *argv], capture_output=True, text=True, cwd=ROOT, env=buffered
    )
    assert (run.returncode, run.stdout, run.stderr) == (code, inside.out, inside.err)
    assert run.stdout.count("\n") > len(files)
