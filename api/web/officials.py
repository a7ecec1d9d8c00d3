"""The officials' pages: the protests queue, a protest's review, the penalty register, the rulings, the protocol
with its signatures, and the acts officials record from them.

An act recorded here is a record like any other (DESIGN decision 10): the page builds its envelope, sends it
through ``POST /v1/events?wait=true`` with the official's own token, and shows the referee's verdict —
accepted, or rejected with its rule and reason. The page decides nothing: who may record what is the API's
and the referee's roles table's to say.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from api.web.acts import form_fields, judged, refused_by_form, verdict_fragment
from api.web.client import ApiClient, segment
from api.web.grid import Cell, Grid
from api.web.render import Api, CurrentReader, CurrentSession, grid_or_page, page
from api.web.session import CSRF_FIELD, Reader

router = APIRouter(prefix="/web", include_in_schema=False)

#: the acts the pages record, by the form's name for them
ACTS = ("ruling", "violation", "penalty", "protest_received", "decision", "signature")


def _base(competition: str) -> str:
    return f"/v1/competitions/{segment(competition)}"


def _protests_grid(competition: str, protests: list[dict[str, Any]]) -> Grid:
    grid = Grid(
        "protests", "Protests",
        ["protest", "tier", "filer", "against", "state", "filed", "deadline", "overdue", "decision"],
    )
    for p in protests:
        decision = p["decision"]["decision"] if p.get("decision") else ""
        grid.add(
            Cell(p["protest"], f"/web/competitions/{segment(competition)}/protests/{segment(p['protest'])}"),
            p["tier"], p["filer"], p["against"].get("reference", ""), p["state"], p["filed_at"], p["deadline"],
            Cell("overdue" if p["overdue"] else "no", css="overdue" if p["overdue"] else ""), decision,
        )
    return grid


@router.get("/competitions/{competition}/protests", response_class=HTMLResponse)
async def protests(request: Request, competition: str, who: CurrentReader, api: Api) -> Response:
    board = await api.need(f"{_base(competition)}/protests", limit=500)
    grid = _protests_grid(competition, board["items"])
    windows = Grid("challenge-windows", "Challenge windows", ["table", "hand", "ended", "closes", "open", "rule"])
    for w in board.get("challenge_windows", []):
        windows.add(w["table_id"], Cell(f"#{w['hand_number']}", f"/web/hands/{w['hand_id']}"), w["ended_at"],
                    w["closes_at"] or "at the next hand", w["open"], w["rule"])
    if request.query_params.get("table") == "challenge-windows":
        grid = windows
    return grid_or_page(
        request, grid, "protests.html",
        {"competition": competition, "grid": _protests_grid(competition, board["items"]), "windows": windows,
         "protests": board["items"], "acts": _act_context(who)},
        who,
    )


@router.get("/competitions/{competition}/protests/{protest_id}", response_class=HTMLResponse)
async def protest_page(request: Request, competition: str, protest_id: str, who: CurrentReader, api: Api) -> Response:
    protest = protest_id
    found, rulings = await asyncio.gather(
        api.need(f"{_base(competition)}/protests/{segment(protest)}"),
        api.get(f"{_base(competition)}/rulings", limit=500),
    )
    contested = found["against"].get("reference", "")
    ruling = next((r for r in rulings.body.get("items", []) if r["ruling"] == contested), None) if rulings.ok else None
    hands = []
    if ruling is not None:
        table, _, number = ruling["hand"].rpartition("/")
        hands.append({"name": ruling["hand"], "href": await _hand_href(api, competition, table, number)})
    return page(
        request, "protest.html",
        {"competition": competition, "protest": found, "ruling": ruling, "hands": hands,
         "acts": _act_context(who), "verdict": None},
        who=who,
    )


@router.get("/competitions/{competition}/snapshots/{version}/badge", response_class=HTMLResponse)
async def snapshot_badge(request: Request, competition: str, version: int, who: CurrentReader, api: Api) -> Response:
    """A protocol snapshot's verification against the store (the API re-checks every stream it covers: the
    protest's page loads it beside itself)."""
    answer = await api.get(f"{_base(competition)}/protocol/snapshots/{version}")
    snapshot = answer.body if answer.ok else {"error": answer.message}
    return page(request, "fragments/badge.html", {"snapshot": snapshot, "version": version}, who=who)


async def _hand_href(api: ApiClient, competition: str, table: str, number: str) -> str | None:
    from domain.hand.aggregate import hand_id

    if not table or not number.isdigit():
        return None
    return f"/web/hands/{hand_id(table, int(number), competition)}"


@router.get("/competitions/{competition}/penalties", response_class=HTMLResponse)
async def penalties(request: Request, competition: str, who: CurrentReader, api: Api) -> Response:
    register = await api.every(f"{_base(competition)}/penalties")
    grid = Grid(
        "penalties", "Penalty register",
        ["participant", "violation", "code", "rule", "what", "occurrence", "hand", "penalty", "imposed by",
         "hands left", "in force"],
    )
    for record in register:
        by_violation = {p["violation"]: p for p in record["penalties"]}
        for v in record["violations"]:
            p = by_violation.get(v["number"])
            grid.add(record["participant"], v["number"], v["code"], v["rule"], v["what"], v["occurrence"],
                     v["hand"] or "", p["kind"] if p else "", f"{p['imposed_by']['role']}" if p else "",
                     p["hands_remaining"] if p else "", p["in_force"] if p else "")
    return grid_or_page(
        request, grid, "penalties.html",
        {"competition": competition, "grid": grid, "register": register, "acts": _act_context(who)}, who,
    )


@router.get("/competitions/{competition}/rulings", response_class=HTMLResponse)
async def rulings(request: Request, competition: str, who: CurrentReader, api: Api) -> Response:
    found = await api.every(f"{_base(competition)}/rulings")
    grid = Grid("rulings", "Rulings", ["ruling", "hand", "kind", "official", "rule", "finding", "in force", "pots"])
    for r in found:
        table, _, number = r["hand"].rpartition("/")
        href = await _hand_href(api, competition, table, number)
        pots = "; ".join(
            f"pot {p['pot_index']}: {'decided' if p['discretionary'] else 'mechanical'}" for p in r["pots"]
        )
        grid.add(r["ruling"], Cell(r["hand"], href), r["kind"], r["official"], r["rule"], r["finding"], r["in_force"],
                 pots)
    return grid_or_page(
        request, grid, "rulings.html", {"competition": competition, "grid": grid, "acts": _act_context(who)}, who
    )


@router.get("/competitions/{competition}/protocol", response_class=HTMLResponse)
async def protocol(request: Request, competition: str, who: CurrentReader, api: Api) -> Response:
    document, snapshots = await asyncio.gather(
        api.need(f"{_base(competition)}/protocol"), api.get(f"{_base(competition)}/protocol/snapshots")
    )
    listed = snapshots.body if snapshots.ok and isinstance(snapshots.body, list) else []
    if isinstance(snapshots.body, dict):
        listed = snapshots.body.get("items", [])
    shas = {s["version"]: s["sha256"] for s in listed}
    grid = Grid("signatures", "Signatures", ["role", "person", "snapshot", "sha256", "signed", "matches the snapshot"])
    for s in document.get("signatures", []):
        matches = shas.get(s.get("version")) == s.get("sha256")
        grid.add(s.get("role", ""), s.get("person", ""), f"v{s.get('version', '')}", str(s.get("sha256", ""))[:16],
                 s.get("at", ""), Cell("yes" if matches else "NO", css="" if matches else "overdue"))
    return grid_or_page(
        request, grid, "protocol.html",
        {"competition": competition, "document": document, "snapshots": listed, "grid": grid,
         "sections": [k for k in document if isinstance(document[k], list)], "acts": _act_context(who)},
        who,
    )


# --- acts ------------------------------------------------------------------------------------------------------


def _act_context(who: Reader) -> dict[str, Any]:
    return {"role": who.principal.role.value, "person": who.principal.person}


@router.post("/competitions/{competition}/acts", response_class=HTMLResponse)
async def record_act(
    request: Request,
    competition: str,
    who: CurrentSession,
    api: Api,
    act: Annotated[str, Form()],
    csrf: Annotated[str, Form(alias=CSRF_FIELD)] = "",
) -> Response:
    """Record an official's act through the API and show the referee's verdict (a fragment for htmx)."""
    fields = await form_fields(request, csrf)
    try:
        record = envelope(competition, act, fields, who)
    except ValueError as err:
        verdict = refused_by_form(err)
    else:
        verdict = await judged(api, record)
    return verdict_fragment(request, verdict, competition, who)


def envelope(competition: str, act: str, fields: dict[str, str], who: Reader) -> dict[str, Any]:
    """The record of ``act`` as the form describes it; :class:`ValueError` naming the field when it cannot be."""
    now = datetime.now(UTC)
    at = now.isoformat().replace("+00:00", "Z")
    table: str | None = None
    hand: str | None = None
    role = who.principal.role.value
    person = who.principal.person
    if act == "ruling":
        table, number = _hand_name(fields, "hand")
        hand = number
        kind, payload_type = _required(fields, "kind"), "RulingIssued"
        payload: dict[str, Any] = {
            "ruling": fields.get("ruling") or f"ruling-web-{uuid.uuid4().hex[:8]}",
            "hand": f"{table}/{number}", "kind": kind, "official": person, "role": role,
            "rule": _required(fields, "rule"), "finding": _required(fields, "finding"),
            "reawards": [], "dead": [], "restored": [], "deviates_from": [], "justification": "",
            "amends": fields.get("amends", ""),
        }
    elif act == "violation":
        payload_type = "ViolationRecorded"
        payload = {
            "participant": _required(fields, "participant"), "code": _required(fields, "code"),
            "hand": _required(fields, "hand"), "intentional": fields.get("intentional") == "yes",
            "occurrence": _number(fields, "occurrence"), "description": fields.get("description", ""),
        }
    elif act == "penalty":
        payload_type = "PenaltyImposed"
        payload = {
            "participant": _required(fields, "participant"), "violation": _number(fields, "violation"),
            "kind": _required(fields, "kind"), "imposed_by": role, "rounds": _number(fields, "rounds", 0),
            "players_at_table": _number(fields, "players_at_table", 0),
            "hands_to_miss": _number(fields, "rounds", 0) * _number(fields, "players_at_table", 0),
            "kill_hand": fields.get("kill_hand") == "yes", "chips_removed": 0,
        }
    elif act == "protest_received":
        # the participant handed it in; the Secretary or the Chief Judge records its receipt for him (bfsp 7.3.1)
        payload_type = "ProtestReceived"
        scan = fields.get("document_sha256", "").lower()
        payload = {
            "protest": fields.get("protest") or f"protest-web-{uuid.uuid4().hex[:8]}", "competition": competition,
            "tier": _required(fields, "tier"), "filer": _required(fields, "filer"),
            "contested": {
                "reference": _required(fields, "reference"), "kind": _required(fields, "contested_kind"),
                "decided_by": _required(fields, "decided_by"), "sanctioned": fields.get("sanctioned", ""),
            },
            "grounds": fields.get("grounds", "") if scan else _required(fields, "grounds"),
            "written": fields.get("written") == "yes", "received_at": at, "document_sha256": scan, "rulebook": "bfsp",
        }
    elif act == "decision":
        payload_type = "ProtestDecided"
        payload = {
            "protest": _required(fields, "protest"), "decision": _required(fields, "decision"),
            "decided_by": role, "reasons": _required(fields, "reasons"), "decided_at": at, "overdue": False,
        }
    elif act == "signature":
        payload_type = "ProtocolSigned"
        version, _, sha = _required(fields, "snapshot").partition(":")
        if not version.isdigit() or not sha:
            raise ValueError("snapshot: a snapshot is named <version>:<sha256>")
        payload = {
            "competition_id": competition, "version": int(version), "sha256": sha,
            "person": person, "role": role,
        }
    else:
        raise ValueError(f"act: {act!r} is not an act these pages record (one of {', '.join(ACTS)})")
    return {
        "schema_version": 1, "event_id": str(uuid.uuid4()), "competition_id": competition, "table_id": table,
        "hand_id": hand, "seq": 0, "type": payload_type, "payload": payload,
        "recorded_by": {"person": person, "role": role}, "occurred_at": at, "rulebook": "bfsp",
    }


def _required(fields: dict[str, str], name: str) -> str:
    value = fields.get(name, "")
    if not value:
        raise ValueError(f"{name}: required")
    return value


def _number(fields: dict[str, str], name: str, default: int | None = None) -> int:
    value = fields.get(name, "")
    if not value and default is not None:
        return default
    if not value.isdigit():
        raise ValueError(f"{name}: a whole number is required, not {value!r}")
    return int(value)


def _hand_name(fields: dict[str, str], name: str) -> tuple[str, str]:
    table, _, number = _required(fields, name).rpartition("/")
    if not table or not number.isdigit():
        raise ValueError(f"{name}: a hand is named <table>/<number>, e.g. T1/12")
    return table, number
