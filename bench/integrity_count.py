"""What integrity's statistics cost per hand, outside the projector: reading PHH files, and counting (the goal:
at most 50 µs a hand).

    .venv/bin/python bench/integrity_count.py --field DIR [--hands 6000] [--runs 5] [--against OLD_CHECKOUT]
        [--warm-passes 1]

The first ``--hands`` hands of the field's files (a field bench/integrity.py wrote, or any PHH files that name
their players) are read into hand records and counted twice in a fresh process: the first count pays for the
evaluation tables a process fills as it meets new hands ("cold"), the second shows the steady cost ("warm",
what a long-running projector pays). CPU time of that process, not wall-clock: the machine is shared. Each run
is a fresh process; with ``--against`` the same measurement is made with the code of another checkout (the
code before a change) in alternate runs, so both see the same load, and the counters both give are compared
(they must be the same). The last line is one JSON object: the median warm cost a hand.

One warm pass either holds one of the garbage collector's full collections or not (when it comes depends on the
objects that survived before it), and one costs about a quarter of a pass here, so the single pass reads high or
low by that much; ``--warm-passes N`` counts N warm passes and takes their mean (the steady cost, collections
included as often as they come). Each run's line says how many full collections its warm passes held.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ANCHOR_US = 50.0

#: run in a fresh process with the checkout's code first on the path; prints one JSON object
_MEASURE = r"""
import gc, hashlib, json, sys, time
root, field, hands, warm = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, root)
from ingest.phh import phh_files
from ingest.phh_integrity import read_records
from projections.integrity.counters import Counters
from projections.integrity.live import dump_pair, dump_player, dump_seating

records = []
started = time.process_time()
for record in read_records(sorted(phh_files([field]))):
    records.append(record)
    if len(records) >= hands:
        break
read = time.process_time() - started
times = []
full = [0]
gc.callbacks.append(lambda phase, info: full.__setitem__(0, full[0] + (phase == "start" and info["generation"] == 2)))
for n in range(1 + warm):
    if n == 1:
        full[0] = 0
    counters = Counters()
    started = time.process_time()
    for record in records:
        counters.add(record)
    times.append(time.process_time() - started)
digest = hashlib.sha256()
for name in sorted(counters.players):
    digest.update(f"{name}{dump_player(counters.players[name])}".encode())
for key in sorted(counters.pairs):
    digest.update(f"{key}{dump_pair(counters.pairs[key])}".encode())
digest.update(dump_seating(counters).encode())
print(json.dumps({"hands": len(records), "read_s": read, "cold_s": times[0], "warm_s": sum(times[1:]) / warm,
                  "full_collections": full[0], "digest": digest.hexdigest()}))
"""


def measure(root: Path, field: Path, hands: int, warm: int = 1) -> dict[str, float | str]:
    out = subprocess.run([sys.executable, "-c", _MEASURE, str(root), str(field), str(hands), str(warm)], check=True,
                         capture_output=True, text=True).stdout
    found: dict[str, float | str] = json.loads(out.strip().splitlines()[-1])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--field", type=Path, required=True, help="a folder of PHH files whose hands name players")
    parser.add_argument("--hands", type=int, default=6000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", type=Path, default=None, help="another checkout, measured in alternate runs")
    parser.add_argument("--warm-passes", type=int, default=1,
                        help="warm passes a run counts, their mean taken (the full collections averaged in)")
    args = parser.parse_args()
    if args.warm_passes < 1:
        parser.error("--warm-passes: at least 1 (a warm pass follows the cold one)")
    roots = {"this": ROOT} | ({"against": args.against.resolve()} if args.against else {})
    runs: dict[str, list[dict[str, float | str]]] = {name: [] for name in roots}
    for run in range(args.runs):
        for name, root in roots.items():
            found = measure(root, args.field, args.hands, args.warm_passes)
            runs[name].append(found)
            print(f"run {run + 1} {name}: " + " ".join(
                f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}" for k, v in found.items() if k != "digest"),
                flush=True)
    hands = int(runs["this"][0]["hands"])

    def per_hand(name: str, key: str) -> float:
        return statistics.median(float(r[key]) for r in runs[name]) / hands * 1e6

    result: dict[str, object] = {
        "name": "integrity: counting the statistics, CPU per hand (warm, outside the projector)",
        "value": round(per_hand("this", "warm_s"), 1), "unit": "µs", "anchor": ANCHOR_US,
        "ratio": round(ANCHOR_US / per_hand("this", "warm_s"), 3),
        "peak_memory_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
        "hands": hands, "cold_us": round(per_hand("this", "cold_s"), 1),
        "read_us": round(per_hand("this", "read_s"), 1), "runs": args.runs, "warm_passes": args.warm_passes,
        "load": round(os.getloadavg()[0], 1),
    }
    if args.against:
        digests = {str(r["digest"]) for rs in runs.values() for r in rs}
        result.update(
            against_warm_us=round(per_hand("against", "warm_s"), 1),
            against_cold_us=round(per_hand("against", "cold_s"), 1),
            against_read_us=round(per_hand("against", "read_s"), 1),
            speedup_warm=round(per_hand("against", "warm_s") / per_hand("this", "warm_s"), 2),
            speedup_cold=round(per_hand("against", "cold_s") / per_hand("this", "cold_s"), 2),
            same_counters=len(digests) == 1,
        )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
