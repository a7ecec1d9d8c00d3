"""What the stored-events tests share: the fixtures captured from an earlier main's stores (``stored/*.json``: the rows
its recorders wrote, and what its code read them back as), each row as eventsourcing's StoredEvent, a topic's
module and class, a long value as the fixtures keep it, and the proofs each of those tests makes of them — a row
stored again as the same bytes, its link verified, a stream replayed, a stream recorded again as main stored it
(the fresh SQLite store to write them again is conftest.py's ``store``, which has pytest rewrite these asserts)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from domain.chain import canonical, link_of
from domain.chained import ChainedAggregate, chain_body
from ingest.store import Store


def fixture(name: str) -> dict[str, Any]:
    """``stored/<name>.json``: its ``stored`` rows and, where kept, its ``streams``."""
    loaded: dict[str, Any] = json.loads((Path(__file__).parent / "stored" / f"{name}.json").read_text())
    return loaded


def stored_event(row: dict[str, Any]) -> StoredEvent:
    return StoredEvent(UUID(row["originator_id"]), row["originator_version"], row["topic"], row["state"].encode())


def topic_names(topic: str) -> tuple[str, str]:
    """A stored event's topic (``module:Owner.Name``) as its owner class's name and its own."""
    owner, name = topic.split(":")[1].split(".")
    return owner, name


def short(text: str) -> str:
    """A value as the fixtures keep a long one (a snapshot holds the whole protocol): by the SHA-256 of its text."""
    return text if len(text) <= 600 else "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def stream_id(stored: list[dict[str, Any]], stream: dict[str, Any]) -> str:
    """A stream's test id: its owner, its id's first characters and the main test that wrote it."""
    first = stored[stream["events"][0]]
    return f"{topic_names(first['topic'])[0]}-{first['originator_id'][:8]}-{stream['test'].split('::')[-1][:40]}"


def assert_linked(event: Any, name: str) -> None:
    """The stored event's link is its chain body's, after the link before it."""
    body = chain_body(event.originator_id, event.originator_version, name, event.timestamp, event.payload, event.meta)
    assert link_of(event.prev_link, canonical(body)) == event.link


def assert_stored_again(store: Store, event: Any, name: str, row: dict[str, Any]) -> None:
    """Stored again (as a chained body or as the transcoder writes it), the row's very bytes; its link verifies."""
    if row["state"].startswith('{"body":'):
        body = canonical(chain_body(event.originator_id, event.originator_version, name, event.timestamp,
                                    event.payload, event.meta))
        assert store.chain_mapper.stored_chained(event, body).state == row["state"].encode(), "the same bytes"
    else:
        assert store.mapper.to_stored_event(event).state == row["state"].encode(), "stored again, the same bytes"
    assert_linked(event, name)


def replayed(store: Store, rows: list[dict[str, Any]]) -> Any:
    """The aggregate the stored rows make, read back by today's code."""
    aggregate: Any = None
    for row in rows:
        aggregate = store.mapper.to_domain_event(stored_event(row)).mutate(aggregate)
    return aggregate


def assert_stored_as(store: Store, again: ChainedAggregate, rows: list[dict[str, Any]]) -> None:
    """What ``again`` recorded, stored, is the rows main stored: the same topics, versions and bytes."""
    written = [
        store.chain_mapper.to_stored_event(e) if body is None else store.chain_mapper.stored_chained(e, body)
        for e, body in again.collect_chained()
    ]
    assert [(s.topic, s.originator_version, s.state.decode()) for s in written] == [
        (row["topic"], row["originator_version"], row["state"]) for row in rows
    ]
