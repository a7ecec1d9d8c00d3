"""``pokeraudit validate``: replay PHH hands (and OFC rounds) through the rules engine and report each.

What a user waits for is the whole process (issue 17), so three things are kept lean:

- **Start-up.** The console script (api/console.py) sends ``validate`` here without importing the rest of the
  CLI (its services, settings and web stack); this module imports only what validating hands needs, and the OFC
  reader only when an OFC history is among the paths.
- **Reading.** PHH files of the plain shape are read without ``tomllib`` (ingest/phh_fast.py).
- **Cores.** Many files are shared out to a pool of worker processes in chunks, one per core by default
  (``--jobs``); each chunk's lines come back whole and are printed in the order of the files, so the output is
  the same bytes whatever the number of processes.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from domain.rulebooks import DEFAULT_RULEBOOK, RULEBOOKS, get_rulebook
from ingest.ofc_paths import is_history_path

#: below this many files per process a pool costs more than it saves (forking, sending the lines back)
MIN_FILES_PER_PROCESS = 8
#: each chunk is this fraction of the files still to hand out, per process (guided scheduling): large chunks
#: first, few round trips; ever smaller ones towards the end, so no core waits long for the last one
CHUNK_SHARE = 4
#: the smallest chunk, in files
MIN_CHUNK = 8


class Line(NamedTuple):
    """What one report prints (stdout, stderr) and what the tally reads of it."""

    out: str | None
    err: str | None
    unreadable: bool
    ok: bool
    matches: bool | None


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
    from ingest.phh import phh_files

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
    files = [str(path) for path in phh_files([p for p in args.paths if p not in ofc])]
    tally = Tally()
    out, err = sys.stdout, sys.stderr
    for lines in validated(files, args.rulebook, args.json, args.jobs):
        for line in lines:
            if line.err is not None:
                err.write(line.err + "\n")
            if line.out is not None:
                out.write(line.out + "\n")
            tally.count(line.unreadable, line.ok, line.matches)
    if not args.json:
        print(tally.summary())
    return max(tally.exit_code(), ofc_code)


def validated(
    files: Sequence[str], rulebook: str, as_json: bool, jobs: int | None = None
) -> Iterator[list[Line]]:
    """The lines of ``files``' reports, a chunk of files at a time, in the order of ``files``."""
    jobs = min(jobs or available_cores(), len(files) // MIN_FILES_PER_PROCESS)
    if jobs < 2 or not _can_fork():
        # what is loaded now (modules, the rulebook) outlives the run: out of the collector's way, so its
        # full collections, which the many short-lived objects of replaying hands trigger, do not walk it again
        gc.freeze()
        try:
            yield validate_files(files, rulebook, as_json)
        finally:
            gc.unfreeze()
        return
    import multiprocessing

    tasks = [(chunk, rulebook, as_json) for chunk in chunks(files, jobs)]
    # What is loaded now (modules, the rulebook) lives as long as the workers: out of the collector's way, so
    # neither the workers' collections nor their writes to reference counts touch those pages again. (No
    # collection first: after the imports it finds nothing, and it cost a full pass before the fork.)
    gc.freeze()
    try:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            yield from pool.imap(_validate_task, tasks)
    finally:
        gc.unfreeze()  # a caller that lives on (a test) gets its collector back whole


def chunks(files: Sequence[str], jobs: int) -> Iterator[Sequence[str]]:
    """``files`` in consecutive chunks, each a ``CHUNK_SHARE``-th per process of what is left (at least
    ``MIN_CHUNK``): together, in order, they are ``files``."""
    start = 0
    while start < len(files):
        size = max(MIN_CHUNK, (len(files) - start) // (jobs * CHUNK_SHARE))
        yield files[start : start + size]
        start += size


def _validate_task(task: tuple[Sequence[str], str, bool]) -> list[Line]:
    return validate_files(*task)


def validate_files(files: Iterable[str], rulebook_name: str, as_json: bool) -> list[Line]:
    """Each hand of ``files`` validated, as the lines it prints."""
    from api.validate_view import summary_line, unreadable_line
    from ingest.phh_validate import HandReport, UnreadableReport, validate_file

    rulebook = get_rulebook(rulebook_name)
    lines = []
    for file in files:
        for report in validate_file(Path(file), rulebook):
            if isinstance(report, UnreadableReport):
                shown = report.to_json() if as_json else None
                lines.append(Line(shown, unreadable_line(report), True, False, None))
                continue
            assert isinstance(report, HandReport)
            shown = report.to_json() if as_json else summary_line(report)
            lines.append(Line(shown, None, False, report.ok, report.matches))
    return lines


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def main(argv: Sequence[str]) -> int:
    """``pokeraudit validate ...`` alone: the same command, parsed by the same definition, without the CLI's
    other commands (``argv`` starts with ``validate``)."""
    parser = argparse.ArgumentParser(prog="pokeraudit", description="Event-sourced poker hand audit.")
    add_validate(parser.add_subparsers(dest="command", required=True, metavar="COMMAND"))
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code
