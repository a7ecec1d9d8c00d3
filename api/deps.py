"""What routes ask FastAPI for: the caller and what his role lets him do, the wiring, a page of results.

The app factory (api/app.py) puts the settings and the wired pipeline on ``app.state``; this module is the one
place that reads it. Routes never read ``app.state``, the environment or open connections themselves, and
take their role checks from here (:func:`roles`, and the sealing policy's checks of who reads what where).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import ExitStack
from datetime import timedelta
from typing import Annotated, Generic, TypeVar

from fastapi import Depends, Header, Query, Request
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from api.auth import AuthError, Principal, principal_from_header, require
from api.bootstrap import Pipeline
from api.errors import ApiError
from api.heavy import HeavyReads
from api.sealing import READS_GROUNDS, READS_INTEGRITY, READS_REJECTIONS, SealingPolicy
from api.settings import Settings
from api.workers import Workers
from domain.roles import Role
from ingest.store import Store
from projections.read_models import ReadModels

T = TypeVar("T")

MAX_PAGE = 500


# The dependencies below that only read ``app.state`` or check a token are coroutines: FastAPI runs a plain
# function's dependency on a worker thread, a hop there and back per dependency per request (7 % of a hand
# read's time in the serve process, issue 17), for work that never waits.


def _settings(request: Request) -> Settings:
    value: Settings = request.app.state.settings
    return value


async def settings(request: Request) -> Settings:
    return _settings(request)


async def principal(request: Request, authorization: Annotated[str | None, Header()] = None) -> Principal:
    """The caller named by the bearer token (or the anonymous viewer where public reads are on)."""
    s = _settings(request)
    secret = s.jwt_secret.get_secret_value() if s.jwt_secret else None
    try:
        found = principal_from_header(authorization, secret, s.public_read, timedelta(hours=s.token_max_hours))
    except AuthError as exc:
        raise ApiError(exc.status, exc.code, exc.message, field="Authorization") from exc
    revoked = getattr(request.app.state, "revoked_tokens", None)
    if found.token_id is None or revoked is None:
        return found
    # the first list of a process may be waited for (api/revocations.py): that wait is on a worker thread
    token_id = found.token_id
    ready = getattr(revoked, "ready", None)
    refused = (token_id in revoked) if ready is None or ready() else await run_in_threadpool(
        revoked.__contains__, token_id
    )
    if refused:
        raise ApiError(401, "token_revoked", "this token was revoked by the federation; ask for a new one",
                       field="Authorization")
    return found


async def sealing(request: Request) -> SealingPolicy:
    """The one sealing policy every output passes through (api/sealing.py)."""
    policy: SealingPolicy = request.app.state.sealing
    return policy


async def pipeline(request: Request) -> Pipeline:
    """The wired log, store and referee (api/bootstrap.py); a 503 in a process that does not open them."""
    wired: Pipeline | None = request.app.state.pipeline
    if wired is None:
        raise ApiError(503, "store_unavailable", "the event store is not open in this process")
    return wired


async def event_store(request: Request) -> Store:
    """The store of what the referee judged; a 503 in a process that does not open it."""
    wired = await pipeline(request)
    if getattr(wired, "store_opened", False):
        return wired.store
    return await run_in_threadpool(lambda: wired.store)  # the first use connects: not on the event loop


async def workers(request: Request) -> Workers | None:
    """The referee and the projector running in this process (None where they run elsewhere)."""
    running: Workers | None = request.app.state.workers
    return running


async def heavy_reads(request: Request) -> HeavyReads:
    """The bound on heavy reads at once (api/heavy.py)."""
    heavy: HeavyReads = request.app.state.heavy_reads
    return heavy


async def live_read_models(request: Request) -> ReadModels | None:
    """The read models as they change while the request runs (each read sees the latest state, unlike
    :func:`read_models_if_open`): what a request waiting for the projector reads. None where they are not open."""
    models: ReadModels | None = request.app.state.read_models
    return models


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
        if models.database.served and pinned.reads_held:
            await run_in_threadpool(stack.close)
        else:
            # SQLite's end, or nothing left to end: a route that ended its reads in its own hop (answered)
            stack.close()


async def read_models(models: Annotated[ReadModels | None, Depends(read_models_if_open)]) -> ReadModels:
    """The request's read models (:func:`read_models_if_open`); a 503 in a process that does not open them."""
    if models is None:
        raise ApiError(503, "read_models_unavailable", "the read models are not open in this process")
    return models


async def answered(models: ReadModels, read: Callable[[], T]) -> T:
    """``read()`` on a worker thread (it waits on the read models' server), the request's transaction ended in
    the same hop (:meth:`ReadModels.end_reads`): what an async read route awaits. A plain route costs two hops
    (FastAPI runs its function and then the check of its answer each on a worker thread) and the end of the
    transaction a third (issue 17)."""

    def read_and_end() -> T:
        try:
            return read()
        finally:
            models.end_reads()

    return await run_in_threadpool(read_and_end)


def roles(
    allowed: Iterable[Role], what: str, *, rule: str = "", signed_in: str = ""
) -> Callable[[Principal], Awaitable[Principal]]:
    """A dependency: the caller, if his role is one of ``allowed`` (else 403 naming ``what`` and who may, citing
    ``rule``); with ``signed_in``, an anonymous caller is first refused with 401 and that message."""
    who = frozenset(allowed)

    async def allowed_caller(principal: CurrentPrincipal) -> Principal:
        if signed_in and principal.anonymous:
            raise ApiError(401, "not_authenticated", signed_in, field="Authorization")
        try:
            require(principal, who, what)
        except AuthError as exc:
            raise ApiError(exc.status, exc.code, exc.message, rule=rule) from exc
        return principal

    return allowed_caller


def _refused(principal: Principal, what: str, who: frozenset[Role]) -> ApiError:
    names = ", ".join(sorted(r.value for r in who))
    return ApiError(403, "forbidden", f"{what} are for {names}; this token's role is {principal.role.value}")


def _not_appointed(principal: Principal, what: str, competition: str) -> ApiError:
    return ApiError(
        403, "forbidden",
        f"{what} of {competition} are for its own officials; {principal.person} is not appointed "
        f"{principal.role.value.replace('_', ' ')} there",
        rule="bfsp 2.1.1",
    )


def verify_reads_grounds(principal: Principal, sealing: SealingPolicy, what: str, competition: str) -> None:
    """403 unless the caller reads the officials' grounds (:data:`api.sealing.READS_GROUNDS`) and is appointed at
    ``competition`` (DESIGN decision 11)."""
    if not sealing.reads_grounds(principal):
        raise _refused(principal, what, READS_GROUNDS)
    if not sealing.appointed(principal, competition):
        raise _not_appointed(principal, what, competition)


def verify_reads_rejections(principal: Principal, sealing: SealingPolicy, competition: str) -> None:
    """403 unless the caller reads rejections (:data:`api.sealing.READS_REJECTIONS`) and is appointed at
    ``competition``."""
    if not sealing.reads_rejections(principal):
        raise _refused(principal, "the rejections", READS_REJECTIONS)
    if not sealing.appointed(principal, competition):
        raise _not_appointed(principal, "the rejections", competition)


def verify_reads_integrity(principal: Principal, sealing: SealingPolicy, what: str) -> None:
    """403 unless the caller reads statistics by pair, scores and alerts (:data:`api.sealing.READS_INTEGRITY`)."""
    if not sealing.reads_integrity(principal):
        raise _refused(principal, what, READS_INTEGRITY)


def verify_reads_grounds_at(principal: Principal, sealing: SealingPolicy, what: str, competition: str) -> None:
    """403 unless the caller reads the officials' grounds at ``competition`` (the roles of
    :data:`api.sealing.READS_GROUNDS`, appointed there where appointments bind: the sealing policy's rule)."""
    if not sealing.reads_grounds_at(principal, competition):
        raise _refused(principal, what, READS_GROUNDS)


def verify_scope(principal: Principal, competition: str) -> None:
    """A token scoped to one competition reads and does nothing at another (403)."""
    if principal.competition is not None and principal.competition != competition:
        raise ApiError(403, "forbidden", f"this token is for competition {principal.competition}, not {competition}")


class PageParams(BaseModel):
    offset: int = 0
    limit: int = 100


async def page_params(
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
CurrentSettings = Annotated[Settings, Depends(settings)]
CurrentPipeline = Annotated[Pipeline, Depends(pipeline)]
CurrentStore = Annotated[Store, Depends(event_store)]
CurrentWorkers = Annotated[Workers | None, Depends(workers)]
CurrentHeavyReads = Annotated[HeavyReads, Depends(heavy_reads)]
LiveReadModels = Annotated[ReadModels | None, Depends(live_read_models)]
CurrentPage = Annotated[PageParams, Depends(page_params)]
CurrentSealing = Annotated[SealingPolicy, Depends(sealing)]
CurrentReadModels = Annotated[ReadModels, Depends(read_models)]
ReadModelsIfOpen = Annotated[ReadModels | None, Depends(read_models_if_open)]
