"""An OFC event's rounds and points (issue 16), read from the store's OfcRound aggregates (projections/ofc.py) at
the time of the request.

Cards are sealed by the one sealing policy (api/sealing.py), as a hand's hole cards are: a reader whose sight of
the round's table is ``EVERY`` (the judges live; the dealer of that table; the integrity team, the federation
and the judges once the round is over) sees every card of the round. Everyone else sees the rows set face up (as
the table sees them, like a board), never the cards dealt and not set yet nor the discards, and a player in
fantasy's rows only once the round is over (bfsp 8: hidden from opponents until the end) and, for the public
feeds, once their delay has passed.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request

from api.auth import Principal
from api.deps import CurrentPrincipal, CurrentSealing, event_store, verify_scope
from api.errors import ERROR_RESPONSES, not_found
from api.sealing import SealingPolicy, Sight, seal_cards
from projections.ofc import OfcEvent, OfcRoundView, OfcRows, ofc_event

router = APIRouter(prefix="/v1", tags=["ofc"], responses=ERROR_RESPONSES)

CompetitionId = Annotated[str, Path(description="the competition, as the events name it")]


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
    request: Request, competition_id: CompetitionId, principal: CurrentPrincipal, sealing: CurrentSealing
) -> OfcEvent:
    """Every OFC round of the competition (variant ``OFC``, bfsp 8): each player's rows, foul, royalties and
    points, each pair's settlement in the order 1–2, 1–3, 2–3; and the standings by points over the event."""
    verify_scope(principal, competition_id)
    found = ofc_event(event_store(request), competition_id)
    if found is None:
        raise not_found("OFC event", competition_id)
    return found.model_copy(update={"rounds": [seal_round(r, principal, sealing) for r in found.rounds]})
