"""The web app for officials, integrity teams and reporting: server-rendered pages (Jinja2) in the API's own
process, reading only through the API (api/web/client.py), with htmx and server-sent events for live parts,
Chart.js for the charts, both vendored under ``static/vendor`` with their licences (nothing fetched at run time).

``install(app)`` adds the pages under ``/web``, their static files, and ``/`` leading to the dashboard.
"""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from api.web import integrity, integrity_cases, officials, operations, pages
from api.web.client import ApiFailure
from api.web.render import HERE, page
from api.web.session import Csrf, CsrfRefused, SignInRequired


def install(app: FastAPI) -> None:
    app.state.web_csrf = Csrf(app.state.settings)
    app.state.web_judged_rate = operations.JudgedRate()
    app.mount("/web/static", StaticFiles(directory=str(HERE / "static")), name="web-static")
    app.include_router(pages.router)
    app.include_router(officials.router)
    app.include_router(operations.router)
    app.include_router(integrity.router)
    app.include_router(integrity_cases.router)

    @app.get("/", include_in_schema=False)
    def root() -> RedirectResponse:
        return RedirectResponse("/web/", status_code=307)

    @app.exception_handler(SignInRequired)
    async def sign_in_first(request: Request, exc: SignInRequired) -> Response:
        query = {"next": exc.next_path, **({"why": exc.why} if exc.why else {})}
        if request.headers.get("hx-request"):
            # htmx follows no redirect for a fragment: it is told to load the sign-in page whole
            return Response(status_code=401, headers={"HX-Redirect": f"/web/sign-in?{urlencode(query)}"})
        return RedirectResponse(f"/web/sign-in?{urlencode(query)}", status_code=303)

    @app.exception_handler(ApiFailure)
    async def api_refused(request: Request, exc: ApiFailure) -> HTMLResponse:
        status = exc.answer.status
        return page(
            request, "error.html",
            {"status": status, "message": exc.answer.message or f"the API answered {status} for {exc.path}",
             "rule": exc.answer.rule},
            status=status if status >= 400 else 502,
        )

    @app.exception_handler(CsrfRefused)
    async def csrf_refused(request: Request, exc: CsrfRefused) -> HTMLResponse:
        return page(request, "error.html", {"status": 403, "message": str(exc)}, status=403)

