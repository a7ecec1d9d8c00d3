"""Liveness and readiness, for load balancers and orchestrators.

``/health`` answers while the process runs. ``/ready`` answers 200 only when what a request needs is there:
the log of record and the event store reachable, and, where this process runs them, the referee and the
projector still running; otherwise 503 naming what is missing.
"""

from __future__ import annotations

import socket
import sqlite3
from typing import Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel

from api.bootstrap import Pipeline
from api.errors import ERROR_RESPONSES, ApiError
from api.settings import Mode, Settings
from ingest.runners import INFRASTRUCTURE_ERRORS

#: seconds a readiness probe waits for a service before calling it unreachable
PROBE_SECONDS = 2.0
#: an embedded store's file cannot be read (eventsourcing wraps sqlite3's errors in its own)
EMBEDDED_ERRORS: tuple[type[BaseException], ...] = (*INFRASTRUCTURE_ERRORS, sqlite3.Error)

router = APIRouter(tags=["health"])


class Health(BaseModel):
    status: Literal["alive"] = "alive"


class Readiness(BaseModel):
    status: Literal["ready"] = "ready"
    mode: Mode
    checked: list[str]


@router.get("/health", response_model=Health, responses=ERROR_RESPONSES)
def health() -> Health:
    """The process is alive (it says nothing of the services behind it: see /ready)."""
    return Health()


@router.get("/ready", response_model=Readiness, responses=ERROR_RESPONSES)
def ready(request: Request) -> Readiness:
    """200 when the log and the store are reachable and the in-process workers run; 503 naming what is not."""
    settings: Settings = request.app.state.settings
    pipeline: Pipeline = request.app.state.pipeline
    checked = [_log_reachable(settings, pipeline), _store_reachable(settings, pipeline)]
    workers = request.app.state.workers
    if workers is not None:
        if workers.failures:
            name, why = sorted(workers.failures.items())[0]
            raise ApiError(503, "not_ready", f"the {name} running in this process has stopped: {why}")
        checked.append(" and ".join(workers.running) + " running in this process")
    return Readiness(mode=settings.mode, checked=checked)


def _log_reachable(settings: Settings, pipeline: Pipeline) -> str:
    if settings.kafka_bootstrap_servers is None:
        try:
            pipeline.log.read(0, 0, 1)
        except sqlite3.Error as exc:
            raise _unreachable(f"the embedded log under {settings.data_dir}", exc) from exc
        return f"embedded log under {settings.data_dir}"
    brokers = [b.strip() for b in settings.kafka_bootstrap_servers.split(",") if b.strip()]
    failures = []
    for broker in brokers:
        host, _, port = broker.rpartition(":")
        try:
            socket.create_connection((host.strip("[]") or broker, int(port or 9092)), PROBE_SECONDS).close()
            return f"Kafka at {broker}"
        except (OSError, ValueError) as exc:
            failures.append(exc)
    raise _unreachable(f"Kafka at {', '.join(brokers)}", failures[-1] if failures else None)


def _store_reachable(settings: Settings, pipeline: Pipeline) -> str:
    if settings.database_url is None:
        try:
            pipeline.store.tracked_offset(settings.topic, 0)
        except EMBEDDED_ERRORS as exc:
            raise _unreachable(f"the embedded store under {settings.data_dir}", exc) from exc
        return f"embedded store under {settings.data_dir}"
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    server = conninfo_to_dict(settings.database_url)
    where = f"PostgreSQL at {server.get('host', '127.0.0.1')}:{server.get('port', 5432)}"
    try:
        with psycopg.connect(settings.database_url, connect_timeout=max(1, int(PROBE_SECONDS))) as conn:
            conn.execute("SELECT 1")
    except (psycopg.Error, OSError) as exc:
        raise _unreachable(where, exc) from exc
    return where


def _unreachable(what: str, exc: BaseException | None) -> ApiError:
    because = f": {exc}" if exc is not None else ""
    return ApiError(503, "not_ready", f"{what} is not reachable{because}")
