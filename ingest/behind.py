"""A log behind the store: the store has judged records up to an offset the log no longer reaches.

It happens when the broker's data is lost and a fresh broker (or a restored, older copy) takes its place: the
store's tracked offsets are ahead of the log's end. Judging on would put new records at offsets the store
believes it has judged (the tracking record refuses them), so the referee refuses to start, and ``status`` and
``/ready`` say so. docs/OPERATIONS.md gives the recovery.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PartitionBehind:
    partition: int
    #: the next offset the log would give a record
    log_end_offset: int
    #: the last offset of this partition the store has judged
    tracked_offset: int

    def __str__(self) -> str:
        return (
            f"partition {self.partition}: the store has judged up to offset {self.tracked_offset}, "
            f"the log ends at {self.log_end_offset}"
        )


class LogBehindStore(Exception):
    """The log of record ends before what the store has judged: the broker's data was lost or replaced."""

    def __init__(self, topic: str, behind: list[PartitionBehind]) -> None:
        self.topic = topic
        self.behind = behind
        parts = "; ".join(str(b) for b in behind)
        super().__init__(
            f"the log of record {topic} is behind the event store ({parts}): its broker's data was lost or "
            "replaced, and the referee will not judge records at offsets the store has already judged. "
            "See docs/OPERATIONS.md, 'A log behind the store'"
        )


def partitions_behind(
    end_offsets: Mapping[int, int], tracked_offset: Callable[[int], int | None]
) -> list[PartitionBehind]:
    """The partitions whose tracked offset is at or past the log's end (an end of ``n`` holds offsets below n)."""
    behind = []
    for partition, end in sorted(end_offsets.items()):
        tracked = tracked_offset(partition)
        if tracked is not None and tracked >= end:
            behind.append(PartitionBehind(partition, end, tracked))
    return behind
