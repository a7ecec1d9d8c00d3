"""The protocol's and the rejections' events stored before their aggregates applied them by type still load, unchanged.

``stored/protocol_events_main.json`` was written by main at 385da96, before :class:`ProtocolArchive`,
:class:`ProtocolSignatures`, :class:`HandChallenges` and :class:`RejectionLog` recorded typed events
(:mod:`domain.recorded`): the events the protocol's, the competition end's, the snapshots', the desk's, the referee's
and the verdicts' unit tests judged into a store, captured as the store wrote them, each with the value main read
it as; and whole streams as one store held them, with what the aggregate said of itself once they were read back.
Read by today's code, each stored event must resolve to its event class by the same topic, read back as the same
typed event, whose payload written again is the very payload (the same keys in the same order), stored again the
very bytes, and its link must verify; each stream must read back to the same version, chain head and state, and
recorded again by today's acts from its typed events must be stored as the very bytes main stored (DESIGN decision
7).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from competition.stored_events import (
    assert_stored_again,
    assert_stored_as,
    fixture,
    replayed,
    short,
    stored_event,
    stream_id,
    topic_names,
)
from domain.chain import canonical
from domain.chained import ChainedAggregate
from domain.protests.events import HandChallenged
from domain.protocol import (
    HandChallenges,
    ProtocolArchive,
    ProtocolSignatures,
    ProtocolSigned,
    ProtocolSnapshotTaken,
)
from domain.recorded import TypedRecord
from domain.rejections import RecordRejected, Rejection, RejectionLog
from ingest.store import Store

pytestmark = pytest.mark.unit

FIXTURE = fixture("protocol_events_main")
STORED: list[dict[str, Any]] = FIXTURE["stored"]
STREAMS: list[dict[str, Any]] = FIXTURE["streams"]
AGGREGATES: dict[str, type[TypedRecord]] = {
    "ProtocolArchive": ProtocolArchive,
    "ProtocolSignatures": ProtocolSignatures,
    "HandChallenges": HandChallenges,
    "RejectionLog": RejectionLog,
}
KINDS: dict[str, type] = {
    "ProtocolSnapshotTaken": ProtocolSnapshotTaken,
    "ProtocolSigned": ProtocolSigned,
    "HandChallenged": HandChallenged,
    "RecordRejected": RecordRejected,
}


def _as_main_named_it(text: str) -> str:
    # main's class of a refused record was named Rejection; it is the event RecordRejected now (Rejection its alias)
    return text.replace("RecordRejected(", "Rejection(", 1)


def test_the_fixture_holds_every_event_type_of_the_four_aggregates() -> None:
    stored = {topic_names(row["topic"]) for row in STORED}
    assert {owner for owner, _ in stored} == set(AGGREGATES)
    for owner, aggregate in AGGREGATES.items():
        assert {name for o, name in stored if o == owner} == {"Opened"} | {k.__name__ for k in aggregate.RECORDS}
    rejected = [json.loads(row["state"])["body"]["payload"] for row in STORED if row["topic"].endswith("RecordRejected")]
    assert {p["kind"] for p in rejected} == {"illegal", "malformed", "out_of_sequence", "conflicting_duplicate"}
    taken = [row["decoded"] for row in STORED if row["topic"].endswith("ProtocolSnapshotTaken")]
    assert len(taken) >= 2 and any('"final":true' in row["state"] for row in STORED), "plain and final snapshots"
    assert Rejection is RecordRejected


def _payload(event: Any) -> dict[str, Any]:
    return event.payload  # type: ignore[no-any-return]


@pytest.mark.parametrize("row", STORED, ids=lambda row: f"{'.'.join(topic_names(row['topic']))}-{row['originator_version']}")
def test_a_stored_event_reads_back_as_the_same_typed_event_and_the_same_bytes(store: Store, row: dict[str, Any]) -> None:
    event = store.mapper.to_domain_event(stored_event(row))
    owner, name = topic_names(row["topic"])
    aggregate = AGGREGATES[owner]
    assert f"{type(event).__module__}:{type(event).__qualname__}" == row["topic"]
    assert type(event) is getattr(aggregate, name), "the same topic names the same event class"
    if name != "Opened":
        kind = KINDS[name]
        assert kind in aggregate.RECORDS
        typed = aggregate.recorded_from(kind, _payload(event))
        shown = short(repr(typed)) if kind is ProtocolSnapshotTaken else _as_main_named_it(repr(typed))
        assert type(typed) is kind and shown == row["decoded"]
        written = aggregate.payload_of(typed)
        assert written == event.payload and canonical(written) == canonical(event.payload)
        if not aggregate.plain_json:
            # stored as the transcoder writes it, in the payload's own order (a plain-JSON body is canonical: sorted)
            assert json.dumps(written) == json.dumps(event.payload), "written again, the very payload"
    assert_stored_again(store, event, name, row)


def _state(aggregate: Any) -> dict[str, Any]:
    """What the aggregate says of itself, asked as the fixture's writer asked main's."""
    out: dict[str, Any] = {"competition_id": aggregate.competition_id}
    if isinstance(aggregate, ProtocolArchive):
        taken = [aggregate.snapshot(v) for v in range(1, len(aggregate.snapshots) + 1)]
        out["snapshots"] = [short(repr(s)) for s in taken]
        out["finals"] = [s.version for s in aggregate.finals()]
        out["named"] = [s is not None and repr(aggregate.named(s.name)) == repr(s) for s in taken]
        out["beyond"] = repr(aggregate.snapshot(len(taken) + 1))
    elif isinstance(aggregate, ProtocolSignatures):
        versions = sorted({s.version for s in aggregate.signatures})
        out["signed"] = {str(v): repr(aggregate.signed(v)) for v in [*versions, 99]}
    elif isinstance(aggregate, HandChallenges):
        out["challenges"] = [repr(c) for c in aggregate.challenges]
    else:
        assert isinstance(aggregate, RejectionLog)
        out["count"] = aggregate.count
    return out


def _stream_id(stream: dict[str, Any]) -> str:
    return stream_id(STORED, stream)


@pytest.mark.parametrize("stream", STREAMS, ids=_stream_id)
def test_a_stored_stream_reads_back_to_the_same_aggregate(store: Store, stream: dict[str, Any]) -> None:
    aggregate = replayed(store, [STORED[i] for i in stream["events"]])
    assert (aggregate.version, aggregate.chain_head) == (stream["version"], stream["chain_head"])
    assert _state(aggregate) == stream["state"]


def _again(first: Any, later: list[Any]) -> ChainedAggregate:
    """The stream recorded again by today's acts, from what its stored events hold."""
    owner, _ = topic_names(f"{type(first).__module__}:{type(first).__qualname__}")
    competition_id = first.payload["competition_id"]
    if owner == "RejectionLog":
        assert first.meta == {}, "a rejection log opens with no meta"
        log = RejectionLog.open(competition_id, first.timestamp)
        for e in later:
            log.reject(RejectionLog.recorded_from(RecordRejected, e.payload), e.timestamp, e.meta)
        return log
    if owner == "ProtocolArchive":
        archive = ProtocolArchive.open(competition_id, first.timestamp, first.meta)
        for e in later:
            taken = ProtocolArchive.recorded_from(ProtocolSnapshotTaken, e.payload)
            again = archive.take(taken.protocol, taken.heads, taken.taken_by, e.timestamp, e.meta, final=taken.final)
            assert again == taken
        return archive
    if owner == "ProtocolSignatures":
        signatures = ProtocolSignatures.open(competition_id, first.timestamp, first.meta)
        for e in later:
            signed = ProtocolSignatures.recorded_from(ProtocolSigned, e.payload)
            # the snapshot signed is the archive's: only its SHA-256 is read here
            snapshot = ProtocolSnapshotTaken(competition_id, signed.version, signed.sha256, {}, "", {}, "", e.timestamp)
            signatures.sign(signed, snapshot, True, e.timestamp, e.meta)
        return signatures
    assert owner == "HandChallenges"
    challenges = HandChallenges.open(competition_id, first.timestamp, first.meta)
    for e in later:
        challenged = HandChallenges.recorded_from(HandChallenged, e.payload)
        assert challenged.raised_at == e.timestamp
        challenges.record(challenged, e.meta)
    return challenges


@pytest.mark.parametrize("stream", STREAMS, ids=_stream_id)
def test_a_stored_stream_recorded_again_by_todays_acts_is_stored_as_the_very_bytes(
    store: Store, stream: dict[str, Any]
) -> None:
    rows = [STORED[i] for i in stream["events"]]
    events = [store.mapper.to_domain_event(stored_event(row)) for row in rows]
    again = _again(events[0], events[1:])
    assert again.id == events[0].originator_id
    assert_stored_as(store, again, rows)


def test_a_typed_record_that_records_an_event_it_does_not_apply_is_not_defined() -> None:
    from domain.recorded import applies

    with pytest.raises(TypeError, match="records RecordRejected and applies none of them"):

        class Forgetful(TypedRecord):
            RECORDS = (RecordRejected,)

    with pytest.raises(TypeError, match="applies ProtocolSigned twice"):

        class Twice(TypedRecord):
            RECORDS = (ProtocolSigned,)

            @applies(ProtocolSigned)
            def _one(self, e: ProtocolSigned) -> None: ...

            @applies(ProtocolSigned)
            def _other(self, e: ProtocolSigned) -> None: ...

    assert dataclasses.is_dataclass(RecordRejected)
