"""The Kafka plumbing is real: an idempotent producer, a consumer with manual offsets, per-key order."""

from __future__ import annotations

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.structs import OffsetAndMetadata

pytestmark = pytest.mark.integration


def _producer(bootstrap: str) -> KafkaProducer:
    return KafkaProducer(
        bootstrap_servers=bootstrap,
        enable_idempotence=True,
        acks="all",
    )


def _consumer(bootstrap: str, group: str) -> KafkaConsumer:
    return KafkaConsumer(
        bootstrap_servers=bootstrap,
        group_id=group,
        enable_auto_commit=False,
        auto_offset_reset="earliest",
    )


def _drain(consumer: KafkaConsumer, want: int) -> list[tuple[int, int, str, str]]:
    got: list[tuple[int, int, str, str]] = []
    for _ in range(100):
        for records in consumer.poll(timeout_ms=200).values():
            got.extend((r.partition, r.offset, r.key.decode(), r.value.decode()) for r in records)
        if len(got) >= want:
            break
    return got


def test_keyed_records_round_trip_in_order_with_manual_offsets(kafka_bootstrap: str, topic_name: str) -> None:
    producer = _producer(kafka_bootstrap)
    try:
        sent = [
            producer.send(topic_name, key=b"competition-7", value=f"event-{i}".encode()) for i in range(20)
        ]
        producer.flush(timeout=30)
        metadata = [future.get(timeout=30) for future in sent]
    finally:
        producer.close()

    partitions = {m.partition for m in metadata}
    assert len(partitions) == 1, "one key must map to one partition"
    (partition,) = partitions
    assert [m.offset for m in metadata] == list(range(20))

    tp = TopicPartition(topic_name, partition)
    consumer = _consumer(kafka_bootstrap, group=f"{topic_name}.referee")
    try:
        consumer.assign([tp])
        consumer.seek(tp, 0)
        got = _drain(consumer, 20)
        assert [(p, o, k, v) for p, o, k, v in got] == [
            (partition, i, "competition-7", f"event-{i}") for i in range(20)
        ]
        # Commit after the 12th record: a restarted consumer resumes at offset 12, nothing lost or repeated.
        consumer.commit({tp: OffsetAndMetadata(12, "", -1)})
        assert consumer.committed(tp) == 12
    finally:
        consumer.close()

    restarted = _consumer(kafka_bootstrap, group=f"{topic_name}.referee")
    try:
        restarted.assign([tp])
        committed = restarted.committed(tp)
        assert committed == 12
        restarted.seek(tp, committed)
        assert [v for _, _, _, v in _drain(restarted, 8)] == [f"event-{i}" for i in range(12, 20)]
    finally:
        restarted.close()


def test_distinct_keys_spread_but_each_stays_ordered(kafka_bootstrap: str, topic_name: str) -> None:
    producer = _producer(kafka_bootstrap)
    try:
        futures = [
            producer.send(topic_name, key=f"competition-{c}".encode(), value=f"{c}:{i}".encode())
            for i in range(10)
            for c in range(8)
        ]
        producer.flush(timeout=30)
        placed = [(f.get(timeout=30).partition, f.get(timeout=30).offset) for f in futures]
    finally:
        producer.close()

    consumer = _consumer(kafka_bootstrap, group=f"{topic_name}.audit")
    try:
        tps = [TopicPartition(topic_name, p) for p in sorted(consumer.partitions_for_topic(topic_name) or ())]
        assert len(tps) == 3
        consumer.assign(tps)
        consumer.seek_to_beginning(*tps)
        got = _drain(consumer, 80)
    finally:
        consumer.close()

    assert len(got) == 80
    assert {p for p, _ in placed} == {p for p, _, _, _ in got}
    by_key: dict[str, list[str]] = {}
    partition_of: dict[str, set[int]] = {}
    for partition, _, key, value in sorted(got, key=lambda r: (r[0], r[1])):
        by_key.setdefault(key, []).append(value)
        partition_of.setdefault(key, set()).add(partition)
    for c in range(8):
        key = f"competition-{c}"
        assert partition_of[key] and len(partition_of[key]) == 1
        assert by_key[key] == [f"{c}:{i}" for i in range(10)]
