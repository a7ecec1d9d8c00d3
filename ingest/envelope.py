"""The envelope every record on the log carries, and the catalog of event types it may hold.

A record is JSON: the envelope fields plus ``type`` and ``payload``. ``event_id`` is the client's UUID and
the idempotency key. ``schema_version`` says which shape the payload was written in; an older shape is
upcast to the current one (never refused for its age).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from functools import cache
from typing import Any
from uuid import UUID

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from domain.hand.codec import REPORTED
from domain.ofc.events import OFC_REPORTED
from domain.roles import Role
from ingest.catalog import FEDERATION_CATALOG

SCHEMA_VERSION = 1


class RecordedBy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    person: str = Field(min_length=1)
    role: Role


#: Event types a record may carry, by name: the Hand's reported events (competition, table and discipline
#: events join through the same mechanism).
CATALOG: dict[str, type] = {**REPORTED, **FEDERATION_CATALOG, **OFC_REPORTED}

#: (type, schema version written) → function lifting that payload one version up.
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
UPCASTERS: dict[tuple[str, int], Upcaster] = {}


class Envelope(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_version: int = Field(default=SCHEMA_VERSION, ge=1)
    event_id: UUID
    competition_id: str = Field(min_length=1)
    table_id: str | None = None
    hand_id: str | None = None
    seq: int = Field(ge=0)
    type: str
    payload: dict[str, Any]
    recorded_by: RecordedBy
    occurred_at: AwareDatetime
    rulebook: str = "bfsp"

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
    try:
        return _adapter(envelope.type).validate_python(payload)
    except ValidationError as err:
        raise _malformed(err, prefix="payload.") from None


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
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise MalformedRecord(f"not JSON: {err}") from None
    try:
        return Envelope.model_validate(data)
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
    return MalformedRecord(first["msg"], field.rstrip("."))
