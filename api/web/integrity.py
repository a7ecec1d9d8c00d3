"""The integrity pages (integrity and federation roles, as the API's sealing policy says): the alert queue, a
pair's page with its signals and evidence hands (each opening the replayer), the chip-flow graph of a field and
the players' statistics — read from ``/v1/integrity/...``.

The chip-flow graph is drawn here as SVG, the players on a circle and an arrow per pair whose net flow is not
nil, its width by the chips (``chip_flow``: from the pair's first player to the second, negative the other way).
"""

from __future__ import annotations

import math
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from api.web.client import segment
from api.web.grid import Cell, Grid
from api.web.integrity_cases import RECORDS_CASES, case_href
from api.web.render import Api, CurrentReader, grid_or_page

router = APIRouter(prefix="/web", include_in_schema=False)

#: pairs dealt in together at least this many hands are scored (the API's default is 30; a day's table has fewer)
MIN_HANDS = 10
#: the graph's size, and how many of the largest flows it draws
GRAPH_SIZE, GRAPH_EDGES = 640, 40
MinHands = Annotated[int, Query(ge=1, le=10_000)]


def _base(competition: str) -> str:
    return f"/v1/integrity/competitions/{segment(competition)}"


def _pair_href(competition: str, a: str, b: str) -> str:
    return f"/web/competitions/{segment(competition)}/integrity/pair?{urlencode({'a': a, 'b': b})}"


def _hand_href(history: str) -> str:
    # the API names an evidence hand by its history: /v1/hands/{id}/history
    hand = history.removeprefix("/v1/hands/").removesuffix("/history")
    return f"/web/hands/{segment(hand)}"


@router.get("/competitions/{competition}/integrity", response_class=HTMLResponse)
async def alert_queue(
    request: Request, competition: str, who: CurrentReader, api: Api, min_hands: MinHands = MIN_HANDS
) -> Response:
    found = await api.need(f"{_base(competition)}/alerts", min_hands=min_hands)
    grid = Grid("alerts", "Alert queue",
                ["#", "players", "score", "behaviour", "hands", "reasons", "evidence", "cases"])
    for n, alert in enumerate(found, start=1):
        players = alert["players"]
        who_cell = Cell(" & ".join(players), _pair_href(competition, *players[:2]) if len(players) >= 2 else None)
        # the outcome of the cases on these players shows in the queue (issue 14)
        marks = alert.get("cases", [])
        cases_cell = Cell("; ".join(f"{m['case']}: {m['outcome'] or m['state']}" for m in marks),
                          case_href(competition, marks[0]["case"]) if marks else None)
        grid.add(n, who_cell, f"{alert['score']:.2f}", alert["behaviour"], alert["hands"], "; ".join(alert["reasons"]),
                 f"{len(alert['evidence'])} hands", cases_cell)
    return grid_or_page(
        request, grid, "integrity.html",
        {"competition": competition, "grid": grid, "alerts": found, "min_hands": min_hands, "here": "alerts",
         "records": who.principal.role.value in RECORDS_CASES},
        who,
    )


@router.get("/competitions/{competition}/integrity/pair", response_class=HTMLResponse)
async def pair_page(
    request: Request, competition: str, who: CurrentReader, api: Api, a: str, b: str,
    min_hands: MinHands = MIN_HANDS,
) -> Response:
    pairs = await api.need(f"{_base(competition)}/pairs", min_hands=min_hands)
    found = next((p for p in pairs if {p["player_a"], p["player_b"]} == {a, b}), None)
    grid = Grid("evidence", "Evidence hands", ["hand", "why"])
    if found is not None:
        for e in found["evidence"]:
            grid.add(Cell(e["hand_id"], _hand_href(e["history"])), e["reason"])
    signals = [
        (name, found[name]) for name in ("score", "soft_play", "chip_dumping", "team_play", "chip_flow", "chip_flow_z",
                                         "seating_z", "all_in_luck_z", "ring_support")
    ] if found else []
    return grid_or_page(
        request, grid, "integrity_pair.html",
        {"competition": competition, "grid": grid, "pair": found, "a": a, "b": b, "signals": signals,
         "min_hands": min_hands, "here": "pair"},
        who,
    )


@router.get("/competitions/{competition}/integrity/players", response_class=HTMLResponse)
async def players(request: Request, competition: str, who: CurrentReader, api: Api, min_hands: MinHands = 1) -> Response:
    found = await api.need(f"{_base(competition)}/players", min_hands=min_hands)
    names = ("vpip", "pfr", "three_bet", "fold_to_three_bet", "cbet", "fold_to_cbet", "af", "wtsd", "wsd", "bb_per_100")
    grid = Grid("players", "Player statistics (95 % interval)", ["player", "hands", "net chips", *names])
    for p in sorted(found, key=lambda p: -p["hands"]):
        grid.add(p["player"], p["hands"], p["net_chips"], *(_stat(p[n]) for n in names))
    return grid_or_page(
        request, grid, "integrity.html",
        {"competition": competition, "grid": grid, "alerts": None, "min_hands": min_hands, "here": "players"}, who,
    )


def _stat(stat: dict[str, Any]) -> str:
    if stat.get("value") is None:
        return "—"
    interval = f" [{stat['low']:.1f}–{stat['high']:.1f}]" if stat.get("low") is not None else ""
    return f"{stat['value']:.1f}{interval} n={stat['sample']}"


@router.get("/competitions/{competition}/integrity/chip-flow", response_class=HTMLResponse)
async def chip_flow(
    request: Request, competition: str, who: CurrentReader, api: Api, min_hands: MinHands = MIN_HANDS
) -> Response:
    pairs = await api.need(f"{_base(competition)}/pairs", min_hands=min_hands)
    flows = sorted((p for p in pairs if p["chip_flow"]), key=lambda p: -abs(p["chip_flow"]))[:GRAPH_EDGES]
    grid = Grid("chip-flow", "Chip flow between players (largest first)", ["from", "to", "chips", "z", "hands"])
    for p in flows:
        giver, taker = (p["player_a"], p["player_b"]) if p["chip_flow"] > 0 else (p["player_b"], p["player_a"])
        grid.add(giver, Cell(taker, _pair_href(competition, p["player_a"], p["player_b"])), round(abs(p["chip_flow"])),
                 f"{p['chip_flow_z']:.2f}", p["hands"])
    return grid_or_page(
        request, grid, "integrity_flow.html",
        {"competition": competition, "grid": grid, "graph": graph(flows), "min_hands": min_hands, "here": "flow"}, who,
    )


def graph(flows: list[dict[str, Any]]) -> dict[str, Any]:
    """The players on a circle and an edge per flow, from the giver to the taker (SVG coordinates)."""
    players = sorted({p for f in flows for p in (f["player_a"], f["player_b"])})
    centre, radius = GRAPH_SIZE / 2, GRAPH_SIZE / 2 - 70
    at = {
        name: (centre + radius * math.cos(2 * math.pi * i / len(players)),
               centre + radius * math.sin(2 * math.pi * i / len(players)))
        for i, name in enumerate(players)
    }
    biggest = max((abs(f["chip_flow"]) for f in flows), default=1) or 1
    edges = []
    for f in flows:
        giver, taker = (f["player_a"], f["player_b"]) if f["chip_flow"] > 0 else (f["player_b"], f["player_a"])
        (x1, y1), (x2, y2) = at[giver], at[taker]
        # stop short of the taker's circle so the arrowhead shows
        length = math.hypot(x2 - x1, y2 - y1) or 1
        x2, y2 = x2 - (x2 - x1) * 16 / length, y2 - (y2 - y1) * 16 / length
        edges.append({"x1": x1, "y1": y1, "x2": x2, "y2": y2, "width": 1 + 7 * abs(f["chip_flow"]) / biggest,
                      "title": f"{giver} → {taker}: {abs(f['chip_flow']):,.0f} chips over {f['hands']} hands"})
    nodes = [{"name": n, "x": x, "y": y} for n, (x, y) in at.items()]
    return {"size": GRAPH_SIZE, "nodes": nodes, "edges": edges}
