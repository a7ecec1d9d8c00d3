"""Integrity's views of a competition: player statistics (PokerTracker 4 definitions, docs/INTEGRITY.md), pair
scores and the alert queue with evidence. The statistics are the read model the projector keeps as hands are
stored (projections/integrity/live.py), so the queue is as current as the read models; scores and alerts are
computed from them on request. A window (``since``) is counted on request from the event store's hands.

Who reads what is the sealing policy's (api/sealing.py, DESIGN decision 12): player statistics, the officials
who read the federation's views whole; statistics by pair, scores and alerts (whose evidence quotes the cards
of ended hands, mucked ones included), only the integrity and federation roles, who see every card of an ended
hand; a token scoped to another competition, nothing (403). Only ended hands are read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel

from api.auth import Principal
from api.bootstrap import Pipeline
from api.deps import (
    CurrentPipeline,
    CurrentPrincipal,
    CurrentSealing,
    ReadModelsIfOpen,
    verify_reads_grounds_at,
    verify_reads_integrity,
    verify_scope,
)
from api.errors import ERROR_RESPONSES, not_found
from projections.integrity.alerts import alerts, evidence
from projections.integrity.cases import IntegrityCaseView
from projections.integrity.counters import Counters
from projections.integrity.parallel import count
from projections.integrity.players import PlayerStatistics, all_statistics
from projections.integrity.score import PairScore, Scorer
from projections.integrity.stored import competition_records
from projections.read_models import ReadModels

router = APIRouter(prefix="/v1/integrity", tags=["integrity"], responses=ERROR_RESPONSES)

Competition = Annotated[str, Path(description="the competition, as the events name it")]
MinHands = Annotated[int, Query(ge=1, description="only players (pairs) dealt in (together) in at least this many hands")]
Since = Annotated[datetime | None, Query(description="only hands started at or after this time (ISO 8601)")]


class EvidenceView(BaseModel):
    hand_id: str
    reason: str
    #: the hand's history, event by event
    history: str


class PairView(BaseModel):
    player_a: str
    player_b: str
    score: float
    behaviour: str
    hands: int
    pots: int
    soft_play: float
    chip_dumping: float
    team_play: float
    chip_flow: float
    chip_flow_z: float
    seating_z: float
    all_in_luck_z: float
    ring_support: float
    evidence: list[EvidenceView]


class CaseMark(BaseModel):
    """An integrity case on (two or more of) an alert's players: its state and outcome, so the queue shows
    what was concluded."""

    case: str
    state: str
    outcome: str | None
    href: str


class AlertView(BaseModel):
    players: list[str]
    score: float
    behaviour: str
    hands: int
    reasons: list[str]
    evidence: list[EvidenceView]
    pairs: list[list[str]]
    cases: list[CaseMark] = []


def _counters(
    pipeline: Pipeline, principal: Principal, models: ReadModels | None, competition: str, since: datetime | None
) -> Counters:
    verify_scope(principal, competition)
    if since is None and models is not None:
        found = models.integrity_counters(competition)
        counters = found if found is not None else Counters()
    else:
        counters = count(competition_records(pipeline.store, competition, since))
    if not counters.hands:
        raise not_found("competition with hold'em hands", competition)
    return counters


def _evidence(items: Any) -> list[EvidenceView]:
    return [EvidenceView(hand_id=e.hand_id, reason=e.reason, history=f"/v1/hands/{e.hand_id}/history") for e in items]


@router.get("/competitions/{competition}/players", response_model=list[PlayerStatistics])
def players(
    pipeline: CurrentPipeline, principal: CurrentPrincipal, sealing: CurrentSealing, models: ReadModelsIfOpen,
    competition: Competition,
    since: Since = None, min_hands: MinHands = 1,
) -> list[PlayerStatistics]:
    """Each player's statistics with its sample and 95 % interval."""
    verify_reads_grounds_at(principal, sealing, "player statistics", competition)
    return all_statistics(_counters(pipeline, principal, models, competition, since), min_hands)


@router.get("/competitions/{competition}/pairs", response_model=list[PairView])
def pairs(
    pipeline: CurrentPipeline, principal: CurrentPrincipal, sealing: CurrentSealing, models: ReadModelsIfOpen,
    competition: Competition,
    since: Since = None, min_hands: MinHands = 30,
) -> list[PairView]:
    """A suspicion score per pair dealt in together in at least ``min_hands`` hands, most suspicious first."""
    verify_reads_integrity(principal, sealing, "statistics by pair and scores")
    counters = _counters(pipeline, principal, models, competition, since)
    return [_pair(s, counters) for s in Scorer(counters).scores(min_hands)]


def _pair(score: PairScore, counters: Counters) -> PairView:
    found = evidence(counters.pairs[(score.player_a, score.player_b)], score.behaviour)
    return PairView(**{k: getattr(score, k) for k in PairView.model_fields if k != "evidence"},
                    evidence=_evidence(found))


@router.get("/competitions/{competition}/alerts", response_model=list[AlertView])
def alert_queue(
    pipeline: CurrentPipeline, principal: CurrentPrincipal, sealing: CurrentSealing, models: ReadModelsIfOpen,
    competition: Competition,
    since: Since = None, min_hands: MinHands = 30,
) -> list[AlertView]:
    """The ranked alert queue: suspicious pairs and rings, each with its reasons and evidence hands."""
    verify_reads_integrity(principal, sealing, "alerts")
    counters = _counters(pipeline, principal, models, competition, since)
    cases = models.integrity_cases(competition) if models is not None else []
    return [
        AlertView(players=list(a.players), score=a.score, behaviour=a.behaviour, hands=a.hands,
                  reasons=list(a.reasons), evidence=_evidence(a.evidence), pairs=[list(p) for p in a.pairs],
                  cases=_marks(competition, a.players, cases))
        for a in alerts(counters, Scorer(counters).scores(min_hands))
    ]


def _marks(competition: str, players: Any, cases: list[IntegrityCaseView]) -> list[CaseMark]:
    return [
        CaseMark(case=c.case, state=c.state, outcome=c.outcome,
                 href=f"/v1/integrity/competitions/{quote(competition, safe='')}/cases/{quote(c.case, safe='')}")
        for c in cases
        if len(set(c.players) & set(players)) >= 2
    ]
