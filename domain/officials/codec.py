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
from collections.abc import Callable, Mapping
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
    return cls(**{
        name: payload[name] if convert is None else convert(payload[name])
        for name, convert in _plan(cls)
        if name in payload
    })


#: how one field's JSON value becomes its typed value; None where the value is kept as it is (a str, an int)
_Convert = Callable[[Any], Any] | None


@functools.cache
def _plan(cls: type) -> tuple[tuple[str, _Convert], ...]:
    # each field's conversion worked out from its type hint once per class, not once per value decoded: resolving
    # the class's string annotations compiles each one, and walking a hint's origin and arguments for every value
    # was most of decoding an elimination's or a table break's record (a 1,000-player protocol decodes some 13,000)
    hints = typing.get_type_hints(cls)
    return tuple((f.name, _converter(hints[f.name])) for f in dataclasses.fields(cls))


def _converter(hint: Any) -> _Convert:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        inner = _converter(options[0])
        if inner is None:
            return None
        return lambda value: None if value is None else inner(value)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            each = _converter(args[0])
            if each is None:
                return tuple
            return lambda value: tuple(each(v) for v in value)
        parts = [_converter(a) or _kept for a in args]
        return lambda value: tuple(part(v) for part, v in zip(parts, value, strict=True))
    if hint is datetime:
        return datetime.fromisoformat
    if hint is date:
        return date.fromisoformat
    if hint is Card:
        return parse_card
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return functools.partial(_dataclass, hint)
    return None


def _kept(value: Any) -> Any:
    return value
