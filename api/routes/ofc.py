"""An OFC event's rounds and points (issue 16), read from the store's OfcRound aggregates (projections/ofc.py) at
the time of the request.

Cards are sealed as a hand's hole cards are (api/sealing.py, DESIGN decision 8): whoever sees every card of a
hand at that table (the judges live; the dealer of that table; the integrity team, the federation and the judges
once the round is over) sees every card of the round. Everyone else sees the rows set face up, never the cards
dealt and not set yet nor the discards, and a player in fantasy's rows only once the round is over (bfsp 8:
hidden from opponents until the end).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request

from api.auth import Principal
from api.deps import CurrentPrincipal, event_store, verify_scope
from api.errors import ERROR_RESPONSES, not_found
from api.sealing import seal, sees_every_card
from projections.ofc import OfcEvent, OfcRoundView, OfcRows, ofc_event

router = APIRouter(prefix="/v1", tags=["ofc"], responses=ERROR_RESPONSES)

CompetitionId = Annotated[str, Path(description="the competition, as the events name it")]


def seal_round(view: OfcRoundView, principal: Principal) -> OfcRoundView:
    """The round as ``principal`` may see it."""
    over = view.status != "in_progress"
    if sees_every_card(principal, over, view.table_id):
        return view
    seats = []
    for seat in view.seats:
        update: dict[str, object] = {"unset": seal(seat.unset), "discarded": seal(seat.discarded)}
        if seat.fantasy and not over:
            rows = seat.rows
            update["rows"] = OfcRows(bottom=seal(rows.bottom), middle=seal(rows.middle), top=seal(rows.top))
        seats.append(seat.model_copy(update=update))
    return view.model_copy(update={"seats": seats})


@router.get("/competitions/{competition_id}/ofc", response_model=OfcEvent)
def ofc(request: Request, competition_id: CompetitionId, principal: CurrentPrincipal) -> OfcEvent:
    """Every OFC round of the competition (variant ``OFC``, bfsp 8): each player's rows, foul, royalties and
    points, each pair's settlement in the order 1–2, 1–3, 2–3; and the standings by points over the event."""
    verify_scope(principal, competition_id)
    found = ofc_event(event_store(request), competition_id)
    if found is None:
        raise not_found("OFC event", competition_id)
    return found.model_copy(update={"rounds": [seal_round(r, principal) for r in found.rounds]})
