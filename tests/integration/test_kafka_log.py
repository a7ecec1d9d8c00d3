"""The Kafka log of record against the real broker: placement by key, order, offsets, reads."""

from collections.abc import Callable

from ingest.kafka_log import KafkaLog
from ingest.log import partition_for


def test_records_of_a_competition_land_on_the_partition_the_embedded_log_would_choose(
    kafka_bootstrap: str, topic_factory: Callable[..., str]
) -> None:
    topic = topic_factory(partitions=4)
    log = KafkaLog(kafka_bootstrap, topic, partitions=4)
    try:
        placed = log.append([(b"open-2026", b"a"), (b"cup-7", b"b"), (b"open-2026", b"c")])
        assert placed[0][0] == placed[2][0] == partition_for(b"open-2026", 4)
        assert placed[1][0] == partition_for(b"cup-7", 4)
        assert placed[2][1] == placed[0][1] + 1
        records = log.read(placed[0][0], 0, 10)
        assert [r.value for r in records if r.key == b"open-2026"] == [b"a", b"c"]
        ends = log.end_offsets()
        assert ends[placed[0][0]] == placed[2][1] + 1
        assert log.partitions() == 4
    finally:
        log.close()


def test_the_log_creates_its_topic_when_it_is_missing(kafka_bootstrap: str) -> None:
    import uuid

    from kafka.admin import KafkaAdminClient

    topic = f"created-{uuid.uuid4().hex[:8]}"
    log = KafkaLog(kafka_bootstrap, topic, partitions=2)
    try:
        assert log.partitions() == 2
        assert log.append([(b"k", b"v")]) == [(partition_for(b"k", 2), 0)]
    finally:
        log.close()
        admin = KafkaAdminClient(bootstrap_servers=kafka_bootstrap)
        admin.delete_topics([topic])
        admin.close()
