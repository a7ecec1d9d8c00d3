from datetime import UTC, datetime
from uuid import uuid4

import pytest

from domain.cards import parse_cards
from domain.hand.events import ActionKind, HoleCardsDealt, PlayerActed
from ingest.envelope import (
    CATALOG,
    UPCASTERS,
    MalformedRecord,
    RecordedBy,
    encode,
    json_schemas,
    make_envelope,
    parse_record,
)

pytestmark = pytest.mark.unit

DEALER = RecordedBy(person="dealer-7", role="dealer")


def record(event: object, **overrides: object) -> bytes:
    envelope = make_envelope(
        event,
        event_id=uuid4(),
        competition_id="open-2026",
        table_id="t1",
        hand_id="t1-1",
        seq=4,
        recorded_by=DEALER,
        occurred_at=datetime(2026, 11, 29, 12, 0, tzinfo=UTC),
    )
    return encode(envelope.model_copy(update=overrides)) if overrides else encode(envelope)


def test_a_record_round_trips_into_the_same_domain_event() -> None:
    event = HoleCardsDealt(seat=3, cards=parse_cards("As??"), face_up=(False, False))
    envelope, decoded = parse_record(record(event))
    assert decoded == event
    assert envelope.key == b"open-2026"


def test_a_record_that_is_not_json_is_malformed() -> None:
    with pytest.raises(MalformedRecord, match="not JSON"):
        parse_record(b"{not json")


def test_an_unknown_event_type_is_malformed_and_names_the_field() -> None:
    raw = record(PlayerActed(seat=1, action=ActionKind.FOLD)).replace(b'"PlayerActed"', b'"Teleported"')
    with pytest.raises(MalformedRecord) as err:
        parse_record(raw)
    assert err.value.field == "type"


def test_a_bad_card_in_the_payload_names_the_payload_field() -> None:
    raw = record(HoleCardsDealt(seat=3, cards=parse_cards("AsKd"))).replace(b'"Kd"', b'"Kx"')
    with pytest.raises(MalformedRecord) as err:
        parse_record(raw)
    assert err.value.field == "payload.cards.1"


def test_a_naive_timestamp_is_refused() -> None:
    raw = record(PlayerActed(seat=1, action=ActionKind.CHECK)).replace(b"Z", b"")
    with pytest.raises(MalformedRecord) as err:
        parse_record(raw)
    assert err.value.field == "occurred_at"


def test_a_newer_schema_version_is_refused_but_an_older_one_is_upcast(monkeypatch: pytest.MonkeyPatch) -> None:
    import ingest.envelope as envelope_module

    monkeypatch.setattr(envelope_module, "SCHEMA_VERSION", 2)
    monkeypatch.setitem(UPCASTERS, ("PlayerActed", 1), lambda p: {**p, "amount": 0})
    _, event = parse_record(record(PlayerActed(seat=2, action=ActionKind.CHECK)))
    assert event == PlayerActed(seat=2, action=ActionKind.CHECK, amount=0)
    monkeypatch.setattr(envelope_module, "SCHEMA_VERSION", 1)
    with pytest.raises(MalformedRecord) as err:
        parse_record(record(PlayerActed(seat=2, action=ActionKind.CHECK), schema_version=2))
    assert err.value.field == "schema_version"


def test_every_catalog_type_exports_a_json_schema() -> None:
    schemas = json_schemas()
    assert set(schemas["payloads"]) == set(CATALOG)
    assert "event_id" in schemas["envelope"]["properties"]


@pytest.mark.parametrize(
    "written", ["2026-11-29T12:00:00Z", "2026-11-29T12:00:00.250+00:00", "2026-11-29T14:00:00+02:00",
                "2026-11-29T06:30:00-05:30", "2026-11-29T17:45:00+05:45"],
)
def test_a_time_read_from_a_record_is_the_instant_written_in_the_standard_librarys_zone(written: str) -> None:
    from datetime import timezone

    from pydantic import AwareDatetime, TypeAdapter

    as_pydantic_reads_it = TypeAdapter(AwareDatetime).validate_json(f'"{written}"')
    raw = record(PlayerActed(seat=1, action=ActionKind.FOLD)).replace(b'"2026-11-29T12:00:00Z"', f'"{written}"'.encode())
    for _ in range(2):  # read once, then the text remembered
        occurred_at = parse_record(raw)[0].occurred_at
        assert type(occurred_at.tzinfo) is timezone
        assert occurred_at == as_pydantic_reads_it
        assert occurred_at.utcoffset() == as_pydantic_reads_it.utcoffset()
        assert occurred_at.isoformat() == as_pydantic_reads_it.isoformat()
