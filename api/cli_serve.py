"""``pokeraudit serve`` (the API under uvicorn) and ``pokeraudit token`` (a signed token for operators).

In the embedded mode the served process is the whole service: it also runs the referee and the projector,
so a submitted event becomes readable. In the kafka+postgres mode they run as their own processes unless
``--workers`` asks for them here.
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
from datetime import timedelta
from typing import TYPE_CHECKING, Literal

from api.auth import API_ROLES
from api.logs import add_log_level
from api.logs import configure as configure_logs
from api.observe import log_settings
from api.settings import MIN_SECRET_BYTES, Settings

log = logging.getLogger("pokeraudit.api")

if TYPE_CHECKING:
    from fastapi import FastAPI

    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]


def add_serve(subparsers: Subparsers) -> None:
    """Declare ``serve`` and ``token`` (one registration in api/cli.py adds both)."""
    command = subparsers.add_parser(
        "serve",
        help="serve the HTTP API (uvicorn)",
        description="Serve the API. Embedded mode: the referee and the projector run in this process too. "
        "Kafka+PostgreSQL mode: only with --workers (else run `pokeraudit referee` beside it); "
        "POKERAUDIT_JWT_SECRET is required there.",
    )
    command.add_argument("--host", default=None, help="address to listen on (default POKERAUDIT_API_HOST)")
    command.add_argument("--port", type=int, default=None, help="port (default POKERAUDIT_API_PORT)")
    command.add_argument(
        "--workers",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="run the referee and the projector in this process (default: yes when embedded, no otherwise)",
    )
    command.add_argument(
        "--processes",
        type=int,
        default=1,
        help="serve from N processes (reads spread over the cores); the in-process workers need one process",
    )
    add_log_level(command)
    command.set_defaults(run=_serve)
    _add_token(subparsers)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    settings = Settings()
    configure_logs(args.log_level)
    refusal = production_refusal(settings)
    if refusal:
        print(f"serve: {refusal}", file=sys.stderr)
        return 2
    log_settings("api", settings)
    for warning in start_warnings(settings):
        log.warning(warning, extra={"setting": "POKERAUDIT_PUBLIC_READ"})
    workers = args.workers if args.workers is not None else settings.mode == "embedded"
    host = args.host or settings.api_host
    port = args.port or settings.api_port
    if args.processes < 1:
        print("serve: --processes must be at least 1", file=sys.stderr)
        return 2
    if args.processes > 1 and workers:
        print("serve: the referee and the projector run in one process only: with --processes N > 1 add --no-workers "
              "and run `pokeraudit referee` and `pokeraudit projections run --follow` beside it", file=sys.stderr)
        return 2
    app = _app_once_reachable(settings, workers, args.processes)
    if app is None:
        return 0  # stopped (SIGTERM, SIGINT) while waiting for PostgreSQL
    running = "with the referee and the projector" if workers else "without workers"
    print(f"serving the {settings.mode} service {running} on http://{host}:{port} (OpenAPI at /docs)", flush=True)
    if args.processes > 1:
        # uvicorn starts each process from an import string; each builds its app from the same environment
        uvicorn.run("api.app:app_from_environment", factory=True, host=host, port=port, workers=args.processes,
                    log_level=args.log_level, log_config=None)
        return 0
    # log_config=None: uvicorn's lines go through the JSON-lines handler configured above
    assert app is not True  # one process: the app itself
    uvicorn.run(app, host=host, port=port, log_level=args.log_level, log_config=None)
    return 0


def _app_once_reachable(settings: Settings, workers: bool, processes: int) -> FastAPI | Literal[True] | None:
    """The app (``True`` for ``--processes N``, whose processes build their own), once PostgreSQL answers.

    Started while PostgreSQL is down, ``serve`` waits for it (the app makes its read models' tables at start),
    logging each retry, instead of failing; None when stopped while waiting.
    """
    from api.app import create_app
    from api.probes import Unreachable, store_reachable
    from api.signals import stopped_by_signals
    from ingest.runners import INFRASTRUCTURE_ERRORS, until_reachable

    stop = threading.Event()
    with stopped_by_signals(stop.set):
        if settings.database_url is not None and until_reachable(
            lambda: store_reachable(settings), stop, "serve", logger=log, errors=(Unreachable,)
        ) is None:
            return None
        if processes > 1:
            return True
        return until_reachable(lambda: create_app(settings, workers=workers), stop, "serve", logger=log,
                               errors=INFRASTRUCTURE_ERRORS)


def production_refusal(settings: Settings) -> str:
    """Why the API must not serve with these settings ("" when it may): the kafka+postgres mode is production."""
    if settings.mode != "kafka+postgres":
        return ""
    if settings.jwt_secret is None:
        return "POKERAUDIT_JWT_SECRET must be set in the kafka+postgres mode (it signs the API's tokens)"
    if len(settings.jwt_secret.get_secret_value().encode()) < MIN_SECRET_BYTES:
        return (f"POKERAUDIT_JWT_SECRET must be at least {MIN_SECRET_BYTES} bytes in the kafka+postgres mode "
                "(e.g. openssl rand -hex 32)")
    return ""


def start_warnings(settings: Settings) -> list[str]:
    """What an operator must hear at start, served as it is."""
    if settings.mode == "kafka+postgres" and settings.public_read:
        return ["POKERAUDIT_PUBLIC_READ is on in the kafka+postgres mode: anyone who reaches the API reads as a "
                "viewer without a token (hole cards stay sealed)"]
    return []


def _add_token(subparsers: Subparsers) -> None:
    command = subparsers.add_parser(
        "token",
        help="print a signed API token (operators' and the demo's tool)",
        description="Sign a token with POKERAUDIT_JWT_SECRET for a person and role; a dealer's names his competition "
        "and table.",
    )
    command.add_argument("--role", required=True, choices=sorted(r.value for r in API_ROLES))
    command.add_argument("--person", required=True, help="who holds the token (the claim 'sub')")
    command.add_argument("--table", default=None, help="a dealer's table (required for a dealer)")
    command.add_argument(
        "--competition", default=None, help="limit the token to one competition (required for a dealer and a participant)"
    )
    command.add_argument("--hours", type=float, default=12.0,
                         help="how long the token is valid (at most POKERAUDIT_TOKEN_MAX_HOURS, 24 by default)")
    command.set_defaults(run=_token)


def _token(args: argparse.Namespace) -> int:
    import jwt

    from api.auth import issue_token
    from api.settings import Settings

    settings = Settings()
    if settings.jwt_secret is None:
        print("token: set POKERAUDIT_JWT_SECRET (the key the API checks tokens with)", file=sys.stderr)
        return 2
    try:
        token = issue_token(
            settings.jwt_secret.get_secret_value(), args.person, args.role, table=args.table,
            competition=args.competition, lifetime=timedelta(hours=args.hours),
            max_lifetime=timedelta(hours=settings.token_max_hours),
        )
    except ValueError as exc:
        print(f"token: {exc}", file=sys.stderr)
        return 2
    print(token)
    # what a revocation names (docs/OPERATIONS.md, "Security"); on stderr, so stdout stays the token alone
    print(f"token id (jti): {jwt.decode(token, options={'verify_signature': False})['jti']}", file=sys.stderr)
    return 0
