"""Is the log's broker, is PostgreSQL reachable now? Asked with a short timeout, answered with a sentence.

``/ready``, ``status``, ``projections lag`` and the API's 503s ask here first, so that an outage is said
promptly ("PostgreSQL at 127.0.0.1:5432 is not reachable: …") instead of after a client library's own
timeouts (30 s and more) and a traceback.
"""

from __future__ import annotations

import socket

from api.settings import Settings

#: seconds a probe waits for a service before calling it unreachable
PROBE_SECONDS = 2.0


class Unreachable(Exception):
    """A service the command needs does not answer; the message names it and says why."""

    def __init__(self, what: str, why: BaseException | str | None = None) -> None:
        self.what = what
        because = f": {why}" if why else ""
        super().__init__(f"{what} is not reachable{because}")


def postgres_name(database_url: str) -> str:
    """``PostgreSQL at host:port`` for a DATABASE_URL."""
    from psycopg.conninfo import conninfo_to_dict

    server = conninfo_to_dict(database_url)
    return f"PostgreSQL at {server.get('host', '127.0.0.1')}:{server.get('port', 5432)}"


def kafka_name(bootstrap: str) -> str:
    return f"Kafka at {bootstrap}"


def log_reachable(settings: Settings) -> str:
    """What was reached: the first broker of KAFKA_BOOTSTRAP_SERVERS that accepts a connection."""
    assert settings.kafka_bootstrap_servers is not None
    brokers = [b.strip() for b in settings.kafka_bootstrap_servers.split(",") if b.strip()]
    failure: BaseException | None = None
    for broker in brokers:
        host, _, port = broker.rpartition(":")
        try:
            socket.create_connection((host.strip("[]") or broker, int(port or 9092)), PROBE_SECONDS).close()
            return kafka_name(broker)
        except (OSError, ValueError) as exc:
            failure = exc
    raise Unreachable(kafka_name(", ".join(brokers)), failure)


def store_reachable(settings: Settings) -> str:
    """What was reached: the PostgreSQL server of DATABASE_URL, asked ``SELECT 1``; the embedded store is a file."""
    if settings.database_url is None:
        return f"embedded store under {settings.data_dir}"
    import psycopg

    where = postgres_name(settings.database_url)
    try:
        with psycopg.connect(settings.database_url, connect_timeout=max(1, int(PROBE_SECONDS))) as conn:
            conn.execute("SELECT 1")
    except (psycopg.Error, OSError) as exc:
        raise Unreachable(where, str(exc).strip() or type(exc).__name__) from exc
    return where


def services_reachable(settings: Settings) -> list[str]:
    """Both services of the kafka+postgres mode (the embedded one has none to reach)."""
    if settings.kafka_bootstrap_servers is None:
        return [store_reachable(settings)]
    return [log_reachable(settings), store_reachable(settings)]
