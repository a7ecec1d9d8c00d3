"""The federation's events (the competition's, the floor's, rulings, discipline, protests) as JSON values and back.

The hand's codec (:mod:`domain.hand.codec`) decodes the hand's catalog only and stores no times; these events
carry dates, deadlines, decision times and cards, so this one codec on the same pattern writes enums by value,
dates and times in ISO 8601, cards by name (``"As"``) and nested values as objects, and decodes by whichever
catalog it is given (each package's ``CATALOG``).
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from datetime import date, datetime
from enum import Enum
from typing import Any

from domain.cards import Card, parse_card

JSON = dict[str, Any]


def encode(event: Any) -> JSON:
    """``{"type": "ViolationRecorded", "participant": "p-17", "code": "7.1.3", ...}``."""
    return {"type": type(event).__name__, **_fields(event)}


def decode(payload: JSON, catalog: Mapping[str, type]) -> Any:
    return _dataclass(catalog[payload["type"]], payload)


def fields(event: Any) -> JSON:
    """``event``'s fields alone, for a stored event that names its type elsewhere (its event class):
    ``{"competition_id": "minsk-open-2026", "version": 2, "role": "secretary", ...}``."""
    return _fields(event)


def decode_as(cls: type, payload: Mapping[str, Any]) -> Any:
    """The ``cls`` whose fields ``payload`` holds (a ``"type"`` it names is not read)."""
    return _dataclass(cls, payload)


def _fields(value: Any) -> JSON:
    return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}


def _encode(value: Any) -> Any:
    # a card is a dataclass too: by name, before the dataclasses' branch
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _fields(value)
    return value


def _dataclass(cls: type, payload: Mapping[str, Any]) -> Any:
    return cls(**{name: _decode(hint, payload[name]) for name, hint in _hints(cls) if name in payload})


@functools.cache
def _hints(cls: type) -> tuple[tuple[str, Any], ...]:
    # resolving a class's string annotations compiles each one: once per class, not once per event decoded
    # (a 1,000-player protocol decodes some 13,000 of them)
    hints = typing.get_type_hints(cls)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))


def _decode(hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return _decode(options[0], value)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v) for v in value)
        return tuple(_decode(a, v) for a, v in zip(args, value, strict=True))
    if hint is datetime:
        return datetime.fromisoformat(value)
    if hint is date:
        return date.fromisoformat(value)
    if hint is Card:
        return parse_card(value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass(hint, value)
    return value
