"""Liveness and readiness, for load balancers and orchestrators.

``/health`` answers while the process runs. ``/ready`` answers 200 only when what a request needs is there:
the log of record and the event store reachable, and, where this process runs them, the referee and the
projector still running; otherwise 503 naming what is missing.
"""

from __future__ import annotations

import sqlite3
from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from api.bootstrap import Pipeline
from api.deps import CurrentPipeline, CurrentSettings, CurrentWorkers, LiveReadModels
from api.errors import ERROR_RESPONSES, ApiError
from api.probes import Unreachable, log_reachable, store_reachable
from api.settings import Mode, Settings
from ingest.behind import LogBehindStore, partitions_behind
from ingest.runners import INFRASTRUCTURE_ERRORS
from projections.read_models import ReadModels
from projections.runner import poison_count

#: an embedded store's file cannot be read (eventsourcing wraps sqlite3's errors in its own)
EMBEDDED_ERRORS: tuple[type[BaseException], ...] = (*INFRASTRUCTURE_ERRORS, sqlite3.Error)

router = APIRouter(tags=["health"])


class Health(BaseModel):
    status: Literal["alive"] = "alive"


class Readiness(BaseModel):
    status: Literal["ready"] = "ready"
    mode: Mode
    checked: list[str]
    #: what works but not wholly: e.g. events the projector passed over as poison (see `pokeraudit status`)
    degraded: list[str] = Field(default_factory=list)


@router.get("/health", response_model=Health, responses=ERROR_RESPONSES)
def health() -> Health:
    """The process is alive (it says nothing of the services behind it: see /ready)."""
    return Health()


@router.get("/ready", response_model=Readiness, responses=ERROR_RESPONSES)
def ready(
    settings: CurrentSettings, pipeline: CurrentPipeline, workers: CurrentWorkers, read_models: LiveReadModels
) -> Readiness:
    """200 when the log and the store are reachable and the in-process workers run; 503 naming what is not."""
    checked = [_log_reachable(settings, pipeline), _store_reachable(settings, pipeline)]
    _refuse_a_log_behind_the_store(settings, pipeline)
    if workers is not None:
        if workers.failures:
            name, why = sorted(workers.failures.items())[0]
            raise ApiError(503, "not_ready", f"the {name} running in this process has stopped: {why}")
        checked.append(" and ".join(workers.running) + " running in this process")
    return Readiness(mode=settings.mode, checked=checked, degraded=_degraded(read_models))


def _degraded(read_models: ReadModels | None) -> list[str]:
    """Degraded, not down: the projector went on past events it could not project (DESIGN decision 10)."""
    if read_models is None:
        return []
    try:
        passed_over = poison_count(read_models.database)
    except EMBEDDED_ERRORS:
        return []
    if not passed_over:
        return []
    return [f"the projector passed over {passed_over} event(s) it could not project: see `pokeraudit status`"]


def _log_reachable(settings: Settings, pipeline: Pipeline) -> str:
    if settings.kafka_bootstrap_servers is None:
        try:
            pipeline.log.read(0, 0, 1)
        except sqlite3.Error as exc:
            raise _unreachable(f"the embedded log under {settings.data_dir}", exc) from exc
        return f"embedded log under {settings.data_dir}"
    try:
        return log_reachable(settings)
    except Unreachable as exc:
        raise ApiError(503, "not_ready", str(exc)) from exc


def _store_reachable(settings: Settings, pipeline: Pipeline) -> str:
    if settings.database_url is None:
        try:
            pipeline.store.tracked_offset(settings.topic, 0)
        except EMBEDDED_ERRORS as exc:
            raise _unreachable(f"the embedded store under {settings.data_dir}", exc) from exc
        return f"embedded store under {settings.data_dir}"
    try:
        return store_reachable(settings)
    except Unreachable as exc:
        raise ApiError(503, "not_ready", str(exc)) from exc


def _refuse_a_log_behind_the_store(settings: Settings, pipeline: Pipeline) -> None:
    """503 when the store has judged offsets the log does not reach (the broker's data lost or replaced):
    nothing submitted now would be judged."""
    try:
        behind = partitions_behind(
            pipeline.log.end_offsets(), lambda p: pipeline.store.tracked_offset(settings.topic, p)
        )
    except EMBEDDED_ERRORS as exc:
        raise _unreachable("the log or the store", exc) from exc
    if behind:
        raise ApiError(503, "log_behind_store", str(LogBehindStore(settings.topic, behind)))


def _unreachable(what: str, exc: BaseException | None) -> ApiError:
    because = f": {exc}" if exc is not None else ""
    return ApiError(503, "not_ready", f"{what} is not reachable{because}")
