"""The protocol of a real-sized event: time and peak memory of its JSON, HTML and PDF.

    .venv/bin/python bench/protocol.py [--players 1000] [--seed 1] [--store DIR]

Simulates an American competition of ``--players`` (the federation's festivals seat 350–800 in one event),
judges every record with the embedded referee into a SQLite store in ``--store`` (kept, and reused when it
already holds the competition), then reads the protocol as the API serves it (the streams verified,
``checked_protocol``) and renders it in each format, each in a fresh process so that one format's memory is not
another's: wall-clock and CPU seconds, the peak of Python's allocations (tracemalloc) and the process's peak
resident set. The machine is shared: the CPU figure moves less than the wall-clock one.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def build(store_dir: Path, seed: int, players: int) -> str:
    from api.bootstrap import bootstrap, embedded
    from api.cli_simulate import CompetitionPublisher
    from ingest.log import EmbeddedLog
    from ingest.runners import drain_embedded
    from ingest.simulator import simulate_competition

    store_dir.mkdir(parents=True, exist_ok=True)
    marker = store_dir / "competition.json"
    if marker.exists():
        kept = json.loads(marker.read_text())
        if kept["seed"] == seed and kept["players"] == players:
            return str(kept["competition"])
        raise SystemExit(f"{store_dir} holds another competition ({kept}); give another --store")
    started = time.perf_counter()
    simulation = simulate_competition(seed, players=players)
    print(f"simulated {players} players: {len(simulation.hands)} hands, {len(simulation.acts)} acts "
          f"in {time.perf_counter() - started:.1f} s", flush=True)
    pipeline = bootstrap(embedded(store_dir))
    log, store, referee = pipeline.log, pipeline.store, pipeline.referee
    assert isinstance(log, EmbeddedLog)
    verdicts: list = []
    CompetitionPublisher(log, lambda: store, lambda: verdicts.extend(drain_embedded(log, referee))).publish(simulation)
    verdicts.extend(drain_embedded(log, referee))
    pipeline.close()
    refused = [v.rejection for v in verdicts if v.outcome != "accepted"]
    if refused:
        raise SystemExit(f"the referee refused {len(refused)} records, first: {refused[0]}")
    print(f"judged {len(verdicts)} records in {time.perf_counter() - started:.1f} s", flush=True)
    marker.write_text(json.dumps({"seed": seed, "players": players, "competition": simulation.competition_id}))
    return simulation.competition_id


def measure(store_dir: Path, competition: str, form: str) -> dict[str, float]:
    """One format, in this process: the protocol read and rendered once."""
    from api.bootstrap import embedded, open_store
    from projections.protocol import checked_protocol
    from projections.protocol_render import to_html, to_pdf

    store = open_store(embedded(store_dir))
    tracemalloc.start()
    wall, cpu = time.perf_counter(), time.process_time()
    document = checked_protocol(store, competition)
    rendered = {"json": lambda: json.dumps(document).encode(), "html": lambda: to_html(document).encode(),
                "pdf": lambda: to_pdf(document)}[form]()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    _, peak = tracemalloc.get_traced_memory()
    return {"seconds": round(wall, 2), "cpu_seconds": round(cpu, 2), "python_peak_mb": round(peak / 1e6),
            "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            "size_mb": round(len(rendered) / 1e6, 2), "sections": len(document)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--store", type=Path, default=Path("/tmp/pokeraudit-bench-protocol"))
    parser.add_argument("--measure", choices=("json", "html", "pdf"), help=argparse.SUPPRESS)
    parser.add_argument("--competition", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.store, args.competition, args.measure)))
        return 0
    competition = build(args.store, args.seed, args.players)
    for form in ("json", "html", "pdf"):
        out = subprocess.run(
            [sys.executable, __file__, "--store", str(args.store), "--measure", form, "--competition", competition],
            check=True, capture_output=True, text=True,
        ).stdout
        print(f"{form}: {out.strip()}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
