"""The store's index of a competition's streams: kept in the events' transaction, filled once for a store that
held events before it, and what a competition's protocol and federation views read instead of the whole
notification log."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from federation_records import COMPETITION, Records, at
from federation_views_scenario import minsk_open
from stores_together import open_together

from domain.rejections import Rejection, RejectionKind, RejectionLog, rejection_log_id
from ingest.log import EmbeddedLog
from ingest.referee import Referee
from ingest.store import ChainMapper, Store, position, store_env
from projections import federation
from projections.protocol import competition_streams, protocol

pytestmark = pytest.mark.unit

BREST = "brest-open-2026"
AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


class Judged:
    def __init__(self, folder: Path) -> None:
        self.path = folder / "store.sqlite"
        self.log = EmbeddedLog(folder / "log.sqlite", "events", partitions=1)
        self.store = Store(env=store_env(None, str(self.path)))
        self.referee = Referee(self.store, "events")

    def judge(self, records: Iterable[tuple[bytes, bytes]]) -> None:
        self.log.append(list(records))
        verdicts = self.referee.judge(0, self.log.read(0, self.referee.resume_offset(0), 10_000))
        assert [v.rejection for v in verdicts if v.outcome != "accepted"] == []


@pytest.fixture
def two_competitions(tmp_path: Path) -> Iterator[Judged]:
    """The same competition played twice under two ids: each has hands, cases, protests and a ruling."""
    judged = Judged(tmp_path)
    judged.judge(minsk_open(Records()))
    judged.judge(minsk_open(Records(BREST)))
    yield judged
    judged.store.close()
    judged.log.close()


def named_in_metas(store: Store) -> dict[str, set[UUID]]:
    """Competition → the streams with an event naming it in its meta, by decoding every stored event."""
    found: dict[str, set[UUID]] = {}
    for n in store.notifications():
        meta = getattr(store.mapper.to_domain_event(n), "meta", None)
        if isinstance(meta, dict) and "competition_id" in meta:
            found.setdefault(meta["competition_id"], set()).add(n.originator_id)
    return found


def rejection(n: int) -> Rejection:
    return Rejection(RejectionKind.ILLEGAL, f"refusal {n}", rule="bfsp 4.7.3", seq=n, record='{"a": 1}')


def meta(competition_id: str) -> dict[str, Any]:
    return {"log": {"topic": "t", "partition": 0, "offset": 1}, "competition_id": competition_id}


def test_the_index_holds_each_competitions_streams_as_their_events_name_them(two_competitions: Judged) -> None:
    store = two_competitions.store
    expected = named_in_metas(store)
    assert set(expected) == {COMPETITION, BREST}
    assert store.streams_of(COMPETITION) == expected[COMPETITION]
    assert store.streams_of(BREST) == expected[BREST]
    assert not store.streams_of(COMPETITION) & store.streams_of(BREST)
    assert store.streams_of("no-such-cup") == set()


def test_a_competitions_protocol_and_views_decode_none_of_another_competitions_events(
    two_competitions: Judged, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = two_competitions.store
    brest_only = store.streams_of(BREST)
    decoded: list[UUID] = []
    to_domain_event = ChainMapper.to_domain_event

    def counted(mapper: ChainMapper, stored: Any) -> Any:
        decoded.append(stored.originator_id)
        return to_domain_event(mapper, stored)

    def whole_log(*_: Any, **__: Any) -> Any:
        raise AssertionError("a competition's streams were looked for in the whole notification log")

    monkeypatch.setattr(ChainMapper, "to_domain_event", counted)
    monkeypatch.setattr(store.recorder, "select_notifications", whole_log)

    document = protocol(store, COMPETITION)
    assert [p["protest"] for p in document["protests"]] == ["protest-2", "protest-1"]
    protests = federation.protests(store, COMPETITION, at(60))
    assert sorted(p.protest for p in protests) == ["protest-1", "protest-2"]
    assert [r.ruling for r in federation.rulings(store, COMPETITION)] == ["r-1"]
    assert decoded and not brest_only & set(decoded)


def test_the_views_find_the_protests_and_reviews_of_their_own_competition(two_competitions: Judged) -> None:
    store = two_competitions.store
    for competition in (COMPETITION, BREST):
        assert sorted(p.protest for p in federation.protests(store, competition, at(60))) == ["protest-1", "protest-2"]
        assert len(federation.rulings(store, competition)) == 1
    assert len(competition_streams(store, COMPETITION)) == len(competition_streams(store, BREST))


def test_a_stream_is_indexed_under_every_competition_its_events_name(tmp_path: Path) -> None:
    store = Store(env=store_env(None, str(tmp_path / "store.sqlite")))
    log = RejectionLog.open("shared", AT)
    log.reject(rejection(1), AT, meta("cup-a"))
    store.commit([log], position("t", 0, 1), [])
    log.reject(rejection(2), AT, meta("cup-b"))  # a later batch, the stream's first event long stored
    store.commit([log], position("t", 0, 2), [])
    assert store.streams_of("cup-a") == store.streams_of("cup-b") == {rejection_log_id("shared")}


def test_a_failed_commit_indexes_nothing_and_the_stream_is_indexed_when_committed_again(tmp_path: Path) -> None:
    store = Store(env=store_env(None, str(tmp_path / "store.sqlite")))
    store.commit([RejectionLog.open("taken", AT)], position("t", 0, 1), [])

    def batch() -> list[RejectionLog]:
        fresh = RejectionLog.open("fresh", AT)
        fresh.reject(rejection(1), AT, meta("cup-c"))
        return [fresh, RejectionLog.open("taken", AT)]  # the second one's first event is already stored

    with pytest.raises(Exception, match="UNIQUE"):
        store.commit(batch(), position("t", 0, 2), [])
    assert store.streams_of("cup-c") == set()
    store.commit(batch()[:1], position("t", 0, 2), [])
    assert store.streams_of("cup-c") == {rejection_log_id("fresh")}


def test_two_stores_on_one_database_index_the_same_stream_once(tmp_path: Path) -> None:
    path = str(tmp_path / "store.sqlite")
    first, second = Store(env=store_env(None, path)), Store(env=store_env(None, path))
    log = RejectionLog.open("cup-d", AT)
    log.reject(rejection(1), AT, meta("cup-d"))
    first.commit([log], position("t", 0, 1), [])
    log.reject(rejection(2), AT, meta("cup-d"))
    second.commit([log], position("t", 0, 2), [])  # the second store has not indexed it: its row is ignored
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM referee_streams").fetchone() == (1,)
    assert second.streams_of("cup-d") == {rejection_log_id("cup-d")}


def test_a_store_that_held_events_before_the_index_is_indexed_when_opened(two_competitions: Judged) -> None:
    path = two_competitions.path
    before = {c: two_competitions.store.streams_of(c) for c in (COMPETITION, BREST)}
    two_competitions.store.close()
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE referee_streams")
    reopened = Store(env=store_env(None, str(path)))
    try:
        assert {c: reopened.streams_of(c) for c in (COMPETITION, BREST)} == before
        assert before == named_in_metas(reopened)
    finally:
        reopened.close()



def test_stores_opening_together_a_store_older_than_the_index_fill_it_once(tmp_path: Path) -> None:
    for round_ in range(3):
        path = str(tmp_path / f"store-{round_}.sqlite")
        store = Store(env=store_env(None, path))
        logs = []
        for n in range(100):
            log = RejectionLog.open(f"cup-{n}", AT)
            log.reject(rejection(n), AT, meta(f"cup-{n}"))
            logs.append(log)
        store.commit(logs, position("t", 0, 1), [])
        store.close()
        with sqlite3.connect(path) as db:
            db.execute("DROP TABLE referee_streams")
        assert open_together(store_env(None, path), 4) == []
        with sqlite3.connect(path) as db:
            assert db.execute("SELECT count(*) FROM referee_streams").fetchone() == (100,)
