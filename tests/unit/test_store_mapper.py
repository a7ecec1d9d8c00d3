"""The store keeps a chained event as the canonical body its link was computed over; it reads back as the
same domain event whichever way it was stored, and the chain still verifies."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from domain.chain import canonical
from domain.chained import chain_body, first_broken_link_in
from domain.rejections import Rejection, RejectionKind, RejectionLog
from ingest.store import Store, position, store_env

pytestmark = pytest.mark.unit

AT = datetime(2026, 11, 29, 12, 0, 30, 123456, tzinfo=UTC)
META = {"log": {"topic": "t", "partition": 0, "offset": 7}, "event_id": "e-1", "seq": 3, "note": "ünïcode"}


def rejection(n: int) -> Rejection:
    return Rejection(RejectionKind.ILLEGAL, f"refusal {n}", rule="bfsp 4.7.3", seq=n, record='{"a": 1}')


def fields(event: Any) -> tuple[Any, ...]:
    return (
        type(event).__name__, event.originator_id, event.originator_version, event.timestamp, event.payload,
        event.meta, event.prev_link, event.link,
    )


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(env=store_env(None, str(tmp_path / "store.db")))


def test_a_committed_event_is_stored_as_its_canonical_body_and_reads_back_as_it_was(store: Store) -> None:
    log = RejectionLog.open("wsop-43", AT)
    log.reject(rejection(1), AT, META)
    log.reject(rejection(2), AT, META)
    made = [fields(e) for e in log._pending_events]  # noqa: SLF001 - what the aggregate is about to store

    store.commit([log], position("t", 0, 7), [])

    stored = store.notifications()
    read = [store.mapper.to_domain_event(n) for n in stored]
    assert [fields(e) for e in read] == made
    for n, event in zip(store.notifications(), read, strict=True):
        body = canonical(
            chain_body(event.originator_id, event.originator_version, type(event).__name__, event.timestamp,
                       event.payload, event.meta)
        )
        assert n.state.startswith(b'{"body":' + body + b',"chain":')
    again = store.repository.get(log.id)
    assert isinstance(again, RejectionLog) and again.count == 2 and again.chain_head == log.chain_head
    assert first_broken_link_in(read) is None


def test_an_event_saved_the_usual_way_reads_back_the_same_and_the_chain_holds_across_both(store: Store) -> None:
    log = RejectionLog.open("wsop-43", AT)
    log.reject(rejection(1), AT, META)
    store.commit([log], position("t", 0, 1), [])
    log.reject(rejection(2), AT, META)
    made = fields(log._pending_events[0])  # noqa: SLF001
    store.save(log)  # through eventsourcing's own mapping: no canonical body kept

    *_, last = store.notifications()
    assert not last.state.startswith(b'{"body":')
    assert fields(store.mapper.to_domain_event(last)) == made
    assert first_broken_link_in(store.mapper.to_domain_event(n) for n in store.notifications()) is None


def test_a_changed_byte_in_the_canonical_body_breaks_the_link(store: Store) -> None:
    log = RejectionLog.open("wsop-43", AT)
    log.reject(rejection(1), AT, META)
    store.commit([log], position("t", 0, 1), [])
    first, second = store.notifications()
    changed = second.state.replace(b"refusal 1", b"refusal 2")
    assert changed != second.state
    events = [store.mapper.to_domain_event(first), store.mapper.to_domain_event(replace(second, state=changed))]
    broken = first_broken_link_in(events)
    assert broken is not None and broken.position == 1
