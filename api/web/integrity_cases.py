"""The integrity cases' pages (integrity and federation roles; a Chief Judge reads the cases reported to him): the
cases of a competition, one case with its evidence hands (each opening the replayer) and the players' pair page,
and the acts an analyst records there — open a case from an alert of the queue (its score, reasons and evidence
taken from the API's alert, not from the form), proactively or on a complaint; add a note with hands; conclude;
report to the Chief Judge.

Each act is a record through ``POST /v1/events?wait=true`` with the analyst's own token, and the page shows the
referee's verdict (api/web/officials.py's way): who may record what is the API's and the referee's to say.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from api.web.acts import form_fields, judged, refused_by_form, verdict_fragment
from api.web.client import segment
from api.web.grid import Cell, Grid
from api.web.render import Api, CurrentReader, CurrentSession, grid_or_page
from api.web.session import CSRF_FIELD, Reader
from domain.hand.aggregate import hand_id

router = APIRouter(prefix="/web", include_in_schema=False)

#: the acts these pages record, by the form's name for them
CASE_ACTS = {
    "open": "IntegrityCaseOpened", "note": "IntegrityCaseNoted", "conclude": "IntegrityCaseConcluded",
    "report": "IntegrityCaseReported",
}
#: the roles shown the forms (the API lets them record cases; the referee's roles table has the last word)
RECORDS_CASES = frozenset({"integrity", "federation"})


def _api(competition: str) -> str:
    return f"/v1/integrity/competitions/{segment(competition)}"


def _web(competition: str) -> str:
    return f"/web/competitions/{segment(competition)}/integrity"


def case_href(competition: str, case: str) -> str:
    return f"{_web(competition)}/cases/{segment(case)}"


def hand_href(hand: str) -> str:
    return f"/web/hands/{segment(hand)}"


def pair_href(competition: str, a: str, b: str) -> str:
    return f"{_web(competition)}/pair?{urlencode({'a': a, 'b': b})}"


@router.get("/competitions/{competition}/integrity/cases", response_class=HTMLResponse)
async def cases(request: Request, competition: str, who: CurrentReader, api: Api) -> Response:
    found = await api.need(f"{_api(competition)}/cases")
    grid = Grid("cases", "Cases", ["case", "players", "suspicion", "origin", "state", "outcome", "evidence",
                                   "opened", "last act"])
    for c in found:
        outcome = c["conclusion"]["outcome"] if c.get("conclusion") else ""
        grid.add(Cell(c["case"], case_href(competition, c["case"])), " & ".join(c["players"]),
                 c["suspicion"].replace("_", " "), c["origin"], Cell(c["state"], css=f"case-{c['state']}"), outcome,
                 _hands(len(c["evidence"])), when(c["opened_at"]), when(c["updated_at"]))
    return grid_or_page(
        request, grid, "integrity_cases.html",
        {"competition": competition, "grid": grid, "here": "cases", "min_hands": None,
         "records": who.principal.role.value in RECORDS_CASES},
        who,
    )


@router.get("/competitions/{competition}/integrity/cases/{case}", response_class=HTMLResponse)
async def case_page(request: Request, competition: str, case: str, who: CurrentReader, api: Api) -> Response:
    found = await api.need(f"{_api(competition)}/cases/{segment(case)}")
    grid = Grid("case-evidence", "Evidence hands", ["hand", "why", "added"])
    for e in found["evidence"]:
        grid.add(Cell(e["hand_id"], hand_href(e["hand_id"])), e["reason"], when(e["added_at"]))
    players = found["players"]
    pairs = [(a, b, pair_href(competition, a, b)) for i, a in enumerate(players) for b in players[i + 1:]]
    return grid_or_page(
        request, grid, "integrity_case.html",
        {"competition": competition, "grid": grid, "case": found, "pairs": pairs, "here": "cases", "min_hands": None,
         "records": who.principal.role.value in RECORDS_CASES, "when": when},
        who,
    )


@router.post("/competitions/{competition}/integrity/cases/acts", response_class=HTMLResponse)
async def record_case_act(
    request: Request,
    competition: str,
    who: CurrentSession,
    api: Api,
    act: Annotated[str, Form()],
    csrf: Annotated[str, Form(alias=CSRF_FIELD)] = "",
) -> Response:
    """Record a case's act through the API and show the referee's verdict (a fragment for htmx), with a link to
    the case once its opening is accepted."""
    fields = await form_fields(request, csrf)
    try:
        if act == "open" and fields.get("origin") == "alert":
            alerts = await api.need(f"{_api(competition)}/alerts", min_hands=fields.get("min_hands") or None)
            record = case_envelope(competition, act, {**fields, "alert": _alert(alerts, fields.get("alert", ""))}, who)
        else:
            record = case_envelope(competition, act, fields, who)
    except ValueError as err:
        verdict = refused_by_form(err)
    else:
        verdict = await judged(api, record)
        if verdict["outcome"] == "accepted":
            verdict["href"] = case_href(competition, record["payload"]["case"])
    return verdict_fragment(request, verdict, competition, who)


def when(at: str) -> str:
    """A stored time to the minute, as a person reads it (``2026-12-02 00:18 UTC``)."""
    return f"{at[:16].replace('T', ' ')} UTC" if len(at) >= 16 else at


def _hands(count: int) -> str:
    return f"{count} hand" + ("" if count == 1 else "s")


def _alert(alerts: list[dict[str, Any]], named: str) -> Any:
    """The queue's alert on exactly the players ``named`` ("a,b"), as the API gives it."""
    players = sorted(p for p in named.split(",") if p)
    found = next((a for a in alerts if sorted(a["players"]) == players), None)
    if found is None:
        raise ValueError(f"alert: no alert of the queue is on {', '.join(players) or 'nobody'} (any more)")
    return found


def case_envelope(competition: str, act: str, fields: dict[str, Any], who: Reader) -> dict[str, Any]:
    """The record of a case's ``act`` as the form describes it; :class:`ValueError` naming the field when it
    cannot be."""
    at = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    case = fields.get("case") or ""
    if act == "open":
        case = case or f"case-{uuid.uuid4().hex[:8]}"
        alert = fields.get("alert")
        if isinstance(alert, dict):
            payload: dict[str, Any] = {
                "case": case, "competition": competition, "players": list(alert["players"]),
                "suspicion": alert["behaviour"], "origin": "alert", "grounds": "; ".join(alert["reasons"]),
                "evidence": [{"hand_id": e["hand_id"], "reason": e["reason"]} for e in alert["evidence"]],
                "score": alert["score"],
            }
        else:
            players = [p.strip() for p in _required(fields, "players").split(",") if p.strip()]
            payload = {
                "case": case, "competition": competition, "players": players,
                "suspicion": _required(fields, "suspicion"), "origin": _required(fields, "origin"),
                "grounds": _required(fields, "grounds"), "evidence": evidence(competition, fields.get("hands", "")),
            }
    elif act == "note":
        payload = {"case": _required(fields, "case"), "note": _required(fields, "note"),
                   "evidence": evidence(competition, fields.get("hands", ""))}
    elif act == "conclude":
        payload = {"case": _required(fields, "case"), "outcome": _required(fields, "outcome"),
                   "reasons": _required(fields, "reasons")}
    elif act == "report":
        participants = [p.strip() for p in _required(fields, "participants").split(",") if p.strip()]
        payload = {"case": _required(fields, "case"), "participants": participants,
                   "violation": _required(fields, "violation"), "summary": _required(fields, "summary"),
                   "chief_judge": fields.get("chief_judge", "")}
    else:
        raise ValueError(f"act: {act!r} is not an act of a case (one of {', '.join(CASE_ACTS)})")
    return {
        "schema_version": 1, "event_id": str(uuid.uuid4()), "competition_id": competition, "table_id": None,
        "hand_id": None, "seq": 0, "type": CASE_ACTS[act], "payload": payload,
        "recorded_by": {"person": who.principal.person, "role": who.principal.role.value}, "occurred_at": at,
        "rulebook": "bfsp",
    }


def evidence(competition: str, lines: str) -> list[dict[str, str]]:
    """Evidence hands, one a line: the hand (its id, or ``table/number``) then why, in words."""
    found = []
    for n, line in enumerate((raw.strip() for raw in lines.splitlines()), start=1):
        if not line:
            continue
        named, _, reason = line.partition(" ")
        table, _, number = named.rpartition("/")
        if table and number.isdigit():
            named = str(hand_id(table, int(number), competition))
        elif not _is_uuid(named):
            raise ValueError(f"hands: line {n} names no hand: a hand's id or table/number (T1/12), then why")
        if not reason.strip():
            raise ValueError(f"hands: line {n} says why the hand is evidence after naming it")
        found.append({"hand_id": named, "reason": reason.strip()})
    return found


def _is_uuid(text: str) -> bool:
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True


def _required(fields: dict[str, Any], name: str) -> str:
    value = fields.get(name, "")
    if not isinstance(value, str) or not value:
        raise ValueError(f"{name}: required")
    return value
