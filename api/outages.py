"""What the API answers while a service behind it is down: 503 naming it, never a 500.

A read that finds PostgreSQL down (a refused connection, a server shut down mid-query, a pool that cannot
connect) or a write the broker does not take answers ``503 service_unavailable`` with ``Retry-After``; the
pools are asked to drop their broken connections, so reads answer 200 again as soon as the server is back
(and not only once every pooled connection has failed once).
"""

from __future__ import annotations

import logging
import threading

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from api.errors import ErrorBody, ErrorDetail
from api.probes import kafka_name, postgres_name
from api.settings import Settings
from ingest.runners import INFRASTRUCTURE_ERRORS, failed_service

log = logging.getLogger("pokeraudit.api")

#: seconds a client is told to wait before asking again
RETRY_AFTER_SECONDS = 5


def install(app: FastAPI) -> None:
    for error in INFRASTRUCTURE_ERRORS:
        if issubclass(error, Exception):
            app.add_exception_handler(error, _unavailable)


async def _unavailable(request: Request, exc: Exception) -> JSONResponse:
    settings: Settings = request.app.state.settings
    service = failed_service(exc)
    what = _named(settings, service)
    log.warning("answered 503: %s is not reachable", what, extra={"service": service, "path": request.url.path,
                                                                  "error": str(exc)})
    _drop_broken_connections(request)
    detail = ErrorDetail(
        status=503,
        code="service_unavailable",
        message=f"{what} is not reachable; ask again in a few seconds ({type(exc).__name__})",
    )
    return JSONResponse(
        ErrorBody(error=detail).model_dump(), status_code=503, headers={"Retry-After": str(RETRY_AFTER_SECONDS)}
    )


def _named(settings: Settings, service: str) -> str:
    if service == "kafka" and settings.kafka_bootstrap_servers:
        return kafka_name(settings.kafka_bootstrap_servers)
    if settings.database_url:
        return postgres_name(settings.database_url)
    return f"the embedded store under {settings.data_dir}"


def _drop_broken_connections(request: Request) -> None:
    """In a thread: the pools check their idle connections (a round trip each), which a restarted server broke."""
    read_models = request.app.state.read_models
    pipeline = request.app.state.pipeline

    def check() -> None:
        try:
            if read_models is not None:
                read_models.database.check_connections()
            if pipeline is not None:
                pipeline.check_connections()
        except Exception as err:  # noqa: BLE001 - the server may still be down: the next 503 checks again
            log.debug("checking the pools' connections: %s", err)

    threading.Thread(target=check, name="pokeraudit-pool-check", daemon=True).start()
