"""OFC rounds judged per second: the rules engine alone, and the referee on the embedded log and store.

    .venv/bin/python bench/ofc.py [--tables T] [--rounds R] [--repeats N]

The rounds are ``pokeraudit simulate --variant OFC``'s (seed 1, tables of three). The engine line replays every
round's reported events through a fresh :class:`domain.ofc.game.OfcGame` (dealing, settings, the settlement);
the referee line appends the records to an embedded log in a temporary folder and judges them into a SQLite
store (hash chains, the stored verdicts), as ``pokeraudit referee`` does in the embedded mode. The median of N
passes is reported.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.bootstrap import bootstrap, embedded  # noqa: E402
from domain.ofc.game import OfcGame  # noqa: E402
from domain.rulebooks import get_rulebook  # noqa: E402
from ingest.simulator.ofc import OfcSimulation, simulate_ofc  # noqa: E402


def engine_pass(simulation: OfcSimulation) -> float:
    book = get_rulebook(simulation.rulebook)
    began = time.perf_counter()
    for table_round in simulation.rounds:
        game = OfcGame(table_round.played.started, book)
        for event in table_round.played.events[1:]:
            game.apply(event)
    return time.perf_counter() - began


def referee_pass(simulation: OfcSimulation) -> float:
    records = list(simulation.records())
    with tempfile.TemporaryDirectory() as folder:
        pipeline = bootstrap(embedded(Path(folder)))
        log, referee = pipeline.log, pipeline.referee
        try:
            log.append(records)
            began = time.perf_counter()
            offset = 0
            while batch := log.read(0, offset, 2000):
                verdicts = referee.judge(0, batch)
                assert all(v.outcome == "accepted" for v in verdicts)
                offset = batch[-1].offset + 1
            return time.perf_counter() - began
        finally:
            pipeline.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    simulation = simulate_ofc(1, tables=args.tables, seats=3, rounds=args.rounds)
    rounds = len(simulation.rounds)
    events = sum(len(r.played.events) for r in simulation.rounds)
    engine = statistics.median(engine_pass(simulation) for _ in range(args.repeats))
    referee = statistics.median(referee_pass(simulation) for _ in range(args.repeats))
    print(f"{rounds} OFC rounds, {events} reported events")
    print(f"engine:  {rounds / engine:,.0f} rounds/s, {events / engine:,.0f} events/s")
    print(f"referee: {rounds / referee:,.0f} rounds/s, {events / referee:,.0f} events/s (embedded log and store)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
