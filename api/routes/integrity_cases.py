"""Integrity cases as the read model keeps them (projections/integrity/cases.py). A case is recorded like every
act: ``IntegrityCaseOpened``, ``…Noted``, ``…Concluded`` and ``…Reported`` records through ``POST /v1/events``,
judged by the referee (docs/ACTS.md).

Who reads a case is the sealing policy's (api/sealing.py): the integrity team and the federation every case; a
competition's Chief Judge the cases reported to him there; nobody else (403). A case the reader may not see is
answered as one that does not exist.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from api.auth import Principal
from api.deps import CurrentPrincipal, CurrentReadModels, CurrentSealing, verify_scope
from api.errors import ERROR_RESPONSES, ApiError, not_found
from api.sealing import READS_INTEGRITY, SealingPolicy
from domain.roles import Role
from projections.integrity.cases import IntegrityCaseView

router = APIRouter(prefix="/v1/integrity", tags=["integrity"], responses=ERROR_RESPONSES)

Competition = Annotated[str, Path(description="the competition, as the events name it")]
CaseName = Annotated[str, Path(description="the case's name, as its opening named it")]
#: who reads cases at all: the integrity team and the federation, and a Chief Judge the cases reported to him
READERS = READS_INTEGRITY | {Role.CHIEF_JUDGE}


def _verify_reader(principal: Principal, competition: str) -> None:
    verify_scope(principal, competition)
    if principal.role not in READERS:
        raise ApiError(
            403, "forbidden",
            "integrity cases are for federation and integrity (and a Chief Judge, for the cases reported to him); "
            f"this token's role is {principal.role.value}",
        )


def _readable(sealing: SealingPolicy, principal: Principal, case: IntegrityCaseView) -> bool:
    reported_to = case.report.chief_judge if case.report is not None else None
    return sealing.reads_integrity_case(principal, case.competition, reported_to)


@router.get("/competitions/{competition}/cases", response_model=list[IntegrityCaseView])
def cases(
    principal: CurrentPrincipal, sealing: CurrentSealing, models: CurrentReadModels, competition: Competition
) -> list[IntegrityCaseView]:
    """The competition's integrity cases by name, each with its state, evidence, notes, conclusion and report."""
    _verify_reader(principal, competition)
    reported_only = not sealing.reads_integrity(principal)
    return [c for c in models.integrity_cases(competition, reported_only) if _readable(sealing, principal, c)]


@router.get("/competitions/{competition}/cases/{case}", response_model=IntegrityCaseView)
def case(
    principal: CurrentPrincipal, sealing: CurrentSealing, models: CurrentReadModels, competition: Competition,
    case: CaseName,
) -> IntegrityCaseView:
    """One integrity case: its evidence hands (each linking to its history), notes, conclusion and report."""
    _verify_reader(principal, competition)
    found = models.integrity_case(competition, case)
    if found is None or not _readable(sealing, principal, found):
        raise not_found("integrity case", case)
    return found
