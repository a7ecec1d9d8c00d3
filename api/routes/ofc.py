"""An OFC event's rounds and points (issue 16), read from the read models the projector keeps of them
(projections/ofc.py: ``rm_ofc_rounds``, ``rm_ofc_points``).

Cards are sealed by the one sealing policy (api/sealing.py), as a hand's hole cards are: a reader whose sight of
the round's table is ``EVERY`` (the judges live; the dealer of that table; the integrity team, the federation
and the judges once the round is over) sees every card of the round. Everyone else sees the rows set face up (as
the table sees them, like a board), never the cards dealt and not set yet nor the discards, and a player in
fantasy's rows only once the round is over (bfsp 8: hidden from opponents until the end) and, for the public
feeds, once their delay has passed.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from api.auth import Principal
from api.deps import CurrentPage, CurrentPrincipal, CurrentReadModels, CurrentSealing, Page, verify_scope
from api.errors import ERROR_RESPONSES, not_found
from api.sealing import SealingPolicy, Sight, seal_cards
from projections.ofc import OfcEvent, OfcRoundView, OfcRows, OfcStanding, OfcTableState

router = APIRouter(prefix="/v1", tags=["ofc"], responses=ERROR_RESPONSES)

CompetitionId = Annotated[str, Path(description="the competition, as the events name it")]
TableId = Annotated[str, Path(description="the table within the competition; may contain '/' and '#' (%23)")]
RoundNumber = Annotated[int, Path(ge=1, description="the round's number at its table: the envelope's hand_id")]


def seal_round(view: OfcRoundView, principal: Principal, sealing: SealingPolicy) -> OfcRoundView:
    """The round as ``principal`` may see it (the policy's sight of its table)."""
    over = view.status != "in_progress"
    sight = sealing.sight(principal, view.competition_id, view.table_id, over, view.scored_at)
    if sight is Sight.EVERY:
        return view
    seats = []
    for seat in view.seats:
        update: dict[str, object] = {"unset": seal_cards(seat.unset), "discarded": seal_cards(seat.discarded)}
        if seat.fantasy and not (over and sight is Sight.SHOWN):
            rows = seat.rows
            update["rows"] = OfcRows(bottom=seal_cards(rows.bottom), middle=seal_cards(rows.middle), top=seal_cards(rows.top))
        seats.append(seat.model_copy(update=update))
    return view.model_copy(update={"seats": seats})


@router.get("/competitions/{competition_id}/ofc", response_model=OfcEvent)
def ofc(
    competition_id: CompetitionId, principal: CurrentPrincipal, sealing: CurrentSealing, models: CurrentReadModels
) -> OfcEvent:
    """Every OFC round of the competition (variant ``OFC``, bfsp 8): each player's rows, foul, royalties and
    points, each pair's settlement in the order 1–2, 1–3, 2–3; and the standings by points over the event."""
    verify_scope(principal, competition_id)
    found = models.ofc_event(competition_id)
    if found is None:
        raise not_found("OFC event", competition_id)
    return found.model_copy(update={"rounds": [seal_round(r, principal, sealing) for r in found.rounds]})


@router.get("/competitions/{competition_id}/ofc/standings", response_model=list[OfcStanding])
def ofc_standings(
    competition_id: CompetitionId, principal: CurrentPrincipal, models: CurrentReadModels
) -> list[OfcStanding]:
    """Points per player over the competition's scored OFC rounds, most first (equal points share the place), with
    each player's points per round."""
    verify_scope(principal, competition_id)
    if not models.ofc_known(competition_id):
        raise not_found("OFC event", competition_id)
    return models.ofc_standings(competition_id)


@router.get(
    "/competitions/{competition_id}/ofc/tables/{table_id:path}/rounds/{number}", response_model=OfcRoundView
)
def ofc_round(
    competition_id: CompetitionId, table_id: TableId, number: RoundNumber, principal: CurrentPrincipal,
    sealing: CurrentSealing, models: CurrentReadModels,
) -> OfcRoundView:
    """One OFC round at its table, by its number there (the envelope's ``hand_id``), sealed for the caller."""
    verify_scope(principal, competition_id)
    found = models.ofc_round(competition_id, table_id, number)
    if found is None:
        raise not_found("OFC round", f"{number} at table {table_id} in competition {competition_id}")
    return seal_round(found, principal, sealing)


@router.get("/competitions/{competition_id}/ofc/tables/{table_id:path}/rounds", response_model=Page[OfcRoundView])
def ofc_rounds(
    competition_id: CompetitionId, table_id: TableId, principal: CurrentPrincipal, page: CurrentPage,
    sealing: CurrentSealing, models: CurrentReadModels,
) -> Page[OfcRoundView]:
    """The table's OFC rounds in the order of their numbers, sealed for the caller."""
    verify_scope(principal, competition_id)
    items, total = models.ofc_rounds(competition_id, table_id, page.offset, page.limit)
    if total == 0:
        raise not_found("OFC table", f"{table_id} in competition {competition_id}")
    return Page[OfcRoundView].of([seal_round(r, principal, sealing) for r in items], page, total)


@router.get("/competitions/{competition_id}/ofc/tables/{table_id:path}", response_model=OfcTableState)
def ofc_table(
    competition_id: CompetitionId, table_id: TableId, principal: CurrentPrincipal, models: CurrentReadModels
) -> OfcTableState:
    """The OFC table as its last round leaves it: its players and their points over the table's scored rounds."""
    verify_scope(principal, competition_id)
    found = models.ofc_table(competition_id, table_id)
    if found is None:
        raise not_found("OFC table", f"{table_id} in competition {competition_id}")
    return found
