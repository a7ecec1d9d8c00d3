"""The pipeline's state as ``pokeraudit status`` prints it: per partition of the log, its end offset, the
referee's tracked offset and the lag; the accepted and rejected counts (the web app's operations page)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from api.deps import CurrentPipeline, CurrentPrincipal
from api.errors import ERROR_RESPONSES
from api.operations import status as pipeline_status
from api.settings import Mode

router = APIRouter(prefix="/v1", tags=["operations"], responses=ERROR_RESPONSES)


class PartitionStatus(BaseModel):
    partition: int
    log_end_offset: int
    tracked_offset: int | None = Field(description="the last offset the referee judged (None: none yet)")
    lag: int = Field(description="records on the log not judged yet")
    behind_store: bool = Field(description="the store judged offsets this partition no longer reaches")


class PoisonEvent(BaseModel):
    """A stored event the projector could not project and passed over (DESIGN decision 10)."""

    notification_id: int
    stream: str
    version: int
    topic: str
    error: str


class PipelineStatus(BaseModel):
    log_behind_store: str = Field(description="blank, or which partitions the log lost that the store judged")
    mode: Mode
    topic: str
    partitions: list[PartitionStatus]
    lag: int
    accepted: int
    rejected: int
    degraded: bool = Field(description="the projector passed over events it could not project")
    poison_events: int
    poison: list[PoisonEvent] = Field(description="the first of the events passed over")


@router.get("/status", response_model=PipelineStatus)
def status(pipeline: CurrentPipeline, principal: CurrentPrincipal) -> dict[str, Any]:
    """Per partition: log end offset, tracked offset, lag; accepted and rejected counts (``pokeraudit status``)."""
    return pipeline_status(pipeline)
