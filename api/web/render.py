"""What every page handler shares: the templates, the reader and their API client, a page's answer or its CSV."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from fastapi.templating import Jinja2Templates

from api.settings import Settings
from api.web.client import ApiClient, segment
from api.web.grid import Grid
from api.web.session import Csrf, Reader, reader_of

HERE = Path(__file__).resolve().parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.filters["chips"] = lambda n: "" if n is None else f"{int(n):,}"
templates.env.filters["seg"] = segment
templates.env.globals["vendor"] = {
    "chart": "/web/static/vendor/chart.js-4.5.1/chart.umd.min.js",
    "htmx": "/web/static/vendor/htmx.org-2.0.11/htmx.min.js",
}


def settings_of(request: Request) -> Settings:
    value: Settings = request.app.state.settings
    return value


def csrf_of(request: Request) -> Csrf:
    value: Csrf = request.app.state.web_csrf
    return value


def reader(request: Request) -> Reader:
    return reader_of(request, settings_of(request))


def session_reader(request: Request) -> Reader:
    """The session's reader only: what a form and the live stream take (a browser's, with its cookie)."""
    return reader_of(request, settings_of(request), header=False)


async def api(request: Request, who: Annotated[Reader, Depends(reader)]) -> AsyncIterator[ApiClient]:
    client = ApiClient(request.app, who.token)
    try:
        yield client
    finally:
        await client.close()


CurrentReader = Annotated[Reader, Depends(reader)]
CurrentSession = Annotated[Reader, Depends(session_reader)]
Api = Annotated[ApiClient, Depends(api)]


def page(
    request: Request, template: str, context: Mapping[str, Any], *, who: Reader | None = None, status: int = 200
) -> HTMLResponse:
    """A page: the template with the reader, the demo banner and this browser's CSRF token."""
    response = HTMLResponse("")
    settings = settings_of(request)
    full = {
        "request": request,
        "who": who,
        "demo": settings.demo_sign_in,
        "csrf": csrf_of(request).token(request, response),
        **context,
    }
    rendered = templates.TemplateResponse(request, template, full, status_code=status)
    for name, value in response.headers.items():
        if name == "set-cookie":
            rendered.headers.append(name, value)
    return rendered


def wants_csv(request: Request) -> bool:
    return request.query_params.get("format") == "csv"


def csv_answer(grid: Grid) -> Response:
    return PlainTextResponse(
        grid.csv(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{grid.name}.csv"'},
    )


def grid_or_page(
    request: Request, grid: Grid, template: str, context: Mapping[str, Any], who: Reader
) -> Response:
    """The page, or, with ``?format=csv``, its table as CSV (``?table=NAME`` picks one of several)."""
    if wants_csv(request):
        return csv_answer(grid)
    return page(request, template, context, who=who)
