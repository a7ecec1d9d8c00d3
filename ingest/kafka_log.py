"""The log of record on Apache Kafka (kafka-python): idempotent producer, acks=all, key = competition."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any

from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import KafkaAdminClient
from kafka.errors import TopicAlreadyExistsError

from ingest.log import LogRecord, from_millis

log = logging.getLogger("pokeraudit.log")

#: Topic settings of the log of record: keep everything, forever (DESIGN: infinite retention).
#: the log of record keeps everything, and stamps each record with the broker's clock as it appends it: the time
#: the service received it, which deadlines are judged against (DESIGN decision 9), not the producer's
RECORD_TOPIC_CONFIG = {
    "retention.ms": "-1",
    "retention.bytes": "-1",
    "cleanup.policy": "delete",
    "message.timestamp.type": "LogAppendTime",
}


#: a topic's replication factor left to the brokers' ``default.replication.factor``: 1 on one broker, 3 on the
#: cluster deploy/kafka/kafka.sh starts with KAFKA_NODES=3 (docs/OPERATIONS.md, "Scaling")
BROKERS_DEFAULT = -1


def ensure_topic(bootstrap: str, topic: str, partitions: int, replication_factor: int = BROKERS_DEFAULT) -> None:
    """Create ``topic`` with the admin client unless it exists (the broker never auto-creates topics); its
    replicas are the brokers' default unless ``replication_factor`` says otherwise."""
    admin = KafkaAdminClient(bootstrap_servers=bootstrap, client_id="pokeraudit-admin")
    try:
        admin.create_topics(
            {
                topic: {
                    "num_partitions": partitions,
                    "replication_factor": replication_factor,
                    "configs": RECORD_TOPIC_CONFIG,
                }
            },
            wait_for_metadata=True,
        )
    except TopicAlreadyExistsError:
        existing = partitions_of(admin, topic)
        if existing is not None and existing != partitions:
            log.warning(
                "the topic %s has %d partitions, not the %d configured: a topic's partitions are fixed when it is "
                "made (docs/OPERATIONS.md, 'Adding partitions')", topic, existing, partitions,
                extra={"topic": topic, "partitions": existing, "configured": partitions},
            )
    finally:
        admin.close()


def partitions_of(admin: KafkaAdminClient, topic: str) -> int | None:
    """How many partitions ``topic`` has (None if the broker does not say)."""
    for described in admin.describe_topics([topic]):
        if (described.get("name") or described.get("topic")) == topic and described.get("partitions") is not None:
            return len(described["partitions"])
    return None


def producer(bootstrap: str, **overrides: Any) -> KafkaProducer:
    config: dict[str, Any] = {
        "bootstrap_servers": bootstrap,
        "enable_idempotence": True,
        "acks": "all",
        "linger_ms": 5,
        "batch_size": 256 * 1024,
        "compression_type": None,
        "client_id": "pokeraudit-producer",
    }
    config.update(overrides)
    return KafkaProducer(**config)


class KafkaLog:
    """The :class:`ingest.log.Log` interface over a Kafka topic."""

    def __init__(self, bootstrap: str, topic: str, partitions: int = 6, create: bool = True) -> None:
        self.topic = topic
        self._bootstrap = bootstrap
        if create:
            ensure_topic(bootstrap, topic, partitions)
        self._producer = producer(bootstrap)
        self._reader = KafkaConsumer(
            bootstrap_servers=bootstrap,
            enable_auto_commit=False,
            group_id=None,
            client_id="pokeraudit-reader",
        )

    def partitions(self) -> int:
        found = self._reader.partitions_for_topic(self.topic)
        if not found:
            raise LookupError(f"topic {self.topic!r} does not exist on {self._bootstrap}")
        return len(found)

    def append(self, records: Sequence[tuple[bytes, bytes]]) -> list[tuple[int, int]]:
        futures = [self._producer.send(self.topic, key=key, value=value) for key, value in records]
        self._producer.flush()
        placed = []
        for future in futures:
            meta = future.get(timeout=60)
            placed.append((meta.partition, meta.offset))
        return placed

    def read(self, partition: int, offset: int, max_records: int) -> list[LogRecord]:
        tp = TopicPartition(self.topic, partition)
        self._reader.assign([tp])
        self._reader.seek(tp, offset)
        end = self._reader.end_offsets([tp])[tp]
        out: list[LogRecord] = []
        while len(out) < max_records and offset + len(out) < end:
            batch = self._reader.poll(timeout_ms=1000, max_records=max_records - len(out))
            for msg in batch.get(tp, []):
                out.append(
                    LogRecord(
                        self.topic, partition, msg.offset, msg.key or b"", msg.value or b"", from_millis(msg.timestamp)
                    )
                )
        return out

    def end_offsets(self) -> dict[int, int]:
        tps = [TopicPartition(self.topic, p) for p in range(self.partitions())]
        return {tp.partition: offset for tp, offset in self._reader.end_offsets(tps).items()}

    def close(self) -> None:
        self._producer.close()
        self._reader.close()


class KafkaLogOnFirstUse:
    """A :class:`KafkaLog` opened on its first use, and again on the next use after an opening failed.

    The API starts while the broker is down (its reads need only PostgreSQL; ``/ready`` says the broker is down):
    a submit then fails with the client's error, which the submit path answers as 503, within its timeout.
    """

    def __init__(self, bootstrap: str, topic: str, partitions: int = 6) -> None:
        self.topic = topic
        self._bootstrap, self._partitions = bootstrap, partitions
        self._opened: KafkaLog | None = None
        self._opening = threading.Lock()

    def _log(self) -> KafkaLog:
        with self._opening:
            if self._opened is None:
                self._opened = KafkaLog(self._bootstrap, self.topic, self._partitions)
            return self._opened

    def partitions(self) -> int:
        return self._log().partitions()

    def append(self, records: Sequence[tuple[bytes, bytes]]) -> list[tuple[int, int]]:
        return self._log().append(records)

    def read(self, partition: int, offset: int, max_records: int) -> list[LogRecord]:
        return self._log().read(partition, offset, max_records)

    def end_offsets(self) -> dict[int, int]:
        return self._log().end_offsets()

    def close(self) -> None:
        with self._opening:
            if self._opened is not None:
                self._opened.close()
                self._opened = None
