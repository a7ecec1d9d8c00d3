"""``pokeraudit simulate``: a seeded competition played by bots, published to the log of record.

Like ``pokeraudit publish``, it only appends to the log; ``pokeraudit referee`` judges what it put there.
Event ids derive from competition, table, hand and sequence, so simulating the same seed twice is harmless.
"""

from __future__ import annotations

import argparse
import json
import sys

from domain.rulebooks import DEFAULT_RULEBOOK, RULEBOOKS


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
    command.add_argument("--seats", type=int, default=9, help="seats per table (2 to 10)")
    command.add_argument("--hands", type=int, default=20, help="hands per table")
    command.add_argument("--players", type=int, default=None, help="default: every seat filled")
    command.add_argument("--starting-stack", type=int, default=5000)
    command.add_argument("--variant", default="NT", help="a flop game: NT, PT, FT, NO, PO")
    command.add_argument("--rulebook", default=DEFAULT_RULEBOOK, choices=sorted(RULEBOOKS))
    command.add_argument("--mistakes", type=float, default=0.0, help="chance of an illegal act at each turn")
    command.add_argument("--competition", default=None, help="the competition id (default: sim-<seed>)")
    command.add_argument(
        "--dealers", action="store_true", help="each table recorded by its dealer, not 'simulator'"
    )
    command.add_argument("--quiet", action="store_true", help="no progress bar")
    command.set_defaults(run=_simulate)


def _simulate(args: argparse.Namespace) -> int:
    from api.bootstrap import bootstrap
    from api.operations import publish
    from api.settings import Settings
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
    pipeline = bootstrap(Settings())
    try:
        n = publish(pipeline, simulation.records(), progress=not args.quiet)
    finally:
        pipeline.close()
    print(json.dumps(simulation.summary()))
    print(f"published {n} events of {simulation.competition_id} to {pipeline.settings.topic}")
    return 0
