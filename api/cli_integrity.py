"""``pokeraudit integrity players|pairs|alerts``: integrity statistics, pair scores and the alert queue, over
PHH hand-history files whose hands name their players.

``pokeraudit integrity pairs PATH... --min-hands 30 --format csv`` prints ``player_a,player_b,score`` and then
the extra columns, one line per unordered pair dealt in together in at least ``--min-hands`` hands, most
suspicious first; ``--format json`` gives the same with each pair's evidence.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any

from ingest.phh_integrity import IntegrityReadError
from projections.integrity.counters import Counters

_PAIR_COLUMNS = ("player_a", "player_b", "score", "behaviour", "hands", "pots", "soft_play", "chip_dumping",
                 "team_play", "chip_flow", "chip_flow_z", "seating_z", "all_in_luck_z", "ring_support")


def add_integrity(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = subparsers.add_parser(
        "integrity",
        help="player statistics, pair scores and collusion alerts from hand histories",
        description="Integrity statistics over PHH files (.phh, .phhs, folders recursively) whose hands name "
        "their players. Exit 0 on success, 2 when an input cannot be read.",
    )
    actions = command.add_subparsers(dest="action", required=True, metavar="ACTION")
    for name, run, help_text in (
        ("players", _players, "each player's statistics (PokerTracker 4 definitions) with 95% intervals"),
        ("pairs", _pairs, "a suspicion score per pair dealt in together, most suspicious first"),
        ("alerts", _alerts, "the ranked alert queue: suspicious pairs and rings, with evidence"),
    ):
        action = actions.add_parser(name, help=help_text, description=help_text)
        action.add_argument("paths", nargs="*", metavar="PATH", help="a .phh or .phhs file, or a folder of them")
        action.add_argument("--competition", metavar="ID",
                            help="read the competition's statistics from the read models (kept by the projector) "
                            "instead of files")
        action.add_argument("--since", type=datetime.fromisoformat, metavar="TIME",
                            help="with --competition: only hands started at or after TIME (ISO 8601, with zone), "
                            "counted from the event store")
        action.add_argument("--min-hands", type=int, default=30, metavar="N",
                            help="only pairs (players) dealt in together (at all) in at least N hands")
        action.add_argument("--format", choices=("csv", "json"), default="csv" if name != "alerts" else "json")
        action.add_argument("--workers", type=int, default=None, metavar="N",
                            help="processes reading the files (default: one per core, at most 2)")
        action.set_defaults(run=run)


def _counted(args: argparse.Namespace) -> Counters | None:
    if bool(args.paths) == bool(args.competition):
        print("pokeraudit integrity: give PATHs of hand-history files or --competition, one of the two",
              file=sys.stderr)
        return None
    if args.since is not None and not args.competition:
        print("pokeraudit integrity: --since reads the event store: it goes with --competition", file=sys.stderr)
        return None
    if args.competition:
        return _stored(args.competition, args.since)
    from ingest.phh import phh_files
    from ingest.phh_integrity import read_records
    from projections.integrity.parallel import count_in_parallel

    try:
        files = list(phh_files(args.paths))
        missing = [f for f in files if not f.exists()]
        if missing:
            raise IntegrityReadError(f"{missing[0]}: no such file or folder")
        return count_in_parallel(read_records, files, args.workers)
    except IntegrityReadError as error:
        print(f"pokeraudit integrity: {error}", file=sys.stderr)
        return None


def _stored(competition: str, since: datetime | None) -> Counters | None:
    """The competition's counters: the read model the projector keeps, or with ``since`` its hands from that
    time counted from the event store."""
    from api.settings import Settings

    settings = Settings()
    if since is None:
        from api.bootstrap import open_read_models

        models = open_read_models(settings)
        try:
            found = models.integrity_counters(competition)
        finally:
            models.close()
    else:
        from api.bootstrap import open_store
        from projections.integrity.parallel import count
        from projections.integrity.stored import competition_records

        store = open_store(settings)
        try:
            found = count(competition_records(store, competition, since))
        finally:
            store.close()
    if found is None or not found.hands:
        print(f"pokeraudit integrity: competition {competition!r} has no ended hold'em hands"
              + (f" started at or after {since.isoformat()}" if since is not None else " in the read models"),
              file=sys.stderr)
        return None
    return found


def _players(args: argparse.Namespace) -> int:
    from projections.integrity.players import all_statistics

    counters = _counted(args)
    if counters is None:
        return 2
    rows = all_statistics(counters, args.min_hands)
    if args.format == "json":
        print(json.dumps([asdict(r) for r in rows], indent=1))
        return 0
    names = [f for f in ("vpip", "pfr", "three_bet", "fold_to_three_bet", "cbet", "fold_to_cbet", "af", "afq",
                         "wtsd", "wsd", "bb_per_100", "all_in_adjusted_bb_per_100")]
    header = ["player", "hands", "net_chips"]
    for n in names:
        header += [n, f"{n}_sample", f"{n}_low", f"{n}_high"]
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(header)
    for r in rows:
        line: list[Any] = [r.player, r.hands, r.net_chips]
        for n in names:
            stat = getattr(r, n)
            line += [_num(stat.value), stat.sample, _num(stat.low), _num(stat.high)]
        out.writerow(line)
    return 0


def _pairs(args: argparse.Namespace) -> int:
    from projections.integrity.alerts import evidence
    from projections.integrity.score import Scorer

    counters = _counted(args)
    if counters is None:
        return 2
    scores = Scorer(counters).scores(args.min_hands)
    if args.format == "json":
        print(json.dumps([
            {**asdict(s), "evidence": [asdict(e) for e in evidence(counters.pairs[(s.player_a, s.player_b)],
                                                                   s.behaviour)]}
            for s in scores
        ], indent=1))
        return 0
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(_PAIR_COLUMNS)
    for s in scores:
        out.writerow([_num(v) if isinstance(v, float) else v for v in (getattr(s, c) for c in _PAIR_COLUMNS)])
    return 0


def _alerts(args: argparse.Namespace) -> int:
    from projections.integrity.alerts import alerts
    from projections.integrity.score import Scorer

    counters = _counted(args)
    if counters is None:
        return 2
    queue = alerts(counters, Scorer(counters).scores(args.min_hands))
    if args.format == "json":
        print(json.dumps([asdict(a) for a in queue], indent=1))
        return 0
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(("players", "score", "behaviour", "hands", "reasons"))
    for a in queue:
        out.writerow([" ".join(a.players), _num(a.score), a.behaviour, a.hands, " | ".join(a.reasons)])
    return 0


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:.4f}"


def main(argv: Sequence[str]) -> int:  # pragma: no cover - a convenience for python -m
    parser = argparse.ArgumentParser(prog="pokeraudit")
    add_integrity(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code
