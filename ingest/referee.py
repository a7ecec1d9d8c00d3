"""The referee: reads the log, judges each record through the rulebook, stores the verdicts exactly once.

Per record, in log order (ingest/ owns the I/O; the judging is the domain's):

1. read it: a record that is not JSON, names an unknown type or breaks the schema is *malformed*;
2. skip it if its ``event_id`` already has a stored outcome (a redelivery or a client's retry), so an old
   action is never judged against newer state;
3. route it to its hand (kept hot in memory): a start of a hand that exists, an event for a hand that does
   not, or a sequence number out of step is *out of sequence*;
4. judge it: the Hand aggregate accepts it, or the engine refuses it with the rule it breaks (*illegal*).
   A raw act (``RawActReported``) is one record and one seq; the reading the aggregate stores after it (the
   interpreted ``PlayerActed``, ``ActionObliged``, ``RulingRequested``) is a consequence, like a pot awarded,
   and takes no seq: ``hand.reported`` counts reported events only.

A batch of records of one partition is committed in one transaction with its last offset
(:meth:`ingest.store.Store.commit`), ending with a checkpoint of the heads it moved (:mod:`domain.checkpoints`),
which is published to the checkpoints topic after the commit. Rejections are stored in the competition's :class:`RejectionLog` and,
after the commit, published to the rejections topic. Nothing is dropped.

A snapshot of the protocol (``ProtocolSnapshotRequested``) covers the competition as the log stood at its record:
the records before it in the batch are committed first, so what it reads from the store is the log up to it,
whatever the batches were — the same log replayed gives the same snapshot.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import OrderedDict
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

import psycopg
from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import PersistenceError

from domain.checkpoints import CheckpointChain
from domain.clock import refusal_of_payload_times, refusal_of_time
from domain.hand.aggregate import Hand
from domain.hand.events import HandStarted
from domain.rejections import Rejection, RejectionLog, rejection_log_id
from ingest.catalog import FEDERATION_CATALOG
from ingest.checkpoints import PublishCheckpoint, publish_checkpoints
from ingest.desk import open_desk, route_at_desk
from ingest.envelope import Envelope, MalformedRecord, parse_record
from ingest.handlers.desk import ProtocolCompiler, ProtocolsNotWired
from ingest.handlers.hands import judge_hand_event
from ingest.handlers.ofc_rounds import is_ofc, route_ofc
from ingest.judgement import (
    Batch,
    conflicting,
    hand_stream,
    log_position,
    malformed,
    meta_of,
    untimely,
)
from ingest.judgement import Verdict as Verdict  # the referee's answer, as its callers name it
from ingest.log import LogRecord
from ingest.outbox import Publish, publish_pending
from ingest.store import SeenId, Store, position

#: the verbatim record kept with a rejection, at most this many characters
OFFSET_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/log-offset")
#: failures of the store or the machine, not of the record being judged: they stop the batch (it is judged again
#: once the store answers), never become a verdict
NOT_THE_RECORDS_FAULT: tuple[type[BaseException], ...] = (
    PersistenceError,
    psycopg.Error,
    sqlite3.Error,
    OSError,
    MemoryError,
    ProtocolsNotWired,
)
#: the type of record a batch is cut before (its bytes are searched for it: a record that only mentions it is cut
#: before too, which changes where a transaction ends, never a verdict)
_CUT_BEFORE = b'"ProtocolSnapshotRequested"'
#: one byte of it few records hold (a hand's records seldom hold a capital R): looking for one byte is a memchr, and
#: only a record holding it is searched for the whole name — the same records are cut before
_CUT_MARK = b"R"
#: how much of an unexpected failure's message a rejection keeps
FAILURE_EXCERPT = 300


class _Uncommittable(Exception):
    """The batch's outcomes could not be stored for a reason that is not the store's (a value it cannot encode)."""

    def __init__(self, why: str) -> None:
        self.why = why
        super().__init__(why)


class _Unjudgeable(Exception):
    """Judging the record at ``offset`` failed in a way no rule foresaw (DESIGN decision 10: it becomes a rejection)."""

    def __init__(self, offset: int, why: str) -> None:
        self.offset = offset
        self.why = why
        super().__init__(why)


def record_digest(raw: bytes) -> str:
    """What tells two records with one event id apart: a digest of the record as the log holds it (the API and
    the CLI write each envelope one way, :func:`ingest.envelope.encode`, so a retry is the same bytes)."""
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


class Referee:
    def __init__(
        self,
        store: Store,
        topic: str,
        publish_rejections: Publish | None = None,
        hot_hands: int = 20_000,
        publish_checkpoint: PublishCheckpoint | None = None,
        clock_skew: timedelta | None = None,
        protocols: ProtocolCompiler | None = None,
    ) -> None:
        self.store = store
        #: reads a competition's protocol for a snapshot (projections/protocol.py, wired by api/bootstrap.py)
        self.protocols = protocols
        self.topic = topic
        #: how far a reported time may stray from the log's (None: only the future is refused; domain/clock.py)
        self.clock_skew = clock_skew
        self.publish_rejections = publish_rejections
        #: until the first publish succeeds, rejections stored by an earlier run may still be unpublished
        self._outbox_behind = True
        self.hot_hands = hot_hands
        self._hands: OrderedDict[UUID, Hand] = OrderedDict()
        self._rejection_logs: dict[UUID, RejectionLog] = {}
        #: per partition, the chain of checkpoints this referee's transactions end with (domain/checkpoints.py)
        self._checkpoints: dict[int, CheckpointChain] = {}
        self.publish_checkpoint = publish_checkpoint
        self._absent: set[UUID] = set()  # streams the current batch may start; known not to be stored
        #: the federation's acts and the officials' checks of hand events (ingest/desk.py); its aggregates are
        #: kept hot with the hands, so that :meth:`forget` drops them together
        self.desk = open_desk(store, self._hands, protocols)

    @property
    def hot(self) -> OrderedDict[UUID, Any]:
        """The hot aggregates, hands first among them: what the handlers load by natural key before the store."""
        return self._hands

    # --- positions ----------------------------------------------------------------------------------------

    def resume_offset(self, partition: int) -> int:
        """Where to read ``partition`` from: one past the last offset whose outcome is stored."""
        tracked = self.store.tracked_offset(self.topic, partition)
        return 0 if tracked is None else tracked + 1

    def forget(self) -> None:
        """Drop every hot aggregate and the desk's memory (after a failed commit, or a record whose judging
        failed, their in-memory state is ahead of the store); the desk is made again from the store."""
        self._hands.clear()
        self._rejection_logs.clear()
        # Another referee may judge the partition meanwhile (a rebalance): its chain is read again when needed.
        self._checkpoints.clear()
        self.desk = open_desk(self.store, self._hands, self.protocols)

    # --- judging ------------------------------------------------------------------------------------------

    def judge(self, partition: int, records: Sequence[LogRecord]) -> list[Verdict]:
        """Judge records of one partition in log order and commit their outcomes in one transaction.

        A record whose judging fails unexpectedly (an exception no rule raised: a bug, a value the engine cannot
        hold) is no reason to stop: the aggregates it may have left half-changed are forgotten, and the batch is
        judged again from the store with that record stored as a malformed rejection naming the failure, in the
        same transaction as the others (DESIGN decision 10). A failure of the store itself is not the record's and
        propagates (:data:`NOT_THE_RECORDS_FAULT`).
        """
        if not records:
            return []
        cut = next(
            (n for n, r in enumerate(records) if n > 0 and _CUT_MARK in r.value and _CUT_BEFORE in r.value), None
        )
        if cut is not None:
            # a snapshot reads the store: what the log holds before its record is committed first
            return [*self.judge(partition, records[:cut]), *self.judge(partition, records[cut:])]
        unjudgeable: dict[int, str] = {}
        while True:
            try:
                return self._judge(partition, records, unjudgeable)
            except _Unjudgeable as failed:
                self.forget()
                unjudgeable[failed.offset] = failed.why
            except _Uncommittable as failed:
                # Something the batch made cannot be stored: each record in a transaction of its own finds which.
                if len(records) > 1:
                    return [v for record in records for v in self.judge(partition, [record])]
                if records[0].offset in unjudgeable:
                    raise  # not even its rejection can be stored: that is the store's fault, not the record's
                unjudgeable[records[0].offset] = f"the store cannot keep what this record makes: {failed.why}"

    def _judge(self, partition: int, records: Sequence[LogRecord], unjudgeable: dict[int, str]) -> list[Verdict]:
        parsed = [self._read(r) for r in records]
        ids = [p[0] for p in parsed]
        already = self.store.seen_digests(ids)
        self._absent = self._new_streams(parsed)
        batch = Batch()
        for record, (event_id, envelope, event, unreadable) in zip(records, parsed, strict=True):
            digest = record_digest(record.value)
            # (a UUID's hash is a Python function: the store's answer, empty unless records come again, is not asked)
            if (already and event_id in already) or event_id in batch.ids:
                first = already[event_id] if already and event_id in already else batch.ids[event_id]
                if first is None or first == digest:  # the same record again (or one answered before digests)
                    batch.verdicts.append(Verdict(partition, record.offset, event_id, "duplicate"))
                else:
                    self.reject(batch, record, event_id, envelope, conflicting(record, event_id, envelope), answered=False)
                continue
            batch.ids[event_id] = digest
            if unreadable is not None:
                self.reject(batch, record, event_id, None, malformed(record, envelope, unreadable))
                continue
            assert envelope is not None
            late_or_early = refusal_of_time(
                envelope.occurred_at, record.received_at, envelope.recorded_by.role, self.clock_skew
            )
            if late_or_early is not None:
                self.reject(batch, record, event_id, envelope, untimely(record, envelope, late_or_early))
                continue
            ahead = refusal_of_payload_times(envelope.payload, record.received_at, self.clock_skew)
            if ahead is not None:
                self.reject(batch, record, event_id, envelope, untimely(record, envelope, ahead[1], ahead[0]))
                continue
            if record.offset in unjudgeable:
                failure = MalformedRecord(unjudgeable[record.offset], "payload")
                self.reject(batch, record, event_id, envelope, malformed(record, envelope, failure))
                continue
            try:
                self._route(batch, record, event_id, envelope, event)
            except NOT_THE_RECORDS_FAULT:
                raise
            except Exception as err:
                raise _Unjudgeable(record.offset, _failure(envelope, err)) from err
        seen: list[SeenId] = [(e, stream, outcome, batch.ids[e]) for e, stream, outcome in batch.seen]
        checkpoint = self._checkpoint_chain(partition) if batch.touched else None
        try:
            anchored = self.store.commit(
                batch.touched.values(), position(self.topic, partition, records[-1].offset), seen, checkpoint
            )
        except NOT_THE_RECORDS_FAULT:
            self.forget()
            raise
        except Exception as err:
            self.forget()
            raise _Uncommittable(_describe(err)) from err
        except BaseException:
            self.forget()
            raise
        if anchored and self.publish_checkpoint is not None:
            publish_checkpoints(self.publish_checkpoint, anchored)
        # A finished hand takes no more events; kept hot it only costs memory and garbage-collector scans.
        # Dropped only now that its events are stored: a late event reloads it from the store.
        for stream, agg in batch.touched.items():
            if isinstance(agg, Hand) and agg.is_over:
                self._hands.pop(stream, None)
        if self.publish_rejections is not None and (
            self._outbox_behind or any(v.outcome == "rejected" for v in batch.verdicts)
        ):
            # From the store, not from this batch: what a crash left unpublished goes out too (ingest/outbox.py).
            publish_pending(self.store, self.publish_rejections)
            self._outbox_behind = False
        return batch.verdicts

    def _new_streams(self, parsed: Sequence[tuple[UUID, Envelope | None, Any, MalformedRecord | None]]) -> set[UUID]:
        """Streams that batch's starts would open and the store does not hold: no per-hand lookup for them. The
        desk's seldom-found streams (:meth:`ingest.handlers.desk.Desk.will_look_up`) are asked in the same query,
        and those the store does not hold given to the desk: one round trip for the batch, not one per record."""
        starts = set()
        looked_up = set()
        for _, envelope, event, _ in parsed:
            if envelope is None:
                continue
            if isinstance(event, HandStarted):
                try:
                    stream = hand_stream(envelope, event)
                except MalformedRecord:
                    continue
                if stream not in self._hands:
                    starts.add(stream)
            elif envelope.type in FEDERATION_CATALOG:
                wanted = self.desk.will_look_up(envelope, event)
                if wanted is not None and wanted not in self._hands:
                    looked_up.add(wanted)
        asked = starts | looked_up
        absent = asked - self.store.existing(asked) if asked else set()
        self.desk.not_stored(absent & looked_up)
        return absent & starts

    def _read(self, record: LogRecord) -> tuple[UUID, Envelope | None, Any, MalformedRecord | None]:
        try:
            envelope, event = parse_record(record.value)
        except MalformedRecord as err:
            return _fallback_id(record), _envelope_or_none(record.value), None, err
        except Exception as err:  # e.g. JSON nested past the parser's depth: still the record's, never a stop
            failure = MalformedRecord(f"the record cannot be read: {_describe(err)}")
            return _fallback_id(record), _envelope_or_none(record.value), None, failure
        return envelope.event_id, envelope, event, None

    def _route(self, batch: Batch, record: LogRecord, event_id: UUID, envelope: Envelope, event: Any) -> None:
        """Hand the record to its family's handler (ingest/handlers/), giving it this referee as its Bench."""
        if is_ofc(event):
            route_ofc(self, batch, record, event_id, envelope, event)
        elif envelope.type in FEDERATION_CATALOG:
            route_at_desk(self, self.desk, batch, record, event_id, envelope, event)
        else:
            judge_hand_event(self, self.desk, batch, record, event_id, envelope, event)

    def reject(
        self,
        batch: Batch,
        record: LogRecord,
        event_id: UUID,
        envelope: Envelope | None,
        rejection: Rejection,
        answered: bool = True,
    ) -> None:
        """Store ``rejection`` in the competition's rejection log; ``answered`` False for a record whose id is
        already answered (a conflicting duplicate): its rejection is kept, the id keeps its first answer."""
        competition = envelope.competition_id if envelope is not None else record.key.decode("utf-8", "replace")
        # a refusal is the service's act: dated when the log received the record, not by the record's claim
        at = record.received_at or (envelope.occurred_at if envelope is not None else datetime.now(UTC))
        log = self._rejection_log(competition or "(no competition)", at)
        meta = meta_of(envelope, record) if envelope is not None else {"log": log_position(record)}
        log.reject(rejection, at, meta)
        batch.touched[log.id] = log
        if answered:
            batch.seen.append((event_id, log.id, "rejected"))
        batch.verdicts.append(
            Verdict(record.partition, record.offset, event_id, "rejected", rejection, competition)
        )

    # --- the hot aggregates -------------------------------------------------------------------------------

    def hand(self, stream: UUID) -> Hand | None:
        hand = self._hands.get(stream)
        if hand is not None:
            self._hands.move_to_end(stream)
            return hand
        if stream in self._absent:
            return None
        try:
            found: Aggregate = self.store.repository.get(stream)
        except AggregateNotFoundError:
            return None
        assert isinstance(found, Hand)
        self.keep(found)
        return found

    def _checkpoint_chain(self, partition: int) -> CheckpointChain:
        chain = self._checkpoints.get(partition)
        if chain is None:
            chain = self._checkpoints[partition] = self.store.checkpoint_chain(f"{self.topic}:{partition}")
        return chain

    def keep(self, hand: Hand) -> None:
        self._hands[hand.id] = hand
        while len(self._hands) > self.hot_hands:
            self._hands.popitem(last=False)

    def _rejection_log(self, competition_id: str, at: datetime) -> RejectionLog:
        stream = rejection_log_id(competition_id)
        log = self._rejection_logs.get(stream)
        if log is None:
            try:
                found: Aggregate = self.store.repository.get(stream)
                assert isinstance(found, RejectionLog)
                log = found
            except AggregateNotFoundError:
                log = RejectionLog.open(competition_id, at)
            self._rejection_logs[stream] = log
        return log


def _fallback_id(record: LogRecord) -> UUID:
    """A record that cannot be read may still carry its event id; else its log position names it."""
    try:
        data = json.loads(record.value)
        return UUID(str(data["event_id"]))
    except (ValueError, KeyError, TypeError, RecursionError):
        return uuid5(OFFSET_NAMESPACE, f"{record.topic}:{record.partition}:{record.offset}")


def _envelope_or_none(raw: bytes) -> Envelope | None:
    try:
        return Envelope.model_validate_json(raw)
    except (ValueError, RecursionError):
        return None


def _describe(err: BaseException) -> str:
    text = str(err)
    if len(text) > FAILURE_EXCERPT:
        text = text[:FAILURE_EXCERPT] + "…"
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def _failure(envelope: Envelope, err: BaseException) -> str:
    return f"the referee could not judge this {envelope.type}: {_describe(err)}"
