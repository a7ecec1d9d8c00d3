"""The web app's one way to the data: the API itself, called in-process with the signed-in person's token.

Every page reads through the same routes a federation's own tools call (DESIGN decision 14): the same roles,
the same 403s and the same sealing policy (api/sealing.py), so a change to what a role may see reaches the
pages without a line here. The request goes through the app's ASGI stack (no socket, no second process):
``httpx.ASGITransport`` over the app that serves the page.

The calls of one client (one page request) carry its :class:`api.limits.Visit`, so the per-token rate limits
count the person's page once, not each read the page makes (api/limits.py says why).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
from fastapi import FastAPI
from starlette.types import ASGIApp, Receive, Scope, Send

from api.limits import VISIT_SCOPE_KEY, Visit

#: the host name the in-process calls carry (nothing resolves it: the transport is the app itself)
INTERNAL_BASE = "http://pokeraudit.internal"
#: most items a list page of the API gives at once (api/deps.py MAX_PAGE)
API_PAGE = 500


@dataclass(frozen=True, slots=True)
class ApiAnswer:
    """One answer of the API: its status, its JSON body, and the error's words when it is one."""

    status: int
    body: Any

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def message(self) -> str:
        if isinstance(self.body, dict) and isinstance(self.body.get("error"), dict):
            return str(self.body["error"].get("message", ""))
        return ""

    @property
    def rule(self) -> str:
        if isinstance(self.body, dict) and isinstance(self.body.get("error"), dict):
            return str(self.body["error"].get("rule", ""))
        return ""


class ApiFailure(Exception):
    """An answer a page cannot do without (a 403, a 404): the page shows the API's own words."""

    def __init__(self, answer: ApiAnswer, path: str) -> None:
        self.answer = answer
        self.path = path
        super().__init__(f"{path}: {answer.status} {answer.message}")


def segment(value: str) -> str:
    """A path segment as the API's routes read it: a table id keeps its '/', a '#' becomes %23."""
    return quote(value, safe="/")


class _OnVisit:
    """The app, each call's scope carrying the page's visit (a scope key: no request from outside has it)."""

    def __init__(self, app: ASGIApp, visit: Visit) -> None:
        self.app = app
        self.visit = visit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app({**scope, VISIT_SCOPE_KEY: self.visit}, receive, send)


class ApiClient:
    """The API as the signed-in person reads it, for one request of theirs (one :class:`Visit`)."""

    def __init__(self, app: FastAPI, token: str | None) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.visit = Visit()
        self._client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=_OnVisit(app, self.visit)), base_url=INTERNAL_BASE, headers=headers,
            timeout=40.0,
        )

    async def close(self) -> None:
        await self._client.aclose()

    async def get(self, path: str, **params: Any) -> ApiAnswer:
        answer = await self._client.get(path, params={k: v for k, v in params.items() if v is not None})
        return ApiAnswer(answer.status_code, _json(answer))

    async def need(self, path: str, **params: Any) -> Any:
        """The body of a read the page cannot do without; :class:`ApiFailure` otherwise."""
        answer = await self.get(path, **params)
        if not answer.ok:
            raise ApiFailure(answer, path)
        return answer.body

    async def every(self, path: str, *, most: int = 10_000, **params: Any) -> list[Any]:
        """Every item of a paged list (``items``, ``next_offset``), up to ``most``."""
        items: list[Any] = []
        offset: int | None = 0
        while offset is not None and len(items) < most:
            body = await self.need(path, offset=offset, limit=API_PAGE, **params)
            items.extend(body["items"])
            offset = body.get("next_offset")
        return items[:most]

    async def post(self, path: str, body: Any, **params: Any) -> ApiAnswer:
        answer = await self._client.post(path, json=body, params=params)
        return ApiAnswer(answer.status_code, _json(answer))


def _json(answer: httpx.Response) -> Any:
    try:
        return answer.json()
    except ValueError:
        return {"error": {"message": answer.text[:500]}}
