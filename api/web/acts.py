"""Recording an act from a page: the form read after its CSRF check, the record sent through
``POST /v1/events?wait=true`` with the person's own token, and the referee's verdict shown as a fragment.

The officials' pages and the integrity cases' pages record their acts this one way (DESIGN decision 10): a
page builds the envelope and decides nothing — who may record what is the API's and the referee's to say.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import Response

from api.web.client import ApiClient
from api.web.render import csrf_of, page
from api.web.session import Reader

#: how long a page waits for the referee's verdict
VERDICT_SECONDS = 10


async def form_fields(request: Request, csrf: str) -> dict[str, str]:
    """The posted form's text fields, stripped, once its CSRF token is verified (403 otherwise)."""
    csrf_of(request).verify(request, csrf)
    form = await request.form()
    return {k: str(v).strip() for k, v in form.items() if isinstance(v, str)}


async def judged(api: ApiClient, record: dict[str, Any]) -> dict[str, Any]:
    """Submit ``record`` and wait for the referee: its verdict, for the page."""
    answer = await api.post("/v1/events", record, wait="true", timeout=VERDICT_SECONDS)
    return verdict_of(answer.status, answer.body, record)


def refused_by_form(err: ValueError) -> dict[str, Any]:
    """The verdict for a form that could not be made a record (the field it names is in the message)."""
    return {"outcome": "refused", "reason": str(err), "rule": "", "field": ""}


def verdict_of(status: int, body: Any, record: dict[str, Any]) -> dict[str, Any]:
    """The referee's verdict on ``record`` as the API answered (or its refusal before the log), for the page."""
    if status == 200 and body.get("verdicts"):
        v = body["verdicts"][0]
        return {
            "outcome": v.get("outcome", ""), "reason": v.get("reason") or "", "rule": v.get("rule") or "",
            "kind": v.get("kind") or "", "event_id": record["event_id"], "type": record["type"], "field": "",
        }
    error = body.get("error", {}) if isinstance(body, dict) else {}
    return {
        "outcome": "refused", "reason": error.get("message", f"the API answered {status}"),
        "rule": error.get("rule", ""), "field": error.get("field", ""), "type": record["type"],
        "event_id": record["event_id"],
    }


def verdict_fragment(request: Request, verdict: dict[str, Any], competition: str, who: Reader) -> Response:
    """The verdict as the htmx fragment: 422 when refused, 200 otherwise."""
    status = 200 if verdict["outcome"] != "refused" else 422
    return page(request, "fragments/verdict.html", {"verdict": verdict, "competition": competition}, who=who,
                status=status)
