"""The projector following the store: retried through outages of PostgreSQL, measured, logged.

``follow`` is the loop of ``pokeraudit projections run --follow`` and of the API's in-process projector. An
unreachable store or read-model database (a PostgreSQL restart: ``AdminShutdown``, refused connections, a
pool that cannot connect) is waited out with a growing pause and the projector resumes from its stored
position; any other failure stops it, as an audit service must (DESIGN decision 10).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

from prometheus_client import Counter, Gauge, Histogram

from ingest.runners import INFRASTRUCTURE_ERRORS, failed_service

log = logging.getLogger("pokeraudit.projector")

PROJECTED = Counter("pokeraudit_projector_events_projected", "stored events the projector wrote into the read models")
CATCH_UP_SECONDS = Histogram(
    "pokeraudit_projector_catch_up_seconds",
    "time of one catch-up that projected something",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
)
LAG = Gauge("pokeraudit_projector_lag_events", "stored events not yet projected into the read models")
POISON = Gauge(
    "pokeraudit_projector_poison_events",
    "stored events the projector passed over because they cannot be projected (rm_poison_events; issue 11)",
)
RETRIES = Counter(
    "pokeraudit_projector_retries", "outages the projector waited out and retried, by service", ["service"]
)

#: the longest pause between two attempts while a service is down (seconds)
MAX_PAUSE = 10.0
#: how often an idle projector measures its lag (seconds)
LAG_EVERY = 5.0


class Follower(Protocol):
    """What following needs of a projector."""

    def catch_up(self) -> int: ...

    def lag(self) -> int: ...

    def poison_count(self) -> int: ...

    def close(self) -> None: ...


def follow(
    open_projector: Callable[[], Follower],
    stop: threading.Event,
    idle: Callable[[], None],
) -> int:
    """Project until ``stop`` is set; the number of events projected.

    ``idle`` is called when there was nothing new (it sleeps, or waits to be woken). The projector is opened
    here, and again after an outage cut it off (its connections are the ones that failed).
    """
    projector: Follower | None = None
    total, pause, measured = 0, 0.5, 0.0
    try:
        while not stop.is_set():
            try:
                if projector is None:
                    projector = open_projector()
                    log.info("projector started", extra={"lag": projector.lag()})
                started = time.perf_counter()
                applied = projector.catch_up()
                pause = 0.5
                if applied:
                    total += applied
                    PROJECTED.inc(applied)
                    CATCH_UP_SECONDS.observe(time.perf_counter() - started)
                if applied or time.monotonic() - measured > LAG_EVERY:
                    LAG.set(projector.lag())
                    POISON.set(projector.poison_count())
                    measured = time.monotonic()
                if not applied:
                    idle()
            except INFRASTRUCTURE_ERRORS as err:
                service = failed_service(err)
                RETRIES.labels(service).inc()
                log.warning(
                    "the store or the read models are unreachable; retrying in %.1fs: %s", pause, err,
                    extra={"service": service, "retry_in_s": pause},
                )
                if projector is not None:
                    _close_quietly(projector)
                    projector = None
                stop.wait(pause)
                pause = min(pause * 2, MAX_PAUSE)
    finally:
        if projector is not None:
            projector.close()
    log.info("projector stopped", extra={"projected": total})
    return total


def _close_quietly(projector: Follower) -> None:
    try:
        projector.close()
    except INFRASTRUCTURE_ERRORS as err:
        log.debug("closing a cut-off projector: %s", err)
