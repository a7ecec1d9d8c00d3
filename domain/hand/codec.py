"""Reported hand events as plain JSON values and back: cards by their names (``"As"``, ``"??"`` for a card
nobody saw), enums by their values, nested values as objects. The Hand aggregate stores its events this way,
so the event store needs no custom transcoding."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from enum import Enum
from typing import Any

from domain.cards import Card, parse_card
from domain.hand.events import (
    BoardDealt,
    BoxedCardFound,
    BurnsShuffledIntoStub,
    CardBurned,
    CardsDiscarded,
    ClockCalled,
    ClockExpired,
    CommunityCardDealt,
    DealtShort,
    ExposedCardReplaced,
    ExtraCardDealt,
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
    IncorrectBetAccepted,
    IncorrectBetCorrected,
    MisdealDeclared,
    MissingCardDealt,
    MuckShuffledIntoStub,
    PenaltyHandKilled,
    PlayerActed,
    PrematureCardsDealt,
    PrematureCardsReturned,
    RawActReported,
    ReportedEvent,
    ShowRequested,
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
        IncorrectBetAccepted,
        IncorrectBetCorrected,
        ExtraCardDealt,
        BoxedCardFound,
        ShowRequested,
        ClockCalled,
        ClockExpired,
    )
}


def encode(event: ReportedEvent) -> JSON:
    """``{"type": "PlayerActed", "seat": 4, "action": "raise", "amount": 1400}``."""
    return encode_any(event)


def encode_any(event: Any) -> JSON:
    """Any hand event (reported or derived) as a JSON value, named by its type."""
    # One dict, its "type" first and then the fields in their order (as the stored state has always held them);
    # a field's whole number, text or None taken as it is, as _encode would, without a call: most of an event's
    # values are (a seat, an amount), and the referee encodes every event it records.
    kind = type(event)
    out: JSON = {"type": kind.__name__}
    for name in _field_names(kind):
        value = getattr(event, name)
        plain = type(value)
        out[name] = value if plain is int or plain is str or value is None else _encode(value)
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


# The referee encodes every event it records: a value's encoder is chosen once per Python type (the same
# isinstance tests, in the same order), not tested again for every value.
_ENCODERS: dict[type, Callable[[Any], Any]] = {}


def _encode(value: Any) -> Any:
    kind = type(value)
    encoder = _ENCODERS.get(kind)
    if encoder is None:
        encoder = _ENCODERS[kind] = _encoder_for(kind)
    return encoder(value)


def _as_is(value: Any) -> Any:
    return value


def _encode_items(value: Any) -> list[Any]:
    return [_encode(v) for v in value]


def _enum_value(value: Any) -> Any:
    return value.value


def _encoder_for(kind: type) -> Callable[[Any], Any]:
    if issubclass(kind, Card):
        return str
    if issubclass(kind, Enum):
        return _enum_value
    if issubclass(kind, tuple | list):
        return _encode_items
    if issubclass(kind, str | int | bool | type(None)):
        return _as_is
    if dataclasses.is_dataclass(kind):
        return _encode_fields
    return _as_is


# Decoding follows the type hints; each hint's decoder is built once (a hand's start alone holds dozens of
# values, and every hand loaded from the store decodes all of its events).
_DECODERS: dict[Any, Callable[[Any], Any]] = {}


def _decode_dataclass(cls: type, payload: JSON) -> Any:
    return _decoder(cls)(payload)


def _decode(hint: Any, value: Any) -> Any:
    return _decoder(hint)(value)


def _decoder(hint: Any) -> Callable[[Any], Any]:
    decoder = _DECODERS.get(hint)
    if decoder is None:
        decoder = _DECODERS[hint] = _decoder_for(hint)
    return decoder


def _decoder_for(hint: Any) -> Callable[[Any], Any]:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        option = _decoder([a for a in typing.get_args(hint) if a is not type(None)][0])
        return lambda value: None if value is None else option(value)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            each = _decoder(args[0])
            return lambda value: tuple(each(v) for v in value)
        items = tuple(_decoder(a) for a in args)
        return lambda value: tuple(d(v) for d, v in zip(items, value, strict=True))
    if hint is Card:
        return parse_card
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_decoder(hint)
    return _as_is


def _dataclass_decoder(cls: type) -> Callable[[Any], Any]:
    hints = typing.get_type_hints(cls)
    fields = tuple((name, _decoder(hints[name])) for name in _field_names(cls))

    def decode_fields(payload: JSON) -> Any:
        return cls(**{name: d(payload[name]) for name, d in fields if name in payload})

    return decode_fields
