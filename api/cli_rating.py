"""``pokeraudit rating SEASON``: the season's rating list from the read models (projections/rating.py), as the
federation's rating rules in force compute it: a table (rank, athlete, total, each result) or ``--format json``
(the API's ``GET /v1/seasons/{season}/rating`` body)."""

from __future__ import annotations

import argparse
import re
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from projections.rating import RatingList


def add_rating(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = subparsers.add_parser(
        "rating",
        help="the season's rating list (the federation's rating rules in force, read from the read models)",
        description="The season's rating list: each athlete's places and points in the counting competitions, his "
        "total and rank; athletes disqualified for the season are listed unranked (bfsp 7.2.3). Exit 2 when no "
        "rating rules are adopted for the season.",
    )
    command.add_argument("season", help="the season: the year its competitions start in (2026)")
    command.add_argument("--format", choices=("text", "json"), default="text")
    command.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    if not re.fullmatch(r"[0-9]{4}", args.season):
        print(f"pokeraudit rating: season {args.season!r} is not a year (2026)", file=sys.stderr)
        return 2
    from api.bootstrap import open_read_models
    from api.settings import Settings

    models = open_read_models(Settings())
    try:
        rating = models.season_rating(args.season)
    finally:
        models.close()
    if rating is None:
        print(f"pokeraudit rating: the federation has adopted no rating rules for season {args.season} "
              "(RatingRulesAdopted), or the projector has not read them yet", file=sys.stderr)
        return 2
    print(rating.model_dump_json(indent=2) if args.format == "json" else text(rating))
    return 0


def text(rating: RatingList) -> str:
    """The list as a federation prints it: the rules, then a line an athlete with his results."""
    rules = rating.rules
    counted = ", ".join(c.competition for c in rating.competitions if c.counted) or "none yet"
    lines = [
        f"Season {rating.season} rating (rules adopted {rules.adopted_at} by {rules.adopted_by})",
        f"points by place: {', '.join(str(p) for p in rules.points)}; "
        + (f"best {rules.best_of} results count" if rules.best_of else "every result counts"),
        f"competitions counted: {counted}",
        "",
        f"{'rank':>4}  {'athlete':<30} {'total':>8}  results",
    ]
    for athlete in rating.athletes:
        rank = str(athlete.rank) if athlete.rank is not None else "DQ"
        results = "; ".join(
            f"{r.competition} {r.place}{f'-{r.place + r.shared - 1}' if r.shared > 1 else ''}"
            f"{' disqualified' if r.disqualified else ''} {r.points:g}{'' if r.counts else ' (not counted)'}"
            for r in athlete.results
        )
        barred = athlete.season_disqualified
        note = f"  [disqualified for the season: {barred.competition}, {barred.code}]" if barred else ""
        lines.append(f"{rank:>4}  {athlete.athlete:<30} {athlete.total:>8g}  {results}{note}")
    return "\n".join(lines)
