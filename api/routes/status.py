"""The pipeline's state as ``pokeraudit status`` prints it: per partition of the log, its end offset, the
referee's tracked offset and the lag; the accepted and rejected counts (the web app's operations page)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from api.deps import CurrentPrincipal
from api.errors import ERROR_RESPONSES, ApiError
from api.operations import status as pipeline_status

router = APIRouter(prefix="/v1", tags=["operations"], responses=ERROR_RESPONSES)


@router.get("/status")
def status(request: Request, principal: CurrentPrincipal) -> dict[str, Any]:
    """Per partition: log end offset, tracked offset, lag; accepted and rejected counts (``pokeraudit status``)."""
    pipeline = request.app.state.pipeline
    if pipeline is None:
        raise ApiError(503, "store_unavailable", "the event store is not open in this process")
    return pipeline_status(pipeline)
