"""The envelope every record on the log carries, and the catalog of event types it may hold.

A record is JSON: the envelope fields plus ``type`` and ``payload``. ``event_id`` is the client's UUID and
the idempotency key. ``schema_version`` says which shape the payload was written in; an older shape is
upcast to the current one (never refused for its age).
"""

from __future__ import annotations

import dataclasses
import json
import math
import typing
from collections.abc import Callable
from datetime import datetime, timedelta, timezone, tzinfo
from functools import cache
from typing import Any
from uuid import UUID

import orjson
from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
)

from domain.hand.codec import REPORTED
from domain.memo import BoundedMemo
from domain.ofc.events import OFC_REPORTED
from domain.roles import Role
from domain.rulebooks import RULEBOOKS
from ingest.bounds import DEPTH_BOUND, KNOWN_NAMES, in_bounds
from ingest.catalog import (
    CHIPS_BOUND,
    FEDERATION_CATALOG,
    ITEMS_BOUND,
    NAME_BOUND,
    NUMBER_BOUNDS,
    SEQ_BOUND,
    TEXT_BOUND,
    TEXT_FIELDS,
)

SCHEMA_VERSION = 1


class RecordedBy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    person: str = Field(min_length=1, max_length=NAME_BOUND)
    role: Role


#: Event types a record may carry, by name: the Hand's reported events (competition, table and discipline
#: events join through the same mechanism).
CATALOG: dict[str, type] = {**REPORTED, **FEDERATION_CATALOG, **OFC_REPORTED}

#: (type, schema version written) → function lifting that payload one version up.
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
UPCASTERS: dict[tuple[str, int], Upcaster] = {}

#: the envelope times read from JSON, by their text (:meth:`Envelope._a_written_time`); cleared when full
_TIMES_READ: BoundedMemo[str, datetime] = BoundedMemo(8192)


@cache
def _zone(offset: timedelta) -> tzinfo:
    """The standard library's fixed zone of ``offset`` (``timezone.utc`` for zero), one object per offset."""
    return timezone(offset)


class Envelope(BaseModel):
    """Strict: an unknown field, or a value of the wrong type, is refused naming the field — nothing is coerced
    (``"3"`` is no seq, ``true`` no number, a number no time)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_version: int = Field(default=SCHEMA_VERSION, ge=1, le=1000, strict=True)
    event_id: UUID
    competition_id: str = Field(min_length=1, max_length=NAME_BOUND)
    table_id: str | None = Field(default=None, max_length=NAME_BOUND)
    hand_id: str | None = Field(default=None, max_length=NAME_BOUND)
    seq: int = Field(ge=0, le=SEQ_BOUND, strict=True)
    type: str = Field(max_length=NAME_BOUND)
    payload: dict[str, Any]
    recorded_by: RecordedBy
    occurred_at: AwareDatetime
    rulebook: str = Field(default="bfsp", max_length=NAME_BOUND)

    @field_validator("occurred_at", mode="wrap")
    @classmethod
    def _a_written_time(cls, value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo) -> Any:
        if type(value) is not str or info.mode != "json":
            if isinstance(value, int | float):
                raise ValueError("a time is written in ISO 8601 with its offset (2026-11-29T12:00:00Z), not as a number")
            return handler(value)
        # A text read before is the same time: the very object read then (times are immutable), so neither
        # pydantic's parse nor, later, the time's text (domain.chain.time_text, by identity) is made again. An
        # imported hand history repeats its acts' times, and records written in one second share it.
        read = _TIMES_READ.get(value)
        if read is not None:
            return read
        # In the standard library's zone of the same offset (the same instant, written the same way): pydantic's
        # zone answers every subtraction and comparison through its extension, ~20 times the standard one's cost,
        # and the clock's checks subtract a record's times at every record. Made once per text, as kept here.
        read = handler(value)
        return _TIMES_READ.keep(value, read.replace(tzinfo=_zone(read.utcoffset())))

    @field_validator("rulebook")
    @classmethod
    def _a_known_rulebook(cls, value: str) -> str:
        if value not in RULEBOOKS:
            raise ValueError(f"no rulebook is called {value!r}; the known rulebooks are {', '.join(sorted(RULEBOOKS))}")
        return value

    @property
    def key(self) -> bytes:
        """The log key: all events of one competition share a partition (DESIGN decision 3)."""
        return self.competition_id.encode()


class MalformedRecord(ValueError):
    """A record the referee cannot read: bad JSON, unknown type, or a field that breaks the schema."""

    def __init__(self, reason: str, field: str = "") -> None:
        self.reason = reason
        self.field = field
        super().__init__(f"{field}: {reason}" if field else reason)


@cache
def _adapter(type_name: str) -> TypeAdapter[Any]:
    return TypeAdapter(CATALOG[type_name])


def _forbid_unknown_fields(catalog: dict[str, type]) -> None:
    """Every dataclass a catalog event is made of refuses a field it does not have, at any depth, when read
    from a record (``extra="forbid"``): a field the store would drop is never kept on the log. Only the
    envelope reads these classes through pydantic, so this is the log's reading of them, nothing else's."""
    seen: set[type] = set()

    def visit(tp: Any) -> None:
        for arg in typing.get_args(tp):
            visit(arg)
        if not (isinstance(tp, type) and dataclasses.is_dataclass(tp)) or tp in seen:
            return
        seen.add(tp)
        if "__pydantic_config__" not in vars(tp):
            tp.__pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[attr-defined]
        for hint in typing.get_type_hints(tp).values():
            visit(hint)

    for event_type in catalog.values():
        visit(event_type)


_forbid_unknown_fields(CATALOG)


def upcast(type_name: str, version: int, payload: dict[str, Any]) -> dict[str, Any]:
    while version < SCHEMA_VERSION:
        lift = UPCASTERS.get((type_name, version))
        if lift is not None:
            payload = lift(payload)
        version += 1
    return payload


def decode_event(envelope: Envelope) -> Any:
    """The domain event inside an envelope, upcast to the current schema and validated."""
    if envelope.type not in CATALOG:
        raise MalformedRecord(f"unknown event type {envelope.type!r}; known: {', '.join(sorted(CATALOG))}", "type")
    if envelope.schema_version > SCHEMA_VERSION:
        raise MalformedRecord(
            f"schema version {envelope.schema_version} is newer than this referee's {SCHEMA_VERSION}",
            "schema_version",
        )
    payload = upcast(envelope.type, envelope.schema_version, envelope.payload)
    verify_bounds(payload)
    try:
        written = orjson.dumps(payload)
    except orjson.JSONEncodeError as err:  # what the bounds did not foresee: still the record's fault, named
        raise MalformedRecord(f"the payload cannot be written as JSON: {err}", "payload") from None
    try:
        # strict, read as JSON: a list stands for a tuple and a string for an enum, but nothing is coerced
        return _adapter(envelope.type).validate_json(written, strict=True)
    except ValidationError as err:
        raise _malformed(err, prefix="payload.") from None


def verify_bounds(payload: dict[str, Any]) -> None:
    """Refuse a payload with a value no competition has (``ingest.catalog``'s bounds) or a name no catalog
    knows (rulebook, variant, delegation), naming the field; before the log, so neither the referee nor the read
    models ever meet one.

    Every record is checked, and almost every one is within bounds: :func:`ingest.bounds.in_bounds` (compiled)
    says so without building the path of each value (a tenth of the referee's time when it did); only a payload it
    doubts is walked again by :func:`_within`, which names the field and the bound."""
    if not in_bounds(payload, "", 0):
        _within(payload, "payload", "", 0)


def _within(value: Any, path: str, name: str, depth: int) -> None:
    if depth > DEPTH_BOUND:
        raise MalformedRecord(f"values nest deeper than {DEPTH_BOUND} levels", path)
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        least, most = NUMBER_BOUNDS.get(name, (-CHIPS_BOUND, CHIPS_BOUND))
        if not least <= value <= most:
            raise MalformedRecord(f"{value} is out of bounds: {name or 'a number'} runs from {least} to {most}", path)
    elif isinstance(value, float):
        if not math.isfinite(value) or abs(value) > CHIPS_BOUND:
            raise MalformedRecord(f"{value} is out of bounds: a number runs from {-CHIPS_BOUND} to {CHIPS_BOUND}", path)
    elif isinstance(value, str):
        most = TEXT_BOUND if name in TEXT_FIELDS else NAME_BOUND
        if len(value) > most:
            raise MalformedRecord(f"{len(value)} characters; {name or 'a string'} has at most {most}", path)
        if not value.isascii():
            try:
                value.encode()
            except UnicodeEncodeError:
                raise MalformedRecord("not text: a lone UTF-16 surrogate (\\ud800–\\udfff) is no character", path) from None
        known = KNOWN_NAMES.get(name)
        if known is not None and value not in known:
            what = name.rstrip("s")
            raise MalformedRecord(f"no {what} is called {value[:40]!r}; the known {name.rstrip('s')}s are {', '.join(sorted(known))}", path)
    elif isinstance(value, list | tuple):
        if len(value) > ITEMS_BOUND:
            raise MalformedRecord(f"{len(value)} items; a list has at most {ITEMS_BOUND}", path)
        for n, item in enumerate(value):
            _within(item, f"{path}.{n}", name, depth + 1)
    elif isinstance(value, dict):
        if len(value) > ITEMS_BOUND:
            raise MalformedRecord(f"{len(value)} fields; an object has at most {ITEMS_BOUND}", path)
        for key, item in value.items():
            _within(str(key), f"{path}.{key}", "", depth + 1)  # a field's name is bounded text too
            _within(item, f"{path}.{key}", str(key), depth + 1)


def parse_record(raw: bytes) -> tuple[Envelope, Any]:
    """Read one log record: its envelope and its domain event.

    The envelope is parsed and validated in one step; a record that step refuses is read again the way it
    always was (``json.loads``, then the model), so what is refused, and why, does not depend on the fast path.
    """
    try:
        envelope = Envelope.model_validate_json(raw)
    except ValidationError:
        envelope = _read_envelope(raw)
    return envelope, decode_event(envelope)


def _read_envelope(raw: bytes) -> Envelope:
    try:
        json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise MalformedRecord(f"not JSON: {err}") from None
    except RecursionError:
        raise MalformedRecord(f"not JSON this service reads: values nest deeper than {DEPTH_BOUND} levels") from None
    try:
        return Envelope.model_validate_json(raw)
    except ValidationError as err:
        raise _malformed(err) from None


def encode(envelope: Envelope) -> bytes:
    return envelope.model_dump_json().encode()


def make_envelope(
    event: Any,
    *,
    event_id: UUID,
    competition_id: str,
    seq: int,
    recorded_by: RecordedBy,
    occurred_at: datetime,
    table_id: str | None = None,
    hand_id: str | None = None,
    rulebook: str = "bfsp",
) -> Envelope:
    type_name = type(event).__name__
    if type_name not in CATALOG:
        raise MalformedRecord(f"{type_name} is not in the event catalog", "type")
    payload = _adapter(type_name).dump_python(event, mode="json")
    return Envelope(
        event_id=event_id,
        competition_id=competition_id,
        table_id=table_id,
        hand_id=hand_id,
        seq=seq,
        type=type_name,
        payload=payload,
        recorded_by=recorded_by,
        occurred_at=occurred_at,
        rulebook=rulebook,
    )


def json_schemas() -> dict[str, Any]:
    """JSON Schema of the envelope and of every payload type, for docs/ and for clients."""
    return {
        "envelope": Envelope.model_json_schema(),
        "payloads": {name: _adapter(name).json_schema() for name in sorted(CATALOG)},
        "schema_version": SCHEMA_VERSION,
    }


def _malformed(err: ValidationError, prefix: str = "") -> MalformedRecord:
    first = err.errors()[0]
    field = prefix + ".".join(str(p) for p in first["loc"])
    reason = first["msg"]
    if first["type"] in ("extra_forbidden", "unexpected_keyword_argument"):
        reason = "unknown field: there is no such field here (see `pokeraudit schemas`)"
    elif first["type"] not in ("missing", "json_invalid") and "input" in first and not isinstance(first["input"], dict | list):
        shown = repr(first["input"])
        reason = f"{reason}; got {type(first['input']).__name__} {shown[:40]}{'…' if len(shown) > 40 else ''}"
    return MalformedRecord(reason, field.rstrip("."))
