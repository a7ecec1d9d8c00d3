"""Stopping a long-running command cleanly on SIGTERM (an orchestrator's stop) or SIGINT (Ctrl-C)."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def stopped_by_signals(stop: Callable[[], None]) -> Iterator[None]:
    """SIGTERM and SIGINT call ``stop`` instead of ending the process at once (the handlers are restored)."""
    def handler(signum: int, frame: object) -> None:
        stop()

    before = {sig: signal.signal(sig, handler) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for sig, previous in before.items():
            signal.signal(sig, previous)
