"""The API's view of the revoked tokens: the store's deny list (domain/officials/revocations.py), read again at
most every few seconds, so a revocation the referee has judged is in force everywhere within that time.

While the store cannot be read, the last list read stays in force (a revoked token stays refused); the requests
that need the store answer 503 on their own.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from eventsourcing.application import AggregateNotFoundError

from domain.officials.revocations import DENY_LIST_ID, TokenDenyList
from ingest.runners import INFRASTRUCTURE_ERRORS
from ingest.store import Store

log = logging.getLogger("pokeraudit.api")

#: how stale the list may be: a revocation is in force on every API process within this many seconds
REFRESH_SECONDS = 5.0
#: how long the first request of a process waits for the first list
FIRST_READ_SECONDS = 2.0


class RevokedTokens:
    def __init__(self, store: Callable[[], Store] | None, refresh_seconds: float = REFRESH_SECONDS) -> None:
        self._store = store
        self.refresh_seconds = refresh_seconds
        self._ids: frozenset[str] = frozenset()
        self._read_at = float("-inf")
        self._reading: threading.Thread | None = None
        self._first = threading.Event()
        self._lock = threading.Lock()

    def ready(self) -> bool:
        """Whether a lookup answers without waiting: the first list was read (or there is no store)."""
        return self._store is None or self._first.is_set()

    def __contains__(self, token_id: str) -> bool:
        if self._store is None:
            return False
        if time.monotonic() - self._read_at >= self.refresh_seconds:
            self._refresh_in_background(self._store)
        # the first list is waited for a moment (a revoked token must not slip in as the process starts); later
        # ones are read beside the requests, which never wait on a slow or unreachable store for it
        self._first.wait(FIRST_READ_SECONDS)
        return token_id in self._ids

    def _refresh_in_background(self, store: Callable[[], Store]) -> None:
        with self._lock:
            if self._reading is not None and self._reading.is_alive():
                return
            self._read_at = time.monotonic()
            self._reading = threading.Thread(target=self._read, args=(store,), name="pokeraudit-revoked", daemon=True)
            self._reading.start()

    def _read(self, store: Callable[[], Store]) -> None:
        try:
            try:
                found: object = store().repository.get(DENY_LIST_ID)
            except AggregateNotFoundError:
                found = None
            self._ids = frozenset(found.revoked) if isinstance(found, TokenDenyList) else frozenset()
        except INFRASTRUCTURE_ERRORS as err:
            log.warning("the revoked tokens cannot be read; the last list read stays in force: %s", err)
        finally:
            self._first.set()
