"""Reported hand events as plain JSON values and back: cards by their names (``"As"``, ``"??"`` for a card
nobody saw), enums by their values, nested values as objects. The Hand aggregate stores its events this way,
so the event store needs no custom transcoding."""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from typing import Any

from domain.cards import Card, parse_card
from domain.hand.events import (
    BoardDealt,
    BurnsShuffledIntoStub,
    CardBurned,
    CardsDiscarded,
    CommunityCardDealt,
    DealtShort,
    ExposedCardReplaced,
    FlopDealtUnburned,
    FlopReformed,
    ForcedBetPosted,
    ForeignCardFound,
    FourCardFlopDealt,
    HandKilled,
    HandMucked,
    HandMuckedByMistake,
    HandShown,
    HandStarted,
    HandVoided,
    HoleCardExposed,
    HoleCardsDealt,
    MisdealDeclared,
    MissingCardDealt,
    MuckShuffledIntoStub,
    PenaltyHandKilled,
    PlayerActed,
    PrematureCardsDealt,
    PrematureCardsReturned,
    RawActReported,
    ReportedEvent,
)

JSON = dict[str, Any]

REPORTED: dict[str, type[ReportedEvent]] = {
    cls.__name__: cls
    for cls in (
        HandStarted,
        ForcedBetPosted,
        HoleCardsDealt,
        CardBurned,
        BoardDealt,
        PlayerActed,
        RawActReported,
        CardsDiscarded,
        HandShown,
        HandMucked,
        MisdealDeclared,
        HandVoided,
        DealtShort,
        MissingCardDealt,
        HandKilled,
        PenaltyHandKilled,
        FourCardFlopDealt,
        FlopDealtUnburned,
        FlopReformed,
        HandMuckedByMistake,
        ForeignCardFound,
        PrematureCardsDealt,
        PrematureCardsReturned,
        BurnsShuffledIntoStub,
        CommunityCardDealt,
        HoleCardExposed,
        ExposedCardReplaced,
        MuckShuffledIntoStub,
    )
}


def encode(event: ReportedEvent) -> JSON:
    """``{"type": "PlayerActed", "seat": 4, "action": "raise", "amount": 1400}``."""
    out: JSON = {"type": type(event).__name__}
    out.update(_encode_fields(event))
    return out


def encode_any(event: Any) -> JSON:
    """Any hand event (reported or derived) as a JSON value, named by its type."""
    out: JSON = {"type": type(event).__name__}
    out.update(_encode_fields(event))
    return out


def decode(payload: JSON) -> ReportedEvent:
    cls = REPORTED[payload["type"]]
    return typing.cast(ReportedEvent, _decode_dataclass(cls, payload))


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _encode_fields(value: Any) -> JSON:
    return {name: _encode(getattr(value, name)) for name in _field_names(type(value))}


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    if isinstance(value, str | int | bool | None):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _encode_fields(value)
    return value


_HINTS: dict[type, dict[str, Any]] = {}


def _decode_dataclass(cls: type, payload: JSON) -> Any:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    kwargs = {
        name: _decode(hints[name], payload[name]) for name in _field_names(cls) if name in payload
    }
    return cls(**kwargs)


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
    if hint is Card:
        return parse_card(value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _decode_dataclass(hint, value)
    return value
