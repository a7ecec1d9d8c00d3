"""The envelope is strict and bounded (issue 11 §1–3): before a record reaches the log, every number has a bound
a real competition never reaches, every name of the catalog (rulebook, variant, role, delegation) is checked,
unknown fields and wrong types are refused naming the field, and nothing is coerced."""

from __future__ import annotations

import json
from typing import Any
from uuid import uuid4

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.bounds import in_bounds
from ingest.envelope import MalformedRecord, _within, parse_record, verify_bounds

pytestmark = pytest.mark.unit

START: dict[str, Any] = {
    "table_id": "t1", "hand_number": 1, "variant": "NT", "button": 2,
    "seats": [{"seat": 1, "player": "Ann", "stack": 1000}, {"seat": 2, "player": "Bob", "stack": 1000}],
    "stakes": {"blinds": [[2, 50], [1, 100]], "min_bet": 100},
}


def raw(type_: str = "HandStarted", payload: dict[str, Any] | None = None, **envelope: Any) -> bytes:
    record = {
        "event_id": str(uuid4()), "competition_id": "c1", "table_id": "t1", "hand_id": "1", "seq": 0,
        "type": type_, "payload": START if payload is None else payload,
        "recorded_by": {"person": "d", "role": "dealer"}, "occurred_at": "2026-11-29T12:00:00Z",
    }
    record.update(envelope)
    return json.dumps(record).encode()


def refused(record: bytes) -> MalformedRecord:
    with pytest.raises(MalformedRecord) as err:
        parse_record(record)
    return err.value


def seats(**first: Any) -> list[dict[str, Any]]:
    return [{"seat": 1, "player": "Ann", "stack": 1000, **first}, {"seat": 2, "player": "Bob", "stack": 1000}]


def test_a_plain_start_is_read() -> None:
    envelope, event = parse_record(raw())
    assert event.seats[0].stack == 1000 and envelope.seq == 0


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({**START, "seats": seats(stack=2**63)}, "payload.seats.0.stack"),
        ({**START, "seats": seats(stack=10**30)}, "payload.seats.0.stack"),
        ({**START, "seats": seats(stack=-(2**70))}, "payload.seats.0.stack"),
        ({**START, "level": 2**70}, "payload.level"),
        ({**START, "hand_number": 2**70}, "payload.hand_number"),
        ({**START, "hand_number": 10**15 + 1}, "payload.hand_number"),
        ({**START, "seats": seats(seat=10**6)}, "payload.seats.0.seat"),
        ({**START, "button": 2**40}, "payload.button"),
        ({**START, "stakes": {"antes": [[1, 10**16]], "blinds": [[2, 50], [1, 100]]}}, "payload.stakes.antes.0.1"),
        ({**START, "stakes": {"blinds": [[2, 50], [1, 10**30]]}}, "payload.stakes.blinds.1.1"),
    ],
)
def test_a_number_no_competition_reaches_is_refused_naming_the_field(payload: dict[str, Any], field: str) -> None:
    err = refused(raw(payload=payload))
    assert err.field == field and "out of bounds" in err.reason


def test_the_largest_chips_a_record_may_carry_are_read() -> None:
    _, event = parse_record(raw(payload={**START, "seats": seats(stack=10**15)}))
    assert event.seats[0].stack == 10**15


def test_an_imported_hand_keeps_its_sites_hand_number() -> None:
    _, event = parse_record(raw(payload={**START, "hand_number": 208_912_340_003}, hand_id="208912340003"))
    assert event.hand_number == 208_912_340_003


@pytest.mark.parametrize(("envelope", "field"), [({"seq": 2**70}, "seq"), ({"schema_version": 2**70}, "schema_version")])
def test_an_envelope_number_out_of_bounds_is_refused(envelope: dict[str, Any], field: str) -> None:
    assert refused(raw(**envelope)).field == field


@pytest.mark.parametrize(
    ("payload", "envelope", "field", "says"),
    [
        ({**START, "rulebook": "nope"}, {}, "payload.rulebook", "bfsp, tda-2017, tda-2022, tda-club"),
        ({**START, "variant": "ZZ"}, {}, "payload.variant", "NT"),
        (None, {"rulebook": "house-rules"}, "rulebook", "bfsp"),
        (None, {"recorded_by": {"person": "d", "role": "croupier"}}, "recorded_by.role", "dealer"),
    ],
)
def test_a_name_the_catalog_does_not_know_is_refused_before_the_log(
    payload: dict[str, Any] | None, envelope: dict[str, Any], field: str, says: str
) -> None:
    err = refused(raw(payload=payload, **envelope))
    assert err.field == field and says in err.reason


def test_a_delegation_the_catalog_does_not_know_is_refused() -> None:
    appointed = {"person": "j1", "role": "judge", "delegations": ["draw", "everything"]}
    err = refused(raw("OfficialAppointed", appointed, table_id=None, hand_id=None))
    assert err.field == "payload.delegations.1" and "balancing, draw, misdeal" in err.reason


@pytest.mark.parametrize(
    ("payload", "field", "says"),
    [
        ({**START, "seats": seats(seat="1")}, "payload.seats.0.seat", "valid integer; got str '1'"),
        ({**START, "button": True}, "payload.button", "got bool True"),
        ({**START, "hand_number": 1.0}, "payload.hand_number", "got float 1.0"),
        ({**START, "burns_recorded": 1}, "payload.burns_recorded", "valid boolean"),
        ({**START, "dealer_mood": "grumpy"}, "payload.dealer_mood", "unknown field"),
        ({**START, "seats": seats(nickname="A")}, "payload.seats.0.nickname", "unknown field"),
        ({**START, "stakes": {"blinds": [[2, "50"]]}}, "payload.stakes.blinds.0.1", "valid integer"),
    ],
)
def test_wrong_types_and_unknown_fields_are_refused_never_coerced_or_dropped(
    payload: dict[str, Any], field: str, says: str
) -> None:
    err = refused(raw(payload=payload))
    assert err.field == field and says in err.reason, err


@pytest.mark.parametrize("card", ["10h", "as", "AS", "1h", "A"])
def test_a_card_is_written_one_way_only(card: str) -> None:
    dealt = {"seat": 1, "cards": ["Kd", card]}
    err = refused(raw("HoleCardsDealt", dealt, seq=3))
    assert err.field == "payload.cards.1" and "rank 2-9, T, J, Q, K or A, then suit s, h, d or c" in err.reason


@pytest.mark.parametrize(
    ("envelope", "field"),
    [
        ({"seq": "3"}, "seq"),
        ({"seq": True}, "seq"),
        ({"seq": 3.0}, "seq"),
        ({"occurred_at": 0}, "occurred_at"),
        ({"occurred_at": 1764417600.5}, "occurred_at"),
        ({"competition_id": 7}, "competition_id"),
        ({"priority": "high"}, "priority"),
    ],
)
def test_the_envelope_refuses_wrong_types_and_unknown_fields(envelope: dict[str, Any], field: str) -> None:
    assert refused(raw(**envelope)).field == field


@pytest.mark.parametrize(
    ("payload", "envelope", "field"),
    [
        ({**START, "seats": seats(player="A" * 10_000_000)}, {}, "payload.seats.0.player"),
        (None, {"competition_id": "c" * 100_000}, "competition_id"),
        (None, {"recorded_by": {"person": "p" * 100_000, "role": "dealer"}}, "recorded_by.person"),
        ({**START, "seats": [{"seat": 1, "player": "A", "stack": 1}] * 20_000}, {}, "payload.seats"),
    ],
)
def test_every_string_and_list_is_bounded(payload: dict[str, Any] | None, envelope: dict[str, Any], field: str) -> None:
    assert refused(raw(payload=payload, **envelope)).field == field


def test_a_long_text_an_official_writes_is_read_up_to_its_bound() -> None:
    voided = {"reason": "r" * 10_000, "rule": "bfsp 4.3"}
    _, event = parse_record(raw("HandVoided", voided, seq=1))
    assert len(event.reason) == 10_000
    assert refused(raw("HandVoided", {**voided, "reason": "r" * 10_001}, seq=1)).field == "payload.reason"


def test_json_nested_hundreds_deep_is_malformed_not_a_crash() -> None:
    deep: Any = 1
    for _ in range(900):
        deep = [deep]
    err = refused(raw(payload={**START, "seats": deep}))
    assert "recursion limit" in err.reason
    with pytest.raises(MalformedRecord):
        parse_record(b"[" * 100_000 + b"]" * 100_000)


def test_a_lone_surrogate_is_malformed_not_a_crash() -> None:
    record = raw().replace(b'"Ann"', b'"\\ud800"')
    err = refused(record)
    assert "Invalid JSON" in err.reason


# --- the bounds' fast path (ingest/bounds.py in_bounds) agrees with the walk that names the field ---------------

_NAMES = st.sampled_from(["", "stack", "seat", "hand_number", "rulebook", "variant", "delegations", "reason", "x" * 201])
_LEAVES = (
    st.none() | st.booleans() | st.integers(min_value=-(10**16), max_value=10**16)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30) | st.sampled_from(["bfsp", "NT", "OFC", "\ud800", "é", "x" * 201, "y" * 10_001])
)
_VALUES = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_NAMES | st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(payload=st.dictionaries(_NAMES, _VALUES, max_size=5))
def test_the_fast_bounds_check_refuses_exactly_what_the_named_walk_refuses(payload: dict[str, Any]) -> None:
    try:
        _within(payload, "payload", "", 0)
        walked: str | None = None
    except MalformedRecord as err:
        walked = str(err)
    if in_bounds(payload, "", 0):
        assert walked is None  # the fast path passes nothing the walk refuses
    try:
        verify_bounds(payload)
        checked: str | None = None
    except MalformedRecord as err:
        checked = str(err)
    assert checked == walked  # and the refusal, when there is one, is the walk's own, field and all


def test_the_fast_bounds_check_sees_depth_and_lone_surrogates() -> None:
    nested: Any = 1
    for _ in range(20):
        nested = [nested]
    assert not in_bounds({"a": nested}, "", 0)
    assert not in_bounds({"player": "\ud800"}, "", 0)
    assert in_bounds({"player": "Ann", "seats": [{"seat": 1, "stack": 10**15}]}, "", 0)


@pytest.mark.parametrize(
    "written", ["2026-11-29T12:00:00Z", "2026-11-29T13:00:00+01:00", "2026-11-29T12:00:00.250000-05:30"]
)
def test_a_time_read_again_is_the_time_read_first(written: str) -> None:
    """The envelope keeps the times it read by their text: the same text gives the very same object (so its text
    is written once, domain.chain.time_text), equal to what pydantic reads, in the written zone."""
    first, _ = parse_record(raw(occurred_at=written))
    again, _ = parse_record(raw(occurred_at=written))
    assert again.occurred_at is first.occurred_at
    from datetime import datetime

    assert first.occurred_at == datetime.fromisoformat(written)
    assert first.occurred_at.utcoffset() == datetime.fromisoformat(written).utcoffset()


@pytest.mark.parametrize("written", ["2026-11-29T12:00:00", "yesterday", ""])
def test_a_time_refused_once_is_refused_again(written: str) -> None:
    """Only times pydantic accepted are kept: a naive or unreadable time is refused every time it comes."""
    for _ in range(2):
        assert refused(raw(occurred_at=written)).field == "occurred_at"


def test_a_python_value_is_validated_as_before() -> None:
    """Outside JSON (a model built from Python values) the time is validated by pydantic as always, the texts
    read from JSON not consulted: strict validation still refuses a string."""
    from pydantic import ValidationError

    from ingest.envelope import Envelope

    values = json.loads(raw(occurred_at="2026-11-29T12:00:00Z"))
    parse_record(raw(occurred_at="2026-11-29T12:00:00Z"))  # the text is kept now
    with pytest.raises(ValidationError) as err:
        Envelope.model_validate(values, strict=True)
    assert ("occurred_at",) in [e["loc"] for e in err.value.errors()]
    assert Envelope.model_validate(values).occurred_at == Envelope.model_validate_json(json.dumps(values)).occurred_at
