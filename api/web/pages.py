"""Sign-in, the dashboard, the competition overview (live), a table, the hand replayer and the rejections.

Every read goes through the API (api/web/client.py) with the reader's own token; a page shows the API's
answer as it was sealed for that reader, and the API's refusal (403, 404) in the API's own words.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse

from api.auth import API_ROLES, AuthError, issue_token
from api.demo_people import DEMO_PEOPLE
from api.web import replay
from api.web.client import ApiClient, segment
from api.web.grid import Cell, Grid
from api.web.render import (
    Api,
    CurrentReader,
    CurrentSession,
    csrf_of,
    csv_answer,
    grid_or_page,
    page,
    settings_of,
)
from api.web.session import CSRF_FIELD, secret_of, sign_in, sign_out
from domain.hand.aggregate import hand_id
from domain.roles import Role

router = APIRouter(prefix="/web", include_in_schema=False)

#: tables shown at once on a competition's overview (a page of them: the WSOP set has one table per hand)
OVERVIEW_TABLES = 12
#: players drawn on the chip-count chart (the leaders now)
CHART_PLAYERS = 10
#: how often a live page's event stream looks at the projector's position
LIVE_POLL_SECONDS = 0.1
#: a comment line now and then keeps proxies from closing a quiet stream
LIVE_KEEPALIVE_SECONDS = 15.0


# --- sign-in ---------------------------------------------------------------------------------------------------


@router.get("/sign-in", response_class=HTMLResponse)
def sign_in_page(request: Request, next: str = "/web/", why: str = "") -> Response:
    settings = settings_of(request)
    return page(
        request,
        "sign_in.html",
        {
            "next": _local(next),
            "why": why,
            "roles": sorted(r.value for r in API_ROLES),
            "no_key": secret_of(settings) is None,
        },
    )


@router.post("/sign-in")
def sign_in_submit(
    request: Request,
    token: Annotated[str, Form(max_length=4096)],
    csrf: Annotated[str, Form(alias=CSRF_FIELD)] = "",
    next: Annotated[str, Form()] = "/web/",
) -> Response:
    csrf_of(request).verify(request, csrf)
    response = RedirectResponse(_local(next), status_code=303)
    try:
        sign_in(response, request, settings_of(request), token)
    except AuthError as err:
        return page(
            request, "sign_in.html",
            {"next": _local(next), "why": err.message, "roles": sorted(r.value for r in API_ROLES), "no_key": False},
            status=401,
        )
    return response


@router.post("/sign-in/demo")
def demo_sign_in(
    request: Request,
    role: Annotated[str, Form()],
    csrf: Annotated[str, Form(alias=CSRF_FIELD)] = "",
    next: Annotated[str, Form()] = "/web/",
) -> Response:
    """The demo's role picker: a token minted for a demo person of ``role`` (only where the settings allow it)."""
    settings = settings_of(request)
    csrf_of(request).verify(request, csrf)
    secret = secret_of(settings)
    if not settings.demo_sign_in or secret is None:
        return page(request, "error.html", {"status": 403, "message": "demo tokens are minted only by the demo"},
                    status=403)
    try:
        chosen = Role(role)
        person, competition, table = DEMO_PEOPLE.get(chosen.value, (f"demo-{chosen.value}", None, None))
        token = issue_token(secret, person, chosen, table=table, competition=competition)
    except ValueError as err:
        return page(request, "error.html", {"status": 422, "message": f"role: {err}"}, status=422)
    response = RedirectResponse(_local(next), status_code=303)
    sign_in(response, request, settings, token)
    return response


@router.post("/sign-out")
def sign_out_submit(request: Request, csrf: Annotated[str, Form(alias=CSRF_FIELD)] = "") -> Response:
    csrf_of(request).verify(request, csrf)
    response = RedirectResponse("/web/sign-in", status_code=303)
    sign_out(response)
    return response


def _local(path: str) -> str:
    # only a path of this site: a sign-in link must not send the browser elsewhere afterwards
    return path if path.startswith("/") and not path.startswith("//") else "/web/"


# --- the dashboard ---------------------------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
async def dashboard(request: Request, who: CurrentReader, api: Api) -> Response:
    competitions = await api.every("/v1/competitions")
    grid = Grid("competitions", "Competitions",
                ["competition", "tables", "hands", "in progress", "OFC rounds", "rejections"])
    for c in competitions:
        cid = c["competition_id"]
        grid.add(Cell(cid, f"/web/competitions/{segment(cid)}"), c["tables"], c["hands"],
                 c["hands_in_progress"] + c["ofc_rounds_in_progress"], c["ofc_rounds"], c["rejections"])
    return grid_or_page(request, grid, "dashboard.html", {"grid": grid, "competitions": competitions}, who)


# --- the competition overview ----------------------------------------------------------------------------------


async def _optional(api: ApiClient, path: str) -> Any:
    """A federation view the competition may not have (a simulated set of tables has no clock): None then."""
    answer = await api.get(path)
    return answer.body if answer.ok else None


async def _overview_tables(api: ApiClient, competition: str, offset: int) -> tuple[list[dict[str, Any]], int]:
    base = f"/v1/competitions/{segment(competition)}"
    listed = await api.need(f"{base}/tables", offset=offset, limit=OVERVIEW_TABLES)
    states = await asyncio.gather(
        *(api.need(f"{base}/tables/{segment(t['table_id'])}") for t in listed["items"])
    )
    return list(states), int(listed["total"])


def _tables_grid(states: list[dict[str, Any]]) -> Grid:
    if states and all(_is_ofc(state) for state in states):  # OFC is played for points, not chips (bfsp 8)
        grid = Grid("tables", "Tables: seats, players and points", ["table", "round", "status", "seat", "player",
                                                                      "points"])
    else:
        grid = Grid("tables", "Tables: seats, players and stacks", ["table", "hand", "status", "seat", "player",
                                                                      "stack"])
    for state in states:
        ofc = _is_ofc(state)
        for s in state["seats"]:
            grid.add(
                state["table_id"], state["last_round_number" if ofc else "last_hand_number"],
                state["last_round_status" if ofc else "last_hand_status"], s["seat"], s["player"],
                s["points" if ofc else "stack"],
            )
    return grid


def _is_ofc(state: dict[str, Any]) -> bool:
    """An OFC table's state (``/v1/competitions/{c}/tables/{t}`` answers one with points, not stacks)."""
    return state.get("variant") == "OFC"


@router.get("/competitions/{competition}", response_class=HTMLResponse)
async def overview(
    request: Request, competition: str, who: CurrentReader, api: Api, offset: Annotated[int, Query(ge=0)] = 0
) -> Response:
    """The tables now; the clock, the players per table and the standings load beside them (a fragment each
    time the projector moves on: the federation's views are read from the store's aggregates, the slower part)."""
    base = f"/v1/competitions/{segment(competition)}"
    if request.query_params.get("table") == "standings":
        return csv_answer(_standings_grid(await api.need(f"{base}/standings")))
    states, total = await _overview_tables(api, competition, offset)
    return grid_or_page(
        request, _tables_grid(states), "overview.html",
        {
            "competition": competition, "tables": states, "total": total, "offset": offset,
            "page_size": OVERVIEW_TABLES,
        },
        who,
    )


def _standings_grid(standings: dict[str, Any]) -> Grid:
    if standings.get("unit") == "points":  # OFC (bfsp 8): places by points, nobody eliminated
        grid = Grid("standings", "Standings", ["place", "participant", "points", "table", "seat"])
        for p in standings["remaining"]:
            grid.add(p["place"], p["participant"], p["points"], p["table"], p["seat"])
        return grid
    grid = Grid("standings", "Standings", ["place", "participant", "chips", "table", "seat", "eliminated by"])
    for n, p in enumerate(sorted(standings["remaining"], key=lambda p: -(p["chips"] or 0)), start=1):
        grid.add(n, p["participant"], p["chips"], p["table"], p["seat"], "")
    for e in sorted(standings["eliminations"], key=lambda e: e["place"]):
        grid.add(e["place"], e["participant"], 0, "", "", e["reason"])
    return grid


@router.get("/competitions/{competition}/fragments/tables", response_class=HTMLResponse)
async def tables_fragment(
    request: Request, competition: str, who: CurrentReader, api: Api, offset: Annotated[int, Query(ge=0)] = 0
) -> Response:
    states, total = await _overview_tables(api, competition, offset)
    return page(request, "fragments/tables.html", {"competition": competition, "tables": states}, who=who)


@router.get("/competitions/{competition}/fragments/standings", response_class=HTMLResponse)
async def standings_fragment(request: Request, competition: str, who: CurrentReader, api: Api) -> Response:
    base = f"/v1/competitions/{segment(competition)}"
    clock, balance, standings = await asyncio.gather(
        _optional(api, f"{base}/clock"), _optional(api, f"{base}/balance"), _optional(api, f"{base}/standings")
    )
    return page(
        request, "fragments/standings.html",
        {"competition": competition, "clock": clock, "balance": balance, "standings": standings}, who=who,
    )


@router.get("/competitions/{competition}/chips.json")
async def chip_counts(request: Request, competition: str, who: CurrentReader, api: Api) -> Response:
    """Each of the leading players' chips after every hand he finished, in time order (the overview's chart)."""
    base = f"/v1/competitions/{segment(competition)}"
    tables = await api.every(f"{base}/tables", most=OVERVIEW_TABLES)
    hands_by_table = await asyncio.gather(
        *(api.every(f"{base}/tables/{segment(t['table_id'])}/hands") for t in tables)
    )
    series: dict[str, list[dict[str, Any]]] = {}
    for hand in sorted((h for hs in hands_by_table for h in hs), key=lambda h: h["started_at"]):
        if hand["status"] != "ended":
            continue
        for seat in hand["seats"]:
            series.setdefault(seat["player"], []).append({"x": hand["ended_at"] or hand["started_at"], "y": seat["stack"]})
    leaders = sorted(series, key=lambda p: -series[p][-1]["y"])[:CHART_PLAYERS]
    return Response(
        json.dumps({"players": [{"player": p, "points": series[p]} for p in leaders]}),
        media_type="application/json",
    )


@router.get("/competitions/{competition}/live")
async def live(request: Request, competition: str, who: CurrentSession) -> StreamingResponse:
    """Server-sent events: ``ready`` once (the projector's position as the stream starts), then ``projected``
    each time the projector has moved the read models on, so the page's live parts fetch themselves again
    (htmx); a comment now and then keeps the connection open."""
    client = ApiClient(request.app, who.token)

    async def events() -> AsyncIterator[str]:
        last: int | None = None
        quiet = 0.0
        try:
            while not await request.is_disconnected():
                answer = await client.get("/v1/projections/lag")
                position = answer.body.get("position") if answer.ok else None
                if position is not None and position != last:
                    # the first reading says where the stream starts; each later change, that it moved on
                    kind = "ready" if last is None else "projected"
                    yield f"event: {kind}\ndata: {json.dumps({'position': position})}\n\n"
                    last = position
                    quiet = 0.0
                elif quiet >= LIVE_KEEPALIVE_SECONDS:
                    yield ": ping\n\n"
                    quiet = 0.0
                await asyncio.sleep(LIVE_POLL_SECONDS)
                quiet += LIVE_POLL_SECONDS
        finally:
            await client.close()

    return StreamingResponse(
        events(), media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


# --- a table and its hand in play ------------------------------------------------------------------------------


async def _table_now(api: ApiClient, competition: str, table: str) -> dict[str, Any]:
    base = f"/v1/competitions/{segment(competition)}"
    state = await api.need(f"{base}/tables/{segment(table)}")
    if _is_ofc(state):  # its last round, as the caller may see it: no hand, no pots
        played = await api.need(f"{base}/ofc/tables/{segment(table)}/rounds/{state['last_round_number']}")
        return {"state": state, "round": played, "hand": None, "pots": []}
    hand, pots = await asyncio.gather(
        api.need(f"/v1/hands/{state['last_hand_id']}"), api.need(f"/v1/hands/{state['last_hand_id']}/pots")
    )
    return {"state": state, "hand": hand, "pots": [p for p in pots if not p["uncalled"]]}


@router.get("/competitions/{competition}/hand-of/{table_id:path}", response_class=HTMLResponse)
async def table_fragment(request: Request, competition: str, table_id: str, who: CurrentReader, api: Api) -> Response:
    now = await _table_now(api, competition, table_id)
    return page(request, "fragments/table_now.html", {"competition": competition, **now}, who=who)


@router.get("/competitions/{competition}/tables/{table_id:path}", response_class=HTMLResponse)
async def table_page(request: Request, competition: str, table_id: str, who: CurrentReader, api: Api) -> Response:
    table = table_id
    base = f"/v1/competitions/{segment(competition)}"
    now = await _table_now(api, competition, table)
    if now["hand"] is None:
        rounds = await api.every(f"{base}/ofc/tables/{segment(table)}/rounds")
        grid = Grid("rounds", f"OFC rounds at table {table}", ["round", "status", "button", "redeals", "points"])
        for r in reversed(rounds):
            points = ", ".join(f"{s['player']} {s['points']:+d}" for s in r["seats"] if s["points"] is not None)
            grid.add(f"#{r['round_number']}", r["status"], r["button"], r["redeals"], points)
        return grid_or_page(
            request, grid, "table.html", {"competition": competition, "table": table, "grid": grid, **now}, who
        )
    hands = await api.every(f"{base}/tables/{segment(table)}/hands")
    grid = Grid("hands", f"Hands at table {table}", ["hand", "status", "players", "board", "started", "ended"])
    for h in reversed(hands):
        grid.add(Cell(f"#{h['number']}", f"/web/hands/{h['hand_id']}"), h["status"], len(h["seats"]),
                 " ".join(h["board"]), h["started_at"], h["ended_at"])
    return grid_or_page(
        request, grid, "table.html", {"competition": competition, "table": table, "grid": grid, **now}, who
    )


# --- the hand replayer -----------------------------------------------------------------------------------------


@router.get("/hands/{hand_id}", response_class=HTMLResponse)
async def replayer(
    request: Request, hand_id: str, who: CurrentReader, api: Api,
    step: Annotated[int | None, Query(ge=1)] = None, before_seq: Annotated[int | None, Query(ge=0)] = None,
) -> Response:
    hand = segment(hand_id)
    found = await api.need(f"/v1/hands/{hand}")
    history, stacks, pots, showdown, rulings = await asyncio.gather(
        api.every(f"/v1/hands/{hand}/history"),
        api.need(f"/v1/hands/{hand}/stacks"),
        api.need(f"/v1/hands/{hand}/pots"),
        api.need(f"/v1/hands/{hand}/showdown"),
        api.need(f"/v1/hands/{hand}/rulings"),
    )
    steps = replay.steps(found, history, stacks, pots)
    if before_seq is not None:
        # a rejection's link: the hand as it stood when the refused record came (its last accepted event before)
        earlier = [s for s, e in zip(steps, history, strict=True) if e.get("seq") is not None and e["seq"] < before_seq]
        step = earlier[-1]["version"] if earlier else 1
    grid = Grid("events", "Every event of the hand", ["step", "event", "recorded by", "role", "rule", "reading"])
    for s in steps:
        grid.add(Cell(str(s["version"]), f"?step={s['version']}"), s["says"], s["recorded_by"], s["role"], s["rule"],
                 s["reading"])
    return grid_or_page(
        request, grid, "replayer.html",
        {
            "hand": found, "steps": steps, "steps_json": json.dumps(steps), "start": min(step or 1, len(steps) or 1),
            "showdown": showdown, "rulings": rulings, "grid": grid,
        },
        who,
    )


# --- rejections ------------------------------------------------------------------------------------------------


@router.get("/competitions/{competition}/rejections", response_class=HTMLResponse)
async def rejections(
    request: Request, competition: str, who: CurrentReader, api: Api,
    table: str = "", rule: str = "", since: str = "", until: str = "",
) -> Response:
    for name, value in (("since", since), ("until", until)):
        if value and _when(value) is None:
            message = f"{name}: {value!r} is not a time (ISO 8601, e.g. 2026-03-14T10:30 or 2026-03-14)"
            return page(request, "error.html", {"status": 422, "message": message}, who=who, status=422)
    found = await api.every(f"/v1/competitions/{segment(competition)}/rejections")
    tables = sorted({r["table_id"] for r in found if r["table_id"]})
    rules = sorted({r["rule"] for r in found if r["rule"]})
    chosen = [
        r for r in found
        if (not table or r["table_id"] == table)
        and (not rule or r["rule"] == rule)
        and (not since or _after(r["at"], since))
        and (not until or _after(until, r["at"]))
    ]
    grid = Grid("rejections", "Rejections", ["#", "at", "table", "hand", "event", "rule", "reason", "field"])
    for r in chosen:
        grid.add(r["number"], r["at"], r["table_id"], _hand_cell(competition, r), r["event_type"],
                 r["rule"] or r["kind"], r["reason"], r["field"])
    return grid_or_page(
        request, grid, "rejections.html",
        {
            "competition": competition, "grid": grid, "tables": tables, "rules": rules, "total": len(found),
            "filters": {"table": table, "rule": rule, "since": since, "until": until},
        },
        who,
    )


def _hand_cell(competition: str, rejection: dict[str, Any]) -> Cell:
    number = str(rejection.get("hand") or "")
    if not rejection.get("table_id") or not number.isdigit():
        return Cell(number)
    uid = hand_id(rejection["table_id"], int(number), competition)
    seq = rejection.get("seq")
    at = f"?before_seq={seq}" if isinstance(seq, int) else ""
    return Cell(f"hand {number}", f"/web/hands/{uid}{at}")


def _when(text: str) -> datetime | None:
    """A time as the filters take it (ISO 8601; a date alone is its midnight, a time without zone is UTC)."""
    try:
        value = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _after(later: str, earlier: str) -> bool:
    a, b = _when(later), _when(earlier)
    return a is not None and b is not None and a >= b
