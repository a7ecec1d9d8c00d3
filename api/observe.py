"""What the long-running commands show an operator: their settings at start, and their metrics over HTTP.

The referee and the projector serve Prometheus' text format on ``--metrics-port`` (``/metrics``); the API
serves it at its own ``/metrics``. Names: docs/OPERATIONS.md, "Metrics".
"""

from __future__ import annotations

import argparse
import logging
from typing import Any

from api.settings import Settings

log = logging.getLogger("pokeraudit")

#: settings never written to a log line
_SECRET = ("jwt_secret",)


def add_metrics_address(command: argparse.ArgumentParser) -> None:
    command.add_argument("--metrics-port", type=int, default=None, metavar="PORT",
                         help="serve Prometheus metrics at http://HOST:PORT/metrics (default: not served)")
    command.add_argument("--metrics-host", default="127.0.0.1", metavar="HOST",
                         help="the address the metrics listen on (0.0.0.0 for a scraper on another machine)")


def serve_metrics(port: int | None, host: str = "127.0.0.1") -> None:
    """Serve this process's metrics from a background thread (nothing when ``port`` is None)."""
    if port is None:
        return
    from prometheus_client import start_http_server

    start_http_server(port, addr=host)
    log.info("metrics served", extra={"url": f"http://{host}:{port}/metrics"})


def loggable(settings: Settings) -> dict[str, Any]:
    """The settings as a log line's fields: secrets left out, the database's password masked."""
    out: dict[str, Any] = {}
    for name, value in settings.model_dump().items():
        if name in _SECRET:
            out[name] = "set" if value is not None else "unset"
        elif name == "database_url" and value:
            out[name] = _masked(str(value))
        else:
            out[name] = str(value) if not isinstance(value, int | bool | type(None)) else value
    return out


def _masked(url: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


def log_settings(process: str, settings: Settings) -> None:
    log.info(f"{process} starting", extra={"component": process, "mode": settings.mode, "settings": loggable(settings)})
