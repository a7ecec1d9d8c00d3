"""``pokeraudit validate`` as a user runs it, against PokerKit 0.7.7 on the same files: whole processes, side by side.

    .venv/bin/python bench/validate.py [PATH] [--runs 7] [--jobs N] [--against WORKTREE]

Each run starts a process and times it from start to exit: ours is the installed console script,
``pokeraudit validate --json PATH`` (start-up, reading, replay and every JSON line written to /dev/null); the
anchor is a Python process that imports PokerKit, loads every file under PATH (``HandHistory.load``, or
``load_all`` for ``.phhs``) and replays each hand (``list(hand_history)``: every state) — what our command does
short of reporting. The two alternate (ours, anchor, ours, …) so a busy machine slows both alike; each pair
gives a ratio (anchor wall / ours wall). Printed: every run, the medians of wall time, CPU time (user + sys of
the process and its workers) and peak memory (ru_maxrss), the median ratio, and the load average before and
after. The last line is one JSON object with those figures. Default PATH: the 2,000 shared Pluribus files.

``--phases`` prints instead where one process's CPU time goes, phase by phase, on the same files: the
interpreter's start, the command's imports, listing the files, reading them (text, PHH fields, actions),
replaying (the engine alone on the events, and the importer that makes the events asking the engine where PHH
is ambiguous), building the reports and their JSON. ``--anchor PATH`` runs only the anchor (the bench starts
itself that way).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PATH = ROOT.parent / "shared" / "data" / "phh" / "data" / "pluribus"
POKERAUDIT = Path(sys.executable).parent / "pokeraudit"


def anchor(path: Path) -> int:
    """PokerKit loads and replays every hand under ``path``; prints the number of hands and how many raised."""
    import pokerkit

    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.suffix in (".phh", ".phhs"))
    hands = raised = 0
    for file in files:
        with file.open("rb") as fp:
            histories = list(pokerkit.HandHistory.load_all(fp)) if file.suffix == ".phhs" else [
                pokerkit.HandHistory.load(fp)
            ]
        for history in histories:
            hands += 1
            try:
                for _ in history:
                    pass
            except Exception:
                raised += 1
    print(json.dumps({"hands": hands, "raised": raised}))
    return 0


def phases(path: Path, repeats: int) -> None:
    """CPU seconds of each phase of validating ``path`` in one process (the medians of ``repeats`` passes)."""
    started = [timed([sys.executable, "-S", "-c", "pass"])["cpu"] for _ in range(repeats)]
    imports = [
        float(subprocess.run(
            [sys.executable, "-c", "import time; t = time.process_time(); import api.cli_validate, api.validate_view;"
             " print(time.process_time() - t)"], capture_output=True, check=True, text=True, cwd=ROOT,
        ).stdout)
        for _ in range(repeats)
    ]
    sys.path.insert(0, str(ROOT))
    import gc

    from domain.hand.replay import Replayer
    from domain.hand.state import HandState
    from domain.rulebooks import get_rulebook
    from ingest.phh import loads, phh_files
    from ingest.phh_events import PhhEvents
    from ingest.phh_validate import validate_hand

    rulebook = get_rulebook("bfsp")
    cpu = time.process_time
    rows: dict[str, list[float]] = {}
    for _ in range(repeats):
        # what a phase leaves behind is kept for the next one, which the command does not do (it drops each
        # file's hands once printed): frozen, it is not rescanned by the collector and charged to later phases
        gc.collect()
        gc.freeze()
        t0 = cpu()
        files = list(phh_files([path]))
        t1 = cpu()
        texts = [(str(file), file.read_text(encoding="utf-8"), file.suffix == ".phhs") for file in files]
        t2 = cpu()
        hands = [hand for name, text, many in texts for hand in loads(text, name, many)]
        gc.freeze()
        t3 = cpu()
        results = []
        for hand in hands:
            replayer = Replayer(rulebook)
            events = PhhEvents(hand, lambda r=replayer: r.state)  # type: ignore[misc]
            results.append((hand, replayer.run(events), events))
        t4 = cpu()
        gc.freeze()
        t4b = cpu()
        for _hand, result, _events in results:
            state = HandState.start(result.accepted[0], rulebook)  # type: ignore[arg-type]
            for event in result.accepted[1:]:
                state.apply(event)
        t5 = cpu()
        gc.freeze()
        t5b = cpu()
        reports = [validate_hand(hand, rulebook) for hand, _result, _events in results]  # replayed again
        t6 = cpu()
        for report in reports:
            report.to_json()
        t7 = cpu()
        del results, reports, hands
        gc.unfreeze()
        gc.collect()
        for name, value in (("listing the files", t1 - t0), ("reading the text", t2 - t1),
                            ("PHH to hands (fields, actions)", t3 - t2),
                            ("replay: the engine alone", t5 - t4b),
                            ("replay: the importer's share (events, the engine's answers)", (t4 - t3) - (t5 - t4b)),
                            ("reports (validate_hand less the replay above)", (t6 - t5b) - (t4 - t3)), ("JSON", t7 - t6)):
            rows.setdefault(name, []).append(value)
    table = {"the interpreter's start (python -S -c pass)": statistics.median(started),
             "imports of the validate command": statistics.median(imports),
             **{name: statistics.median(values) for name, values in rows.items()}}
    total = sum(table.values())
    print(f"one process's CPU on {path}, median of {repeats} passes (load average {os.getloadavg()[0]:.1f}):")
    for name, value in table.items():
        print(f"  {name:62} {value:7.3f} s  {100 * value / total:5.1f} %")
    print(f"  {'total':62} {total:7.3f} s")
    print(json.dumps({"name": "validate_phases_cpu", "value": round(total, 4), "unit": "s",
                      "phases": {name: round(value, 4) for name, value in table.items()}}))


def timed(argv: list[str], output: list[bytes] | None = None, cwd: Path | None = None) -> dict[str, float]:
    """One whole process: wall seconds, CPU seconds (its own and its waited-for children's), peak RSS in MiB.
    Its stdout goes to /dev/null, or into ``output`` when given."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink, tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(
            argv, stdout=sink if output is None else subprocess.PIPE, stderr=errors, cwd=cwd
        )
        if output is not None:
            assert process.stdout is not None
            output.append(process.stdout.read())
        _, status, usage = os.wait4(process.pid, 0)
        errors.seek(0)
        error_text = errors.read().decode(errors="replace")
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):  # 1: some hand refused, still a whole run
        raise SystemExit(f"{argv[:3]} exited {process.returncode}: {error_text[-2000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mib": usage.ru_maxrss / 1024}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT_PATH)
    parser.add_argument("--runs", type=int, default=7, help="counted runs of each side (after one warm-up pair)")
    parser.add_argument("--jobs", type=int, default=None, help="pokeraudit validate --jobs (default: its own)")
    parser.add_argument("--phases", action="store_true", help="where one process's CPU time goes, phase by phase")
    parser.add_argument(
        "--against", type=Path, default=None, metavar="WORKTREE",
        help="also run another checkout's command (python -m api.console validate, in WORKTREE) in the same "
        "alternation: a before/after comparison on the same machine at the same time",
    )
    parser.add_argument("--anchor", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.anchor:
        return anchor(args.path)
    if args.phases:
        phases(args.path, args.runs)
        return 0
    if args.against is not None:
        args.path = args.path.resolve()  # the other command runs in its own folder
    ours_argv = [str(POKERAUDIT), "validate", "--json", str(args.path)]
    if args.jobs is not None:
        ours_argv += ["--jobs", str(args.jobs)]
    anchor_argv = [sys.executable, str(Path(__file__).resolve()), "--anchor", str(args.path)]
    load_before = os.getloadavg()
    # warm-up (the page cache, the .pyc files), keeping what each side printed to check both read every hand
    printed: list[bytes] = []
    timed(ours_argv, printed), timed(anchor_argv, printed)
    hands = printed[0].count(b"\n")
    anchored = json.loads(printed[1])
    if anchored["hands"] != hands or anchored["raised"]:
        raise SystemExit(f"PokerKit read {anchored}, pokeraudit {hands} hands: not the same work")
    other_argv = [sys.executable, "-m", "api.console", *ours_argv[1:]]
    if args.against is not None:
        checked: list[bytes] = []
        timed(other_argv, checked, cwd=args.against)
        if checked[0] != printed[0]:
            raise SystemExit(f"{args.against}'s validate printed other lines than this checkout's: not the same work")
    ours, theirs, others = [], [], []
    for run in range(1, args.runs + 1):
        ours.append(timed(ours_argv))
        theirs.append(timed(anchor_argv))
        if args.against is not None:
            others.append(timed(other_argv, cwd=args.against))
        print(f"run {run}: pokeraudit {ours[-1]['wall']:.3f} s wall {ours[-1]['cpu']:.3f} s CPU; "
              f"PokerKit {theirs[-1]['wall']:.3f} s wall {theirs[-1]['cpu']:.3f} s CPU; "
              f"ratio {theirs[-1]['wall'] / ours[-1]['wall']:.2f}"
              + (f"; {args.against.name} {others[-1]['wall']:.3f} s wall {others[-1]['cpu']:.3f} s CPU"
                 if others else ""))
    load_after = os.getloadavg()

    def median(runs: list[dict[str, float]], key: str) -> float:
        return statistics.median(r[key] for r in runs)

    ratio = statistics.median(t["wall"] / o["wall"] for o, t in zip(ours, theirs, strict=True))
    cpu_ratio = statistics.median(t["cpu"] / o["cpu"] for o, t in zip(ours, theirs, strict=True))
    print(f"{hands} hands in {args.path}; load average {load_before[0]:.1f} before, {load_after[0]:.1f} after")
    print(f"pokeraudit validate --json: median {median(ours, 'wall'):.3f} s wall, {median(ours, 'cpu'):.3f} s CPU, "
          f"peak {median(ours, 'peak_mib'):.0f} MiB")
    print(f"PokerKit 0.7.7 load + replay: median {median(theirs, 'wall'):.3f} s wall, "
          f"{median(theirs, 'cpu'):.3f} s CPU, peak {median(theirs, 'peak_mib'):.0f} MiB")
    print(f"ratio (PokerKit / ours, pair by pair, median): wall {ratio:.2f}x, CPU {cpu_ratio:.2f}x")
    against = {}
    if others:
        print(f"{args.against} (python -m api.console validate --json): median {median(others, 'wall'):.3f} s wall, "
              f"{median(others, 'cpu'):.3f} s CPU, peak {median(others, 'peak_mib'):.0f} MiB; "
              f"it over ours, run by run, median: wall "
              f"{statistics.median(a['wall'] / o['wall'] for o, a in zip(ours, others, strict=True)):.2f}x, CPU "
              f"{statistics.median(a['cpu'] / o['cpu'] for o, a in zip(ours, others, strict=True)):.2f}x")
        against = {"against": str(args.against), "against_s": round(median(others, "wall"), 4),
                   "against_cpu_s": round(median(others, "cpu"), 4)}
    print(json.dumps({
        "name": "validate_whole_process",
        "value": round(median(ours, "wall"), 4),
        "unit": "s",
        "anchor": round(median(theirs, "wall"), 4),
        "ratio": round(ratio, 2),
        "cpu_s": round(median(ours, "cpu"), 4),
        "anchor_cpu_s": round(median(theirs, "cpu"), 4),
        "cpu_ratio": round(cpu_ratio, 2),
        "peak_rss_mib": round(median(ours, "peak_mib"), 1),
        "anchor_peak_rss_mib": round(median(theirs, "peak_mib"), 1),
        "hands": hands,
        "runs": args.runs,
        "load_average": [round(load_before[0], 2), round(load_after[0], 2)],
        **against,
    }))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
