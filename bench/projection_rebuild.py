"""Projection rebuild speed: events per second of ``Projector.rebuild()`` over a store of real hands.

    .venv/bin/python bench/projection_rebuild.py [--repeat 4] [--runs 3] [--workers 1] [--postgres] [--page N]

Puts the shared PHH hands (``../shared/data/phh``, 2,149 hands, about 57,600 stored events) through the
embedded referee ``--repeat`` times at new tables (4: about 230,000 events) into a store — SQLite in a
scratch folder, or with ``--postgres`` PostgreSQL (DATABASE_URL's server, else one started with
deploy/postgres/postgres.sh and stopped afterwards), store and read models in a fresh database — then
rebuilds the read models ``--runs`` times and prints, for each run and as medians, events per second of
wall-clock time and events per CPU-second (this process's CPU time plus its workers'): the machine is
shared, so the wall-clock figure moves with whatever else runs and the CPU figure much less. With a server
it started itself (no DATABASE_URL), PostgreSQL's own CPU time is read from /proc and printed beside it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT.parent / "shared" / "data" / "phh"))


@dataclass(frozen=True)
class Where:
    """Settings for ``api.bootstrap.open_projector``: PostgreSQL at ``database_url``, else SQLite files in
    ``data_dir``."""

    database_url: str | None
    data_dir: Path


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (a rebuild's worker processes)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def fill(where: Where, repeat: int) -> int:
    """The shared hands, ``repeat`` times, through the embedded log and referee into the store."""
    from api.bootstrap import LOG_FILE, open_store
    from api.operations import phh_records
    from ingest.log import EmbeddedLog
    from ingest.referee import Referee
    from ingest.runners import drain_embedded

    store = open_store(where)
    log = EmbeddedLog(where.data_dir / LOG_FILE, "events", partitions=1)
    referee = Referee(store, "events")
    try:
        records = list(phh_records([PHH_DIR / "data"], "bench", repeat=repeat))
        for start in range(0, len(records), 20_000):
            log.append(records[start : start + 20_000])
            for _ in drain_embedded(log, referee):
                pass
        return store.recorder.max_notification_id() or 0
    finally:
        log.close()
        store.close()


def server_cpu_seconds(postmaster: int | None) -> float:
    """CPU time of a PostgreSQL server started for the run: its postmaster's own and that of the processes it
    has reaped (backends of closed connections, parallel workers), plus its live processes' (from /proc); 0
    without one."""
    if postmaster is None:
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")

    def fields(pid: str) -> list[str]:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()

    own = fields(str(postmaster))
    total = sum(int(x) for x in own[11:15])  # utime, stime, cutime, cstime
    for pid in os.listdir("/proc"):
        if pid.isdigit() and int(pid) != postmaster:
            try:
                stat = fields(pid)
            except OSError:
                continue
            if int(stat[1]) == postmaster:
                total += int(stat[11]) + int(stat[12])
    return total / tick


def rebuilds(
    where: Where, runs: int, workers: int, page: int | None, postmaster: int | None = None
) -> list[tuple[int, float, float, float]]:
    """(events, wall seconds, CPU seconds, the server's CPU seconds) of each rebuild."""
    from api.bootstrap import open_projector

    projector = open_projector(where) if page is None else open_projector(where, page=page)
    out = []
    try:
        for _ in range(runs):
            wall, cpu, server = time.perf_counter(), cpu_seconds(), server_cpu_seconds(postmaster)
            events = projector.rebuild(workers=workers)
            out.append((events, time.perf_counter() - wall, cpu_seconds() - cpu,
                        server_cpu_seconds(postmaster) - server))
    finally:
        projector.close()
    return out


def postmaster_of(scratch: Path) -> int | None:
    """The process id of the server :func:`postgres` started (None: DATABASE_URL's, shared, not measured)."""
    pid_file = scratch / "postgres" / "data" / "postmaster.pid"
    if "DATABASE_URL" in os.environ or not pid_file.exists():
        return None
    return int(pid_file.read_text().split()[0])


@contextlib.contextmanager
def postgres(scratch: Path) -> Iterator[str]:
    """A fresh database on DATABASE_URL's server, or on a server started for the run."""
    import psycopg

    server = os.environ.get("DATABASE_URL")
    script = ROOT / "deploy" / "postgres" / "postgres.sh"
    env = {**os.environ, "POSTGRES_RUN_DIR": str(scratch / "postgres")}
    if server is None:
        started = subprocess.run(["bash", str(script), "start"], env=env, capture_output=True, text=True, check=True)
        server = started.stdout.strip().splitlines()[-1]
    name = f"bench_{uuid.uuid4().hex[:12]}"
    try:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        yield server.rsplit("/", 1)[0] + "/" + name
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")
    finally:
        if "DATABASE_URL" not in os.environ:
            subprocess.run(["bash", str(script), "stop"], env=env, capture_output=True, check=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=4, help="times the shared hands are played (4: ~230,000 events)")
    parser.add_argument("--runs", type=int, default=3, help="rebuilds to time")
    parser.add_argument("--workers", type=int, default=1, help="processes of each rebuild")
    parser.add_argument("--page", type=int, default=None,
                        help="stored events per page (one transaction each; default: the projector's own)")
    parser.add_argument("--postgres", action="store_true", help="store and read models in PostgreSQL")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="pokeraudit-rebuild-"))
    scratch.chmod(0o755)  # PostgreSQL runs as the postgres user when we are root: it must reach its folder
    try:
        with postgres(scratch) if args.postgres else contextlib.nullcontext(None) as url:
            where = Where(url, scratch)
            started = time.perf_counter()
            stored = fill(where, args.repeat)
            backend = "PostgreSQL" if url else "SQLite"
            print(f"{backend} store: {stored:,} events judged in {time.perf_counter() - started:.0f} s")
            runs = rebuilds(where, args.runs, args.workers, args.page, postmaster_of(scratch) if url else None)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    measured = any(server for *_, server in runs)
    for events, wall, cpu, server in runs:
        print(
            f"rebuild: {events:,} events in {wall:.2f} s ({events / wall:,.0f} events/s), "
            f"{cpu:.2f} CPU-s ({events / cpu:,.0f} events per CPU-second)"
            + (f", server {server:.2f} CPU-s ({events / (cpu + server):,.0f} events per CPU-second with it)"
               if measured else "")
        )
    print(
        f"median of {len(runs)}: {statistics.median(e / w for e, w, _, _ in runs):,.0f} events/s, "
        f"{statistics.median(e / c for e, _, c, _ in runs):,.0f} events per CPU-second"
        + (f", {statistics.median(e / (c + s) for e, _, c, s in runs):,.0f} with the server's CPU"
           if measured else "")
        + f" (workers={args.workers}, load average {os.getloadavg()[0]:.1f})"
    )
    peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    print(json.dumps({
        "name": f"projection_rebuild_{'postgresql' if args.postgres else 'sqlite'}_workers_{args.workers}",
        "value": round(statistics.median(e / w for e, w, _, _ in runs)),
        "unit": "events/s",
        "events_per_cpu_second": round(statistics.median(e / c for e, _, c, _ in runs)),
        "events_per_cpu_second_with_server": (
            round(statistics.median(e / (c + s) for e, _, c, s in runs)) if measured else None
        ),
        "events": runs[0][0],
        "goal": 50_000,
        "peak_rss_mb": round(peak / 1024, 1),
        "load_average": round(os.getloadavg()[0], 1),
    }))


if __name__ == "__main__":
    main()
