"""The read endpoints: competitions, tables, hands, their history, stacks, pots, showdown order, rejections
and the projection lag, answered from the read models (projections/) with hole cards sealed for the caller
(api/sealing.py). Routes only read: no commits, no business rules beyond who may see what. Each request reads
the read models as one state (api/deps.py: read_models), even while a rebuild swaps new ones in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Path, Query

from api.auth import Principal
from api.deps import (
    CurrentPage,
    CurrentPrincipal,
    CurrentReadModels,
    CurrentSealing,
    CurrentStore,
    Page,
    answered,
    verify_reads_rejections,
    verify_scope,
)
from api.errors import ERROR_RESPONSES, ApiError, not_found
from domain.hand.aggregate import hand_id as hand_stream
from domain.rejections import RejectionKind
from projections import views
from projections.ofc import OfcTableState
from projections.read_models import ReadModels

router = APIRouter(prefix="/v1", tags=["reads"], responses=ERROR_RESPONSES)

CompetitionId = Annotated[str, Path(description="the competition, as the events name it")]
TableId = Annotated[str, Path(description="the table within the competition; may contain '/' and '#' (%23)")]
HandId = Annotated[str, Path(description="the hand's UUID: domain.hand.aggregate.hand_id(table, number, competition)")]
HandNumber = Annotated[int, Path(ge=1, description="the hand's number at its table: the envelope's hand_id")]
TableHand = Annotated[str, Path(description="TABLE/NUMBER as payloads name a hand (T1/1); the table may contain '/'")]


def _hand(models: ReadModels, principal: Principal, hand_id: str) -> views.Hand:
    hand = models.hand(hand_id)
    if hand is None:
        raise not_found("hand", hand_id)
    verify_scope(principal, hand.competition_id)
    return hand


def _known_competition(models: ReadModels, principal: Principal, competition: str) -> None:
    verify_scope(principal, competition)
    if not models.competition_known(competition):
        raise not_found("competition", competition)


@router.get("/competitions", response_model=Page[views.Competition])
def competitions(principal: CurrentPrincipal, page: CurrentPage, models: CurrentReadModels) -> Page[views.Competition]:
    """Every competition with hands or rejections recorded."""
    found = [
        c for c in models.competitions()
        if principal.competition is None or c.competition_id == principal.competition
    ]
    return Page[views.Competition].of(found[page.offset : page.offset + page.limit], page, len(found))


@router.get("/competitions/{competition_id}/tables", response_model=Page[views.TableSummary])
def tables(
    competition_id: CompetitionId, principal: CurrentPrincipal, page: CurrentPage, models: CurrentReadModels
) -> Page[views.TableSummary]:
    """The competition's tables, by name."""
    _known_competition(models, principal, competition_id)
    items, total = models.tables(competition_id, page.offset, page.limit)
    return Page[views.TableSummary].of(items, page, total)


@router.get("/competitions/{competition_id}/tables/{table_id:path}/hands/{number}", response_model=views.Hand)
async def hand_at_table(
    competition_id: CompetitionId, table_id: TableId, number: HandNumber, principal: CurrentPrincipal,
    models: CurrentReadModels, sealing: CurrentSealing,
) -> views.Hand:
    """One hand by the envelope's names for it: its competition, its ``table_id`` and its ``hand_id`` (the hand's
    number at the table, ``"1"``); the same answer as ``/v1/hands/{uuid}``."""
    verify_scope(principal, competition_id)
    found = str(hand_stream(table_id, number, competition_id))
    return await answered(models, lambda: sealing.hand(_hand(models, principal, found), principal))


@router.get("/competitions/{competition_id}/hands/{table_hand:path}", response_model=views.Hand)
async def hand_in_competition(
    competition_id: CompetitionId, table_hand: TableHand, principal: CurrentPrincipal, models: CurrentReadModels,
    sealing: CurrentSealing,
) -> views.Hand:
    """One hand by the payloads' name for it, ``TABLE/NUMBER`` (``"T1/1"``: a ruling's, a challenge's, an
    elimination's ``hand``), within its competition; the same answer as ``/v1/hands/{uuid}``."""
    verify_scope(principal, competition_id)
    table_id, _, number = table_hand.rpartition("/")
    if not table_id or not number.isdigit():
        raise ApiError(
            422, "invalid_hand",
            f"hand {table_hand!r}: expected TABLE/NUMBER, the table's name and the hand's number at it (T1/1)",
            field="table_hand",
        )
    found = str(hand_stream(table_id, int(number), competition_id))
    return await answered(models, lambda: sealing.hand(_hand(models, principal, found), principal))


@router.get("/competitions/{competition_id}/tables/{table_id:path}/hands", response_model=Page[views.Hand])
def hands(
    competition_id: CompetitionId, table_id: TableId, principal: CurrentPrincipal, page: CurrentPage,
    models: CurrentReadModels, sealing: CurrentSealing,
) -> Page[views.Hand]:
    """The table's hands in the order of their numbers (hole cards sealed for the caller)."""
    verify_scope(principal, competition_id)
    items, total = models.hands(competition_id, table_id, page.offset, page.limit)
    if total == 0:
        raise not_found("table", f"{table_id} in competition {competition_id}")
    return Page[views.Hand].of([sealing.hand(h, principal) for h in items], page, total)


@router.get(
    "/competitions/{competition_id}/tables/{table_id:path}", response_model=views.TableState | OfcTableState
)
def table(
    competition_id: CompetitionId, table_id: TableId, principal: CurrentPrincipal, models: CurrentReadModels
) -> views.TableState | OfcTableState:
    """The table as its last hand leaves it: seats, players, stacks, button and level; an OFC table (variant
    ``OFC``) as its last round leaves it, with points instead of stacks."""
    verify_scope(principal, competition_id)
    state = models.table(competition_id, table_id) or models.ofc_table(competition_id, table_id)
    if state is None:
        raise not_found("table", f"{table_id} in competition {competition_id}")
    return state


@router.get("/hands/{hand_id}", response_model=views.Hand)
async def hand(
    hand_id: HandId, principal: CurrentPrincipal, models: CurrentReadModels, sealing: CurrentSealing
) -> views.Hand:
    """One hand: seats, players, stacks, board, status and chain head (hole cards sealed for the caller)."""
    return await answered(models, lambda: sealing.hand(_hand(models, principal, hand_id), principal))


@router.get("/hands/{hand_id}/history", response_model=Page[views.HistoryEntry])
def history(
    hand_id: HandId, principal: CurrentPrincipal, page: CurrentPage, models: CurrentReadModels,
    sealing: CurrentSealing,
) -> Page[views.HistoryEntry]:
    """Every stored event of the hand in order: who recorded it, the engine's reading of raw acts, rulings."""
    found = _hand(models, principal, hand_id)
    entries = models.history(hand_id, page.offset, page.limit)
    return Page[views.HistoryEntry].of(sealing.history(entries, found, principal), page, found.version)


@router.get("/hands/{hand_id}/stacks", response_model=list[views.StacksAfter])
async def stacks(
    hand_id: HandId, principal: CurrentPrincipal, models: CurrentReadModels
) -> list[views.StacksAfter]:
    """Each seat's stack and chips in the pot after every event of the hand."""

    def read() -> list[views.StacksAfter]:
        _hand(models, principal, hand_id)
        return models.stacks(hand_id)

    return await answered(models, read)


@router.get("/hands/{hand_id}/stacks/final", response_model=list[views.TableSeat])
async def final_stacks(
    hand_id: HandId, principal: CurrentPrincipal, models: CurrentReadModels
) -> list[views.TableSeat]:
    """The stacks after the hand's last event (its final stacks once it has ended), as the latest ruling that
    moved the hand's chips left them, with the engine's and that ruling."""
    return await answered(models, lambda: models.final_stacks(_hand(models, principal, hand_id)))


@router.get("/hands/{hand_id}/pots", response_model=list[views.Pot])
async def pots(
    hand_id: HandId, principal: CurrentPrincipal, models: CurrentReadModels, sealing: CurrentSealing
) -> list[views.Pot]:
    """The main pot and the side pots: live while the hand is played, with winners once awarded."""

    def read() -> list[views.Pot]:
        found = _hand(models, principal, hand_id)
        return sealing.pots(models.pots(hand_id), found, principal)

    return await answered(models, read)


@router.get("/hands/{hand_id}/showdown", response_model=views.Showdown)
def showdown(
    hand_id: HandId, principal: CurrentPrincipal, models: CurrentReadModels, sealing: CurrentSealing
) -> views.Showdown:
    """The showdown order the rules give, who showed what, who mucked unshown, and the odd chips."""
    found = _hand(models, principal, hand_id)
    return sealing.showdown(models.showdown(found), found, principal)


@router.get("/hands/{hand_id}/rulings", response_model=list[views.Ruling])
def rulings(
    hand_id: HandId, principal: CurrentPrincipal, models: CurrentReadModels, sealing: CurrentSealing
) -> list[views.Ruling]:
    """The officials' rulings on the hand and the Chief Judge's inspections of its mucked hands, in order (their
    findings for the officials)."""
    found = _hand(models, principal, hand_id)
    return sealing.rulings(models.rulings(hand_id), found, principal)


@router.get("/competitions/{competition_id}/rejections", response_model=Page[views.Rejection])
def rejections(
    competition_id: CompetitionId,
    principal: CurrentPrincipal,
    page: CurrentPage,
    models: CurrentReadModels,
    sealing: CurrentSealing,
    kind: Annotated[RejectionKind | None, Query(description="only rejections of this kind")] = None,
) -> Page[views.Rejection]:
    """What was reported at the competition and refused, with the rule and the reason, in log order (the cards a
    reason quotes sealed as on the hand it is about)."""
    verify_reads_rejections(principal, sealing, competition_id)
    _known_competition(models, principal, competition_id)
    items, total = models.rejections(competition_id, kind.value if kind else None, page.offset, page.limit)
    sealed = sealing.rejections(items, competition_id, hand_of(models, competition_id), principal)
    return Page[views.Rejection].of(sealed, page, total)


def hand_of(models: ReadModels, competition_id: str) -> Callable[[str, str], views.Hand | None]:
    """The read model of a hand of ``competition_id`` named by its table and number (None if unknown)."""

    def found(table_id: str, number: str) -> views.Hand | None:
        if not number.isdigit() or len(number) > 18:
            return None
        return models.hand(str(hand_stream(table_id, int(number), competition_id)))

    return found


@router.get("/projections/lag", response_model=views.Lag)
def lag(store: CurrentStore, principal: CurrentPrincipal, models: CurrentReadModels) -> views.Lag:
    """How far the read models are behind the event store."""
    head = store.recorder.max_notification_id() or 0
    position = models.position()
    return views.Lag(position=position, head=head, lag=max(0, head - position))
