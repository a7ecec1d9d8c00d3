"""A season's rating: the rules the federation adopts for it, and the rating list they give.

The federation's rules say competitions count "for the rating" (bfsp 2.10, the Belarus Cup) without a formula, so
the federation adopts one per season (:class:`RatingRulesAdopted`, on the season's :class:`SeasonRating`): points
by finishing place, which competitions count (all of the season's, or those named), and how many of an athlete's
results count (his best). :func:`rating_list` computes the list from the places the competitions gave:

* an athlete is a person (one id across competitions); of several entries at one competition his best place counts;
* places shared (players busted in one hand with equal stacks, bfsp 5.10.2; a deal that ends play) share the
  points of the places they cover equally;
* a participant disqualified from a competition (bfsp 7.2.2) scores nothing there;
* an athlete disqualified for the season (bfsp 7.2.3) is listed as such, unranked: he is barred from every
  rating competition of the season;
* the rest are ranked by total points, most first; equal totals share a rank (1, 2, 2, 4).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.chained import JSON
from domain.errors import RuleError, RuleRef
from domain.officials import Act, verify_permitted
from domain.officials.recorded import OfficialsRecord, applies, recorded_events
from domain.roles import Role

RATING_RULE = RuleRef("bfsp", "2.10")
_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/season-rating")
_SEASON = re.compile(r"[0-9]{4}")


class RatingError(RuleError):
    """Rating rules the federation cannot adopt as given."""


@dataclass(frozen=True, slots=True)
class RatingRulesAdopted:
    """The federation's rules for ``season``'s rating list: ``points[k]`` for place k + 1 (none past the last),
    the competitions that count (none named: every competition of the season), and how many of an athlete's
    results count (his best ``best_of``; 0: all). Adopted again, they replace the earlier ones (``reason``)."""

    season: str
    points: tuple[int, ...]
    competitions: tuple[str, ...] = ()
    best_of: int = 0
    reason: str = ""


CATALOG: dict[str, type] = {"RatingRulesAdopted": RatingRulesAdopted}


def season_rating_id(season: str) -> UUID:
    return uuid5(_NAMESPACE, season)


def verify_rules(rules: RatingRulesAdopted, replacing: RatingRulesAdopted | None) -> None:
    """Refuse rules no rating list can be computed by, naming the field."""
    if not _SEASON.fullmatch(rules.season):
        raise RatingError(f"season {rules.season!r} is not a year: a competition counts in the year it starts", RATING_RULE)
    if not rules.points or rules.points[0] <= 0:
        raise RatingError("points: the winner scores more than nothing (points for place 1 first)", RATING_RULE)
    if any(p < 0 for p in rules.points):
        raise RatingError("points: no place scores fewer than nothing", RATING_RULE)
    worse = next((n for n in range(1, len(rules.points)) if rules.points[n] > rules.points[n - 1]), None)
    if worse is not None:
        raise RatingError(
            f"points: place {worse + 1} scores {rules.points[worse]}, more than place {worse}'s "
            f"{rules.points[worse - 1]}; a better place never scores fewer points",
            RATING_RULE,
        )
    if rules.best_of < 0:
        raise RatingError(f"best_of: {rules.best_of} results cannot count (0: all of them)", RATING_RULE)
    if any(not c.strip() for c in rules.competitions) or len(set(rules.competitions)) != len(rules.competitions):
        raise RatingError("competitions: each competition that counts is named once", RATING_RULE)
    if replacing is not None and not rules.reason.strip():
        raise RatingError(
            f"season {rules.season} has its rating rules already: rules adopted again say why (reason)", RATING_RULE
        )


class SeasonRating(OfficialsRecord):
    """The federation's rating rules of one season, the latest in force."""

    RECORDS = (RatingRulesAdopted,)

    @event("SeasonRatingOpened")
    def __init__(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self.season = payload["season"]
        self.adopted: list[RatingRulesAdopted] = []
        self.chain_head = link

    @classmethod
    def open(cls, season: str, at: datetime, meta: JSON | None = None) -> SeasonRating:
        opened: SeasonRating = cls._create_chained(
            "SeasonRatingOpened", season_rating_id(season), at, {"type": "SeasonRatingOpened", "season": season},
            meta or {},
        )
        return opened

    @property
    def rules(self) -> RatingRulesAdopted | None:
        return self.adopted[-1] if self.adopted else None

    def adopt(self, rules: RatingRulesAdopted, by: Role, at: datetime, meta: JSON | None = None) -> None:
        verify_permitted(Act.RATING_RULES_ADOPTED, by)
        if rules.season != self.season:
            raise RatingError(f"these are season {self.season}'s rules, not season {rules.season}'s", RATING_RULE)
        verify_rules(rules, self.rules)
        self._record(rules, at, meta)

    @applies(RatingRulesAdopted)
    def _adopted(self, e: RatingRulesAdopted) -> None:
        self.adopted.append(e)

    locals().update(recorded_events(RECORDS))


# --- the list ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Placed:
    """An entry's finishing place at a competition: ``shared`` places from ``place`` on (1: his alone)."""

    competition: str
    participant: str
    person: str
    place: int
    shared: int = 1
    disqualified: bool = False


@dataclass(frozen=True, slots=True)
class Counted:
    competition: str
    participant: str
    place: int
    shared: int
    disqualified: bool
    points: Fraction
    #: among the athlete's best ``best_of`` (or every result counts)
    counts: bool


@dataclass(frozen=True, slots=True)
class Rated:
    athlete: str
    rank: int | None
    total: Fraction
    results: tuple[Counted, ...]
    #: the competition whose violation barred him for the season (bfsp 7.2.3), or None
    season_disqualified: str | None = None


def points_for(rules: RatingRulesAdopted, place: int, shared: int) -> Fraction:
    """The points of places ``place`` .. ``place + shared - 1``, shared equally."""
    covered = [rules.points[p - 1] if p <= len(rules.points) else 0 for p in range(place, place + shared)]
    return Fraction(sum(covered), shared)


def rating_list(
    rules: RatingRulesAdopted,
    placed: Iterable[Placed],
    season_disqualified: Mapping[str, str] = {},  # noqa: B006 - read only
) -> tuple[Rated, ...]:
    """The season's rating list from the places of its counting competitions (``placed``: the caller gives
    those of the season's competitions; the rules say which of them count)."""
    counting = set(rules.competitions)
    best: dict[tuple[str, str], Placed] = {}
    for p in placed:
        if counting and p.competition not in counting:
            continue
        key = (p.person, p.competition)
        kept = best.get(key)
        if kept is None or (p.disqualified, p.place) < (kept.disqualified, kept.place):
            best[key] = p
    by_athlete: dict[str, list[Placed]] = {}
    for (person, _), p in sorted(best.items()):
        by_athlete.setdefault(person, []).append(p)
    rated = []
    for athlete, results in by_athlete.items():
        scored = [(Fraction(0) if p.disqualified else points_for(rules, p.place, p.shared), p) for p in results]
        order = sorted(scored, key=lambda s: (-s[0], s[1].competition))
        counting_results = {p.competition for _, p in (order[: rules.best_of] if rules.best_of else order)}
        counted = tuple(
            Counted(p.competition, p.participant, p.place, p.shared, p.disqualified, points,
                    p.competition in counting_results)
            for points, p in sorted(scored, key=lambda s: s[1].competition)
        )
        total = sum((c.points for c in counted if c.counts), Fraction(0))
        rated.append(Rated(athlete, None, total, counted, season_disqualified.get(athlete)))
    # barred for the season with no result in a counting competition: listed all the same
    rated += [Rated(a, None, Fraction(0), (), c) for a, c in season_disqualified.items() if a not in by_athlete]
    ranked = sorted((r for r in rated if r.season_disqualified is None), key=lambda r: (-r.total, r.athlete))
    out: list[Rated] = []
    for n, r in enumerate(ranked):
        rank = out[-1].rank if out and out[-1].total == r.total else n + 1
        out.append(Rated(r.athlete, rank, r.total, r.results))
    barred = sorted((r for r in rated if r.season_disqualified is not None), key=lambda r: r.athlete)
    return (*out, *barred)
