"""The log's copy of the referee's checkpoints (domain/checkpoints.py): published after each commit, read by
``pokeraudit verify``.

Each message on the checkpoints topic is one stored checkpoint event whole — its chain, stream, version, time,
payload (the heads), meta, previous link and link — so its link can be recomputed from the log alone. The log
is the anchor the store cannot rewrite: a store cut back by whole transactions, their checkpoints included,
is shorter than the last checkpoint the log holds. Publishing follows the commit; if it fails (the broker
down), the checkpoint is stored all the same and the next one, chained to it, is published after the next
commit: the log's copy may skip a checkpoint, never hold one the store did not.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from domain.chain import link
from domain.chained import JSON, chain_body
from ingest.log import Log

log = logging.getLogger("pokeraudit.referee")

#: appends (key, value) records to the checkpoints topic
PublishCheckpoint = Callable[[Sequence[tuple[bytes, bytes]]], Any]
#: how many records a read of the checkpoints topic takes at once
PAGE = 500
#: how long a stopping referee waits for its last checkpoints to reach the broker (s)
CLOSE_TIMEOUT_S = 10


def checkpoint_message(event: Any) -> bytes:
    return json.dumps(
        {
            "stream": str(event.originator_id),
            "version": event.originator_version,
            "type": type(event).__name__,
            "at": event.timestamp.isoformat(),
            "payload": event.payload,
            "meta": event.meta,
            "prev_link": event.prev_link,
            "link": event.link,
        },
        sort_keys=True,
    ).encode()


def publish_checkpoints(publish: PublishCheckpoint, events: Sequence[Any]) -> None:
    try:
        publish([(str(e.originator_id).encode(), checkpoint_message(e)) for e in events])
    except Exception as err:  # noqa: BLE001 - the commit stands; the next checkpoint is chained to this one
        log.warning("checkpoint %s of %s not published to the log (%s: %s); the next one will be",
                    events[-1].originator_version, events[-1].originator_id, type(err).__name__, err)


class KafkaCheckpoints:
    """Publishes checkpoints to a Kafka topic without waiting for the broker: the referee's next batch does not
    wait on a round trip (the producer sends within ``linger_ms``), and a send that fails is logged — the log's
    copy may skip a checkpoint, as above. :meth:`close` sends what is pending."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        from ingest.kafka_log import ensure_topic, producer

        ensure_topic(bootstrap, topic, 1)
        self.topic = topic
        self._producer = producer(bootstrap, client_id="pokeraudit-checkpoints")

    def __call__(self, records: Sequence[tuple[bytes, bytes]]) -> None:
        for key, value in records:
            self._producer.send(self.topic, key=key, value=value).add_errback(self._failed)

    def _failed(self, err: Exception) -> None:
        log.warning("a checkpoint was not published to %s (%s: %s); the next one will be",
                    self.topic, type(err).__name__, err)

    def close(self) -> None:
        # Bounded: a referee stopping while the broker is down must still stop (what is not sent is skipped).
        self._producer.close(timeout=CLOSE_TIMEOUT_S)


@dataclass(frozen=True, slots=True)
class PublishedCheckpoint:
    """A checkpoint as the log holds it; ``problem`` says why it cannot be trusted ("" when its link holds)."""

    stream: UUID
    version: int
    type: str
    payload: JSON
    link: str
    offset: int
    problem: str = ""


def published_checkpoints(checkpoints_log: Log) -> Iterator[PublishedCheckpoint]:
    """Every checkpoint on the log, each with its link recomputed from what the log holds."""
    for partition in range(checkpoints_log.partitions()):
        offset = 0
        while records := checkpoints_log.read(partition, offset, PAGE):
            for record in records:
                yield _read(record.value, record.offset)
            offset = records[-1].offset + 1


def _read(value: bytes, offset: int) -> PublishedCheckpoint:
    try:
        m = json.loads(value)
        stream, version = UUID(m["stream"]), int(m["version"])
        body = chain_body(stream, version, m["type"], datetime.fromisoformat(m["at"]), m["payload"], m["meta"])
        recomputed = link(m["prev_link"], body)
    except (ValueError, KeyError, TypeError) as err:
        return PublishedCheckpoint(UUID(int=0), 0, "", {}, "", offset, f"unreadable ({type(err).__name__}: {err})")
    problem = "" if recomputed == m["link"] else f"its content hashes to {recomputed[:16]}…, its link is {m['link'][:16]}…"
    return PublishedCheckpoint(stream, version, m["type"], m["payload"], m["link"], offset, problem)
