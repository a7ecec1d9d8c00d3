"""The season's rating list as a read model (domain/rating.py computes it): the projector keeps, exactly once and
rebuilt like the others, each competition's finishing places (``rm_rating_places``, from the Competition's own
standings, replayed along its stream), the competitions and the season each counts in (``rm_rating_competitions``),
the federation's rating rules of each season (``rm_rating_rules``) and its season disqualifications
(``rm_season_disqualifications``); a read puts them together by the rules in force. Every row comes from one
stream, so a rebuild by parts of the store writes each from one process."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from pydantic import BaseModel

from domain.competition.aggregate import Competition
from domain.officials.codec import decode
from domain.rating import CATALOG, Placed, RatingRulesAdopted, rating_list
from projections.hand_projection import Stored

#: the Competition's events that can change its finishing places (and the one that names its season)
RESULT_EVENTS = frozenset(
    {"RegulationsAdopted", "PlayerEliminated", "CompetitionWinnerDeclared", "DealAgreed", "OfcRoundCounted"}
)


class RatingRules(BaseModel):
    season: str
    #: points for place 1, 2, …; none past the last
    points: list[int]
    #: the competitions that count; empty: every competition of the season
    competitions: list[str]
    #: an athlete's best results that count; 0: all
    best_of: int
    reason: str
    adopted_at: str
    adopted_by: str


class RatingCompetition(BaseModel):
    competition: str
    title: str
    #: counted by the rules in force
    counted: bool
    #: play is over (a winner, or a deal that ended it): places of a competition still playing are those given so far
    over: bool


class RatingResult(BaseModel):
    competition: str
    #: the athlete's entry there (his best, of several)
    participant: str
    place: int
    #: places shared (1: his alone): they share the points of the places they cover
    shared: int
    #: disqualified from that competition (bfsp 7.2.2): no points
    disqualified: bool
    points: float
    #: among the results that count (the best ``best_of``)
    counts: bool


class SeasonDisqualificationEntry(BaseModel):
    competition: str
    decided_at: str
    code: str


class RatedAthlete(BaseModel):
    athlete: str
    #: None: disqualified for the season (bfsp 7.2.3), listed unranked
    rank: int | None
    total: float
    results: list[RatingResult]
    season_disqualified: SeasonDisqualificationEntry | None = None


class RatingList(BaseModel):
    season: str
    rules: RatingRules
    competitions: list[RatingCompetition]
    athletes: list[RatedAthlete]


def _points(value: Fraction) -> float:
    return round(float(value), 2)


# --- projecting ------------------------------------------------------------------------------------------------


class ProjectedResults:
    """One competition's places, from its Competition aggregate replayed along its stream."""

    def __init__(self, competition: Competition) -> None:
        self.competition = competition

    @property
    def version(self) -> int:
        version: int = self.competition.version
        return version

    def competition_row(self) -> tuple[Any, ...]:
        c = self.competition
        return (c.competition_id, str(c.regulations.starts_on.year), c.regulations.title, 1 if c.is_over else 0)

    def place_rows(self) -> list[tuple[Any, ...]]:
        c = self.competition
        return [
            (c.competition_id, s.participant, c.entries[s.participant].person, s.place, s.places,
             1 if s.disqualified else 0)
            for s in c.standings()
            if s.participant in c.entries
        ]


def rules_row(event: Stored) -> tuple[Any, ...]:
    """``rm_rating_rules``' row of the season the adoption is for: the latest replaces the earlier."""
    by = event.meta.get("recorded_by") or {}
    return (str(event.payload["season"]), json.dumps(event.payload), event.at, str(by.get("person", "")), event.version)


def disqualification_row(event: Stored) -> tuple[Any, ...]:
    p = event.payload
    return (str(p["athlete"]), str(p["season"]), str(p["competition"]), int(p["violation"]), str(p["code"]),
            str(p["decided_at"]))


# --- reading ---------------------------------------------------------------------------------------------------

Query = Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]


def season_rating(query: Query, sql: Any, season: str) -> RatingList | None:
    """The season's rating list by the rules in force (None: the federation adopted none for it); ``sql``: the
    schema's statements (projections/schema.py)."""
    found = query(sql.RATING_RULES_OF, (season,))
    if not found:
        return None
    payload, adopted_at, adopted_by = json.loads(str(found[0][0])), str(found[0][1]), str(found[0][2])
    rules = decode(payload, CATALOG)
    assert isinstance(rules, RatingRulesAdopted)
    competitions = {str(c): (str(t), bool(o)) for c, t, o in query(sql.RATING_COMPETITIONS_OF, (season,))}
    counted = set(rules.competitions) if rules.competitions else set(competitions)
    placed = [
        Placed(str(c), str(p), str(person), int(place), int(shared), bool(dq))
        for c, p, person, place, shared, dq in query(sql.RATING_PLACES_OF, (season,))
        if str(c) in counted
    ]
    barred = {str(a): (str(c), str(at), str(code)) for a, c, at, code in query(sql.SEASON_DISQUALIFIED_OF, (season,))}
    rated = rating_list(rules, placed, {a: c for a, (c, _, _) in barred.items()})
    return RatingList(
        season=season,
        rules=RatingRules(season=season, points=list(rules.points), competitions=list(rules.competitions),
                          best_of=rules.best_of, reason=rules.reason, adopted_at=adopted_at, adopted_by=adopted_by),
        competitions=[RatingCompetition(competition=c, title=t, counted=c in counted, over=o)
                      for c, (t, o) in sorted(competitions.items())],
        athletes=[
            RatedAthlete(
                athlete=r.athlete, rank=r.rank, total=_points(r.total),
                results=[RatingResult(competition=x.competition, participant=x.participant, place=x.place,
                                      shared=x.shared, disqualified=x.disqualified, points=_points(x.points),
                                      counts=x.counts) for x in r.results],
                season_disqualified=None if r.athlete not in barred else SeasonDisqualificationEntry(
                    competition=barred[r.athlete][0], decided_at=barred[r.athlete][1], code=barred[r.athlete][2]),
            )
            for r in rated
        ],
    )
