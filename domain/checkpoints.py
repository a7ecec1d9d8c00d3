"""Checkpoints: the heads of the streams a transaction moved, anchored in a chain of their own (issue 11, §5).

A hash chain shows that an event was changed, inserted or removed *inside* a stream, but not that the stream's
last events were cut off: what is left still links up. So every transaction of the referee ends with one
checkpoint naming each stream it moved and the head it left it at — ``[stream, version, link, type, event id]``
— and how many it moved. The checkpoints of one partition of the log are themselves a hash-chained stream
(:class:`CheckpointChain`, one per ``topic:partition``, since one referee at a time judges a partition), and
each is also published on the log (the checkpoints topic), outside the store: a store cut back by a whole
transaction, checkpoint included, is shorter than the log says it was.

A checkpoint is a typed event (:class:`HeadsAnchored`, :mod:`domain.recorded`), stored as it always was: the heads
as lists, and their count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.chained import JSON
from domain.recorded import TypedRecord, applies, recorded_events

CHECKPOINTS_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/checkpoints")

#: a stream's head after a transaction: (stream, version, link, event type, event id of the record it stored
#: or, for a consequence the engine derived, of the record it follows)
Head = tuple[str, int, str, str, str]


@dataclass(frozen=True, slots=True)
class HeadsAnchored:
    """A checkpoint: the heads one transaction left the streams it moved at, and how many they are (stored too,
    so a head cut out of a stored checkpoint is seen even if its link were recomputed)."""

    heads: tuple[Head, ...]
    count: int


#: the type of a checkpoint's event, as the chain's body and the store name it
ANCHORED = HeadsAnchored.__name__


def checkpoint_chain_id(chain: str) -> UUID:
    """The stream of the checkpoints of ``chain`` (``topic:partition``)."""
    return uuid5(CHECKPOINTS_NAMESPACE, chain)


class CheckpointChain(TypedRecord):
    plain_json = True  # heads are strings and numbers
    RECORDS = (HeadsAnchored,)

    @staticmethod
    def create_id(chain: str, **_: Any) -> UUID:
        return checkpoint_chain_id(chain)

    @event("Opened")
    def __init__(self, chain: str, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self.chain = chain
        self.chain_head = link

    @classmethod
    def open(cls, chain: str, at: datetime) -> CheckpointChain:
        opened: CheckpointChain = cls._create_chained("Opened", checkpoint_chain_id(chain), at, {"chain": chain}, {},
                                                      chain=chain)
        return opened

    @classmethod
    def resume(cls, chain: str, version: int, link: str, at: datetime) -> CheckpointChain:
        """The chain as its last stored event left it, without replaying its every checkpoint (one per
        transaction: a season holds thousands): its version and its last link are all a new one needs."""
        resumed = object.__new__(cls)
        resumed.__base_init__(checkpoint_chain_id(chain), version, at)
        resumed.chain = chain
        resumed.chain_head = link
        return resumed

    @classmethod
    def payload_of(cls, recorded: Any) -> JSON:
        return {"heads": [list(h) for h in recorded.heads], "count": recorded.count}

    @classmethod
    def recorded_from(cls, kind: type, payload: JSON) -> Any:
        return HeadsAnchored(tuple(anchored_heads(payload)), int(payload["count"]))

    def anchor(self, heads: Sequence[Head], at: datetime, meta: JSON) -> None:
        self._record(HeadsAnchored(tuple(heads), len(heads)), at, meta)

    locals().update(recorded_events(RECORDS))

    @applies(HeadsAnchored)
    def _heads_anchored(self, e: HeadsAnchored) -> None:
        # the chain's head is all a checkpoint changes (set by every recorded event)
        pass


def anchored_heads(payload: JSON) -> list[Head]:
    """The heads a checkpoint's payload anchors; ValueError when they are not what a checkpoint holds (their
    count included, so a head cut out of a stored checkpoint is seen even if its link were recomputed)."""
    heads = payload.get("heads")
    if not isinstance(heads, list) or payload.get("count") != len(heads):
        raise ValueError(f"the checkpoint names {payload.get('count')!r} heads and holds {len(heads or [])}")
    out: list[Head] = []
    for h in heads:
        if not (isinstance(h, list) and len(h) == 5 and isinstance(h[1], int)):
            raise ValueError(f"a head is [stream, version, link, type, event id], not {h!r}")
        out.append((str(h[0]), h[1], str(h[2]), str(h[3]), str(h[4])))
    return out
