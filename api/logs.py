"""Structured logs: one JSON object a line on standard error, for every long-running command.

``{"ts": "...Z", "level": "info", "logger": "pokeraudit.referee", "message": "partitions assigned",
"partitions": [0, 1]}`` — the fields a call passes as ``extra`` come as keys of their own, so a log shipper
can filter on them without parsing sentences.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

LEVELS = ("critical", "error", "warning", "info", "debug")
#: a LogRecord's own attributes; anything else on a record came from ``extra``
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                out[key] = value
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


class _StandardError(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to the ``sys.stderr`` of the moment of each line, not the one at set-up: a worker thread that
    outlives what replaced stderr (an embedding host, a test runner's capture) must not write to a closed
    stream."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


def configure(level: str = "info") -> None:
    """Every logger's records as JSON lines on stderr at ``level`` and above (uvicorn's included)."""
    handler = _StandardError(sys.stderr)
    handler.setFormatter(JsonLines())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # the Kafka client's own chatter (connection attempts while a broker is down) only at warning and above
    logging.getLogger("kafka").setLevel(max(logging.WARNING, root.level))
    # httpx writes a line at info for every request it makes; the web pages read the API in-process through it
    # (api/web/client.py), a dozen calls a page and ten a second for each open live page: lines that are not
    # the service's requests (uvicorn logs those) and would bury its own
    logging.getLogger("httpx").setLevel(max(logging.WARNING, root.level))
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True


def add_log_level(command: Any) -> None:
    """``--log-level`` on a long-running command."""
    command.add_argument("--log-level", default="info", choices=LEVELS, help="least severe log line written (JSON lines on stderr)")
