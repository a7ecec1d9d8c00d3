"""The API's Prometheus metrics and ``GET /metrics``, where the in-process referee's and projector's are too.

Requests are counted by route (its path template, so a hand's id does not make a new series), method and
status; their latency is a histogram by route. A web page's own calls to the API in-process (api/web/client.py,
their scope carrying the page's :class:`api.limits.Visit`, which no request from outside can set) are not
requests to the service: they are counted apart, so the request rate and latency are those of the requests that
came in. Names: docs/OPERATIONS.md, "Metrics".
"""

from __future__ import annotations

import os
import time
from typing import Any

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector

from api.limits import VISIT_SCOPE_KEY

REQUESTS = Counter("pokeraudit_api_requests", "HTTP requests answered, by route, method and status",
                   ["route", "method", "status"])
LATENCY = Histogram(
    "pokeraudit_api_request_seconds", "time to answer an HTTP request, by route", ["route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
)

PAGE_CALLS = Counter("pokeraudit_api_page_calls", "the web pages' in-process calls to the API, by route, method and status",
                     ["route", "method", "status"])

router = APIRouter(tags=["health"])


@router.get("/metrics", include_in_schema=False)
def metrics() -> Response:
    """Prometheus' text format: the API's metrics, and the referee's and the projector's where they run here."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # `serve --processes N`: every process's counts, summed from the files prometheus-client keeps there
        registry = CollectorRegistry()
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)


class Measured:
    """ASGI middleware counting and timing every HTTP request (a plain ASGI layer: no per-request task)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        sending = StatusNoted(send)
        try:
            await self.app(scope, receive, sending)
        finally:
            counted(scope, sending.status, started)


class StatusNoted:
    """An ASGI ``send`` that notes the status its response starts with (500 until one starts: an answer that
    failed before it began is counted as the server's error)."""

    __slots__ = ("send", "status")

    def __init__(self, send: Any) -> None:
        self.send = send
        self.status = 500

    async def __call__(self, message: Any) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
        await self.send(message)


def counted(scope: Any, status: int, started: float) -> None:
    """Count and time a request answered with ``status`` (``started``: its ``time.perf_counter()`` on arrival), as
    :class:`Measured` does: also for the reads answered ahead of the middleware (api/fast_reads.py)."""
    route = getattr(scope.get("route"), "path", None) or "unmatched"
    if VISIT_SCOPE_KEY in scope:
        # a page's read of the API, part of the page's request (which is counted and timed itself)
        PAGE_CALLS.labels(route, scope["method"], str(status)).inc()
    else:
        REQUESTS.labels(route, scope["method"], str(status)).inc()
        LATENCY.labels(route).observe(time.perf_counter() - started)
