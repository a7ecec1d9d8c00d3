"""``pokeraudit verify``: recompute every stored stream's hash chain, check every stream against the checkpoints
that anchor its head, and report every break.

Walks the store's notification log (every stored event, in the order it was stored), keeps each stream's last
version and link, and checks each event against them: its version must follow on, its ``prev_link`` must be
the stream's last link and its ``link`` the hash of what is stored of it. An event that no longer decodes (a
byte changed in its stored form) is broken too. A break is reported and the walk goes on from what is stored,
so one changed event is one break, not every event after it.

A chain alone cannot show that a stream's last events were cut off. Every referee transaction ends with a
checkpoint naming the heads it moved (:mod:`domain.checkpoints`), stored after those events: when the walk
reaches a checkpoint, every stream it names must be at least as long as it says, with the same link at that
version. The checkpoints are a chain of their own, and the log holds a copy of each (the checkpoints topic,
:mod:`ingest.checkpoints`): given the log, every checkpoint it holds must be in the store with the same link,
and the heads of those the store lost are checked against the streams as they end.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic

from domain.chain import GENESIS, link
from domain.chained import chain_body
from domain.checkpoints import ANCHORED, CheckpointChain, Head, anchored_heads
from ingest.checkpoints import PublishedCheckpoint
from ingest.store import Store

ANCHORED_TOPIC = get_topic(CheckpointChain.HeadsAnchored)  # type: ignore[attr-defined]
CHAIN_TOPICS = {ANCHORED_TOPIC, get_topic(CheckpointChain.Opened)}  # type: ignore[attr-defined]
_EVENT_ID = re.compile(rb'"event_id":\s*"([0-9a-fA-F-]{36})"')


@dataclass(frozen=True, slots=True)
class Break:
    """One thing that does not verify, named as officials name it."""

    #: altered (content does not hash to its link), unreadable, relinked (links to another previous event),
    #: missing (versions absent inside a stream), out_of_order, truncated (shorter than a checkpoint anchors),
    #: missing_stream, diverged (another event at an anchored version), checkpoint (a checkpoint that is not
    #: what one holds, or the log's copy that the store lacks or contradicts)
    kind: str
    reason: str
    stream: str
    version: int | None
    event_id: str = ""
    event_type: str = ""
    competition_id: str = ""
    table_id: str = ""
    hand_id: str = ""
    notification_id: int | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        where = ", ".join(
            f"{name} {value}"
            for name, value in (("competition", self.competition_id), ("table", self.table_id), ("hand", self.hand_id))
            if value
        )
        what = " ".join(x for x in (self.event_type or "event", self.event_id) if x)
        at = f"stream {self.stream}" + (f" version {self.version}" if self.version is not None else "")
        if self.notification_id is not None:
            at += f" (notification {self.notification_id})"
        return f"{self.kind}: {what}{' in ' + where if where else ''}; {at}: {self.reason}"


@dataclass(frozen=True, slots=True)
class ChainReport:
    streams: int
    events: int
    checkpoints: int = 0
    #: checkpoints read from the log's copy; None when the log was not consulted
    published: int | None = None
    breaks: tuple[Break, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.breaks

    @property
    def broken(self) -> str:
        """The first break in words ("" when everything verifies)."""
        return str(self.breaks[0]) if self.breaks else ""

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "streams": self.streams,
            "events": self.events,
            "checkpoints": self.checkpoints,
            "published_checkpoints": self.published,
            "breaks": [b.to_json() for b in self.breaks],
        }


@dataclass(slots=True)
class _Stream:
    version: int = 0
    link: str | None = GENESIS  # None: the last event did not read, so its link is unknown
    competition: str = ""
    table: str = ""
    hand: str = ""


@dataclass
class _Walk:
    streams: dict[UUID, _Stream] = field(default_factory=dict)
    breaks: list[Break] = field(default_factory=list)
    #: checkpoint chain → version → link, as stored (to compare with the log's copy)
    chains: dict[UUID, dict[int, str]] = field(default_factory=dict)
    #: (stream, version) already reported absent, so a gap a checkpoint found is not reported twice
    absent: set[tuple[UUID, int]] = field(default_factory=set)
    checkpoints: int = 0

    def report(self, kind: str, reason: str, stream: UUID, version: int | None, **named: Any) -> None:
        s = self.streams.get(stream) or _Stream()
        named.setdefault("competition_id", s.competition)
        named.setdefault("table_id", s.table)
        named.setdefault("hand_id", s.hand)
        self.breaks.append(Break(kind, reason, str(stream), version, **named))


def verify_store(
    store: Store, page: int = 1000, published: Iterable[PublishedCheckpoint] | None = None
) -> ChainReport:
    """Every break of every stored stream; with ``published`` (the log's checkpoints), the store against them."""
    walk = _Walk()
    count = 0
    for n in store.notifications(page=page):
        count += 1
        _check(store, n, walk)
    seen_published: int | None = None
    if published is not None:
        seen_published = 0
        for checkpoint in published:
            seen_published += 1
            _against_log(checkpoint, walk)
    return ChainReport(len(walk.streams), count, walk.checkpoints, seen_published, tuple(walk.breaks))


def _check(store: Store, n: Any, walk: _Walk) -> None:
    stream, version = n.originator_id, n.originator_version
    s = walk.streams.get(stream)
    if s is None:
        s = walk.streams[stream] = _Stream()
    try:
        event: Any = store.mapper.to_domain_event(n)
        body = chain_body(stream, version, type(event).__name__, event.timestamp, event.payload, event.meta)
        prev_link, stored_link = event.prev_link, event.link
    except Exception as err:  # noqa: BLE001 - any failure to read a stored event is a broken record
        state = n.state if isinstance(n.state, bytes | bytearray | memoryview) else str(n.state).encode()
        found = _EVENT_ID.search(bytes(state))
        walk.report(
            "unreadable", f"the stored event no longer reads ({type(err).__name__}: {err})", stream, version,
            event_id=found.group(1).decode() if found else "", event_type=_type_of(n.topic),
            notification_id=n.id,
        )
        s.version, s.link = version, None
        return
    payload = event.payload if isinstance(event.payload, dict) else {}
    meta = event.meta if isinstance(event.meta, dict) else {}
    if version == 1:
        s.competition = str(meta.get("competition_id") or payload.get("competition_id") or "")
        s.table = str(payload.get("table_id") or "")
        s.hand = str(payload.get("hand_number") or payload.get("hand_id") or "")
    named = {
        # a consequence the engine derived (a pot awarded, the hand's end) names the record it follows
        "event_id": str(meta.get("event_id") or meta.get("follows") or payload.get("event_id") or ""),
        "event_type": type(event).__name__,
        "competition_id": str(meta.get("competition_id") or payload.get("competition_id") or s.competition),
        "table_id": str(payload.get("table_id") or s.table),
        "hand_id": str(payload.get("hand_id") or payload.get("hand_number") or s.hand),
        "notification_id": n.id,
    }
    expected_version = s.version + 1
    relinked = s.link is not None and prev_link != s.link
    if version > expected_version:
        gap = [v for v in range(expected_version, version) if (stream, v) not in walk.absent]
        walk.absent.update((stream, v) for v in gap)
        if gap:
            walk.report(
                "missing", f"version{'s' if len(gap) > 1 else ''} {_span(gap)} of the stream {'are' if len(gap) > 1 else 'is'}"
                f" not stored: this event follows version {s.version}", stream, version, **named,
            )
        relinked = False  # a link to a missing event cannot match; the gap is the break
    elif version < expected_version:
        walk.report("out_of_order", f"stored after version {s.version} of its stream", stream, version, **named)
        relinked = False
    if relinked:
        walk.report(
            "relinked", f"it links to {prev_link[:16]}…, the stream's previous link is {str(s.link)[:16]}…",
            stream, version, **named,
        )
    recomputed = link(prev_link, body)
    if stored_link != recomputed:
        walk.report(
            "altered", f"its content hashes to {recomputed[:16]}…, its stored link is {stored_link[:16]}…",
            stream, version, **named,
        )
    s.version, s.link = max(s.version, version), stored_link
    if n.topic in CHAIN_TOPICS:
        walk.chains.setdefault(stream, {})[version] = stored_link
    if n.topic == ANCHORED_TOPIC:
        walk.checkpoints += 1
        try:
            heads = anchored_heads(payload)
        except ValueError as err:
            walk.report("checkpoint", str(err), stream, version, **named)
            return
        where = f"checkpoint {version} of {meta.get('log', {}).get('position', stream)}"
        for head in heads:
            _anchor(walk, head, where)


def _anchor(walk: _Walk, head: Head, where: str) -> None:
    """A stream against the head a checkpoint anchored: as long, with the same link there."""
    stream_text, version, anchored_link, event_type, event_id = head
    try:
        stream = UUID(stream_text)
    except ValueError:
        walk.report("checkpoint", f"{where} names {stream_text!r}, not a stream", UUID(int=0), None)
        return
    s = walk.streams.get(stream)
    named = {"event_id": event_id, "event_type": event_type}
    if s is None or s.version == 0:
        if (stream, version) not in walk.absent:
            walk.absent.update((stream, v) for v in range(1, version + 1))
            walk.report("missing_stream", f"{where} anchors version {version}; the store holds no event of this"
                        " stream", stream, version, **named)
        return
    if s.version < version:
        gap = [v for v in range(s.version + 1, version + 1) if (stream, v) not in walk.absent]
        walk.absent.update((stream, v) for v in gap)
        if gap:
            walk.report("truncated", f"the stream ends at version {s.version}; {where} anchors version {version}",
                        stream, version, **named)
    elif s.version == version and s.link is not None and anchored_link and s.link != anchored_link:
        walk.report("diverged", f"{where} anchors link {anchored_link[:16]}… at this version; the store's is"
                    f" {s.link[:16]}…", stream, version, **named)


def _against_log(published: PublishedCheckpoint, walk: _Walk) -> None:
    where = f"the log's checkpoint at offset {published.offset}"
    named = {"event_type": published.type}
    if published.problem:
        walk.report("checkpoint", f"{where}: {published.problem}", published.stream, published.version or None, **named)
        return
    stored = walk.chains.get(published.stream, {})
    if published.version in stored:
        if stored[published.version] != published.link:
            walk.report("checkpoint", f"{where} has link {published.link[:16]}…, the store's checkpoint"
                        f" {stored[published.version][:16]}…", published.stream, published.version, **named)
        return
    last = max(stored, default=0)
    walk.report("checkpoint", f"{where} is version {published.version} of its chain; the store's chain ends at"
                f" version {last}", published.stream, published.version, **named)
    if published.type != ANCHORED:
        return  # the chain's opening: it anchors nothing
    try:
        heads = anchored_heads(published.payload)
    except ValueError as err:
        walk.report("checkpoint", f"{where}: {err}", published.stream, published.version, **named)
        return
    for head in heads:
        _anchor(walk, head, where)


def _span(versions: list[int]) -> str:
    return str(versions[0]) if len(versions) == 1 else f"{versions[0]}–{versions[-1]}"


def _type_of(topic: str) -> str:
    return topic.rsplit(":", 1)[-1].rsplit(".", 1)[-1]
