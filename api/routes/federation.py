"""The federation's live views of a competition (federation digest §3.4–3.6), read from the store's aggregates
(projections/federation.py) at the time of the request: the penalty register, protests and hand challenges,
the table balance, the level clock, the standings and the rulings.

Who reads what:

* **integrity, judge, chief judge, secretary, federation** read everything, grounds included;
* **viewers** (and dealers, who officiate one table, not the competition) read the standings, the clock, the
  balance, the penalty register without its grounds (what each violation was about, its hand, intent: the
  sanction, its rule and the hands left are public at the table, the officials' grounds are not) and the
  protests, open ones without their grounds (a decided protest is published with its grounds and reasons);
  the rulings — findings of fact and the Chief Judge's reasons — are refused them (403);
* a token scoped to another competition is refused everything here (403).

Every refusal is a 403 in the one error shape (api/errors.py). "Overdue" and "time remaining" are judged
against the server's clock at the request.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, TypeVar

from fastapi import APIRouter, Path
from starlette.concurrency import run_in_threadpool

from api.auth import Principal
from api.deps import (
    CurrentPage,
    CurrentPrincipal,
    CurrentReadModels,
    CurrentSealing,
    CurrentStore,
    Page,
    PageParams,
    ReadModelsIfOpen,
    answered,
    verify_reads_grounds,
    verify_scope,
)
from api.errors import ERROR_RESPONSES, not_found
from ingest.store import Store
from projections import federation
from projections.rating import RatingList

router = APIRouter(prefix="/v1", tags=["federation"], responses=ERROR_RESPONSES)

CompetitionId = Annotated[str, Path(description="the competition, as the events name it")]
ProtestId = Annotated[str, Path(description="the protest's id as filed")]
Season = Annotated[
    str, Path(description="the sports season: the year its competitions start in", pattern=r"^[0-9]{4}$")
]
T = TypeVar("T")


def now() -> datetime:
    return datetime.now(UTC)


def _found(value: T | None, competition_id: str) -> T:
    if value is None:
        raise not_found("competition", competition_id)
    return value


def _page(kind: type[Page[T]], items: list[T], page: PageParams) -> Page[T]:
    return kind.of(items[page.offset : page.offset + page.limit], page, len(items))


def _read(store: Store, principal: Principal, competition_id: str, view: Callable[[Store], T | None]) -> T:
    verify_scope(principal, competition_id)
    return _found(view(store), competition_id)


@router.get("/competitions/{competition_id}/penalties", response_model=Page[federation.ParticipantRecord])
def penalties(
    store: CurrentStore, competition_id: CompetitionId, principal: CurrentPrincipal, page: CurrentPage,
    sealing: CurrentSealing,
) -> Page[federation.ParticipantRecord]:
    """The penalty register: each participant's violations (code, rule, occurrence), penalties (kind, who
    imposed them, rule, hands left), the missed-round penalty he is serving and his disqualifications."""
    grounds = sealing.reads_grounds_at(principal, competition_id)
    register = _read(
        store, principal, competition_id, lambda s: federation.penalty_register(s, competition_id, grounds)
    )
    sealed = [sealing.federation_view(entry, principal, competition_id) for entry in register]
    return _page(Page[federation.ParticipantRecord], sealed, page)


class ProtestBoard(Page[federation.ProtestView]):
    """The protests, a page at a time, and every table's last hand with its challenge window."""

    challenge_windows: list[federation.ChallengeWindowView] = []


@router.get("/competitions/{competition_id}/protests", response_model=ProtestBoard)
def protests(
    store: CurrentStore, competition_id: CompetitionId, principal: CurrentPrincipal, page: CurrentPage,
    models: ReadModelsIfOpen, sealing: CurrentSealing,
) -> ProtestBoard:
    """Each protest with its tier, filer, what it is against, its state, the federation's deadline and whether
    it is overdue now, and its decision; each table's last hand and whether its result may still be challenged."""
    at = now()
    _read(store, principal, competition_id, lambda s: federation.competition(s, competition_id))
    found = federation.protests(store, competition_id, at, grounds=sealing.reads_grounds_at(principal, competition_id))
    sealed = [sealing.federation_view(p, principal, competition_id) for p in found]
    listed = _page(Page[federation.ProtestView], sealed, page)
    windows = [] if models is None else federation.challenge_windows(store, models, competition_id, at)
    return ProtestBoard(**listed.model_dump(), challenge_windows=windows)


@router.get("/competitions/{competition_id}/protests/{protest_id}", response_model=federation.ProtestView)
def protest(
    store: CurrentStore, competition_id: CompetitionId, protest_id: ProtestId, principal: CurrentPrincipal,
    sealing: CurrentSealing,
) -> federation.ProtestView:
    """One protest (an open one's grounds only for the officials)."""
    _read(store, principal, competition_id, lambda s: federation.competition(s, competition_id))
    found = federation.protest(
        store, competition_id, protest_id, now(), grounds=sealing.reads_grounds_at(principal, competition_id)
    )
    if found is None:
        raise not_found("protest", f"{protest_id} at competition {competition_id}")
    return sealing.federation_view(found, principal, competition_id)


@router.get("/competitions/{competition_id}/balance", response_model=federation.Balance)
def balance(store: CurrentStore, competition_id: CompetitionId, principal: CurrentPrincipal) -> federation.Balance:
    """Players per table, whether the counts are within the tolerance, and the move the floor's rules call for
    next: the next big blind at the fullest table and his seat at the short one (bfsp 3.1)."""
    return _read(store, principal, competition_id, lambda s: federation.balance(s, competition_id))


@router.get("/competitions/{competition_id}/clock", response_model=federation.Clock)
def clock(store: CurrentStore, competition_id: CompetitionId, principal: CurrentPrincipal) -> federation.Clock:
    """The level in play with its blinds and ante, the time left in it, the next level and the breaks."""
    at = now()
    return _read(store, principal, competition_id, lambda s: federation.clock(s, competition_id, at))


@router.get("/competitions/{competition_id}/standings", response_model=federation.Standings)
async def standings(
    store: CurrentStore, competition_id: CompetitionId, principal: CurrentPrincipal, models: ReadModelsIfOpen
) -> federation.Standings:
    """The players left with their chips after their last hand, the eliminations in order with their places,
    and the winner."""

    def read() -> federation.Standings:
        return _read(store, principal, competition_id, lambda s: federation.standings(s, models, competition_id))

    return await (answered(models, read) if models is not None else run_in_threadpool(read))


@router.get("/competitions/{competition_id}/rulings", response_model=Page[federation.RulingView])
def rulings(
    store: CurrentStore, competition_id: CompetitionId, principal: CurrentPrincipal, page: CurrentPage,
    sealing: CurrentSealing,
) -> Page[federation.RulingView]:
    """Every official's ruling on the competition's hands: the finding, the rule, and each pot of the hand,
    mechanical or decided by the ruling."""
    verify_reads_grounds(principal, sealing, "the rulings", competition_id)
    _read(store, principal, competition_id, lambda s: federation.competition(s, competition_id))
    found = [sealing.federation_view(r, principal, competition_id) for r in federation.rulings(store, competition_id)]
    return _page(Page[federation.RulingView], found, page)


@router.get("/seasons/{season}/rating", response_model=RatingList)
def season_rating(season: Season, principal: CurrentPrincipal, models: CurrentReadModels) -> RatingList:
    """The season's rating list, by the rating rules the federation adopted for it (``RatingRulesAdopted``: points
    by place, the competitions that count, an athlete's best results): each athlete's results (competition,
    entry, place, shared places, points, whether it counts), total and rank; an athlete disqualified for the
    season (bfsp 7.2.3) is listed unranked with the decision. Every role reads it: places and season
    disqualifications are public. 404 while no rules are adopted for the season."""
    rating = models.season_rating(season)
    if rating is None:
        raise not_found("rating rules for season", season)
    return rating
