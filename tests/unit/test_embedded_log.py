from pathlib import Path

import pytest

from ingest.log import EmbeddedLog, partition_for

pytestmark = pytest.mark.unit


def test_records_of_one_key_land_on_one_partition_in_order(tmp_path: Path) -> None:
    log = EmbeddedLog(tmp_path / "log.sqlite", "events", partitions=4)
    placed = log.append([(b"comp-a", b"1"), (b"comp-b", b"x"), (b"comp-a", b"2"), (b"comp-a", b"3")])
    partition = partition_for(b"comp-a", 4)
    assert [p for p, _ in placed if p == partition][:3] == [partition] * 3
    values = [r.value for r in log.read(partition, 0, 100) if r.key == b"comp-a"]
    assert values == [b"1", b"2", b"3"]


def test_offsets_are_dense_from_zero_and_survive_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    log = EmbeddedLog(path, "events", partitions=1)
    assert log.append([(b"k", b"a"), (b"k", b"b")]) == [(0, 0), (0, 1)]
    log.close()
    reopened = EmbeddedLog(path, "events", partitions=1)
    assert reopened.end_offsets() == {0: 2}
    assert reopened.append([(b"k", b"c")]) == [(0, 2)]
    assert [r.offset for r in reopened.read(0, 1, 10)] == [1, 2]


def test_partition_choice_matches_kafkas_java_partitioner() -> None:
    # Vectors from Apache Kafka's UtilsTest (Utils.murmur2), as signed 32-bit Java ints.
    for key, java_hash in ((b"21", -973932308), (b"foobar", -790332482), (b"abc", 479470107)):
        assert partition_for(key, 1000) == (java_hash & 0x7FFFFFFF) % 1000
