"""Heavy reads (the protocol in every format, a snapshot's verification): a bounded number at once per process.

Each reads every stream of a competition and, as HTML or PDF, renders it: hundreds of milliseconds of a worker
thread and a connection of the store's pool. Sixty at once took every connection of the pool (one request
answered 500) and every worker thread, so a judge's one-row read waited twenty seconds behind them. So at most
``limit`` run at once; up to ``wait_s`` more seconds a request waits for its turn *on the event loop* (holding
no thread and no connection), and a request still without one is answered 503 with ``Retry-After``: a read is
refused for load, never failed by it.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from typing import TypeVar

from starlette.concurrency import run_in_threadpool

from api.errors import ApiError

T = TypeVar("T")


class HeavyReads:
    def __init__(self, limit: int, wait_s: float) -> None:
        self.limit = limit
        self.wait_s = wait_s
        self._slots: asyncio.Semaphore | None = None

    async def run(self, what: str, work: Callable[[], T]) -> T:
        """``work`` on a worker thread once a slot is free; 503 (Retry-After) if none frees within ``wait_s``."""
        if self._slots is None:
            # Made on the event loop that serves the requests (one per process).
            self._slots = asyncio.Semaphore(self.limit)
        try:
            await asyncio.wait_for(self._slots.acquire(), timeout=self.wait_s)
        except TimeoutError:
            raise ApiError(
                503, "busy",
                f"{self.limit} heavy reads are being answered already and {what} waited {self.wait_s:g} s for its turn;"
                " try again shortly",
                retry_after=max(1, math.ceil(self.wait_s)),
            ) from None
        try:
            return await run_in_threadpool(work)
        finally:
            self._slots.release()
