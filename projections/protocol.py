"""The competition protocol: read from the stored events of one competition, never kept as an editable text.

``protocol(store, competition_id)`` collects every stored stream of the competition (the Competition, its hands,
its disciplinary cases, protests, rulings, signatures and rejections: the streams whose events name it in their
meta) and :func:`build` reads them into one JSON document: identity, regulations and rulebook version,
officials, participants, the seat draw with its seed proof recomputed, levels and breaks with their actual
times, the hands (linked by stream id, with their pots and final stacks as the engine computed them and as the
ruling in force amended them), rulings, violations
and penalties with their rules, misdeals and voids, protests with their deadlines and overdue flags,
eliminations and placings, prizes, rejections and signatures.

**Snapshots** keep the document with its SHA-256 and the chain head of every stream it was read from in the
competition's :class:`domain.protocol.ProtocolArchive`. Taking one is an official's act on the log, judged by the
referee, which reads the protocol with :func:`compile_snapshot` (handed to it by the composition root: the write
path does not import the read side). :func:`verify_snapshot` reads
those streams back up to those heads, recomputes every link, rebuilds the document and compares: a snapshot
forwarded with a protest can be checked against the store at any later time, and a changed byte in any stored
event is named (stream, version, type).

:func:`build` depends on nothing but the events given (no clock): "overdue" is judged as of the latest event.
"""

from __future__ import annotations

import threading
import typing
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain.chain import GENESIS, link
from domain.chained import chain_body
from domain.clock import is_imported_record
from domain.competition import draw, floor_events
from domain.competition import events as competition_events
from domain.competition.aggregate import Competition, competition_stream_id, recorded_event
from domain.competition.events import (
    BreakEnded,
    BreakStarted,
    ChipRaceConducted,
    CompetitionEnded,
    CompetitionWinnerDeclared,
    FinalTableDrawCommitted,
    FinalTableDrawConducted,
    LevelClockPaused,
    LevelClockResumed,
    LevelStarted,
    OfficialAppointed,
    OfficialRemoved,
    ParticipantRegistered,
    PlayerEliminated,
    SeatDrawCommitted,
    SeatDrawConducted,
    TableHandEnded,
    TableHandStarted,
)
from domain.competition.floor_events import FloorEvent, PlayerMoved
from domain.competition.hand_checks import hand_name
from domain.competition.regulations import cite
from domain.discipline.events import CATALOG as DISCIPLINE_CATALOG
from domain.discipline.ladder import violation as violation_rule
from domain.officials import Act
from domain.officials.codec import decode as decode_officials
from domain.officials.permissions import permission
from domain.protests.events import CATALOG as PROTEST_CATALOG
from domain.protocol import (
    CompiledProtocol,
    ProtocolArchive,
    ProtocolSnapshotTaken,
    archive_id,
    challenges_id,
    protocol_digest,
    signatures_id,
    snapshot_from_json,
)
from domain.rejections import rejection_log_id
from domain.rulings.amend import awards_in_force, stacks_in_force
from domain.rulings.events import CATALOG as RULING_CATALOG
from domain.rulings.events import RulingIssued
from domain.rulings.outcome import stored_outcome
from projections.ofc import protocol_section
from projections.stored import EventSource, iso, recorded_by, replayed, stored_streams

JSON = dict[str, Any]


#: the protocol's shape: raised when a section is added or changed, so older snapshots are verified by their hash
#: and chains rather than recomputed (format 2: hand summaries carry the engine's and the ruled final stacks;
#: format 3: the incorrect bets the dealer accepted, and what became of each; format 4: what a reviewer deciding
#: a protest needs — each hand's name and history, each move's rule, who recorded, forwarded and decided a
#: protest, each placing's name and prize net of the tax withheld; format 5: whether each hand was imported)
PROTOCOL_FORMAT = 5


@dataclass(frozen=True, slots=True)
class Verification:
    ok: bool
    #: the first difference in words ("" when the snapshot verifies)
    difference: str = ""
    #: what was checked and what not, when the snapshot verifies only in part (an older protocol format)
    note: str = ""

    def to_json(self) -> JSON:
        return {"ok": self.ok, "difference": self.difference, "note": self.note}


class UnreadableStream(Exception):
    """A stored event that no longer decodes: a byte of it was changed."""


def competition_streams(
    store: EventSource, competition_id: str, unreadable: list[str] | None = None, kept: DecodedEvents | None = None
) -> dict[UUID, list[Any]]:
    """Every stored stream of ``competition_id``, each as its domain events in version order.

    A stream is the competition's when one of its events names the competition in its meta (every event the
    referee stores does): the store's index of those streams is kept with the events, so only they are read,
    not a season's notification log. The competition's own streams are read too, indexed or not (a rejection
    log opened by a record too broken to name its competition in the meta).

    A stored event that no longer decodes raises :class:`UnreadableStream`; given ``unreadable``, it is named
    there instead and its stream is read as far as it reads (a state the stream was once in).
    """
    streams: dict[UUID, list[Any]] = {}
    kept = kept if kept is not None else _decoded_cache(store)
    candidates = _candidates(store, competition_id)
    stored_by_stream = stored_streams(store.recorder, candidates)
    for stream in candidates:  # in the order they were always read: a document's ties keep their order
        events = []
        for stored in stored_by_stream.get(stream, []):
            try:
                events.append(kept.decoded(store, stored))
            except UnreadableStream as err:
                if unreadable is None:
                    raise
                unreadable.append(str(err))
                break
        if events:
            streams[stream] = events
    return streams


def _candidates(store: EventSource, competition_id: str) -> set[UUID]:
    own = {
        competition_stream_id(competition_id),
        rejection_log_id(competition_id),
        signatures_id(competition_id),
        challenges_id(competition_id),
    }
    candidates = store.streams_of(competition_id) | own
    candidates.discard(archive_id(competition_id))
    return candidates


def cut_short(store: EventSource, competition_id: str, streams: Mapping[UUID, list[Any]]) -> list[str]:
    """The competition's streams that end before the head the referee last left them at (their last events
    deleted), or are gone though the index names them: each in words."""
    candidates = _candidates(store, competition_id)
    breaks = []
    for stream, (version, head) in sorted(store.heads_of(candidates).items()):
        events = streams.get(stream, [])
        if not events:
            breaks.append(f"stream {stream}: the referee stored it up to version {version}; the store holds none of it")
            continue
        last = events[-1]
        where = f"stream {stream} version {version}"
        if last.originator_version < version:
            breaks.append(f"{where}: the stream ends at version {last.originator_version} ({type(last).__name__}); "
                          f"the referee stored it up to version {version}")
        elif last.originator_version == version and last.link != head:
            breaks.append(f"{where} ({type(last).__name__}): not the event the referee stored there")
    return breaks


class DecodedEvents:
    """Stored events decoded once: each kept with the exact bytes it was decoded from, and its chain link as
    recomputed from what it says.

    Reading the protocol decoded and re-hashed every event of the competition on every request (two thirds of
    its time). An event is taken from here only when the store holds the very same bytes (topic and state) at
    its stream and version, so what is served is what decoding the stored event now would give — a byte changed
    in the store is decoded afresh and its chain re-checked, and a tampered event is found as before. At most
    :data:`MOST_DECODED` events are kept per store, the oldest dropped first."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._kept: dict[tuple[UUID, int], tuple[str, bytes, Any]] = {}
        self._links: dict[int, tuple[Any, str]] = {}
        self._lock = threading.Lock()

    def decoded(self, store: EventSource, stored: Any) -> Any:
        key = (stored.originator_id, stored.originator_version)
        found = self._kept.get(key)
        if found is not None and found[0] == stored.topic and found[1] == stored.state:
            return found[2]
        event = _decoded(store, stored)
        with self._lock:
            if len(self._kept) >= self.most:
                self._kept.clear()
                self._links.clear()
            self._kept[key] = (stored.topic, bytes(stored.state), event)
        return event

    def link(self, stream: UUID, event: Any) -> str:
        """``event``'s link recomputed from its content (kept for an event decoded here: it is frozen)."""
        found = self._links.get(id(event))
        if found is not None and found[0] is event:
            return found[1]
        recomputed = _recomputed_link(stream, event)
        with self._lock:
            self._links[id(event)] = (event, recomputed)
        return recomputed


#: stored events kept decoded per store (the demo's whole competition is about 2,000)
MOST_DECODED = 200_000
_DECODED: weakref.WeakKeyDictionary[Any, DecodedEvents] = weakref.WeakKeyDictionary()
_DECODED_LOCK = threading.Lock()


def _decoded_cache(store: EventSource) -> DecodedEvents:
    with _DECODED_LOCK:
        found = _DECODED.get(store)
        if found is None:
            found = _DECODED[store] = DecodedEvents(MOST_DECODED)
        return found


def _recomputed_link(stream: UUID, event: Any) -> str:
    body = chain_body(stream, event.originator_version, type(event).__name__, event.timestamp, event.payload, event.meta)
    return link(event.prev_link, body)


def chain_breaks(streams: Mapping[UUID, list[Any]], recompute: Callable[[UUID, Any], str] = _recomputed_link) -> list[str]:
    """Every stream's hash chain recomputed from its first event: each break in words (none when all hold).

    Versions must run from 1 without a gap, each event must link to the one before it, and its link must be the
    hash of what is stored of it (:mod:`domain.chained`). A stream whose last events were cut off still
    chains: :func:`cut_short` checks the streams against the heads the referee recorded for that.
    """
    breaks: list[str] = []
    for stream, events in sorted(streams.items()):
        previous, expected_version = GENESIS, 1
        for event in events:
            recomputed = recompute(stream, event)
            if event.originator_version != expected_version or event.prev_link != previous or event.link != recomputed:
                # the words only for a break: written for every event they were a fifth of a protocol's read
                where = f"stream {stream} version {event.originator_version} ({type(event).__name__})"
                if event.originator_version != expected_version:
                    breaks.append(f"{where}: version {expected_version} is missing")
                elif event.prev_link != previous:
                    breaks.append(
                        f"{where}: it links to {event.prev_link[:16]}…, the event before it is {previous[:16]}…"
                    )
                if event.link != recomputed:
                    breaks.append(
                        f"{where}: its content hashes to {recomputed[:16]}…, its stored link is {event.link[:16]}…"
                    )
            previous, expected_version = event.link, event.originator_version + 1
    return breaks


def verified(document: JSON, streams: Mapping[UUID, list[Any]], breaks: list[str]) -> JSON:
    """The protocol with what its streams' verification found: ``verification`` (ok, what was checked, every
    break) and, when it fails, every signature marked as no longer covering it (a signature was given to the
    record the store held; what the store holds now is not that record)."""
    out = {
        **document,
        "verification": {
            "ok": not breaks,
            "streams": len(streams),
            "events": sum(len(events) for events in streams.values()),
            "breaks": breaks,
        },
    }
    if breaks:
        out["verification"]["note"] = (
            "the stored events this protocol is read from fail verification: it is not the record, and no "
            "signature covers it"
        )
        out["signatures"] = [{**s, "covers_this_document": False} for s in document.get("signatures", [])]
    return out


def _decoded(store: EventSource, stored: Any) -> Any:
    try:
        return store.mapper.to_domain_event(stored)
    except Exception as err:  # noqa: BLE001 - any failure to read a stored event is a broken record
        raise UnreadableStream(
            f"stream {stored.originator_id} version {stored.originator_version} no longer reads: {err}"
        ) from None


def heads(streams: Mapping[UUID, list[Any]]) -> dict[str, tuple[int, str]]:
    return {str(stream): (events[-1].originator_version, events[-1].link) for stream, events in streams.items()}


def protocol(store: EventSource, competition_id: str) -> JSON:
    """The protocol's content, as a snapshot keeps and hashes it (no verification section)."""
    return build(competition_id, competition_streams(store, competition_id))


def checked_protocol(store: EventSource, competition_id: str) -> JSON:
    """The protocol as it is served and printed: its streams' chains verified first (``verification``), a
    stored event that no longer reads named as a break rather than refusing the whole document."""
    unreadable: list[str] = []
    streams = competition_streams(store, competition_id, unreadable)
    breaks = unreadable + chain_breaks(streams, _decoded_cache(store).link) + cut_short(store, competition_id, streams)
    return verified(_built(competition_id, streams, breaks), streams, breaks)


#: protocols built from streams whose chains all held, by their heads (the last documents asked for)
_BUILT: dict[tuple[str, frozenset[tuple[str, tuple[int, str]]]], JSON] = {}
_BUILT_MOST = 16


def _built(competition_id: str, streams: Mapping[UUID, list[Any]], breaks: list[str]) -> JSON:
    """:func:`build`, kept for streams whose chains all verified: then each stream's head link is a hash of all
    it holds, so the same heads are the same events and give the same document. Streams that fail verification
    are built afresh every time. The document is shared: callers copy what they change (:func:`verified`,
    :func:`as_at`)."""
    if breaks:
        return build(competition_id, streams)
    key = (competition_id, frozenset(heads(streams).items()))
    found = _BUILT.get(key)
    if found is None:
        found = build(competition_id, streams)
        if len(_BUILT) >= _BUILT_MOST:
            _BUILT.pop(next(iter(_BUILT)))
        _BUILT[key] = found
    return found


def archive(store: EventSource, competition_id: str) -> ProtocolArchive | None:
    try:
        found: Any = store.repository.get(archive_id(competition_id))
    except AggregateNotFoundError:
        return None
    assert isinstance(found, ProtocolArchive)
    return found


def compile_snapshot(store: EventSource, competition_id: str) -> CompiledProtocol:
    """The protocol of ``competition_id`` as the store holds it now, with the heads it covers and every break its
    streams' verification finds: what the referee keeps as a snapshot (ingest/handlers/protocol.py).

    Decoded afresh, not through the readers' cache: the referee's memory is for its hot hands."""
    kept = DecodedEvents(MOST_DECODED)
    unreadable: list[str] = []
    streams = competition_streams(store, competition_id, unreadable, kept)
    breaks = unreadable + chain_breaks(streams, kept.link) + cut_short(store, competition_id, streams)
    return CompiledProtocol(build(competition_id, streams), heads(streams), tuple(breaks))


def verify_snapshot(store: EventSource, snapshot: ProtocolSnapshotTaken) -> Verification:
    """Re-read what ``snapshot`` was taken from and say whether it still gives the same protocol.

    Three checks: the snapshot's JSON still hashes to its recorded SHA-256; every stream it covers still chains
    to the head it recorded (no stored event altered); and, when the snapshot was written in this service's
    protocol format, the events still give the same protocol. A snapshot in an older format (the protocol
    gained sections since) is not recomputed — the hash and the chains are what make it the record it was.
    """
    if protocol_digest(snapshot.protocol) != snapshot.sha256:
        return Verification(False, f"the snapshot's protocol hashes to {protocol_digest(snapshot.protocol)[:16]}…, "
                                   f"not to its recorded {snapshot.sha256[:16]}…")
    streams: dict[UUID, list[Any]] = {}
    for stream, (version, head) in sorted(snapshot.heads.items()):
        events, problem = _read_chain(store, UUID(stream), version)
        if problem:
            return Verification(False, problem)
        if not events or events[-1].originator_version != version or events[-1].link != head:
            return Verification(False, f"stream {stream}: its event {version} is not the one the snapshot covers")
        streams[UUID(stream)] = events
    written_in = snapshot.protocol.get("format", 1)
    if written_in != PROTOCOL_FORMAT:
        return Verification(
            True,
            note=f"written in protocol format {written_in}, this service writes {PROTOCOL_FORMAT}: its hash and every "
            "chain it covers hold; its content was not recomputed",
        )
    rebuilt = build(snapshot.competition_id, streams)
    if protocol_digest(rebuilt) != snapshot.sha256:
        return Verification(False, "the events give another protocol: " + first_difference(snapshot.protocol, rebuilt))
    return Verification(True)


def _read_chain(store: EventSource, stream: UUID, version: int) -> tuple[list[Any], str]:
    previous = GENESIS
    events: list[Any] = []
    for stored in store.recorder.select_events(stream, lte=version):
        where = f"stream {stream} version {stored.originator_version} ({stored.topic.rsplit('.', 1)[-1]})"
        try:
            event: Any = store.mapper.to_domain_event(stored)
            body = chain_body(
                stream, event.originator_version, type(event).__name__, event.timestamp, event.payload, event.meta
            )
        except Exception as err:  # noqa: BLE001 - a stored event that no longer reads was changed
            return events, f"{where}: the stored event no longer reads ({type(err).__name__})"
        if event.prev_link != previous:
            return events, f"{where}: it links to {event.prev_link[:16]}…, the event before it is {previous[:16]}…"
        expected = link(previous, body)
        if event.link != expected:
            return events, f"{where}: its content hashes to {expected[:16]}…, its stored link is {event.link[:16]}…"
        previous = event.link
        events.append(event)
    return events, ""


def first_difference(expected: Any, found: Any, path: str = "$") -> str:
    """Where two JSON values first differ, as a path (``$.hands[0].pots[1].amount: 400 ≠ 300``)."""
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in sorted(set(expected) | set(found)):
            if key not in expected or key not in found:
                return f"{path}.{key}: present in only one"
            if expected[key] != found[key]:
                return first_difference(expected[key], found[key], f"{path}.{key}")
    elif isinstance(expected, list) and isinstance(found, list):
        for index, (a, b) in enumerate(zip(expected, found, strict=False)):
            if a != b:
                return first_difference(a, b, f"{path}[{index}]")
        if len(expected) != len(found):
            return f"{path}: {len(expected)} items ≠ {len(found)}"
    return f"{path}: {_short(expected)} ≠ {_short(found)}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "…"


def snapshot_of_record(store: EventSource, competition_id: str, event_id: UUID) -> ProtocolSnapshotTaken | None:
    """The snapshot the referee kept for the log record ``event_id`` (its stored event carries the record's id),
    or None (not judged yet, or refused)."""
    event: Any
    for event in store.events.get(archive_id(competition_id)):
        if type(event).__name__ == "ProtocolSnapshotTaken" and event.meta.get("event_id") == str(event_id):
            return snapshot_from_json(event.payload)
    return None


def snapshot_json(
    snapshot: ProtocolSnapshotTaken, verification: Verification | None = None, signed: list[JSON] | None = None
) -> JSON:
    """A snapshot as the API and the CLI give it: its identity; with ``verification``, its heads, its text and
    what re-reading the store found; with ``signed``, the signatures on it."""
    out: JSON = {
        "name": snapshot.name,
        "version": snapshot.version,
        "sha256": snapshot.sha256,
        "chain_head": snapshot.chain_head,
        "streams": len(snapshot.heads),
        "taken_by": snapshot.taken_by,
        "taken_at": snapshot.taken_at.isoformat(),
        "final": snapshot.final,
    }
    if verification is not None:
        out["heads"] = {stream: list(head) for stream, head in snapshot.heads.items()}
        out["protocol"] = snapshot.protocol
        out["verification"] = verification.to_json()
    if signed is not None:
        out["signatures"] = [s for s in signed if s["version"] == snapshot.version]
    return out


def verified_snapshot(store: EventSource, competition_id: str, version: int) -> JSON | None:
    """Snapshot ``version`` re-verified against the store, with its text and the signatures on it; None when the
    archive holds no such snapshot."""
    kept = archive(store, competition_id)
    snapshot = kept.snapshot(version) if kept is not None else None
    if snapshot is None:
        return None
    return snapshot_json(snapshot, verify_snapshot(store, snapshot), signatures(store, competition_id))


def signatures(store: EventSource, competition_id: str) -> list[JSON]:
    """Every signature on the competition's snapshots, in the order signed: each with when it was recorded."""
    stored: list[Any] = list(store.events.get(signatures_id(competition_id)))
    return [{**e.payload, "at": iso(e.timestamp)} for e in stored if type(e).__name__ == "ProtocolSigned"]


def snapshots(store: EventSource, competition_id: str) -> list[ProtocolSnapshotTaken]:
    kept = archive(store, competition_id)
    return [] if kept is None else [s for v in range(1, len(kept.snapshots) + 1) if (s := kept.snapshot(v))]


# --- reading the streams into the protocol -------------------------------------------------------------------

_AT_HAND_BY_OFFICIALS = frozenset({"judge", "chief_judge", "authorised"})
_MISDEAL_AND_VOID = frozenset({"MisdealDeclared", "MisdealRecognised", "HandVoided"})


def build(competition_id: str, streams: Mapping[UUID, list[Any]]) -> JSON:
    """The protocol of ``competition_id`` from its streams (each its domain events in version order)."""
    kinds = {stream: type(events[0]).__name__ for stream, events in streams.items() if events}
    as_of = max((e.timestamp for events in streams.values() for e in events), default=None)
    document: JSON = {"format": PROTOCOL_FORMAT, "competition": {"id": competition_id}, "as_of": iso(as_of)}
    own = streams.get(competition_stream_id(competition_id))
    if own:
        document.update(_competition(own))
    hands = [_hand(s, events) for s, events in streams.items() if kinds.get(s) == "HandStarted"]
    document["hands"] = sorted(hands, key=lambda h: (h["started_at"], h["table"], h["number"]))
    rulings = [r for s, events in streams.items() if kinds.get(s) == "HandReviewOpened" for r in _rulings(events)]
    document["rulings"] = sorted(rulings, key=lambda r: (r["at"], r["ruling"]))
    reviewed = _rulings_by_hand(s_events for s, s_events in streams.items() if kinds.get(s) == "HandReviewOpened")
    _name_the_reawarded(document["rulings"], (events for s, events in streams.items() if kinds.get(s) == "HandStarted"))
    for summary in document["hands"]:
        named = hand_name(summary["table"], summary["number"])
        _as_ruled(summary, streams[UUID(summary["hand"])], reviewed.get(named, []))
    document["misdeals_and_voids"] = [
        act for h in document["hands"] for act in h["officials_acts"] if act["type"] in _MISDEAL_AND_VOID
    ]
    document["incorrect_bets"] = [
        error
        for h in document["hands"]
        for error in _incorrect_bets(h, streams[UUID(h["hand"])])
    ]
    cases = [_case(events) for s, events in streams.items() if kinds.get(s) == "CaseOpened"]
    document["violations"] = sorted((v for c in cases for v in c[0]), key=lambda v: (v["at"], v["participant"]))
    document["penalties"] = sorted((p for c in cases for p in c[1]), key=lambda p: (p["at"], p["participant"]))
    document["season_disqualifications"] = sorted(
        (d for s, events in streams.items() if kinds.get(s) == "SeasonRecordOpened" for d in _season(events)),
        key=lambda d: (d["at"], d["athlete"]),
    )
    challenged = streams.get(challenges_id(competition_id), [])
    document["challenges"] = [
        {
            "hand": e.payload["hand"],
            "participant": e.payload["participant"],
            "kind": e.payload["kind"],
            "grounds": e.payload["grounds"],
            "raised_at": e.payload["raised_at"],
            "deadline": e.payload["deadline"],
            "rule": "bfsp 5.9.1",
        }
        for e in challenged
        if type(e).__name__ == "HandChallenged"
    ]
    protests = [_protest(events, as_of) for s, events in streams.items() if kinds.get(s) == "ProtestFiled"]
    document["protests"] = sorted(protests, key=lambda p: (p["filed_at"], p["protest"]))
    document["rejections"] = [
        r for s, events in sorted(streams.items()) if s == rejection_log_id(competition_id) for r in _rejections(events)
    ]
    ofc_rounds = [events for s, events in streams.items() if kinds.get(s) == "OfcRoundStarted"]
    if ofc_rounds:  # OFC rounds and points (bfsp 8): projections/ofc.py
        document["ofc"] = protocol_section(ofc_rounds)
    signed = streams.get(signatures_id(competition_id), [])
    document["signatures"] = [
        {**e.payload, "at": iso(e.timestamp)} for e in signed if type(e).__name__ == "ProtocolSigned"
    ]
    return document


def _competition(events: list[Any]) -> JSON:
    aggregate = replayed(events)
    assert isinstance(aggregate, Competition)
    regulations = aggregate.regulations
    book = aggregate.rulebook
    sections: JSON = {
        "competition": {
            "id": aggregate.competition_id,
            "title": regulations.title,
            "format": regulations.format.value,
            "variant": regulations.variant,
            "betting": str(regulations.betting.value),
            "starts_on": regulations.starts_on.isoformat(),
            "rulebook": regulations.rulebook,
            "rulebook_version": regulations.rulebook_version,
            "adopted_at": iso(events[0].timestamp),
            "adopted_by": recorded_by(events[0]),
        },
        "regulations": competition_events.encode(competition_events.RegulationsAdopted(
            aggregate.competition_id, regulations))["regulations"],
        "officials": [], "participants": [], "draws": [], "levels": [], "breaks": [], "chip_races": [],
        "moves": [], "eliminations": [], "other_acts": [],
    }
    commitments: dict[str, tuple[str, Any]] = {}
    players: list[str] = []
    #: what the officials recorded of the clock: (kind, level or time) → (when, by whom)
    announced: dict[tuple[str, Any], tuple[Any, Any]] = {}
    for event in events[1:]:
        at, by = iso(event.timestamp), recorded_by(event)
        recorded = recorded_event(event)
        if isinstance(recorded, _FLOOR_EVENTS):
            # The floor's events are kept as recorded: a move, a break or a halt reads as its fields, with the
            # rule it was made under.
            sections["moves"].append({**floor_events.encode(recorded), "at": at, "recorded_by": by,
                                      "rule": _floor_rule(book, recorded)})
        elif isinstance(recorded, OfficialAppointed):
            sections["officials"].append({"person": recorded.person, "role": recorded.role.value,
                                          "delegations": list(recorded.delegations), "appointed_at": at,
                                          "appointed_by": by, "removed_at": None})
        elif isinstance(recorded, OfficialRemoved):
            for official in sections["officials"]:
                if official["person"] == recorded.person and official["removed_at"] is None:
                    official["removed_at"], official["removal_reason"] = at, recorded.reason
        elif isinstance(recorded, ParticipantRegistered):
            players.append(recorded.participant)
            sections["participants"].append({"participant": recorded.participant, "person": recorded.person,
                                             "entry": recorded.entry, "registered_at": at, "registered_by": by})
        elif isinstance(recorded, SeatDrawCommitted):
            commitments[recorded.stage or "SeatDrawCommitted"] = (recorded.seed_sha256, at)
        elif isinstance(recorded, FinalTableDrawCommitted):
            commitments["FinalTableDrawCommitted"] = (recorded.seed_sha256, at)
        elif isinstance(recorded, SeatDrawConducted | FinalTableDrawConducted):
            final = isinstance(recorded, FinalTableDrawConducted)
            stage = recorded.stage if isinstance(recorded, SeatDrawConducted) else ""
            key = "FinalTableDrawCommitted" if final else (stage or "SeatDrawCommitted")
            committed, committed_at = commitments.get(key, ("", None))
            seats = {a.participant for a in recorded.assignments}
            size = regulations.final_table_size if final else regulations.max_seats
            recomputed = draw.draw(recorded.seed, seats, size)
            sections["draws"].append({
                "kind": "final_table" if final else "seat",
                "stage": stage,
                "commitment": committed, "committed_at": committed_at,
                "seed": recorded.seed, "conducted_at": at, "conducted_by": by, "ordered_by": recorded.ordered_by,
                "seed_matches_commitment": draw.commitment(recorded.seed) == committed,
                "seats_match_seed": tuple(sorted(recorded.assignments, key=lambda a: (a.table, a.seat))) == recomputed,
                "assignments": [{"participant": a.participant, "table": a.table, "seat": a.seat}
                                for a in recorded.assignments],
                "buttons": [{"table": b.table, "seat": b.seat} for b in recorded.buttons],
                "rule": str(cite(book, "seat_draw")),
            })
        elif isinstance(recorded, LevelStarted):
            announced[("level", recorded.level.number)] = (at, by)
        elif isinstance(recorded, BreakStarted):
            announced[("break", recorded.after_level)] = (at, by)
        elif isinstance(recorded, BreakEnded):
            announced[("break ended", recorded.after_level)] = (at, by)
        elif isinstance(recorded, LevelClockPaused | LevelClockResumed):
            announced[(type(recorded).__name__, event.timestamp)] = (at, by)
        elif isinstance(recorded, ChipRaceConducted):
            sections["chip_races"].append({**competition_events.encode(recorded), "at": at})
        elif isinstance(recorded, PlayerEliminated):
            sections["eliminations"].append({
                "participant": recorded.participant, "place": recorded.place, "hand": recorded.hand,
                "reason": recorded.reason.value, "shared_with": list(recorded.shared_with),
                "ruling": recorded.ruling, "at": at, "recorded_by": by, "rule": str(cite(book, "elimination")),
            })
        elif isinstance(recorded, CompetitionWinnerDeclared):
            sections["competition"]["winner"] = recorded.participant
            sections["competition"]["ended_at"] = at
        elif isinstance(recorded, CompetitionEnded):
            # the Chief Judge's act closing it (bfsp 2.1.1): the final protocol is compiled after it
            sections["competition"]["closed_at"], sections["competition"]["closed_by"] = at, by
        elif not isinstance(recorded, TableHandStarted | TableHandEnded):  # the hands section shows those hands
            # Schedule changes, hand-for-hand, deals, Olympic stages and table winners: in the order they came.
            sections["other_acts"].append({**competition_events.encode(recorded), "at": at, "recorded_by": by})
    sections.update(_clock_sections(aggregate, announced))
    prizes = {p.participant: p for p in aggregate.payouts()}
    names = {p["participant"]: p["person"] for p in sections["participants"]}
    withheld = regulations.withholding_percent
    sections["placings"] = sorted(
        ({"participant": s.participant, "person": names.get(s.participant, ""), "place": s.place,
          "disqualified": s.disqualified, "prize": _payout(prizes.get(s.participant), withheld),
          "rule": str(cite(book, "placings"))} for s in aggregate.standings()),
        key=lambda s: (s["place"], s["participant"]),
    )
    return sections


def _clock_sections(aggregate: Competition, announced: Mapping[tuple[str, Any], tuple[Any, Any]]) -> JSON:
    """The levels and breaks as the level clock ran them, up to the competition's latest record (bfsp 3.3, 2.1.5),
    each with the official's announcement of it where one was recorded; and each stop of the clock."""
    clock = aggregate.clock
    if clock is None:
        return {"levels": [], "breaks": [], "clock_pauses": []}
    until = aggregate.ended_at or aggregate.last_at
    levels: list[JSON] = []
    breaks: list[JSON] = []
    rule = str(cite(aggregate.rulebook, "levels"))
    for phase, ended in clock.history(until):
        if phase.on_break is not None:
            at, by = announced.get(("break", phase.on_break.after_level), (None, None))
            breaks.append({"after_level": phase.on_break.after_level, "minutes": phase.on_break.minutes,
                           "started_at": iso(phase.began), "ended_at": iso(ended), "announced_at": at,
                           "announced_by": by, "rule": rule})
        else:
            at, by = announced.get(("level", phase.level.number), (None, None))
            levels.append({"number": phase.level.number, "stakes": phase.level.stakes,
                           "minutes": phase.level.minutes, "started_at": iso(phase.began), "ended_at": iso(ended),
                           "announced_at": at, "announced_by": by, "rule": rule})
    pauses = []
    for began, to, why in clock.pauses(until):
        _, paused_by = announced.get(("LevelClockPaused", began), (None, None))
        _, resumed_by = announced.get(("LevelClockResumed", to), (None, None))
        pauses.append({"from": iso(began), "to": iso(to), "reason": why, "paused_by": paused_by,
                       "resumed_by": resumed_by, "rule": str(cite(aggregate.rulebook, "schedule"))
                       if paused_by else str(cite(aggregate.rulebook, "hand_for_hand"))})
    return {"levels": levels, "breaks": breaks, "clock_pauses": pauses}


#: the rule a move is made under, by its reason (bfsp 3.1 and the TDA's balancing, break and final table rules)
_MOVE_TOPICS = {"balance": "balancing", "table_broken": "table_break", "final_table": "final_table"}
#: the floor's events (moves, halts, breaks), as the protocol's "moves" section lists them
_FLOOR_EVENTS = typing.get_args(FloorEvent)
_FLOOR_TOPICS = {"TableBreakCommitted": "table_break", "TableBroken": "table_break", "TableHalted": "halt",
                 "BalanceToleranceWidened": "balance_tolerance", "MoverExceptionDecided": "balancing"}


def _floor_rule(book: Any, recorded: FloorEvent) -> str:
    topic = _MOVE_TOPICS.get(recorded.reason.value) if isinstance(recorded, PlayerMoved) else None
    return str(book.cite(topic or _FLOOR_TOPICS.get(type(recorded).__name__, "balancing")))


def _payout(payout: Any, percent: int) -> JSON | None:
    """A prize as paid: gross, the tax withheld from it (the federation's FAQ: 13 %, rounded down) and net."""
    if payout is None:
        return None
    return {"gross": payout.gross, "withheld": payout.withheld, "withheld_percent": percent,
            "net": payout.gross - payout.withheld}


def _hand(stream: UUID, events: list[Any]) -> JSON:
    start = events[0].payload
    seats = {s["seat"]: s["player"] for s in start.get("seats", [])}
    pots, acts = [], []
    ended_at = None
    for event in events[1:]:
        name = type(event).__name__
        if name == "PotAwarded":
            pots.append({"pot_index": event.payload["pot_index"], "half": event.payload.get("half", ""),
                         "amount": event.payload["amount"],
                         "shares": [{"seat": s["seat"], "player": seats.get(s["seat"], ""), "amount": s["amount"]}
                                    for s in event.payload["shares"]]})
        elif name == "HandEnded":
            ended_at = iso(event.timestamp)
        who = recorded_by(event)
        if name in _MISDEAL_AND_VOID or who["role"] in _AT_HAND_BY_OFFICIALS:
            acts.append({"type": name, "reason": event.payload.get("reason", ""),
                         "rule": event.payload.get("rule", ""), "at": iso(event.timestamp), "recorded_by": who,
                         "hand": str(stream), "version": event.originator_version})
    return {"hand": str(stream), "name": hand_name(start["table_id"], start["hand_number"]),
            "table": start["table_id"], "number": start["hand_number"],
            # where the hand's whole history is read (the API's /v1/hands/{id}/history, sealed as the reader may)
            "history": f"/v1/hands/{stream}/history",
            "started_at": iso(events[0].timestamp), "ended_at": ended_at,
            # an imported history of a past event: its times are its own, no live deadline judged it
            "imported": is_imported_record(events[0].meta), "players": sorted(seats.values()),
            "pots": pots, "officials_acts": acts}


def _incorrect_bets(summary: JSON, events: list[Any]) -> list[JSON]:
    """Each bet the dealer accepted against a rule of size (TDA 2022 52, domain/hand/incorrect_bets.py): the
    act as made, the rule it broke and what it gave, and its outcome — corrected in time (every bet it moved),
    stood once its window closed, or still open — each with its rule."""
    seats = {s["seat"]: s["player"] for s in events[0].payload.get("seats", [])}
    found: list[JSON] = []
    pending: dict[int, JSON] = {}  # seat → his error whose window is open
    correcting: JSON | None = None  # the error an IncorrectBetCorrected just took up: the BetCorrected follow it
    for event in events[1:]:
        name, payload = type(event).__name__, event.payload
        if name != "BetCorrected":
            correcting = None
        if name == "IncorrectBetAccepted":
            entry: JSON = {"hand": summary["hand"], "table": summary["table"], "number": summary["number"],
                           "seat": payload["seat"], "player": seats.get(payload["seat"], ""),
                           "action": payload["action"], "made": payload["amount"], "due": None, "rule": "",
                           "reason": "", "closes": "", "outcome": "open", "outcome_rule": "", "outcome_reason": "",
                           "outcome_at": None, "outcome_by": None, "moved": [], "at": iso(event.timestamp), "recorded_by": recorded_by(event)}
            pending[payload["seat"]] = entry
            found.append(entry)
        elif name == "IncorrectBetNoted" and payload["seat"] in pending:
            pending[payload["seat"]].update(due=payload["due"], rule=payload["rule"], reason=payload["reason"],
                                            closes=payload["closes"])
        elif name == "IncorrectBetCorrected" and payload["seat"] in pending:
            correcting = pending.pop(payload["seat"])
            correcting.update(outcome="corrected", outcome_at=iso(event.timestamp), outcome_by=recorded_by(event))
        elif name == "BetCorrected" and correcting is not None:
            correcting["outcome_rule"], correcting["outcome_reason"] = payload["rule"], payload["reason"]
            correcting["moved"].append({"seat": payload["seat"], "player": seats.get(payload["seat"], ""),
                                        "was": payload["was"], "to": payload["to"]})
        elif name == "IncorrectBetStood" and payload["seat"] in pending:
            pending.pop(payload["seat"]).update(outcome="stood", outcome_rule=payload["rule"],
                                                outcome_reason=payload["reason"], outcome_at=iso(event.timestamp))
    return found


def _rulings_by_hand(reviews: Iterable[list[Any]]) -> dict[str, list[RulingIssued]]:
    """Hand name → the rulings on it, in the order issued."""
    found: dict[str, list[RulingIssued]] = {}
    for events in reviews:
        for event in events[1:]:
            if type(event).__name__ == "RulingIssued":
                ruling = decode_officials(event.payload, RULING_CATALOG)
                found.setdefault(ruling.hand, []).append(ruling)
    return found


def _as_ruled(summary: JSON, events: list[Any], rulings: list[RulingIssued]) -> None:
    """The hand as the officials left it beside what the engine computed: each pot says who decided it (the
    engine, ``"mechanical"``, or the standing ruling that re-awarded it), the winners are those of the pots as
    they stand, and the final stacks are given both ways — the engine's, and those in force, which the next
    hand is dealt with — with the rulings that made the difference."""
    seats = {s["seat"]: s["player"] for s in events[0].payload.get("seats", [])}
    outcome = stored_outcome(events)
    awards = awards_in_force(outcome, rulings) if outcome is not None else {}
    winners: set[str] = set()
    deciders: list[JSON] = []
    for pot in summary["pots"]:
        shares, ruling = awards.get((pot["pot_index"], pot["half"]), ((), None))
        if ruling is None:
            pot["decided_by"] = "mechanical"
            winners.update(share["player"] for share in pot["shares"])
            continue
        pot["decided_by"] = _decider(ruling)
        pot["awarded_by_ruling"] = [{"seat": share.seat, "amount": share.amount} for share in shares]
        winners.update(seats.get(share.seat, "") for share in shares)
        if pot["decided_by"] not in deciders:
            deciders.append(pot["decided_by"])
    summary["winners"] = sorted(winners)
    if outcome is None:
        summary["final_stacks"] = None
        return
    mechanical = dict(outcome.ended.final_stacks)
    ruled = stacks_in_force(outcome, rulings)
    summary["final_stacks"] = {
        "mechanical": {seats.get(seat, str(seat)): chips for seat, chips in sorted(mechanical.items())},
        "in_force": {seats.get(seat, str(seat)): chips for seat, chips in sorted(ruled.items())},
        "decided_by": deciders if ruled != mechanical else "mechanical",
    }


def _name_the_reawarded(rulings: list[JSON], hands: Iterable[list[Any]]) -> None:
    """Each re-awarded share with the player in its seat: a reviewer reads who the ruling gave the pot to."""
    if not any(r["reawards"] for r in rulings):
        return
    seated = {
        hand_name(events[0].payload["table_id"], events[0].payload["hand_number"]):
        {s["seat"]: s["player"] for s in events[0].payload.get("seats", [])}
        for events in hands
    }
    for ruling in rulings:
        for reaward in ruling["reawards"]:
            for share in reaward["shares"]:
                share["player"] = seated.get(ruling["hand"], {}).get(share["seat"], "")


def _decider(ruling: RulingIssued) -> JSON:
    return {"ruling": ruling.ruling, "kind": ruling.kind.value, "official": ruling.official,
            "role": ruling.role.value, "rule": ruling.rule}


def _rulings(events: list[Any]) -> list[JSON]:
    out = []
    for event in events[1:]:
        name = type(event).__name__
        recorded = decode_officials(event.payload, RULING_CATALOG)
        if name == "RulingIssued":
            out.append({"ruling": recorded.ruling, "hand": recorded.hand, "kind": recorded.kind.value,
                        "official": recorded.official, "role": recorded.role.value, "rule": recorded.rule,
                        "finding": recorded.finding, "discretionary": True,
                        "amended_pots": [r.pot_index for r in recorded.reawards],
                        "reawards": [{"pot_index": r.pot_index, "half": r.half,
                                      "shares": [{"seat": x.seat, "amount": x.amount} for x in r.shares]}
                                     for r in recorded.reawards],
                        "dead": list(recorded.dead), "restored": list(recorded.restored),
                        "deviates_from": list(recorded.deviates_from), "justification": recorded.justification,
                        "amends": recorded.amends, "at": iso(event.timestamp)})
        elif name == "MuckedCardsInspected":
            out.append({"ruling": f"inspection-{event.originator_version}", "hand": recorded.hand,
                        "kind": "mucked_cards_inspected", "official": recorded_by(event)["person"],
                        "role": recorded.inspected_by.value, "rule": str(permission(Act.MUCKED_CARDS_INSPECTED).cite()),
                        "finding": recorded.outcome.value, "discretionary": True, "amended_pots": [],
                        "reawards": [], "dead": [], "restored": [], "deviates_from": [], "justification": "",
                        "amends": "", "at": iso(event.timestamp)})
    return out


def _case(events: list[Any]) -> tuple[list[JSON], list[JSON]]:
    violations: list[JSON] = []
    penalties: list[JSON] = []
    for event in events[1:]:
        name = type(event).__name__
        recorded = decode_officials(event.payload, DISCIPLINE_CATALOG)
        at, by = iso(event.timestamp), recorded_by(event)
        if name == "ViolationRecorded":
            rule = violation_rule(recorded.code)
            violations.append({"participant": recorded.participant, "number": len(violations) + 1,
                               "code": recorded.code, "rule": str(rule.rule), "what": rule.name,
                               "hand": recorded.hand, "intentional": recorded.intentional,
                               "occurrence": recorded.occurrence, "description": recorded.description,
                               "at": at, "recorded_by": by, "entered_in_protocol": False})
        elif name == "ViolationEnteredInProtocol":
            violations[recorded.violation - 1]["entered_in_protocol"] = True
        elif name == "PenaltyImposed":
            penalties.append({"participant": recorded.participant, "number": len(penalties) + 1,
                              "reference": f"penalty-{len(penalties) + 1}", "violation": recorded.violation,
                              "kind": recorded.kind.value, "imposed_by": recorded.imposed_by.value,
                              "rule": str(permission(recorded.kind.act).cite()), "rounds": recorded.rounds,
                              "hands_to_miss": recorded.hands_to_miss, "hands_served": 0,
                              "chips_removed": recorded.chips_removed, "at": at, "recorded_by": by,
                              "served": False, "rescinded_by_protest": ""})
        elif name == "PenaltyHandServed" and not recorded.misdealt:
            penalties[recorded.penalty - 1]["hands_served"] += 1
        elif name == "PenaltyServed":
            penalties[recorded.penalty - 1]["served"] = True
        elif name == "PenaltyRescinded":
            penalties[recorded.penalty - 1]["rescinded_by_protest"] = recorded.protest
    return violations, penalties


def _season(events: list[Any]) -> list[JSON]:
    out = []
    for event in events[1:]:
        if type(event).__name__ == "SeasonDisqualificationDecided":
            d = decode_officials(event.payload, DISCIPLINE_CATALOG)
            out.append({"athlete": d.athlete, "season": d.season, "competition": d.competition,
                        "violation": d.violation, "code": d.code, "protocol": d.protocol,
                        "at": iso(event.timestamp), "rule": "bfsp 7.2.3"})
    return out


def _protest(events: list[Any], as_of: datetime | None) -> JSON:
    filed = decode_officials(events[0].payload, PROTEST_CATALOG)
    out: JSON = {"protest": filed.protest, "tier": filed.tier.value, "filer": filed.filer,
                 "contested": {"reference": filed.contested.reference, "kind": filed.contested.kind.value,
                               "decided_by": filed.contested.decided_by.value,
                               "sanctioned": filed.contested.sanctioned},
                 "grounds": filed.grounds, "written": filed.written, "filed_at": iso(filed.filed_at),
                 "recorded_by": recorded_by(events[0]), "forwarded": None, "decision": None, "filer_notified_at": None, "deadline": None, "overdue": False}
    deadline = None
    for event in events[1:]:
        name = type(event).__name__
        recorded = decode_officials(event.payload, PROTEST_CATALOG)
        if name == "ProtestForwarded":
            deadline = recorded.deadline
            out["forwarded"] = {"snapshot": recorded.protocol_snapshot, "chain_head": recorded.chain_head,
                                "at": iso(recorded.forwarded_at), "by": recorded_by(event), "rule": "bfsp 7.3.3"}
            out["deadline"] = iso(deadline)
        elif name == "ProtestDecided":
            out["decision"] = {"decision": recorded.decision.value, "decided_by": recorded.decided_by.value,
                               "recorded_by": recorded_by(event), "reasons": recorded.reasons,
                               "at": iso(recorded.decided_at), "overdue": recorded.overdue}
        elif name == "FilerNotified":
            out["filer_notified_at"] = iso(recorded.notified_at)
    decided = out["decision"]
    out["overdue"] = bool(decided["overdue"]) if decided else bool(deadline and as_of and as_of > deadline)
    return out


def as_at(document: JSON, now: datetime) -> JSON:
    """The protocol read at ``now``: a forwarded protest the federation has not decided by its deadline is
    overdue from then on, though no event has come since (what a snapshot keeps is as of its last event)."""
    protests = []
    for protest in document.get("protests", []):
        deadline = protest.get("deadline")
        late = protest["decision"] is None and deadline is not None and now > datetime.fromisoformat(deadline)
        protests.append({**protest, "overdue": protest["overdue"] or late})
    return {**document, "protests": protests, "read_at": now.isoformat()}


def _rejections(events: list[Any]) -> list[JSON]:
    return [
        {"kind": e.payload["kind"], "reason": e.payload["reason"], "rule": e.payload["rule"],
         "event_type": e.payload["event_type"], "table_id": e.payload["table_id"], "hand_id": e.payload["hand_id"],
         "at": iso(e.timestamp), "recorded_by": recorded_by(e)}
        for e in events if type(e).__name__ == "RecordRejected"
    ]


__all__ = (
    "UnreadableStream",
    "Verification",
    "build",
    "chain_breaks",
    "checked_protocol",
    "compile_snapshot",
    "cut_short",
    "competition_streams",
    "first_difference",
    "protocol",
    "signatures",
    "snapshot_json",
    "snapshot_of_record",
    "snapshots",
    "verified",
    "verified_snapshot",
    "verify_snapshot",
)
