"""OFC events as plain JSON values and back (cards by name, ``"As"``), through pydantic's adapters: the
OfcRound aggregate stores its events this way, and the log's catalog validates records with the same types."""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import TypeAdapter

from domain.ofc.events import OFC_DERIVED, OFC_REPORTED

JSON = dict[str, Any]
_ALL: dict[str, type] = {**OFC_REPORTED, **OFC_DERIVED}


@cache
def adapter(type_name: str) -> TypeAdapter[Any]:
    return TypeAdapter(_ALL[type_name])


def encode(event: Any) -> JSON:
    """``{"type": "OfcCardsSet", "seat": 2, "bottom": ["As"], ...}``."""
    type_name = type(event).__name__
    out: JSON = {"type": type_name}
    out.update(adapter(type_name).dump_python(event, mode="json"))
    return out


def decode(payload: JSON) -> Any:
    body = {k: v for k, v in payload.items() if k != "type"}
    return adapter(payload["type"]).validate_python(body)
