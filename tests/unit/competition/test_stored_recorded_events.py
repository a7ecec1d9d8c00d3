"""The result documents', the deny list's and the checkpoints' events stored before these aggregates applied them by
type still load, unchanged; and the OFC round's stored events still read back as they did.

``stored/recorded_events_main.json`` was written by main at e3a709b, before :class:`ResultDocuments`,
:class:`TokenDenyList` and :class:`CheckpointChain` recorded typed events (:mod:`domain.recorded`): the events the
competition end's, the OFC rounds' and the embedded referee's unit tests judged into a store, and three revocations
committed by main's acts and store, captured as the store wrote them, each with the value main read it as; and whole
streams as one store held them, with what the aggregate said of itself once they were read back. Read by today's
code, each stored event must resolve to its event class by the same topic, read back as the same typed event, whose
payload written again is the very payload (the same keys in the same order), stored again the very bytes, and its
link must verify; each stream must read back to the same version, chain head and state, and recorded again by
today's acts from what its events hold must be stored as the very bytes main stored (DESIGN decision 7). OfcRound
records through its engine and codec (:mod:`domain.judged`), not :class:`TypedRecord`, its stored event classes made
from the OFC catalogs: the same proof holds for it (its reported acts judged again, the consequences derived again).
"""

from __future__ import annotations

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
from domain.checkpoints import ANCHORED, CheckpointChain, HeadsAnchored, anchored_heads
from domain.final_protocol import DocumentsIssued, ResultDocuments, issue_json
from domain.ofc.aggregate import OfcRound
from domain.ofc.codec import decode
from domain.ofc.events import OFC_DERIVED, OFC_REPORTED
from domain.officials.revocations import Revocation, TokenDenyList, TokenRevoked
from domain.protocol import snapshot_from_json
from domain.recorded import TypedRecord, recorded_name
from domain.roles import Role
from ingest.store import Store

pytestmark = pytest.mark.unit

FIXTURE = fixture("recorded_events_main")
STORED: list[dict[str, Any]] = FIXTURE["stored"]
STREAMS: list[dict[str, Any]] = FIXTURE["streams"]
TYPED: dict[str, type[TypedRecord]] = {
    "ResultDocuments": ResultDocuments,
    "TokenDenyList": TokenDenyList,
    "CheckpointChain": CheckpointChain,
}
KINDS: dict[str, type] = {"ResultDocumentsIssued": DocumentsIssued, "TokenRevoked": Revocation, ANCHORED: HeadsAnchored}
OFC_TYPES = {*OFC_REPORTED, *OFC_DERIVED}


def test_the_fixture_holds_every_event_type_of_the_four_aggregates() -> None:
    stored = {topic_names(row["topic"]) for row in STORED}
    assert {owner for owner, _ in stored} == {*TYPED, "OfcRound"}
    for owner, aggregate in TYPED.items():
        assert {name for o, name in stored if o == owner} == {"Opened"} | {recorded_name(k) for k in aggregate.RECORDS}
    assert {name for o, name in stored if o == "OfcRound"} == OFC_TYPES
    assert sum(len(s.get("finals", ())) for s in STREAMS) == sum(1 for r in STORED if r["topic"].endswith("Issued"))


@pytest.mark.parametrize("row", STORED, ids=lambda row: f"{'.'.join(topic_names(row['topic']))}-{row['originator_id'][:8]}-{row['originator_version']}")
def test_a_stored_event_reads_back_as_the_same_typed_event_and_the_same_bytes(store: Store, row: dict[str, Any]) -> None:
    event = store.mapper.to_domain_event(stored_event(row))
    owner, name = topic_names(row["topic"])
    assert f"{type(event).__module__}:{type(event).__qualname__}" == row["topic"]
    if owner in TYPED:
        aggregate = TYPED[owner]
        assert type(event) is getattr(aggregate, name), "the same topic names the same event class"
        if name != "Opened":
            kind = KINDS[name]
            assert kind in aggregate.RECORDS and recorded_name(kind) == name
            typed = aggregate.recorded_from(kind, event.payload)
            assert type(typed) is kind
            written = aggregate.payload_of(typed)
            # the value main read it as: a checkpoint's heads as anchored_heads gave them, else the payload it kept
            # (a plain-JSON body is canonical: its keys read back sorted)
            kept = json.dumps(written, ensure_ascii=False, sort_keys=aggregate.plain_json)
            main_read = repr(anchored_heads(written)) if kind is HeadsAnchored else short(kept)
            assert main_read == row["decoded"]
            assert written == event.payload and canonical(written) == canonical(event.payload)
            if not aggregate.plain_json:
                assert json.dumps(written) == json.dumps(event.payload), "written again, the very payload"
    else:
        assert owner == "OfcRound" and name in OFC_TYPES and type(event) is getattr(OfcRound, name)
    assert_stored_again(store, event, name, row)


def _state(aggregate: Any) -> dict[str, Any]:
    """What the aggregate says of itself, asked as the fixture's writer asked main's (main kept payloads as JSON)."""
    if isinstance(aggregate, ResultDocuments):
        return {"competition_id": aggregate.competition_id, "issued_versions": list(aggregate.issued_versions),
                "issues": [short(canonical(issue_json(i)).decode()) for i in aggregate.issues]}
    if isinstance(aggregate, TokenDenyList):
        return {"revoked": {k: canonical(TokenDenyList.payload_of(v)).decode() for k, v in aggregate.revoked.items()}}
    if isinstance(aggregate, CheckpointChain):
        return {"chain": aggregate.chain}
    assert isinstance(aggregate, OfcRound)
    return {"table_id": aggregate.table_id, "round_number": aggregate.round_number}


def _stream_id(stream: dict[str, Any]) -> str:
    return stream_id(STORED, stream)


@pytest.mark.parametrize("stream", STREAMS, ids=_stream_id)
def test_a_stored_stream_reads_back_to_the_same_aggregate(store: Store, stream: dict[str, Any]) -> None:
    aggregate = replayed(store, [STORED[i] for i in stream["events"]])
    assert (aggregate.version, aggregate.chain_head) == (stream["version"], stream["chain_head"])
    assert _state(aggregate) == stream["state"]
    # the state holds the typed events, not their payloads
    if isinstance(aggregate, ResultDocuments):
        assert all(type(i) is DocumentsIssued for i in aggregate.issues)
    if isinstance(aggregate, TokenDenyList):
        assert all(type(r) is Revocation for r in aggregate.revoked.values())


def _again(first: Any, later: list[Any], stream: dict[str, Any]) -> ChainedAggregate:
    """The stream recorded again by today's acts, from what its stored events hold."""
    owner, _ = topic_names(f"{type(first).__module__}:{type(first).__qualname__}")
    if owner == "ResultDocuments":
        documents = ResultDocuments.open(first.payload["competition_id"], first.timestamp, first.meta)
        for e, final in zip(later, stream["finals"], strict=True):
            # issued again from the final version the archive held: the documents are read off it again
            issued = documents.issue(snapshot_from_json(final), e.timestamp, e.meta)
            assert issued == ResultDocuments.recorded_from(DocumentsIssued, e.payload).documents
        return documents
    if owner == "TokenDenyList":
        deny_list = TokenDenyList.open(first.timestamp)
        for e in later:
            revoked = TokenDenyList.recorded_from(Revocation, e.payload)
            deny_list.revoke(TokenRevoked(revoked.token_id, revoked.reason), revoked.by, Role.FEDERATION, revoked.at, e.meta)
        return deny_list
    if owner == "OfcRound":
        started = decode(first.payload)
        again = OfcRound.start(started, first.timestamp, first.meta)
        for e in later:
            if type(e).__name__ in OFC_REPORTED:
                derived = again.record(decode(e.payload), e.timestamp, e.meta)
                assert derived == tuple(decode(f.payload) for f in later if f.meta.get("follows") == e.meta["event_id"])
        return again
    assert owner == "CheckpointChain"
    chain = CheckpointChain.open(first.payload["chain"], first.timestamp)
    for e in later:
        chain.anchor(CheckpointChain.recorded_from(HeadsAnchored, e.payload).heads, e.timestamp, e.meta)
    return chain


@pytest.mark.parametrize("stream", STREAMS, ids=_stream_id)
def test_a_stored_stream_recorded_again_by_todays_acts_is_stored_as_the_very_bytes(
    store: Store, stream: dict[str, Any]
) -> None:
    rows = [STORED[i] for i in stream["events"]]
    events = [store.mapper.to_domain_event(stored_event(row)) for row in rows]
    again = _again(events[0], events[1:], stream)
    assert again.id == events[0].originator_id
    assert_stored_as(store, again, rows)


def test_the_ofc_round_stores_every_event_its_catalogs_define_by_the_topic_it_always_had() -> None:
    for name in OFC_TYPES:
        made = getattr(OfcRound, name)
        assert f"{made.__module__}:{made.__qualname__}" == f"domain.ofc.aggregate:OfcRound.{name}"


def test_a_type_stored_under_an_acts_name_says_so() -> None:
    assert recorded_name(Revocation) == "TokenRevoked" and recorded_name(DocumentsIssued) == "ResultDocumentsIssued"
    assert recorded_name(HeadsAnchored) == ANCHORED == "HeadsAnchored"
    # the act and what is recorded of it are two types, one name: the log's catalog keeps the act
    from domain.final_protocol import CATALOG as FINAL
    from domain.officials.revocations import CATALOG as REVOCATIONS

    assert REVOCATIONS["TokenRevoked"] is TokenRevoked and FINAL["ResultDocumentsIssued"] is not DocumentsIssued
