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


def test_two_handles_on_one_file_never_hand_out_an_offset_twice(tmp_path: Path) -> None:
    # What `pokeraudit publish` beside `pokeraudit serve` does: two opens of the same log, each appending.
    path = tmp_path / "log.sqlite"
    serving = EmbeddedLog(path, "events", partitions=1)
    assert serving.append([(b"k", b"a")]) == [(0, 0)]
    publishing = EmbeddedLog(path, "events", partitions=1)
    assert publishing.append([(b"k", b"b"), (b"k", b"c")]) == [(0, 1), (0, 2)]
    assert serving.end_offsets() == {0: 3}
    assert serving.append([(b"k", b"d")]) == [(0, 3)]
    assert [r.value for r in publishing.read(0, 0, 10)] == [b"a", b"b", b"c", b"d"]


def _append_many(path: str, name: str, count: int) -> None:
    log = EmbeddedLog(Path(path), "events", partitions=2)
    for n in range(count):
        log.append([(f"{name}-{n % 3}".encode(), f"{name}:{n}".encode())])
    log.close()


def test_separate_processes_appending_together_lose_nothing(tmp_path: Path) -> None:
    import multiprocessing

    path = tmp_path / "log.sqlite"
    EmbeddedLog(path, "events", partitions=2).close()
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_append_many, args=(str(path), f"p{i}", 60)) for i in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
        assert w.exitcode == 0
    log = EmbeddedLog(path, "events", partitions=2)
    values = sorted(r.value for p in range(2) for r in log.read(p, 0, 1000))
    assert values == sorted(f"p{i}:{n}".encode() for i in range(3) for n in range(60))
    for p in range(2):
        assert [r.offset for r in log.read(p, 0, 1000)] == list(range(log.end_offsets()[p]))
