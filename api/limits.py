"""Rate limits per token: submissions, and heavy reads (the protocol, the federation's views), each so many a
minute (POKERAUDIT_RATE_SUBMITS_PER_MINUTE, POKERAUDIT_RATE_HEAVY_READS_PER_MINUTE; 0 turns one off).

Counted in this process (a sliding minute per token): behind N API processes a token may make up to N times
the limit, which the reverse proxy's own limit per client bounds (docs/OPERATIONS.md, "Security").

A limit counts what the person asked for. A web page (api/web/) reads the API in-process with the reader's own
token, several routes for one page (the protest's review reads the protest and the rulings, the overview's
standings the clock, the balance and the standings); counting each call would let a person open a fifth as many
pages as a script may make reads, and a live overview, which fetches its standings each time the projector moves
on, would run out within the minute. So the calls a page makes carry its :class:`Visit` (in their ASGI scope,
where only this process can put it: nothing sent over a socket sets a scope key), and each limit counts the page
once, at its first limited call: a page that makes no heavy read is not counted as one, and a page past the
limit is refused with the API's own 429.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

from fastapi import Request

from api.auth import Principal
from api.deps import CurrentPrincipal
from api.errors import ApiError
from api.settings import Settings

WINDOW_SECONDS = 60.0


class SlidingMinute:
    """How many times each key acted in the last minute; refuses the act past ``per_minute``."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._acts: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def wait_for(self, key: str) -> float:
        """0 when ``key`` may act now (the act is counted), else the seconds until it may."""
        if self.per_minute <= 0:
            return 0.0
        now = self._clock()
        with self._lock:
            acts = self._acts.setdefault(key, deque())
            while acts and acts[0] <= now - WINDOW_SECONDS:
                acts.popleft()
            if len(acts) >= self.per_minute:
                return acts[0] + WINDOW_SECONDS - now
            acts.append(now)
            if len(self._acts) > 100_000:  # tokens long gone: forget the idle ones
                self._acts = {k: v for k, v in self._acts.items() if v and v[-1] > now - WINDOW_SECONDS}
            return 0.0


#: the ASGI scope key under which a web page's in-process calls carry its :class:`Visit`
VISIT_SCOPE_KEY = "pokeraudit.visit"


class Visit:
    """One request of a person to the web app, under which its page calls the API in-process: each limit
    counts it once, however many limited calls the page makes (at once, from several worker threads)."""

    def __init__(self) -> None:
        self._counted: set[str] = set()
        self._lock = threading.Lock()

    def wait_for(self, limiter: SlidingMinute, name: str, key: str) -> float:
        """:meth:`SlidingMinute.wait_for` the first time this visit meets the limit ``name``, 0 after that."""
        with self._lock:
            if name in self._counted:
                return 0.0
            wait = limiter.wait_for(key)
            if wait <= 0:  # a refused call is not counted: the page's next call is refused too
                self._counted.add(name)
            return wait


def key_of(principal: Principal, request: Request) -> str:
    if principal.anonymous:
        return f"address:{request.client.host if request.client else '?'}"
    return f"token:{principal.token_id}" if principal.token_id else f"person:{principal.person}:{principal.role.value}"


def _limited(request: Request, caller: Principal, what: str, name: str) -> None:
    limiter: SlidingMinute = getattr(request.app.state, name)
    visit = request.scope.get(VISIT_SCOPE_KEY)
    key = key_of(caller, request)
    wait = visit.wait_for(limiter, name, key) if isinstance(visit, Visit) else limiter.wait_for(key)
    if wait > 0:
        raise ApiError(
            429, "rate_limited",
            f"this token made {limiter.per_minute} {what} in the last minute, the most allowed; try again in "
            f"{wait:.0f} s",
        )


async def limit_submits(request: Request, caller: CurrentPrincipal) -> None:
    if request.method == "POST":
        _limited(request, caller, "submissions", "submit_limit")


async def limit_heavy_reads(request: Request, caller: CurrentPrincipal) -> None:
    _limited(request, caller, "heavy reads", "heavy_read_limit")


def install(app_state: object, settings: Settings) -> None:
    app_state.submit_limit = SlidingMinute(settings.rate_submits_per_minute)  # type: ignore[attr-defined]
    app_state.heavy_read_limit = SlidingMinute(settings.rate_heavy_reads_per_minute)  # type: ignore[attr-defined]
