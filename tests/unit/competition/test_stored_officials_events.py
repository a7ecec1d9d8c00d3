"""The officials' events stored before their aggregates applied them by type still load, unchanged.

``stored/officials_events_main.json`` was written by main at 226973f, before :class:`DisciplinaryCase`,
:class:`SeasonRecord`, :class:`Protest`, :class:`HandReview` and :class:`IntegrityCase` applied typed events: the
events the desk's, the projections', the protocol's and the integrity cases' unit tests judged into a store
(captured as the store wrote them), and one rescission the aggregate recorded; each with the typed event it decoded to then; and whole streams as one store
held them, with what the aggregate said of itself once they were read back. Read by today's code, each stored
event must resolve to its event class by the same topic, decode to the same typed event, encode back to the very
payload (a field added since at its default aside), store back as the very bytes, and its link must verify; each stream must read back to the same version,
chain head and state (DESIGN decision 7).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from competition.stored_events import assert_linked, fixture, replayed, stored_event, topic_names
from domain.chain import canonical
from domain.discipline import DisciplinaryCase, SeasonRecord
from domain.discipline.events import CATALOG as DISCIPLINE
from domain.integrity.case import IntegrityCase
from domain.integrity.case_events import CATALOG as INTEGRITY
from domain.officials.codec import decode, encode
from domain.protests import Protest
from domain.protests.events import CATALOG as PROTESTS
from domain.rulings import HandReview
from domain.rulings.events import CATALOG as RULINGS
from ingest.store import Store

pytestmark = pytest.mark.unit

FIXTURE = fixture("officials_events_main")
STORED: list[dict[str, Any]] = FIXTURE["stored"]
STREAMS: list[dict[str, Any]] = FIXTURE["streams"]
AGGREGATES: dict[str, tuple[type, dict[str, type]]] = {
    "DisciplinaryCase": (DisciplinaryCase, DISCIPLINE),
    "SeasonRecord": (SeasonRecord, DISCIPLINE),
    "Protest": (Protest, PROTESTS),
    "HandReview": (HandReview, RULINGS),
    "IntegrityCase": (IntegrityCase, INTEGRITY),
}


def test_the_fixture_holds_every_event_type_of_the_five_aggregates() -> None:
    stored = {topic_names(row["topic"]) for row in STORED}
    assert {name for _, name in stored} == set(DISCIPLINE) | set(PROTESTS) - {"HandChallenged", "ProtestReceived"} | (
        set(RULINGS) | set(INTEGRITY)
    )
    assert {owner for owner, _ in stored} == set(AGGREGATES)


@pytest.mark.parametrize("row", STORED, ids=lambda row: f"{'.'.join(topic_names(row['topic']))}-{row['originator_version']}")
def test_a_stored_event_reads_back_as_the_same_typed_event_and_the_same_bytes(store: Store, row: dict[str, Any]) -> None:
    event = store.mapper.to_domain_event(stored_event(row))
    owner, name = topic_names(row["topic"])
    aggregate, catalog = AGGREGATES[owner]
    assert f"{type(event).__module__}:{type(event).__qualname__}" == row["topic"]
    assert type(event) is getattr(aggregate, name), "the same topic names the same event class"
    typed = decode(event.payload, catalog)
    assert type(typed) is catalog[name] and repr(typed) == row["decoded"]
    re_encoded = encode(typed)
    # a field added to an event since the fixture was written reads back at its default, and only then
    added = {f.name: f.default for f in dataclasses.fields(typed) if f.name in set(re_encoded) - set(event.payload)}
    assert all(re_encoded[name] == default for name, default in added.items()), added
    kept = {k: v for k, v in re_encoded.items() if k not in added}
    assert canonical(kept) == canonical(event.payload), "re-encoded, the payload is the very bytes"
    assert store.mapper.to_stored_event(event).state == row["state"].encode(), "stored again, the same bytes"
    assert_linked(event, name)


def _state(aggregate: Any) -> dict[str, Any]:
    """What the aggregate says of itself, as the fixture's writer asked it."""
    if isinstance(aggregate, DisciplinaryCase):
        return {
            "violations": repr(aggregate.violations), "penalties": repr(aggregate.penalties),
            "serving": aggregate.serving, "hands_to_sit_out": aggregate.hands_to_sit_out,
            "disqualified": aggregate.disqualified, "in_force": repr(aggregate.in_force()),
            "entered": [n for n in range(1, len(aggregate.violations) + 1) if aggregate.entered_in_protocol(n)],
        }  # fmt: skip
    if isinstance(aggregate, SeasonRecord):
        return {"disqualifications": repr(aggregate.disqualifications)}
    if isinstance(aggregate, Protest):
        return {
            "state": aggregate.state.value, "filing": repr(aggregate.filing), "forwarding": repr(aggregate.forwarding),
            "decision": repr(aggregate.decision), "deadline": repr(aggregate.deadline),
        }  # fmt: skip
    if isinstance(aggregate, IntegrityCase):
        return {
            "state": aggregate.state.value, "opening": repr(aggregate.opening), "notes": repr(aggregate.notes),
            "evidence": repr(aggregate.evidence), "conclusion": repr(aggregate.conclusion),
        }  # fmt: skip
    assert isinstance(aggregate, HandReview)
    return {
        "rulings": repr(aggregate.rulings), "inspections": repr(aggregate.inspections),
        "in_force": repr(aggregate.ruling_in_force),
    }  # fmt: skip


@pytest.mark.parametrize(
    "stream", STREAMS, ids=lambda s: f"{topic_names(s['events'][0]['topic'])[0]}-{s['events'][0]['originator_id'][:8]}"
)
def test_a_stored_stream_reads_back_to_the_same_aggregate(store: Store, stream: dict[str, Any]) -> None:
    aggregate = replayed(store, stream["events"])
    assert (aggregate.version, aggregate.chain_head) == (stream["version"], stream["chain_head"])
    assert _state(aggregate) == stream["state"]


def test_an_officials_record_that_records_an_event_it_does_not_apply_is_not_defined() -> None:
    from domain.discipline.events import PenaltyServed, ViolationRecorded
    from domain.officials.recorded import OfficialsRecord, applies

    with pytest.raises(TypeError, match="records PenaltyServed and applies none of them"):

        class Forgetful(OfficialsRecord):
            RECORDS = (ViolationRecorded, PenaltyServed)

            @applies(ViolationRecorded)
            def _recorded_violation(self, e: ViolationRecorded) -> None: ...

    with pytest.raises(TypeError, match="applies ViolationRecorded twice"):

        class Twice(OfficialsRecord):
            RECORDS = (ViolationRecorded,)

            @applies(ViolationRecorded)
            def _one(self, e: ViolationRecorded) -> None: ...

            @applies(ViolationRecorded)
            def _other(self, e: ViolationRecorded) -> None: ...
