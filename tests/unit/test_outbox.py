"""Every stored rejection reaches the rejections topic, even when publishing failed after the commit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_referee_embedded import AT, DEALER, HAND  # noqa: E402

from domain.hand.events import ActionKind, PlayerActed
from ingest.log import EmbeddedLog
from ingest.outbox import publish_pending
from ingest.publish import hand_records
from ingest.referee import Referee
from ingest.store import Store, store_env


class Topic:
    def __init__(self) -> None:
        self.messages: list[tuple[bytes, dict[str, Any]]] = []
        self.down = False

    def publish(self, messages: Any) -> None:
        if self.down:
            raise ConnectionError("broker unreachable")
        self.messages += list(messages)


def illegal_raises(n: int) -> list[tuple[bytes, bytes]]:
    records = []
    for table in range(n):
        events = [*HAND[:5], PlayerActed(2, ActionKind.RAISE, 120)]
        records += hand_records(events, "open", DEALER, AT, table_id=f"t{table}")
    return records


def test_a_rejection_stored_while_the_topic_was_down_is_published_when_it_is_back(tmp_path: Path) -> None:
    log = EmbeddedLog(tmp_path / "log.sqlite", "events", partitions=1)
    store = Store(env=store_env(None, str(tmp_path / "store.sqlite")))
    topic = Topic()
    referee = Referee(store, "events", topic.publish)
    log.append(illegal_raises(2))
    topic.down = True
    with pytest.raises(ConnectionError):
        referee.judge(0, log.read(0, 0, 100))  # committed, then publishing failed
    assert store.outcome_counts() == {"accepted": 10, "rejected": 2}
    topic.down = False
    log.append(illegal_raises(3)[12:])  # a third hand: its rejection, and the two left behind
    referee.judge(0, log.read(0, referee.resume_offset(0), 100))
    published = [m["table_id"] for _, m in topic.messages]
    assert published == ["t0", "t1", "t2"]
    assert all(m["kind"] == "illegal" and m["rule"].startswith("bfsp") and m["event_id"] for _, m in topic.messages)
    assert publish_pending(store, topic.publish) == 0, "nothing is published twice once it went out"


def test_two_referees_publishing_the_same_rejections_at_once_both_go_on(tmp_path: Path) -> None:
    # `pokeraudit referee --processes 2`: both follow one outbox position. While one publishes, the other
    # publishes the same rejections and records the position first; the first must not fail on recording it.
    log = EmbeddedLog(tmp_path / "log.sqlite", "events", partitions=1)
    store = Store(env=store_env(None, str(tmp_path / "store.sqlite")))
    other = Store(env=store_env(None, str(tmp_path / "store.sqlite")))
    topic = Topic()
    log.append(illegal_raises(2))
    Referee(store, "events").judge(0, log.read(0, 0, 100))

    def overtaken(messages: Any) -> None:
        topic.publish(messages)
        assert publish_pending(other, topic.publish) == 2  # the other referee, the whole way, meanwhile

    assert publish_pending(store, overtaken) == 2
    assert [m["table_id"] for _, m in topic.messages] == ["t0", "t1", "t0", "t1"], "at least once: twice here"
    assert publish_pending(store, topic.publish) == publish_pending(other, topic.publish) == 0
