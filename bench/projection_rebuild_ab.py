"""A/B of ``Projector.rebuild()`` on PostgreSQL: two checkouts' code, alternating, over one store filled once.

    git worktree add --detach /tmp/rebuild-base main
    .venv/bin/python bench/projection_rebuild_ab.py --base /tmp/rebuild-base --rounds 3 [--workers 2] [--keep]

One server (deploy/postgres/postgres.sh, run folder ``--run``); the store filled once (2,149 shared hands judged
``--repeat`` times, with the base's code); a copy of it (CREATE DATABASE ... TEMPLATE) per side; each rebuild
in a fresh process of that side's code (its folder first on ``sys.path``), the sides taking turns. The
server's CPU: the postmaster's own and its reaped children's time plus its live children's (from /proc),
before and after each rebuild. Medians at the end; the machine's load average beside each run.
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
from typing import Any

HERE = Path(__file__).resolve().parent.parent
PY = sys.executable
SIDES: dict[str, Path] = {}
RUN = Path("/tmp/rebuild-ab/pg")
SCRATCH = Path("/tmp/rebuild-ab")
PHH_DIR = os.environ.get("POKERAUDIT_PHH_DIR", str(HERE.parent / "shared" / "data" / "phh"))

ONE = r"""
import sys, time, resource, json
sys.path.insert(0, sys.argv[1])
from dataclasses import dataclass
from pathlib import Path
import projections
assert projections.__file__.startswith(sys.argv[1]), projections.__file__
from api.bootstrap import open_projector
@dataclass(frozen=True)
class Where:
    database_url: str
    data_dir: Path
p = open_projector(Where(sys.argv[2], Path(sys.argv[5])), **({"page": int(sys.argv[4])} if int(sys.argv[4]) else {}))
def cpu():
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + c.ru_utime + c.ru_stime
w, c = time.perf_counter(), cpu()
n = p.rebuild(workers=int(sys.argv[3]))
print(json.dumps({"events": n, "wall": time.perf_counter() - w, "cpu": cpu() - c}))
p.close()
"""


def ticks(pid: int) -> float:
    hz = os.sysconf("SC_CLK_TCK")
    total = 0
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    total += int(parts[11]) + int(parts[12]) + int(parts[13]) + int(parts[14])  # utime stime cutime cstime
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == pid:
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parts = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(parts[1]) == pid:
            total += int(parts[11]) + int(parts[12])
    return total / hz


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=4)
    ap.add_argument("--page", type=int, default=0, help="0: each side's default")
    ap.add_argument("--keep", action="store_true", help="leave the server running (a later run reuses its store)")
    ap.add_argument("--base", type=Path, required=True, help="the checkout compared against (main)")
    ap.add_argument("--branch", type=Path, default=HERE, help="the checkout measured (default: this one)")
    ap.add_argument("--run", type=Path, default=RUN, help="the server's run folder")
    ap.add_argument("--scratch", type=Path, default=SCRATCH,
                    help="a folder of its own for the fill and the rebuilds' files (two A/Bs at once need two)")
    args = ap.parse_args()
    run = args.run
    scratch = args.scratch
    SIDES.update(main=args.base.resolve(), branch=args.branch.resolve())
    scratch.mkdir(exist_ok=True)
    scratch.chmod(0o755)
    import psycopg

    env = {**os.environ, "POSTGRES_RUN_DIR": str(run)}
    script = SIDES["main"] / "deploy/postgres/postgres.sh"
    url = subprocess.run(["bash", str(script), "start"], env=env, capture_output=True, text=True, check=True)
    server = url.stdout.strip().splitlines()[-1]
    base = server.rsplit("/", 1)[0]
    postmaster = int((run / "data" / "postmaster.pid").read_text().split()[0])
    with psycopg.connect(server, autocommit=True) as conn:
        have = conn.execute("SELECT 1 FROM pg_database WHERE datname = 'abstore'").fetchone()
    if not have:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute("CREATE DATABASE abstore")
        fill = (
            "import sys; sys.path.insert(0, sys.argv[1]); sys.argv=[sys.argv[0]]+sys.argv[3:];"
            "from pathlib import Path; import importlib.util as u;"
            "s=u.spec_from_file_location('b', sys.path[0]+'/bench/projection_rebuild.py'); b=u.module_from_spec(s); sys.modules['b']=b;"
            "s.loader.exec_module(b); import os;"
            f"print(b.fill(b.Where('{base}/abstore', Path('{scratch}/fill')), {args.repeat}))"
        )
        (scratch / "fill").mkdir(exist_ok=True)
        out = subprocess.run([PY, "-c", fill, str(SIDES["main"]), "x"], capture_output=True, text=True,
                             env={**os.environ, "POKERAUDIT_PHH_DIR": PHH_DIR})
        if out.returncode:
            print(out.stderr[-3000:])
            with psycopg.connect(server, autocommit=True) as conn:
                conn.execute("DROP DATABASE abstore WITH (FORCE)")
            raise SystemExit(1)
        print("filled", out.stdout.strip(), flush=True)
    for side in SIDES:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS ab_{side} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE ab_{side} TEMPLATE abstore")
    results: dict[str, list[dict[str, float]]] = {s: [] for s in SIDES}
    order = list(SIDES)
    for r in range(args.rounds):
        for side in order if r % 2 == 0 else order[::-1]:
            before = ticks(postmaster)
            out = subprocess.run(
                [PY, "-c", ONE, str(SIDES[side]), f"{base}/ab_{side}", str(args.workers), str(args.page), str(scratch)],
                capture_output=True, text=True,
            )
            if out.returncode:
                print(out.stderr, file=sys.stderr)
                raise SystemExit(1)
            got = json.loads(out.stdout.strip().splitlines()[-1])
            got["server"] = ticks(postmaster) - before
            got["load"] = os.getloadavg()[0]
            results[side].append(got)
            e = got["events"]
            print(
                f"{side:7} round {r}: {e / got['wall']:8,.0f} ev/s  {e / got['cpu']:8,.0f} ev/CPU-s ours  "
                f"{e / (got['cpu'] + got['server']):8,.0f} ev/CPU-s with server  server {got['server']:.2f} s  "
                f"ours {got['cpu']:.2f} s  load {got['load']:.1f}",
                flush=True,
            )
    medians: dict[str, dict[str, float]] = {}
    for side, runs in results.items():
        def med(f: Any, runs: list[dict[str, float]] = runs) -> float:
            return statistics.median(f(g) for g in runs)

        medians[side] = {
            "events_per_s": round(med(lambda g: g["events"] / g["wall"])),
            "events_per_cpu_s": round(med(lambda g: g["events"] / g["cpu"])),
            "events_per_cpu_s_with_server": round(med(lambda g: g["events"] / (g["cpu"] + g["server"]))),
            "server_cpu_s": round(med(lambda g: g["server"]), 2),
        }
        print(
            f"MEDIAN {side:7} workers={args.workers}: {med(lambda g: g['events'] / g['wall']):,.0f} ev/s, "
            f"{med(lambda g: g['events'] / g['cpu']):,.0f} ev/CPU-s ours, "
            f"{med(lambda g: g['events'] / (g['cpu'] + g['server'])):,.0f} ev/CPU-s incl. server, "
            f"server {med(lambda g: g['server']):.2f} s, ours {med(lambda g: g['cpu']):.2f} s"
        )
    if not args.keep:
        subprocess.run(["bash", str(script), "stop"], env=env, capture_output=True, check=False)
    # the last line, one JSON object: this checkout against the base, the base the anchor
    ours, anchor = medians["branch"], medians["main"]
    print(json.dumps({
        "name": f"projection rebuild A/B on PostgreSQL, workers={args.workers}", "value": ours["events_per_s"],
        "unit": "events/s", "anchor": anchor["events_per_s"], "anchor_name": "--base",
        "ratio": round(ours["events_per_s"] / anchor["events_per_s"], 2), "this": ours, "base": anchor,
        "rounds": args.rounds, "load_average": os.getloadavg()[0],
        # the largest of the rebuild (and fill) processes this one waited for
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
    }))


if __name__ == "__main__":
    main()
