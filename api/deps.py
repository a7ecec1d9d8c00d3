"""What routes ask FastAPI for: the caller, the wiring, a page of results.

The app factory (api/app.py) puts the settings and the wired pipeline on ``app.state``; routes never read the
environment or open connections themselves.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import ExitStack
from datetime import timedelta
from typing import Annotated, Generic, TypeVar

from fastapi import Depends, Header, Query, Request
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from api.auth import AuthError, Principal, principal_from_header
from api.errors import ApiError
from api.sealing import SealingPolicy
from api.settings import Settings
from ingest.store import Store
from projections.read_models import ReadModels

T = TypeVar("T")

MAX_PAGE = 500


def settings(request: Request) -> Settings:
    value: Settings = request.app.state.settings
    return value


def principal(request: Request, authorization: Annotated[str | None, Header()] = None) -> Principal:
    """The caller named by the bearer token (or the anonymous viewer where public reads are on)."""
    s = settings(request)
    secret = s.jwt_secret.get_secret_value() if s.jwt_secret else None
    try:
        found = principal_from_header(authorization, secret, s.public_read, timedelta(hours=s.token_max_hours))
    except AuthError as exc:
        raise ApiError(exc.status, exc.code, exc.message, field="Authorization") from exc
    revoked = getattr(request.app.state, "revoked_tokens", None)
    if found.token_id is not None and revoked is not None and found.token_id in revoked:
        raise ApiError(401, "token_revoked", "this token was revoked by the federation; ask for a new one",
                       field="Authorization")
    return found


def sealing(request: Request) -> SealingPolicy:
    """The one sealing policy every output passes through (api/sealing.py)."""
    policy: SealingPolicy = request.app.state.sealing
    return policy


def event_store(request: Request) -> Store:
    """The store of what the referee judged; a 503 in a process that does not open it."""
    pipeline = request.app.state.pipeline
    if pipeline is None:
        raise ApiError(503, "store_unavailable", "the event store is not open in this process")
    store: Store = pipeline.store
    return store


async def read_models_if_open(request: Request) -> AsyncIterator[ReadModels | None]:
    """The read models as one state for the whole request (None in a process that does not open them): its
    reads run in one read-only transaction, begun by the first and ended after the route, so a rebuild swapped
    in meanwhile is in none of them.

    A coroutine, not a plain generator: FastAPI would run a plain one's two halves on worker threads, two
    hops per request. The end (the COMMIT, where a read began a transaction) runs here when SQLite ends it
    (letting go of its mark in the write-ahead log, no I/O), on a worker thread when it is a round trip to a
    server the event loop must not wait on: the hop cost more than the whole COMMIT in the embedded mode."""
    models: ReadModels | None = request.app.state.read_models
    if models is None:
        yield None
        return
    stack = ExitStack()
    # entering reads nothing: the first read of the route begins the transaction
    pinned = stack.enter_context(models.pinned())
    try:
        yield pinned
    finally:
        if models.database.served:
            await run_in_threadpool(stack.close)
        else:
            stack.close()


async def read_models(models: Annotated[ReadModels | None, Depends(read_models_if_open)]) -> ReadModels:
    """The request's read models (:func:`read_models_if_open`); a 503 in a process that does not open them."""
    if models is None:
        raise ApiError(503, "read_models_unavailable", "the read models are not open in this process")
    return models


def verify_scope(principal: Principal, competition: str) -> None:
    """A token scoped to one competition reads and does nothing at another (403)."""
    if principal.competition is not None and principal.competition != competition:
        raise ApiError(403, "forbidden", f"this token is for competition {principal.competition}, not {competition}")


class PageParams(BaseModel):
    offset: int = 0
    limit: int = 100


def page_params(
    offset: Annotated[int, Query(ge=0, le=10**9, description="items to skip")] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="most items returned")] = 100,
) -> PageParams:
    return PageParams(offset=offset, limit=limit)


class Page(BaseModel, Generic[T]):
    """A page of a longer list: ``next_offset`` is None on the last page."""

    items: list[T]
    offset: int
    limit: int
    total: int
    next_offset: int | None = Field(default=None)

    @classmethod
    def of(cls, items: list[T], page: PageParams, total: int) -> Page[T]:
        end = page.offset + len(items)
        return cls(
            items=items,
            offset=page.offset,
            limit=page.limit,
            total=total,
            next_offset=end if end < total else None,
        )


CurrentPrincipal = Annotated[Principal, Depends(principal)]
CurrentPage = Annotated[PageParams, Depends(page_params)]
CurrentSealing = Annotated[SealingPolicy, Depends(sealing)]
CurrentReadModels = Annotated[ReadModels, Depends(read_models)]
ReadModelsIfOpen = Annotated[ReadModels | None, Depends(read_models_if_open)]
