"""Streams read and replayed once, kept while the store holds nothing newer of them: what the federation's views
(projections/federation.py) read on every request.

Those views are computed on read from the store's aggregates, so that they are never behind the referee. Read
naively, every request decoded and replayed the same streams again: the competition's own (an event for every
hand started and ended at its tables, and every registration), a disciplinary case per participant, the
protests and the hand reviews — 200 to 1,600 ms a page of the officials' for the demo's whole competition.

Here each stream's events, and the aggregate they make, are kept with the version of the stream's last event.
A read first asks the store for that version (one indexed query, nothing decoded); while it is the one kept,
the kept replay is the stream as stored, and otherwise the stream is read and replayed again. So a view is
exactly what a replay at the request would give, and only the streams that moved are read again: during play,
the competition's stream and the table's case, not every participant's.

The replays are shared between requests (threads): the views only read them. The domain's aggregates are not
changed by reading (their queries build new values, e.g. ``Floor.apply``), and nothing here hands them to code
that records events. At most :data:`MOST_STREAMS` streams are kept per store, the least recently read dropped
first.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from typing import Any
from uuid import UUID

from projections.stored import EventSource, replayed

#: streams kept per store (a competition's views read its own stream, one case and season record per
#: participant, its protests and its reviews: a few hundred for a large field)
MOST_STREAMS = 4096


class Replayed:
    """A stream's events in version order and, once asked for, the aggregate they make."""

    __slots__ = ("_aggregate", "events")

    def __init__(self, events: list[Any]) -> None:
        self.events = events
        self._aggregate: Any = None

    @property
    def aggregate(self) -> Any:
        # Replayed on first use: the hands' streams are read for their events only. Two threads may both
        # replay it; each gets an equal aggregate, and one is kept.
        if self._aggregate is None:
            self._aggregate = replayed(self.events)
        return self._aggregate

    @property
    def version(self) -> int:
        return int(self.events[-1].originator_version) if self.events else 0

    def times(self, name: str) -> list[Any]:
        return [e.timestamp for e in self.events if type(e).__name__ == name]


class StreamCache:
    """The replays of one store's streams, each kept with the version it was read at."""

    def __init__(self, most: int = MOST_STREAMS) -> None:
        self.most = most
        self._kept: OrderedDict[UUID, Replayed] = OrderedDict()
        self._lock = threading.Lock()
        #: reads answered from what was kept, and reads that went to the store's events (for the tests, the bench)
        self.hits = 0
        self.misses = 0

    def read(self, store: EventSource, stream: UUID) -> Replayed:
        """``stream`` as stored now (no events: an empty :class:`Replayed`)."""
        last = store.recorder.select_events(stream, desc=True, limit=1)
        version = last[0].originator_version if last else 0
        with self._lock:
            kept = self._kept.get(stream)
            if kept is not None and kept.version == version:
                self._kept.move_to_end(stream)
                self.hits += 1
                return kept
            self.misses += 1
        found = Replayed(list(store.events.get(stream)) if version else [])
        with self._lock:
            # What was read may already hold an event stored after the version asked: it is kept at its own.
            self._kept[stream] = found
            self._kept.move_to_end(stream)
            while len(self._kept) > self.most:
                self._kept.popitem(last=False)
        return found


_CACHES: weakref.WeakKeyDictionary[Any, StreamCache] = weakref.WeakKeyDictionary()
_CACHES_LOCK = threading.Lock()


def cache_of(store: EventSource) -> StreamCache:
    """The one cache of ``store`` in this process (dropped with the store)."""
    with _CACHES_LOCK:
        found = _CACHES.get(store)
        if found is None:
            found = _CACHES[store] = StreamCache()
        return found


def read(store: EventSource, stream: UUID) -> Replayed:
    """``stream`` of ``store`` as stored now, replayed from what is kept when it has not moved."""
    return cache_of(store).read(store, stream)
