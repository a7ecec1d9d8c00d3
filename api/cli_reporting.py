"""``pokeraudit reporting [--sql]``: the reporting schema's views in PostgreSQL (docs/REPORTING.md)."""

from __future__ import annotations

import argparse
import json
import sys


def add_reporting(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = subparsers.add_parser(
        "reporting",
        help="make the reporting schema's SQL views in PostgreSQL, for BI tools (Metabase, Grafana)",
        description="Creates (or replaces) the views of the `reporting` schema over the read models and the "
        "event store in DATABASE_URL: hands, stacks, pots, eliminations, penalties, protests, standings "
        "(docs/REPORTING.md). Run it again after `pokeraudit projections rebuild`.",
    )
    command.add_argument("--sql", action="store_true", help="print the SQL instead of running it")
    command.set_defaults(run=_reporting)


def _reporting(args: argparse.Namespace) -> int:
    from api.settings import Settings
    from projections import reporting

    if args.sql:
        print(";\n\n".join(reporting.statements()) + ";")
        return 0
    settings = Settings()
    if settings.database_url is None:
        print("pokeraudit reporting: the reporting views are PostgreSQL's: set DATABASE_URL (the embedded mode's "
              "SQLite read models have none)", file=sys.stderr)
        return 2
    print(json.dumps({"views": reporting.install(settings.database_url)}))
    return 0
