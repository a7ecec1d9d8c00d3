import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.chain import GENESIS, canonical, first_broken_link, link

pytestmark = pytest.mark.unit

bodies = st.lists(
    st.dictionaries(st.sampled_from(["seat", "amount", "cards", "type"]), st.integers(0, 10_000) | st.text(max_size=8)),
    min_size=1,
    max_size=12,
)


def chain(events: list[dict[str, object]]) -> list[tuple[dict[str, object], str, str]]:
    out, previous = [], GENESIS
    for body in events:
        current = link(previous, body)
        out.append((body, previous, current))
        previous = current
    return out


def test_canonical_form_ignores_key_order() -> None:
    assert canonical({"a": 1, "b": [1, 2]}) == canonical({"b": [1, 2], "a": 1})


@given(bodies)
def test_an_untouched_chain_verifies(events: list[dict[str, object]]) -> None:
    assert first_broken_link(chain(events)) is None


@given(bodies, st.data())
def test_changing_any_event_breaks_the_chain_at_that_event(events: list[dict[str, object]], data: st.DataObject) -> None:
    links = chain(events)
    at = data.draw(st.integers(0, len(links) - 1))
    body, previous, current = links[at]
    links[at] = ({**body, "tampered": True}, previous, current)
    broken = first_broken_link(links)
    assert broken is not None and broken.position == at


def test_removing_an_event_breaks_the_chain_where_it_was() -> None:
    links = chain([{"seat": 1}, {"seat": 2}, {"seat": 3}])
    del links[1]
    broken = first_broken_link(links)
    assert broken is not None and broken.position == 1


def test_canonical_form_is_pinned_byte_for_byte() -> None:
    # What an outside verifier must reproduce (domain/chain.py's docstring): sorted keys, no white space,
    # UTF-8, minimal escapes, ECMAScript numbers, str() of what JSON has no type for.
    from datetime import UTC, datetime
    from uuid import UUID

    body = {
        "b": [1, 2.5, 1e-7, 0.00001, 1e21, True, None],
        "a": "Jesús \"Chris\" \\ \n\x01",
        "at": datetime(2023, 7, 16, 12, 0, tzinfo=UTC),
        "id": UUID(int=1),
    }
    assert canonical(body) == (
        b'{"a":"Jes\xc3\xbas \\"Chris\\" \\\\ \\n\\u0001","at":"2023-07-16 12:00:00+00:00",'
        b'"b":[1,2.5,1e-7,0.00001,1e+21,true,null],"id":"00000000-0000-0000-0000-000000000001"}'
    )


def test_what_orjson_refuses_takes_the_standard_librarys_form() -> None:
    assert canonical({"big": 2**70}) == b'{"big":1180591620717411303424}'
    assert canonical({1: "x"}) == b'{"1":"x"}'


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**80), 2**80) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3),
    max_leaves=12,
)


@given(
    st.text(max_size=40),
    st.integers(1, 2**40),
    st.text(min_size=1, max_size=20),
    st.datetimes(timezones=st.timezones()),
    st.dictionaries(st.text(max_size=6), json_values, max_size=5),
    st.dictionaries(st.text(max_size=6), json_values, max_size=5),
)
def test_a_chain_body_written_by_parts_is_the_canonical_body(
    stream: str, version: int, type_name: str, at: object, payload: dict[str, object], meta: dict[str, object]
) -> None:
    # The referee writes every event's body piece by piece (domain/chained.py); a verifier reads it as the
    # canonical form of the whole body: the two must be the same bytes, the standard library's form included.
    from datetime import datetime

    from domain.chain import canonical_chain_body, link_after
    from domain.chained import chain_body

    assert isinstance(at, datetime)
    whole = canonical(chain_body(stream, version, type_name, at, payload, meta))
    assert canonical_chain_body(stream, version, type_name, at.isoformat(), payload, meta) == whole
    assert link_after(GENESIS, whole) == link(GENESIS, chain_body(stream, version, type_name, at, payload, meta))


def test_a_body_orjson_refuses_by_parts_is_the_standard_librarys_whole_body() -> None:
    from datetime import UTC, datetime

    from domain.chained import canonical_chain_body, chain_body

    at = datetime(2026, 12, 2, tzinfo=UTC)
    for payload, meta in (({"big": 2**70}, {"x": 1.5}), ({"x": 1e-7}, {1: "not a text key"})):
        whole = canonical(chain_body("s", 3, "PlayerActed", at, payload, meta))  # type: ignore[arg-type]
        assert canonical_chain_body("s", 3, "PlayerActed", at.isoformat(), payload, meta) == whole  # type: ignore[arg-type]


@given(st.uuids())
def test_a_records_id_is_written_as_the_standard_library_writes_it(value: object) -> None:
    from uuid import UUID

    from ingest.judgement import uuid_text

    assert isinstance(value, UUID)
    assert uuid_text(value) == str(value)
