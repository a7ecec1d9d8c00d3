"""The operations page: the log's lag per partition, events judged per second, rejections per minute by rule
and the projection lag — what ``pokeraudit status`` and ``/v1/projections/lag`` say, refreshed every few
seconds (htmx). Events judged per second is the change in the judged count between two of this process's
readings of ``/v1/status``."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from api.web.client import ApiClient
from api.web.grid import Grid
from api.web.render import Api, CurrentReader, grid_or_page, page

router = APIRouter(prefix="/web", include_in_schema=False)

#: minutes of rejections shown, the latest ones that have any
REJECTION_MINUTES = 10


class JudgedRate:
    """The judged count at the last reading, to tell the rate at the next (one per app)."""

    def __init__(self) -> None:
        self.last: tuple[float, int] | None = None

    def rate(self, judged: int) -> float | None:
        now = time.monotonic()
        previous, self.last = self.last, (now, judged)
        if previous is None or now - previous[0] <= 0:
            return None
        return max(0.0, (judged - previous[1]) / (now - previous[0]))


async def _readings(request: Request, api: ApiClient) -> dict[str, Any]:
    status, lag, competitions = await asyncio.gather(
        api.need("/v1/status"), api.need("/v1/projections/lag"), api.every("/v1/competitions")
    )
    rate: JudgedRate = request.app.state.web_judged_rate
    per_second = rate.rate(int(status["accepted"]) + int(status["rejected"]))
    rejected = await asyncio.gather(
        *(api.get(f"/v1/competitions/{c['competition_id']}/rejections", limit=500) for c in competitions)
    )
    counts: Counter[tuple[str, str]] = Counter()
    readable = True
    for answer in rejected:
        if not answer.ok:
            readable = False  # a viewer's: the rejections are for officials
            continue
        for r in answer.body["items"]:
            counts[(r["at"][:16], r["rule"] or r["kind"])] += 1
    minutes = sorted({m for m, _ in counts}, reverse=True)[:REJECTION_MINUTES]
    per_minute = Grid("rejections-per-minute", "Rejections per minute by rule", ["minute", "rule", "rejections"])
    for minute in minutes:
        for (m, rule), n in sorted(counts.items()):
            if m == minute:
                per_minute.add(minute, rule, n)
    partitions = Grid("partitions", "The log per partition", ["partition", "log end offset", "tracked offset", "lag"])
    for p in status["partitions"]:
        partitions.add(p["partition"], p["log_end_offset"], p["tracked_offset"], p["lag"])
    return {
        "status": status, "lag": lag, "per_second": per_second, "partitions": partitions,
        "per_minute": per_minute, "rejections_readable": readable,
    }


@router.get("/operations", response_class=HTMLResponse)
async def operations(request: Request, who: CurrentReader, api: Api) -> Response:
    readings = await _readings(request, api)
    grid = readings["per_minute"] if request.query_params.get("table") == "rejections-per-minute" else readings[
        "partitions"]
    return grid_or_page(request, grid, "operations.html", readings, who)


@router.get("/operations/fragment", response_class=HTMLResponse)
async def operations_fragment(request: Request, who: CurrentReader, api: Api) -> Response:
    return page(request, "fragments/operations.html", await _readings(request, api), who=who)
