"""``pokeraudit validate``: replay PHH hands (and OFC rounds) through the rules engine and report each.

What a user waits for is the whole process (issue 17), so three things are kept lean:

- **Start-up.** The console script (api/console.py) sends ``validate`` here without importing the rest of the
  CLI (its services, settings and web stack); this module imports only what validating hands needs, and the OFC
  reader only when an OFC history is among the paths.
- **Reading.** PHH files of the plain shape are read without ``tomllib`` (ingest/phh_fast.py).
- **Cores.** Many files are shared out, one contiguous share per core by default (``--jobs``), the shares about
  equal in bytes. The process forks its helpers once everything the work needs is imported (so they import
  nothing) and validates the first share itself, printing as it goes; each helper validates the next share and
  sends back what it prints, as whole text, which is printed after the shares before it. So the output is the same
  bytes, in the order of the files, whatever the number of processes, and a helper costs one fork and one pipe:
  no pool, no per-file messages, no process that only waits.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from domain.rulebooks import DEFAULT_RULEBOOK, RULEBOOKS, get_rulebook
from ingest.ofc_paths import is_history_path

if TYPE_CHECKING:
    from api.validate_view import Tally

#: below this many files per process a helper costs more than it saves (the fork, the text sent back)
MIN_FILES_PER_PROCESS = 8

#: what a share prints, in order: runs of text, each with the stream it goes to (True: stderr)
Pieces = list[tuple[bool, str]]


class WorkerFailed(RuntimeError):
    """A helper process stopped without its share's results (a bug, or a signal): its traceback or its status."""


def add_validate(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = subparsers.add_parser(
        "validate",
        help="replay PHH hand histories (and OFC rounds, *.ofc.json) through the rules engine",
        description="Replay each hand of PHH files (.phh, .phhs, folders recursively) and each round of OFC "
        "histories (*.ofc.json, docs/OFC_FORMAT.md) and report it. "
        "Exit 0 when every hand is legal, 1 when any is not, 2 when some input cannot be read.",
    )
    command.add_argument(
        "paths", nargs="+", metavar="PATH", help="a .phh, .phhs or .ofc.json file, or a folder of PHH files"
    )
    command.add_argument("--rulebook", default=DEFAULT_RULEBOOK, choices=sorted(RULEBOOKS))
    command.add_argument("--json", action="store_true", help="one JSON object per hand on stdout")
    command.add_argument(
        "--jobs", type=int, default=None, metavar="N",
        help="PHH files are replayed by N processes (default: one per available core; 1: in this process). "
        "The output is the same, in the order of the files, whatever N",
    )
    command.set_defaults(run=run_validate)


def run_validate(args: argparse.Namespace) -> int:
    from api.validate_view import Tally
    from ingest.phh import phh_file_names

    rulebook = get_rulebook(args.rulebook)
    if args.jobs is not None and args.jobs < 1:
        print("validate: --jobs must be at least 1", file=sys.stderr)
        return 2
    ofc = [p for p in args.paths if is_history_path(p)]  # OFC rounds (docs/OFC_FORMAT.md): their own report
    ofc_code = 0
    if ofc:
        from api.ofc_validate import validate_ofc

        ofc_code = validate_ofc(ofc, rulebook, args.json)
        if len(ofc) == len(args.paths):
            return ofc_code
    files = phh_file_names([p for p in args.paths if p not in ofc])
    tally = Tally()
    validate(files, args.rulebook, args.json, tally, args.jobs)
    if not args.json:
        print(tally.summary())
    return max(tally.exit_code(), ofc_code)


def validate(files: Sequence[str], rulebook: str, as_json: bool, tally: Tally, jobs: int | None = None) -> None:
    """Validate ``files``, printing each hand's line to stdout (an unreadable input's to stderr) in the order of
    ``files``, counted in ``tally``; shared out to ``jobs`` processes (default: one per available core)."""
    jobs = min(jobs or available_cores(), len(files) // MIN_FILES_PER_PROCESS)
    out, err = sys.stdout, sys.stderr

    def write(to_err: bool, text: str) -> None:
        (err if to_err else out).write(text)

    # What is loaded now (modules, the rulebook) outlives the run, and after a fork is shared with the helpers:
    # out of the collector's way, so the collections that replaying hands triggers do not walk it again, nor
    # write to its pages (which a helper would then copy). No collection first: after the imports it finds
    # nothing, and it cost a full pass.
    gc.freeze()
    try:
        if jobs < 2 or not hasattr(os, "fork"):
            validate_files(files, rulebook, as_json, tally, write)
            return
        first, *rest = shares(files, jobs)
        helpers = [_fork(share, rulebook, as_json) for share in rest]
        try:
            validate_files(first, rulebook, as_json, tally, write)
            while helpers:  # each helper's share follows the ones before it
                pieces, counts = _results(*helpers.pop(0))
                for to_err, text in pieces:
                    write(to_err, text)
                tally.add_counts(counts)
        finally:
            for pid, reading in helpers:  # an error or an interrupt here: the helpers' work is not wanted
                _stop(pid, reading)
    finally:
        gc.unfreeze()  # a caller that lives on (a test) gets its collector back whole


def validate_files(
    files: Iterable[str], rulebook_name: str, as_json: bool, tally: Tally, write: Callable[[bool, str], object]
) -> None:
    """Each hand of ``files`` validated: its line written (``write(to_stderr, text)``) and counted."""
    from api.validate_view import summary_line, unreadable_line
    from ingest.phh_validate import HandReport, UnreadableReport, validate_file

    rulebook = get_rulebook(rulebook_name)
    for file in files:
        for report in validate_file(file, rulebook):
            if isinstance(report, UnreadableReport):
                write(True, unreadable_line(report) + "\n")
                if as_json:
                    write(False, report.to_json() + "\n")
                tally.count(unreadable=True)
                continue
            assert isinstance(report, HandReport)
            write(False, (report.to_json() if as_json else summary_line(report)) + "\n")
            tally.count(ok=report.ok, matches=report.matches)


def shares(files: Sequence[str], jobs: int) -> list[Sequence[str]]:
    """``files`` in ``jobs`` consecutive shares (fewer only when there are fewer files), none empty, of about
    equal size in bytes — the work of a file grows with its hands and actions, so with its length; a file that
    cannot be read weighs nothing. Together, in order, they are ``files``."""
    from bisect import bisect_left
    from itertools import accumulate

    sizes = []
    for file in files:
        try:
            sizes.append(os.stat(file).st_size)
        except OSError:
            sizes.append(0)
    jobs = max(1, min(jobs, len(files)))
    upto = list(accumulate(sizes))  # the bytes of the files up to each one, itself included
    total = upto[-1] if upto else 0
    bounds = [0]
    for share in range(1, jobs):
        # this share ends after the first file that reaches its part of the bytes, leaving a file to each after it
        end = bisect_left(upto, -(-total * share // jobs)) + 1
        bounds.append(min(max(end, bounds[-1] + 1), len(files) - (jobs - share)))
    bounds.append(len(files))
    return [files[start:end] for start, end in zip(bounds, bounds[1:], strict=False)]


def _fork(share: Sequence[str], rulebook: str, as_json: bool) -> tuple[int, int]:
    """A helper process validating ``share``: its pid and the pipe its results come back on."""
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # the helper: it never returns from here
        os.close(reading)
        _helper(share, rulebook, as_json, writing)
    os.close(writing)
    return pid, reading


def _helper(share: Sequence[str], rulebook: str, as_json: bool, writing: int) -> None:
    import marshal

    from api.validate_view import Tally

    status = 0
    try:
        try:
            pieces: Pieces = []
            run: list[str] = []
            to_err = False

            def write(stream: bool, text: str) -> None:
                nonlocal to_err
                if stream is not to_err and run:
                    pieces.append((to_err, "".join(run)))
                    run.clear()
                to_err = stream
                run.append(text)

            tally = Tally()
            validate_files(share, rulebook, as_json, tally, write)
            if run:
                pieces.append((to_err, "".join(run)))
            message = marshal.dumps((True, pieces, tally.counts()))
        except BaseException:  # noqa: BLE001 -- whatever stops the helper is the parent's to raise
            import traceback

            status = 1
            message = marshal.dumps((False, traceback.format_exc(), ()))
        with os.fdopen(writing, "wb") as pipe:
            pipe.write(message)
    finally:
        # no clean-up of the parent's state (its buffered output, its atexit hooks) in a copy of it
        os._exit(status)


def _results(pid: int, reading: int) -> tuple[Pieces, tuple[int, ...]]:
    """What a helper printed and counted, once it has ended (its pipe closed, the process reaped)."""
    import marshal

    try:
        with os.fdopen(reading, "rb") as pipe:
            message = pipe.read()
    except BaseException:  # an interrupt while waiting: the helper's work is not wanted
        _stop(pid)
        raise
    _, status = os.waitpid(pid, 0)
    try:
        done, pieces, counts = marshal.loads(message)
    except (EOFError, ValueError, TypeError):
        raise WorkerFailed(f"a validate helper process ended without its results ({_exit_status(status)})") from None
    if not done:
        raise WorkerFailed(f"a validate helper process failed:\n{pieces}")
    return pieces, counts


def _stop(pid: int, reading: int | None = None) -> None:
    import signal

    if reading is not None:
        os.close(reading)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def _exit_status(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def main(argv: Sequence[str]) -> int:
    """``pokeraudit validate ...`` alone: the same command, parsed by the same definition, without the CLI's
    other commands (``argv`` starts with ``validate``)."""
    parser = argparse.ArgumentParser(prog="pokeraudit", description="Event-sourced poker hand audit.")
    add_validate(parser.add_subparsers(dest="command", required=True, metavar="COMMAND"))
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code
