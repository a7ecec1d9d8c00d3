"""The API served over real HTTP for the integration tests: uvicorn on a free loopback port, in a thread."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import uvicorn
from fastapi import FastAPI

from api.settings import Settings

SECRET = "integration-secret-of-at-least-32-bytes"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def serving(app: FastAPI, startup_s: float = 60.0) -> Iterator[str]:
    """``app`` listening on 127.0.0.1 until the block ends; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + startup_s
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the API did not start on port {port}")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=60)


def kafka_pg_settings(
    kafka_bootstrap: str, topic_factory: Callable[..., str], database_url: str, **more: Any
) -> Settings:
    """Settings of the kafka+postgres mode on fresh topics (3 partitions) and the given database. The tests'
    scenarios are dated in the past, so no clock skew bounds them unless a test sets one (production's default
    is 300 s)."""
    more.setdefault("POKERAUDIT_CLOCK_SKEW_S", 0)
    return Settings(
        KAFKA_BOOTSTRAP_SERVERS=kafka_bootstrap,
        DATABASE_URL=database_url,
        POKERAUDIT_TOPIC=topic_factory(partitions=3),
        POKERAUDIT_REJECTIONS_TOPIC=topic_factory(partitions=3),
        POKERAUDIT_CHECKPOINTS_TOPIC=topic_factory(partitions=1),
        POKERAUDIT_PARTITIONS=3,
        POKERAUDIT_JWT_SECRET=SECRET,
        POKERAUDIT_REFEREE_BATCH_MS=50,
        **more,
    )
