"""What integrity's live statistics cost the projector, per hand (the goal: at most 50 µs).

    .venv/bin/python bench/integrity_live.py [--tables 20] [--hands 50] [--runs 3]

Simulated hold'em hands (``ingest.simulator.simulate``: ``--tables`` tables of six, ``--hands`` hands each) go
through the embedded referee into a SQLite store; the read models are then projected from the store ``--runs``
times each way, into fresh read databases: with integrity's counters (projections/integrity/live.py) and with
them switched off. The cost per hand is the difference of the medians of the projector's CPU time (this
process: the SQLite read models are written in it), over the hands counted; beside it, ``own_us_per_hand``
times integrity's own part directly in each run (its events: the hand's record and the counting; its rows'
JSON; not the SQL writes), a figure the load moves much less than a difference of two totals (the first run
also fills the evaluation tables a process keeps). CPU time, not wall-clock: the
machine is shared, and the CPU figure moves much less with the load. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ANCHOR_US = 50.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    from api.bootstrap import bootstrap
    from api.operations import publish, referee_once
    from api.settings import Settings
    from ingest.simulator import simulate
    from projections.database import SqliteReadDatabase
    from projections.runner import Projector

    class WithoutIntegrity(Projector):
        def _integrity(self, event: object, started: object = None) -> None:
            return None

    class Timed(Projector):
        """Times integrity's own part: its events (the hand's record and the counting) and its rows' JSON."""

        own = 0.0

        def _integrity(self, event: object, started: object = None) -> None:
            begun = time.process_time()
            super()._integrity(event, started)  # type: ignore[arg-type]
            Timed.own += time.process_time() - begun

        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            rows = self.integrity.rows

            def timed_rows() -> object:
                begun = time.process_time()
                found = rows()
                Timed.own += time.process_time() - begun
                return found

            self.integrity.rows = timed_rows  # type: ignore[method-assign]

    scratch = Path(tempfile.mkdtemp(prefix="pokeraudit-integrity-live-"))
    try:
        settings = Settings(POKERAUDIT_DATA_DIR=scratch)  # type: ignore[call-arg]
        pipeline = bootstrap(settings)
        records = list(simulate(7, tables=args.tables, seats=6, hands_per_table=args.hands).records())
        publish(pipeline, records, progress=False)
        referee_once(pipeline)
        events = pipeline.store.recorder.max_notification_id() or 0
        times: dict[str, list[float]] = {"with": [], "without": []}
        own: list[float] = []
        hands = 0
        for run in range(args.runs):
            for kind, projector_type in (("with", Timed), ("without", WithoutIntegrity)):
                database = SqliteReadDatabase(scratch / f"read-{kind}-{run}.sqlite")
                projector = projector_type(pipeline.store, database)
                Timed.own = 0.0
                started = time.process_time()
                projector.catch_up()
                times[kind].append(time.process_time() - started)
                if kind == "with":
                    own.append(Timed.own)
                if kind == "with":
                    hands = projector.integrity.hands
                database.close()
        pipeline.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    with_, without = statistics.median(times["with"]), statistics.median(times["without"])
    per_hand_us = (with_ - without) / max(hands, 1) * 1e6
    print(f"hands={hands} events={events} projector_cpu_s_with={with_:.2f} without={without:.2f} "
          f"runs={args.runs} (load average {os.getloadavg()[0]:.1f})")
    print(json.dumps({
        "name": "integrity: the projector's live statistics, CPU per hand (with less without)",
        "value": round(per_hand_us, 1), "unit": "µs", "anchor": ANCHOR_US, "ratio": round(ANCHOR_US / per_hand_us, 3),
        "hands": hands, "projector_us_per_hand_without": round(without / max(hands, 1) * 1e6, 1),
        "own_us_per_hand": [round(x / max(hands, 1) * 1e6, 1) for x in own],
    }))


if __name__ == "__main__":
    main()
