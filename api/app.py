"""The HTTP API: ``create_app(settings)`` wires the pipeline, the read models and every router.

Every error leaves in one shape (api/errors.py): a route's :class:`ApiError`, Starlette's HTTP errors (an
unknown path, a wrong method), a request that fails validation (``field`` names the input at fault) and an
unexpected failure (500, logged here, its internals never sent to the caller).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from eventsourcing.persistence import ConnectionUnavailableError
from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse
from psycopg_pool import PoolTimeout
from starlette.exceptions import HTTPException
from starlette.types import Receive, Scope, Send

from api import fast_reads, limits, outages
from api.appointments import StoredAppointments
from api.body_limit import BodyLimit
from api.bootstrap import Pipeline, bootstrap, open_projector, open_read_models
from api.errors import ApiError, ErrorBody, ErrorDetail
from api.heavy import HeavyReads
from api.metrics import Measured
from api.metrics import router as metrics_router
from api.revocations import RevokedTokens
from api.routes import federation, health, integrity, integrity_cases, ofc, protocol, reads, status, submit
from api.routes.results import router as results_router
from api.sealing import SealingPolicy
from api.settings import Settings
from api.web import install as install_web
from api.workers import Workers
from projections.read_models import ReadModels

log = logging.getLogger("pokeraudit.api")

#: The code of a Starlette HTTP error by status; any other status is "http_error".
HTTP_CODES = {
    401: "not_authenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
}
#: Where a validation error's location starts; what follows is the field's path.
_SOURCES = frozenset({"body", "query", "path", "header", "cookie"})


class API(FastAPI):
    """FastAPI, with the hottest reads answered ahead of its middleware (api/fast_reads.py, ``FastReads.ahead``)."""

    fast_reads: fast_reads.FastReads | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        fast = self.fast_reads
        if fast is not None and scope["type"] == "http":
            if self.root_path:
                scope["root_path"] = self.root_path  # as FastAPI's own call does first
            if await fast.ahead(self, scope, receive, send):
                return
        await super().__call__(scope, receive, send)

    def telemetry_on(self) -> bool:
        """Whether FastAPI's OpenTelemetry would observe a request (it does once an operator sets a provider)."""
        return self._native_telemetry.enabled()


def create_app(
    settings: Settings,
    pipeline: Pipeline | None = None,
    read_models: ReadModels | None = None,
    *,
    workers: bool = False,
) -> FastAPI:
    """The API over ``pipeline`` (bootstrapped from ``settings`` when not given) and ``read_models``.

    With ``workers`` the app also runs the referee and the projector in background threads while it serves
    (the embedded mode's single process; ``pokeraudit serve --workers`` in the kafka+postgres mode).
    """
    owns_pipeline, owns_read_models = pipeline is None, read_models is None
    pipeline = pipeline or bootstrap(settings, log_on_first_use=True)  # reads served while the broker is down
    read_models = read_models if read_models is not None else open_read_models(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if app.state.workers is not None:
            # Opened (and its tables made) here, before the workers open theirs: two first openings of one
            # SQLite store at once both try to record its schema migration.
            _ = pipeline.store
            app.state.workers.start()
        try:
            yield
        finally:
            if app.state.workers is not None:
                app.state.workers.stop()
            if owns_pipeline:
                pipeline.close()
            if owns_read_models:
                read_models.close()

    app = API(
        title="pokeraudit",
        version="1",
        summary="Event-sourced hand histories and audit for sports poker",
        description="Submit what happened at the table; read what the referee accepted, what it refused and why. "
        "Errors always have the shape {\"error\": {status, code, message, field, rule}}.",
        lifespan=lifespan,
    )
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.state.settings = settings
    app.state.pipeline = pipeline
    app.state.read_models = read_models
    # officials read a competition's sealed content in the office its records gave them (api/appointments.py)
    app.state.sealing = dataclasses.replace(
        SealingPolicy.from_settings(settings), appointed=StoredAppointments(lambda: app.state.pipeline.store.events)
    )
    app.state.workers = Workers(settings, lambda: open_projector(settings)) if workers else None
    app.state.heavy_reads = HeavyReads(settings.heavy_reads, settings.heavy_reads_wait_s)
    _install_error_shape(app)
    outages.install(app)
    app.add_middleware(Measured)
    if settings.cors_origins.strip():
        app.add_middleware(
            CORSMiddleware,
            allow_origins=[o.strip() for o in settings.cors_origins.split(",") if o.strip()],
            allow_methods=["GET", "POST"],
            allow_headers=["Authorization", "Content-Type"],
        )
    limits.install(app.state, settings)
    app.state.revoked_tokens = RevokedTokens(lambda: pipeline.store)
    limited = {id(submit.router): limits.limit_submits, id(protocol.router): limits.limit_heavy_reads,
               id(federation.router): limits.limit_heavy_reads}
    for router in _routers():
        limit = limited.get(id(router))
        app.include_router(router, dependencies=[Depends(limit)] if limit is not None else None)
    app.include_router(metrics_router)
    install_web(app)
    # the hottest reads answered ahead of the router, by the same checks (api/fast_reads.py; issue 17)
    app.fast_reads = fast_reads.install(
        app, {"/v1/hands/{hand_id}": reads.router, "/v1/hands/{hand_id}/stacks/final": reads.router,
              "/v1/competitions/{competition_id}/standings": federation.router})
    return app


def app_from_environment() -> FastAPI:
    """The API without in-process workers, configured from the environment: what each process of
    ``pokeraudit serve --processes N`` runs."""
    return create_app(Settings())


def _routers() -> Sequence[Any]:
    return (
        health.router, submit.router, reads.router, protocol.router, federation.router, ofc.router,
        integrity.router, integrity_cases.router, status.router, results_router,
    )


def error_response(detail: ErrorDetail, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(ErrorBody(error=detail).model_dump(), status_code=detail.status, headers=headers)


def field_path(location: Sequence[int | str]) -> str:
    """``("body", "payload", "seat")`` → ``payload.seat``; ``("query", "timeout")`` → ``timeout``."""
    parts = list(location)
    if parts and parts[0] in _SOURCES:
        parts = parts[1:]
    return ".".join(str(p) for p in parts) or str(location[0] if location else "")


def _install_error_shape(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.detail.status == 401 else None
        if exc.retry_after is not None:
            headers = {**(headers or {}), "Retry-After": str(exc.retry_after)}
        return error_response(exc.detail, headers)

    @app.exception_handler(PoolTimeout)
    @app.exception_handler(ConnectionUnavailableError)
    async def pool_exhausted(request: Request, exc: Exception) -> JSONResponse:
        # Every connection of a pool in use for longer than its timeout: the request is refused for load
        # (try again), not failed.
        log.warning("no database connection free answering %s %s: %s", request.method, request.url.path, exc)
        detail = ErrorDetail(status=503, code="busy", message="every database connection is in use; try again shortly")
        return error_response(detail, {"Retry-After": "1"})

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        code = HTTP_CODES.get(exc.status_code, "http_error")
        message = str(exc.detail)
        if exc.status_code == 404:
            message = f"there is no resource at {request.url.path}"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed at {request.url.path}"
        headers = dict(exc.headers) if exc.headers else None
        return error_response(ErrorDetail(status=exc.status_code, code=code, message=message), headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {"loc": (), "msg": "the request is not valid"}
        field = field_path(first.get("loc", ()))
        message = f"{field}: {first['msg']}" if field else str(first["msg"])
        if len(errors) > 1:
            message += f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
        return error_response(ErrorDetail(status=422, code="validation_error", message=message, field=field))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        # The caller learns that it failed, not how: tracebacks name files, queries and sometimes data.
        log.exception("unhandled error answering %s %s", request.method, request.url.path)
        return error_response(
            ErrorDetail(status=500, code="internal_error", message="the server failed to answer; the failure is logged")
        )
