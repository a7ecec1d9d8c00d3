"""The referee's CPU per record, offline: one Referee judging records into a fresh PostgreSQL database, no Kafka.

    .venv/bin/python bench/referee_cpu.py [--root TREE] [--mode bare|simulated] [--records N] [--dump FILE]

On a shared machine the pipeline bench's wall clock says little (issue 12 and 17's figures moved with the load
far more than with the code); this measures what the code costs: the process CPU time (user + system) of
``Referee.judge`` over the records, divided by their number, the records made before the clock starts.

* ``bare``: the 83 WSOP 2023 final-table hands played again at new tables (``bench/pipeline.py``'s records), in 24
  competitions over 6 partitions, batches of 2,000 records of one partition (the runner's bound), interleaved.
* ``simulated``: two whole simulated competitions (seeds 1 and 2, 300 players: every hand under a Competition,
  the floor's checks), batches of 700.

The log's times are fixed (about 20 records a millisecond, one time object per millisecond, as the Kafka runner
makes them; the simulation's own clock for ``simulated``) and so is the store's clock, so two trees' stored rows
can be compared byte for byte: ``--dump FILE`` writes every row of every table of the database (ordered by all
its columns) after the run; ``cmp`` two dumps. ``--root`` judges with the code of another tree (a ``git worktree``
of main, say) under this tree's virtualenv, for A/B runs in one session, alternating::

    git worktree add /tmp/base main
    for i in 1 2 3; do for t in /tmp/base .; do .venv/bin/python bench/referee_cpu.py --root $t; done; done

Uses DATABASE_URL (a server URL; a fresh database is made on it and dropped) when set, otherwise starts a cluster
with deploy/postgres in a scratch folder. Its last line is one JSON object.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import itertools
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
#: when the log received the records, and the store's clock (the checkpoints' times): fixed, so dumps compare
FIXED = datetime(2026, 12, 2, 3, 0, tzinfo=UTC)
PARTITIONS = 6
WSOP = HERE.parent / "shared" / "data" / "phh" / "data" / "wsop" / "2023" / "43" / "5"


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    url = os.environ.get("DATABASE_URL")
    if url:
        yield url
        return
    scratch = Path(tempfile.mkdtemp(prefix="pokeraudit-referee-cpu-"))
    scratch.chmod(0o755)  # PostgreSQL runs as the postgres user when we are root: it must reach its folder
    env = {**os.environ, "POSTGRES_RUN_DIR": str(scratch / "postgres")}
    script = HERE / "deploy" / "postgres" / "postgres.sh"
    out = subprocess.run(["bash", str(script), "start"], env=env, capture_output=True, text=True, check=True)
    try:
        yield out.stdout.strip().splitlines()[-1]
    finally:
        subprocess.run(["bash", str(script), "stop"], env=env, capture_output=True, check=False)


def records(pipeline: Any, mode: str, count: int) -> list[tuple[bytes, bytes]]:
    if mode == "bare":
        paths = [WSOP]  # this tree's ../shared, whichever tree is measured
        per_copy = sum(1 for _ in pipeline.bench_records(paths, 1, 1))
        repeat = -(-count // per_copy)
        return list(itertools.islice(pipeline.bench_records(paths, repeat, 24), count))
    made = pipeline._simulated((1, 300, "bench-sim-0")) + pipeline._simulated((2, 300, "bench-sim-1"))
    return made[:count] if count else made


def dump(url: str, path: Path) -> dict[str, Any]:
    """Every row of every table, ordered by all its columns, one line each; (rows, digest) per table."""
    import psycopg

    summary = {}
    with psycopg.connect(url) as conn, path.open("w") as out:
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
            ).fetchall()
        ]
        for table in tables:
            columns = len(conn.execute(f"SELECT * FROM {table} LIMIT 0").description or ())
            order = ", ".join(str(n + 1) for n in range(columns))
            digest = hashlib.sha256()
            rows = conn.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()
            for row in rows:
                line = repr(tuple(bytes(v) if isinstance(v, memoryview) else v for v in row))
                digest.update(line.encode())
                out.write(f"{table}\t{line}\n")
            summary[table] = (len(rows), digest.hexdigest()[:16])
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, default=HERE, help="the source tree whose referee is measured")
    parser.add_argument("--mode", choices=("bare", "simulated"), default="bare")
    parser.add_argument("--records", type=int, default=40_000, help="records (simulated: at most; 0 = all)")
    parser.add_argument("--batch", type=int, help="records a transaction (default 2,000 bare, 700 simulated)")
    parser.add_argument("--dump", type=Path, help="write every stored row here after the run")
    args = parser.parse_args()
    if args.mode == "bare" and args.records <= 0:
        parser.error("--records: bare hands are played again until that many records are made; give a positive number (0 = all is for --mode simulated)")
    root = args.root.resolve()
    os.chdir(root)
    sys.path[:0] = [str(root), str(root / "bench")]
    pipeline = importlib.import_module("pipeline")
    store_module = importlib.import_module("ingest.store")
    from ingest.log import LogRecord, from_millis, partition_for
    from ingest.referee import Referee
    from ingest.runners import fewer_collections
    from ingest.store import Store, store_env

    class _FixedClock(datetime):
        @classmethod
        def now(cls, tz: Any = None) -> Any:  # noqa: ARG003
            return FIXED

    store_module.datetime = _FixedClock  # the checkpoints' time, fixed so that two runs' rows compare

    made = records(pipeline, args.mode, args.records)
    if args.mode == "simulated":
        from ingest.simulator.clock import simulation_clock as received
    else:
        first_ms = int(FIXED.timestamp() * 1000)
        times: dict[int, datetime | None] = {}
        counter = itertools.count()

        def received(_value: bytes) -> datetime | None:
            millisecond = first_ms + next(counter) // 20
            if millisecond not in times:
                times[millisecond] = from_millis(millisecond)
            return times[millisecond]

    by_partition: dict[int, list[LogRecord]] = {}
    for key, value in made:
        p = partition_for(key, PARTITIONS)
        log = by_partition.setdefault(p, [])
        log.append(LogRecord("t", p, len(log), key, value, received(value)))
    size = args.batch or (2_000 if args.mode == "bare" else 700)
    batches = [(p, log[n : n + size]) for p, log in sorted(by_partition.items()) for n in range(0, len(log), size)]
    batches.sort(key=lambda b: (b[1][0].offset, b[0]))

    outcomes: dict[str, int] = {}
    with postgres_server() as server, pipeline.fresh_database(server) as url:
        store = Store(env=store_env(url))
        referee = Referee(store, "t", publish_checkpoint=lambda anchored: None)
        with fewer_collections():  # as the runner judges
            cpu = time.process_time()
            wall = time.perf_counter()
            for partition, batch in batches:
                for verdict in referee.judge(partition, batch):
                    outcomes[verdict.outcome] = outcomes.get(verdict.outcome, 0) + 1
            cpu = time.process_time() - cpu
            wall = time.perf_counter() - wall
        store.close()
        dumped = dump(url, args.dump) if args.dump else None
    result = {
        "name": f"referee CPU per record, offline, {args.mode}",
        "root": str(root),
        "records": len(made),
        "value": round(cpu / len(made) * 1e6, 1),
        "unit": "µs CPU a record",
        "cpu_s": round(cpu, 3),
        "wall_s": round(wall, 2),
        "transactions": len(batches),
        "outcomes": outcomes,
        "load_average": round(os.getloadavg()[0], 2),
        "peak_memory_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }
    if dumped is not None:
        result["dump"] = dumped
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
