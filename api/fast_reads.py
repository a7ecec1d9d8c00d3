"""The hottest reads answered ahead of FastAPI's router (issue 17): a hand (``GET /v1/hands/{hand_id}``), its final
stacks (``…/stacks/final``) and a competition's standings (``GET /v1/competitions/{id}/standings``).

They were most of what a judge's screens and the reporting dashboards ask, and FastAPI's own work per request
(matching through every route, solving each route's dependencies, validating the answer against its model) cost
more than the read itself. :class:`FastReads` is one route placed first in the app's router: it matches a request
with the FastAPI route's own ``matches`` (the same path, the same parameters; every other method goes on to the
route, which answers 405), sets that route in the scope (the metrics count it under its path) and answers through
the same functions the route's dependencies call — the caller from the token (api/deps.py ``principal``: 401s,
revocations), the heavy-read limit for the standings (api/limits.py), the scope check, the sealing policy — and
raises the same errors, which the app's handlers shape. The FastAPI routes stay declared: the OpenAPI document
lists them with their models, and their answers are the reference the tests compare these with byte for byte.

What each answer costs besides:

* a hand and its final stacks are read by **one statement** read alone (``ReadModels.hands_and_ruled_stacks``: the
  hand's row and the stacks the latest ruling left; one round trip to PostgreSQL, where a snapshot's BEGIN and
  COMMIT made three), and **gathered** (:class:`Gathered`): the hand and final-stack reads asked while a batch of
  them is being read are read next, together, in one statement on one hop to a reader thread — each request's
  own checks and answer made from its hand's rows there as before; the standings asked meanwhile share one read
  of the heads and one making per competition. What a batch reads is read after each of its requests came, so an
  answer is never older than a read of its own would have been;
* the finished bytes are kept by **what they are made of**: the rows read (every column), and for a hand the
  caller's sight of its cards (``SealingPolicy.sight``: nothing else decides what a reader sees of a hand). The
  rows are read on every request, so a new event, a ruling or a rebuild gives a new answer at once; only the
  building of the models, the sealing and the JSON are saved when they are the same.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Awaitable, Callable, Hashable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Generic, TypeVar

from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, NoMatchFound
from starlette.types import Receive, Scope, Send

from api.auth import Principal
from api.body_limit import BodyLimit
from api.deps import event_store, principal, verify_scope
from api.errors import ApiError, not_found
from api.limits import limit_heavy_reads
from api.metrics import Measured, StatusNoted, counted
from api.sealing import SealingPolicy
from projections import federation, schema
from projections.database import READ_POOL_SIZE, Row
from projections.read_models import MOST_HANDS_A_STATEMENT, ReadModels

#: where the columns that decide a reader's sight of a hand are in its row
_COMPETITION, _TABLE, _STATUS, _ENDED_AT = (
    schema.HAND_COLUMNS.index(c) for c in ("competition", "table_id", "status", "ended_at")
)
#: finished answers kept of each kind (forgotten all at once beyond: then built again, as they always were)
MOST_KEPT = 2048

#: the app's own middleware (api/app.py): where it is all the app has, a hot read is answered ahead of it
#: (:meth:`FastReads.ahead`); any other (CORS, one a test adds) sends every request through the whole stack
OWN_MIDDLEWARE = frozenset({Measured, BodyLimit})
#: a request with a body (its size is BodyLimit's to refuse) goes through the stack
_BODY_HEADERS = frozenset({b"content-length", b"transfer-encoding"})
#: what FastAPI answers a route's model with: its JSON, as application/json
_JSON = (b"content-type", b"application/json")

Answer = Callable[[Request, Mapping[str, Any]], Awaitable[bytes]]
T = TypeVar("T")
Item = TypeVar("Item")
#: a hand read gathered: the read models, the hand, and what its request makes of the hand's rows (none: unknown)
HandAsked = tuple[ReadModels, str, Callable[[tuple[Row, ...]], bytes]]
#: a standings read gathered: the store, the read models and the competition (the caller's scope checked before)
StandingsAsked = tuple[Any, ReadModels, str]

#: the threads these reads wait for their database on, shared by the process's apps: as many as the read models'
#: pool has connections (projections/database.py), so a read waits its turn here, never for a connection (a wait
#: the pool ends after 3 s with a 503: under a CPU-starved load, more threads than connections held connections
#: for seconds while they waited for the interpreter's lock). A plain executor: handing a read to it and back costs
#: about 40 µs of CPU, starlette's run_in_threadpool (anyio's worker threads) about 90 (issue 17).
_READERS = ThreadPoolExecutor(max_workers=READ_POOL_SIZE, thread_name_prefix="pokeraudit-fast-reads")


async def _off_the_loop(read: Callable[[], T]) -> T:
    return await asyncio.get_running_loop().run_in_executor(_READERS, read)


class _Queue(Generic[Item]):
    """One event loop's reads waiting for a batch, and whether one is in flight."""

    __slots__ = ("busy", "draining", "waiting")

    def __init__(self) -> None:
        self.waiting: list[tuple[Item, asyncio.Future[bytes]]] = []
        self.busy = False
        #: the task reading the batches (held: the loop keeps only a weak reference to a task)
        self.draining: asyncio.Task[None] | None = None


class Gathered(Generic[Item]):
    """Reads asked while a batch of them is being read, read together next: one hop to a reader thread (and for
    hands one statement) for however many were asked meanwhile (issue 17: the hop and the statement were most of
    a hot read's CPU besides uvicorn's).

    ``work`` runs on a reader thread with the items gathered, in the order asked, and gives each its outcome (its
    answer, or the error to raise to its asker). One batch is in flight at a time (per event loop); an item asked
    while it is waits for the next, which begins after it was asked: what a batch reads is at least as new as
    every one of its items, as a read of its own begun at the request would be. A read asked while nothing is in
    flight is read at once, by its asker."""

    def __init__(self, work: Callable[[list[Item]], list[bytes | Exception]], most: int) -> None:
        self._work = work
        self._most = most
        #: each event loop's own queue (a test client runs one loop after another; futures belong to one loop)
        self._queues: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Queue[Item]] = weakref.WeakKeyDictionary()
        #: batches read, and items answered through them (for the tests, the bench)
        self.batches = 0
        self.items = 0

    async def ask(self, item: Item) -> bytes:
        loop = asyncio.get_running_loop()
        queue = self._queues.get(loop)
        if queue is None:
            queue = self._queues.setdefault(loop, _Queue())
        if queue.busy:
            future: asyncio.Future[bytes] = loop.create_future()
            queue.waiting.append((item, future))
            return await future
        # nothing in flight: this read is read at once, by its asker (no task of its own); what is asked meanwhile
        # is read next, by a task
        queue.busy = True
        try:
            outcome = (await self._read(loop, [item]))[0]
        finally:
            if queue.waiting:
                queue.draining = loop.create_task(self._drain(loop, queue))
            else:
                queue.busy = False
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    async def _read(self, loop: asyncio.AbstractEventLoop, items: list[Item]) -> list[bytes | Exception]:
        try:
            outcomes = await loop.run_in_executor(_READERS, self._work, items)
        except Exception as exc:  # the work itself failed (it gives each item its own error otherwise)
            outcomes = [exc] * len(items)
        self.batches += 1
        self.items += len(items)
        return outcomes

    async def _drain(self, loop: asyncio.AbstractEventLoop, queue: _Queue[Item]) -> None:
        batch: list[tuple[Item, asyncio.Future[bytes]]] = []
        try:
            while queue.waiting:
                batch, queue.waiting = queue.waiting[: self._most], queue.waiting[self._most :]
                outcomes = await self._read(loop, [item for item, _ in batch])
                for (_, future), outcome in zip(batch, outcomes, strict=True):
                    if future.done():  # its asker is gone (the connection closed)
                        continue
                    if isinstance(outcome, Exception):
                        future.set_exception(outcome)
                    else:
                        future.set_result(outcome)
        except BaseException:
            # cancelled (the loop is closing): no asker is left waiting for an answer that will not come
            for _, future in (*batch, *queue.waiting):
                future.cancel()
            queue.waiting = []
            raise
        finally:
            queue.busy = False
            queue.draining = None


class Finished:
    """Finished answers by what they were made of (a key that holds all of it: equal keys, equal bytes)."""

    def __init__(self, most: int = MOST_KEPT) -> None:
        self._kept: dict[Hashable, bytes] = {}
        self._most = most
        #: answers built (for the tests: one kept answer served again builds nothing)
        self.built = 0

    def kept(self, key: Hashable) -> bytes | None:
        return self._kept.get(key)

    def get(self, key: Hashable, build: Callable[[], bytes]) -> bytes:
        found = self._kept.get(key)
        if found is None:
            found = build()
            self.built += 1
            if len(self._kept) >= self._most:
                self._kept.clear()
            self._kept[key] = found
        return found


class Latest:
    """The last answer made for each name (a competition), with the heads it was made at: given again while the
    heads are the same, replaced when they move (one answer a name: a new head makes the old one useless)."""

    def __init__(self, most: int = MOST_KEPT) -> None:
        self._kept: dict[str, tuple[Hashable, bytes]] = {}
        self._most = most
        #: answers built (for the tests)
        self.built = 0

    def kept(self, name: str, heads: Hashable) -> bytes | None:
        found = self._kept.get(name)
        return found[1] if found is not None and found[0] == heads else None

    def keep(self, name: str, heads: Hashable, build: Callable[[], bytes]) -> bytes:
        made = build()
        self.built += 1
        if len(self._kept) >= self._most and name not in self._kept:
            self._kept.clear()
        self._kept[name] = (heads, made)
        return made


def _read_models(request: Request) -> ReadModels:
    # as api/deps.py read_models: a 503 in a process that does not open them
    models: ReadModels | None = request.app.state.read_models
    if models is None:
        raise ApiError(503, "read_models_unavailable", "the read models are not open in this process")
    return models


class FastReads(BaseRoute):
    """The hot reads' answers, matched and answered before FastAPI's router (see the module's note)."""

    def __init__(self, routes: Mapping[str, APIRoute]) -> None:
        self.hands = Finished()
        self.final_stacks = Finished()
        self.standings = Latest()
        #: the hand and final-stack reads asked while others are read, read in one statement (one hop) next
        self.hand_reads: Gathered[HandAsked] = Gathered(_hands_read, MOST_HANDS_A_STATEMENT)
        #: the standings asked while others are made: the heads read once for them, each competition made once
        self.standings_reads: Gathered[StandingsAsked] = Gathered(self._standings_made, 64)
        answers: dict[str, Answer] = {
            "/v1/hands/{hand_id}": self._hand,
            "/v1/hands/{hand_id}/stacks/final": self._final_stacks,
            "/v1/competitions/{competition_id}/standings": self._standings,
        }
        self._routes = tuple((routes[path], answer) for path, answer in answers.items())
        self._answer_of = {id(route): answer for route, answer in self._routes}
        # each route's own response field: its answer serialised as FastAPI serialises it (pydantic's dump_json)
        self._fields: dict[str, Any] = {}
        for path in answers:
            field = routes[path].response_field
            if field is None:
                raise ValueError(f"the route {path} declares no response model: its answer has no one JSON form")
            self._fields[path] = field

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] == "http" and scope["method"] == "GET":
            for route, _ in self._routes:
                match, child = route.matches(scope)
                if match is Match.FULL:
                    return match, child
        return Match.NONE, {}

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        route = scope["route"]
        body = await self._answer_of[id(route)](Request(scope, receive), scope["path_params"])
        # as FastAPI answers a route's model: its JSON, application/json, 200
        await Response(body, media_type="application/json")(scope, receive, send)

    async def ahead(self, app: Any, scope: Scope, receive: Receive, send: Send) -> bool:
        """Answer ``scope`` ahead of ``app``'s middleware stack and of FastAPI's and Starlette's own work per
        request, when it is one of these reads and nothing in that stack would change the answer (the app's
        middleware is its own, no body, no OpenTelemetry); False, with nothing sent, otherwise.

        What the stack would do is done here: the metrics count it under its route (api/metrics.py ``counted``),
        an error is shaped by the app's handler for it, and an unexpected one answers as the app's handler of
        every error does and is raised again for the server to log, as Starlette's ServerErrorMiddleware does.
        Every layer costs each request a call and a closure; for these reads, most of serve's CPU (issue 17)."""
        if scope["type"] != "http" or scope["method"] != "GET":
            return False
        found = self._matched(scope)
        if found is None:
            return False
        answer, child = found
        for name, _ in scope["headers"]:
            if name in _BODY_HEADERS:
                return False
        if any(m.cls not in OWN_MIDDLEWARE for m in app.user_middleware) or app.telemetry_on():
            return False
        started = time.perf_counter()
        scope["app"] = app
        scope.update(child)
        sending = StatusNoted(send)
        try:
            try:
                body = await answer(Request(scope, receive), scope["path_params"])
            except Exception as exc:
                await self._shaped(app, scope, receive, sending, exc)
            else:
                await sending({"type": "http.response.start", "status": 200,
                               "headers": [(b"content-length", str(len(body)).encode()), _JSON]})
                await send({"type": "http.response.body", "body": body})
        finally:
            counted(scope, sending.status, started)
        return True

    def _matched(self, scope: Scope) -> tuple[Answer, Scope] | None:
        for route, answer in self._routes:
            match, child = route.matches(scope)
            if match is Match.FULL:
                return answer, child
        return None

    @staticmethod
    async def _shaped(app: Any, scope: Scope, receive: Receive, send: Send, exc: Exception) -> None:
        # the handler Starlette's ExceptionMiddleware would pick (by the error's classes, nearest first); an error
        # none is for goes to the handler of every error, and on to the server, as ServerErrorMiddleware sends it
        handlers: Mapping[Any, Any] = app.exception_handlers
        handler: Any = next((handlers[c] for c in type(exc).__mro__ if c in handlers and c is not Exception), None)
        unexpected = handler is None
        if unexpected:
            handler = handlers.get(Exception) or handlers.get(500)
            if handler is None:
                raise exc
        response = await handler(Request(scope, receive), exc)
        await response(scope, receive, send)
        if unexpected:
            raise exc

    def url_path_for(self, name: str, /, **path_params: Any) -> Any:
        raise NoMatchFound(name, path_params)

    def _json(self, path: str, value: Any) -> bytes:
        found: bytes = self._fields[path].serialize_json(value)
        return found

    async def _caller(self, request: Request) -> Principal:
        return await principal(request, request.headers.get("authorization"))

    async def _hand(self, request: Request, params: Mapping[str, Any]) -> bytes:
        caller = await self._caller(request)
        models = _read_models(request)
        sealing: SealingPolicy = request.app.state.sealing
        hand_id = str(params["hand_id"])

        def answer(rows: tuple[Row, ...]) -> bytes:
            if not rows:
                raise not_found("hand", hand_id)
            row = ReadModels.hand_of_rows(rows)
            verify_scope(caller, row[_COMPETITION])
            sight = sealing.sight(caller, row[_COMPETITION], row[_TABLE], row[_STATUS] != "in_progress", row[_ENDED_AT])
            return self.hands.get(
                (row, sight),
                lambda: self._json(
                    "/v1/hands/{hand_id}", sealing.hand_in_sight(ReadModels.hand_of_row(row), sight)
                ),
            )

        return await self.hand_reads.ask((models, hand_id, answer))

    async def _final_stacks(self, request: Request, params: Mapping[str, Any]) -> bytes:
        caller = await self._caller(request)
        models = _read_models(request)
        hand_id = str(params["hand_id"])

        def answer(rows: tuple[Row, ...]) -> bytes:
            if not rows:
                raise not_found("hand", hand_id)
            verify_scope(caller, rows[0][_COMPETITION])
            return self.final_stacks.get(
                rows,
                lambda: self._json("/v1/hands/{hand_id}/stacks/final", ReadModels.final_stacks_of_rows(rows)[1]),
            )

        return await self.hand_reads.ask((models, hand_id, answer))

    async def _standings(self, request: Request, params: Mapping[str, Any]) -> bytes:
        # the route's dependencies in their order: the caller, the federation router's heavy-read limit, the store
        caller = await self._caller(request)
        await limit_heavy_reads(request, caller)
        store = await event_store(request)
        competition_id = str(params["competition_id"])
        models: ReadModels | None = request.app.state.read_models

        if models is None:

            def unprojected() -> bytes:
                verify_scope(caller, competition_id)
                return self._standings_of(store, None, competition_id)

            return await _off_the_loop(unprojected)

        verify_scope(caller, competition_id)
        return await self.standings_reads.ask((store, models, competition_id))

    def _standings_of(self, store: Any, pinned: ReadModels | None, competition_id: str) -> bytes:
        found = federation.standings(store, pinned, competition_id)
        if found is None:
            raise not_found("competition", competition_id)
        return self._json("/v1/competitions/{competition_id}/standings", found)

    def _standings_made(self, asked: list[StandingsAsked]) -> list[bytes | Exception]:
        """The standings asked, on a reader thread: each competition's made (or kept) once for all its askers."""
        heads_of: dict[tuple[int, int], tuple[int, int] | Exception] = {}
        made: dict[tuple[int, int, str], bytes | Exception] = {}
        out: list[bytes | Exception] = []
        for store, models, competition_id in asked:
            pair = (id(store), id(models))
            key = (*pair, competition_id)
            if key not in made:
                # Everything the standings are worked out from is in the store (the competition's stream, its hand
                # reviews and their hands) and in the read models (the tables' last hands): while neither has
                # moved, the answer is the one made last. Both heads are read (once a batch, after every one of
                # its requests came) before the answer is made, so what is kept by them is at least as new as they
                # say.
                if pair not in heads_of:
                    try:
                        heads_of[pair] = (store.recorder.max_notification_id(), models.position_alone())
                    except Exception as exc:
                        heads_of[pair] = exc
                heads = heads_of[pair]
                try:
                    if isinstance(heads, Exception):
                        raise heads
                    made[key] = self._standings_kept_or_made(store, models, competition_id, heads)
                except Exception as exc:
                    made[key] = exc
            out.append(made[key])
        return out

    def _standings_kept_or_made(
        self, store: Any, models: ReadModels, competition_id: str, heads: tuple[int, int]
    ) -> bytes:
        kept = self.standings.kept(competition_id, heads)
        if kept is not None:
            return kept
        # one state for the standings' reads, begun and ended in this one hop
        with models.pinned() as pinned:
            return self.standings.keep(competition_id, heads, lambda: self._standings_of(store, pinned, competition_id))


def _hands_read(asked: list[HandAsked]) -> list[bytes | Exception]:
    """The hand and final-stack reads asked, on a reader thread: every hand of one read models in one statement,
    then each request's answer from its hand's rows (its own error when it has one)."""
    rows_of: dict[int, dict[str, tuple[Row, ...]] | Exception] = {}
    for models in {id(m): m for m, _, _ in asked}.values():
        try:
            rows_of[id(models)] = models.hands_and_ruled_stacks([h for m, h, _ in asked if m is models])
        except Exception as exc:
            rows_of[id(models)] = exc
    out: list[bytes | Exception] = []
    for models, hand_id, answer in asked:
        found = rows_of[id(models)]
        if isinstance(found, Exception):
            out.append(found)
            continue
        try:
            out.append(answer(found.get(hand_id, ())))
        except Exception as exc:
            out.append(exc)
    return out


def install(app: Any, routers: Mapping[str, Any]) -> FastReads:
    """Put :class:`FastReads` first in ``app``'s router, over the routes ``routers`` (path → the APIRouter that
    declares it, included in ``app`` without a prefix)."""
    found: dict[str, APIRoute] = {}
    for path, router in routers.items():
        route = next(r for r in router.routes if isinstance(r, APIRoute) and r.path == path and "GET" in (r.methods or ()))
        found[path] = route
    fast = FastReads(found)
    app.router.routes.insert(0, fast)
    return fast
