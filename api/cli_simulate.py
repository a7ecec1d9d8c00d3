"""``pokeraudit simulate``: a seeded competition played by bots, published to the log of record.

Like ``pokeraudit publish``, it only appends to the log; ``pokeraudit referee`` judges what it put there.
Event ids derive from competition, table, hand and sequence, so simulating the same seed twice is harmless.

With ``--competition-format american|olympic`` it publishes a whole competition to its winner. The one record
that cannot be written ahead is the Chief Judge's forwarding of a protest to the federation: it names the
protocol snapshot taken when it is made, so the records before it are judged first (the embedded referee
judges them here; on Kafka the running referee must catch up) and the snapshot is taken in the store.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from domain.rulebooks import DEFAULT_RULEBOOK, RULEBOOKS

if TYPE_CHECKING:
    from api.bootstrap import Pipeline
    from ingest.envelope import RecordedBy
    from ingest.log import Log
    from ingest.simulator import CompetitionSimulation, Simulation
    from ingest.simulator.ofc import OfcSimulation
    from ingest.store import Store

#: how long a forwarding waits for the Kafka referee to judge the records before it
JUDGED_TIMEOUT_S = 300.0


def add_simulate(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = subparsers.add_parser(
        "simulate",
        help="publish a seeded competition played by bots to the log of record",
        description="Register players, draw their seats over the tables, and play the tables round by round "
        "with bots that pick among the legal acts; append every hand's events to the log. The same seed gives "
        "the same records. --mistakes reports an illegal act now and then, which the referee must refuse.",
    )
    command.add_argument(
        "--seed", type=int, required=True, help="decides everything: players, draw, cards, play"
    )
    command.add_argument("--tables", type=int, default=3)
    command.add_argument("--seats", type=int, default=None, help="seats per table (2 to 10; OFC: 2 or 3, default 3)")
    command.add_argument("--hands", type=int, default=20, help="hands per table (OFC: rounds per table)")
    command.add_argument("--players", type=int, default=None, help="default: every seat filled")
    command.add_argument("--starting-stack", type=int, default=5000)
    command.add_argument(
        "--variant", default="NT", help="a flop game: NT, PT, FT, NO, PO; or OFC (Open-Face Chinese Pineapple, bfsp 8)"
    )
    command.add_argument("--rulebook", default=DEFAULT_RULEBOOK, choices=sorted(RULEBOOKS))
    command.add_argument("--mistakes", type=float, default=0.0, help="chance of an illegal act at each turn")
    command.add_argument("--competition", default=None, help="the competition id (default: sim-<seed>)")
    command.add_argument(
        "--dealers", action="store_true", help="each table recorded by its dealer, not 'simulator'"
    )
    command.add_argument("--quiet", action="store_true", help="no progress bar")
    command.add_argument(
        "--competition-format",
        choices=("american", "olympic"),
        default=None,
        help="a whole competition to its winner, with the federation's acts (--players, default 45; --seats "
        "is the table size)",
    )
    command.set_defaults(run=_simulate)


class CompetitionPublisher:
    """Publishes a simulated competition in batches; before a protest's forwarding, what was published is
    judged (``until_judged``) and the protocol snapshot it names is taken in ``store``."""

    def __init__(
        self, log: Log, store: Callable[[], Store], until_judged: Callable[[], None], batch: int = 2000
    ) -> None:
        self.log, self.store, self.until_judged, self.batch = log, store, until_judged, batch
        self.pending: list[tuple[bytes, bytes]] = []
        self.published = 0

    def publish(self, simulation: CompetitionSimulation) -> int:
        for record in simulation.records(self.snapshot):
            self.pending.append(record)
            if len(self.pending) >= self.batch:
                self.flush()
        self.flush()
        return self.published

    def flush(self) -> None:
        if self.pending:
            self.log.append(self.pending)
            self.published += len(self.pending)
            self.pending = []

    def snapshot(self, competition_id: str, at: datetime, by: RecordedBy) -> tuple[str, str]:
        """The snapshot the Chief Judge forwarding a protest takes: his act on the log, judged by the referee
        (what it covers is what the log holds before it)."""
        from ingest.protocol_acts import snapshot_request, snapshot_request_id
        from projections.protocol import snapshot_of_record

        self.flush()
        self.log.append([snapshot_request(competition_id, by, at)])  # the Chief Judge's act, before the forwarding
        self.published += 1
        self.until_judged()
        wanted = snapshot_request_id(competition_id, by, at)
        kept = snapshot_of_record(self.store(), competition_id, wanted)
        if kept is None:
            raise RuntimeError(f"the referee kept no snapshot for the Chief Judge's request {wanted} (see the "
                               f"rejections of {competition_id})")
        return kept.name, kept.chain_head


def until_judged(log: Log, store: Store, topic: str, timeout_s: float = JUDGED_TIMEOUT_S) -> None:
    """Wait until the store has judged everything on ``log`` (a referee runs elsewhere)."""
    deadline = time.monotonic() + timeout_s
    while True:
        ends = log.end_offsets()
        behind = {
            p: end for p, end in ends.items() if end and (store.tracked_offset(topic, p) or -1) + 1 < end
        }
        if not behind:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(
                f"the referee has not judged partitions {sorted(behind)} of {topic} in {timeout_s:.0f} s; "
                "a protest's forwarding names a snapshot of what was judged: is `pokeraudit referee` running?"
            )
        time.sleep(0.2)


def _publish_competition(pipeline: Pipeline, simulation: CompetitionSimulation) -> int:
    from api.operations import referee_once
    from ingest.log import EmbeddedLog

    def judge() -> None:
        if isinstance(pipeline.log, EmbeddedLog):
            referee_once(pipeline)
        else:
            until_judged(pipeline.log, pipeline.store, pipeline.settings.topic)

    return CompetitionPublisher(pipeline.log, lambda: pipeline.store, judge).publish(simulation)


def _simulate(args: argparse.Namespace) -> int:
    if args.variant == "OFC":
        return _simulate_ofc(args)
    if args.seats is None:
        args.seats = 9
    if args.competition_format is not None:
        return _simulate_competition(args)
    from api.operations import publish
    from ingest.simulator import simulate

    try:
        simulation = simulate(
            args.seed,
            args.tables,
            args.seats,
            args.hands,
            args.variant,
            args.rulebook,
            args.mistakes,
            players=args.players,
            starting_stack=args.starting_stack,
            competition_id=args.competition,
            dealers=args.dealers,
        )
    except ValueError as err:
        print(f"pokeraudit simulate: {err}", file=sys.stderr)
        return 2
    return _published(simulation, lambda pipeline: publish(pipeline, simulation.records(), progress=not args.quiet))


def _simulate_ofc(args: argparse.Namespace) -> int:
    """OFC tables (bfsp 8): bots that set legal cards, foul now and then and reach fantasy, round by round; with
    ``--competition-format american`` an OFC competition run by the Competition, placed by points."""
    from api.operations import publish
    from ingest.simulator.ofc import simulate_ofc, simulate_ofc_competition

    seats = 3 if args.seats is None else args.seats
    try:
        if args.competition_format == "olympic":
            raise ValueError(
                "the Olympic format plays each table down to one winner of all its chips (bfsp 3.2); OFC stakes no "
                "chips and places by points (bfsp 8): --competition-format american"
            )
        if args.competition_format == "american":
            players = 9 if args.players is None else args.players
            simulation = simulate_ofc_competition(
                args.seed, players, seats, args.hands, args.rulebook, competition_id=args.competition
            )
        else:
            simulation = simulate_ofc(args.seed, args.tables, seats, args.hands, args.rulebook, competition_id=args.competition)
    except ValueError as err:
        print(f"pokeraudit simulate: {err}", file=sys.stderr)
        return 2
    return _published(simulation, lambda pipeline: publish(pipeline, simulation.records(), progress=not args.quiet))


def _simulate_competition(args: argparse.Namespace) -> int:
    from ingest.simulator import simulate_competition

    try:
        simulation = simulate_competition(
            args.seed,
            45 if args.players is None else args.players,
            args.competition_format,
            args.seats,
            variant=args.variant,
            rulebook=args.rulebook,
            starting_stack=args.starting_stack,
            competition_id=args.competition,
        )
    except ValueError as err:
        print(f"pokeraudit simulate: {err}", file=sys.stderr)
        return 2
    return _published(simulation, lambda pipeline: _publish_competition(pipeline, simulation))


def _published(
    simulation: Simulation | CompetitionSimulation | OfcSimulation, publish: Callable[[Pipeline], int]
) -> int:
    """Put a simulation on the configured log with ``publish``; print its summary and how much went out."""
    from api.bootstrap import bootstrap
    from api.settings import Settings
    from ingest.log import clocked
    from ingest.simulator.clock import simulation_clock

    pipeline = bootstrap(Settings())
    try:
        with clocked(pipeline.log, simulation_clock):  # the embedded log receives it on its synthetic times
            n = publish(pipeline)
    finally:
        pipeline.close()
    print(json.dumps(simulation.summary()))
    print(f"published {n} events of {simulation.competition_id} to {pipeline.settings.topic}")
    return 0
