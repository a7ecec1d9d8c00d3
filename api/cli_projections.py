"""``pokeraudit projections run [--follow] | rebuild | lag [--json]``: the read models from the command line."""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from typing import TYPE_CHECKING

from api.logs import add_log_level
from api.logs import configure as configure_logs
from api.observe import add_metrics_address

if TYPE_CHECKING:
    from projections.runner import Projector

#: how long ``run --follow`` sleeps when the store has nothing new
IDLE_SECONDS = 0.2


def add_projections(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = subparsers.add_parser(
        "projections",
        help="project the event store into the read models, rebuild them, or show their lag",
        description="The read models (stacks, pots, showdown order, hand histories, rejections, table state) "
        "follow the event store; each page of events is written with its position in one transaction.",
    )
    actions = command.add_subparsers(dest="action", required=True, metavar="ACTION")
    run = actions.add_parser("run", help="project what is stored and not yet projected")
    run.add_argument("--follow", action="store_true",
                     help="keep following the store until interrupted (SIGTERM or SIGINT), waiting out outages of "
                     "PostgreSQL")
    add_log_level(run)
    add_metrics_address(run)
    run.set_defaults(run=_run)
    rebuild = actions.add_parser("rebuild", help="project the whole store again into fresh tables and swap them in for the read models in use")
    rebuild.add_argument("--workers", type=int, default=None, metavar="N",
                         help="processes projecting the store's streams in parallel (a partition each); default: "
                         "one per core (at most 2) with SQLite read models, 1 with PostgreSQL, whose server needs "
                         "the other core (docs/BENCHMARKS.md, Projection rebuild)")
    rebuild.set_defaults(run=_rebuild)
    lag = actions.add_parser("lag", help="stored events not yet projected")
    lag.add_argument("--json", action="store_true")
    lag.set_defaults(run=_lag)


def _projector() -> Projector:
    # imported here, at run time: under TYPE_CHECKING only, the command failed with a NameError
    from api.bootstrap import open_projector
    from api.settings import Settings

    return open_projector(Settings())


def _run(args: argparse.Namespace) -> int:
    configure_logs(args.log_level)
    if not args.follow:
        unreachable = _unreachable_database()
        if unreachable:
            print(f"projections: {unreachable}", file=sys.stderr)
            return 3
        projector = _projector()
        try:
            total = projector.catch_up()
        finally:
            projector.close()
        print(json.dumps({"projected": total}))
        return 0
    import threading

    from api.follow import follow
    from api.observe import log_settings, serve_metrics
    from api.settings import Settings
    from api.signals import stopped_by_signals

    serve_metrics(args.metrics_port, args.metrics_host)
    log_settings("projector", Settings())
    stop = threading.Event()
    with stopped_by_signals(stop.set):
        total = follow(_projector, stop, lambda: _sleep(stop))
    print(json.dumps({"projected": total}))
    return 0


def _sleep(stop: threading.Event) -> None:
    stop.wait(IDLE_SECONDS)


def _unreachable_database() -> str | None:
    """Why the store's database cannot be reached now (asked with a short timeout), or None."""
    from api.probes import Unreachable, store_reachable
    from api.settings import Settings

    try:
        store_reachable(Settings())
    except Unreachable as exc:
        return str(exc)
    return None


def rebuild_workers(asked: int | None, database_url: str | None, cores: int | None) -> int:
    """How many rebuild processes: as asked, else the measured best for the read models' database."""
    if asked is not None:
        return max(1, asked)
    return 1 if database_url else max(1, min(2, cores or 1))


def _rebuild(args: argparse.Namespace) -> int:
    import os

    from api.settings import Settings

    workers = rebuild_workers(args.workers, Settings().database_url, os.cpu_count())
    projector = _projector()
    try:
        started = time.perf_counter()
        total = projector.rebuild(workers=workers)
        seconds = time.perf_counter() - started
    finally:
        projector.close()
    rate = total / seconds if seconds > 0 else 0.0
    print(json.dumps({"projected": total, "seconds": round(seconds, 3), "events_per_second": round(rate)}))
    return 0


def _lag(args: argparse.Namespace) -> int:
    unreachable = _unreachable_database()
    if unreachable:
        if args.json:
            print(json.dumps({"error": unreachable}))
        print(f"projections lag: {unreachable}", file=sys.stderr)
        return 3
    projector = _projector()
    try:
        position, lag = projector.position(), projector.lag()
    finally:
        projector.close()
    if args.json:
        print(json.dumps({"position": position, "lag": lag}))
    else:
        print(f"projected up to stored event {position}; {lag} stored events not yet projected")
    return 0
