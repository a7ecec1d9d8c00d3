"""Run the referee: over the embedded log (drain until caught up) or as a Kafka consumer-group member.

The Kafka runner seeks every assigned partition to the offset after the last one the store tracks, never to
Kafka's committed offset (DESIGN decision 2), and commits to Kafka only as a courtesy for lag monitoring.
An infrastructure failure (the database or the broker unreachable) stops the batch, drops the hot
aggregates, waits, seeks back to the tracked offsets and tries again: it is never judged as a rule breach.
It polls nothing until that seek has succeeded: while the store cannot say its offsets, a poll would read on
past the failed batch, and the next commit's tracked offset would skip those records for good.

A partition the group assigns is placed the same way, by the loop and not by the rebalance listener: the
listener runs on the Kafka client's IO thread, where a blocking call (the log's end offsets, the store's
tracked offsets) is refused ("Cannot block on net.run() from the IO thread itself"), so it only pauses the
partitions it is given; the loop checks them against the store, seeks them to the tracked offsets and resumes
them before it polls again. Starting while PostgreSQL or the broker is down, the referee waits for them
(:func:`until_reachable`), logging each retry.

While it waits (the store cannot say its offsets, or a batch failed) it still polls, with every partition paused:
a poll reads nothing then, but it is where the Kafka client takes part in the group's rebalances. A member that
stops polling holds every rebalance of its group open until its ``max_poll_interval_ms`` (300 s) runs out — the
other referees, and one that just joined, sat revoked and unassigned, judging nothing, all that time. For the same
reason the consumer is closed (the group left) whatever ends the loop: an open consumer of a runner that raised
kept heartbeating, holding its partitions and the group's rebalances.
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import Any, TypeVar

from kafka import KafkaConsumer, TopicPartition
from kafka.consumer.subscription_state import ConsumerRebalanceListener
from kafka.structs import OffsetAndMetadata

from ingest.behind import LogBehindStore, partitions_behind
from ingest.judgement import Verdict
from ingest.kafka_log import ensure_topic, producer
from ingest.log import BATCH_MAX, EmbeddedLog, LogRecord, from_millis
from ingest.metrics import RETRIES, BatchSummaries
from ingest.outbox import Publish
from ingest.referee import Referee

log = logging.getLogger("pokeraudit.referee")

#: failures that mean "the infrastructure is down", retried, never read as a verdict
try:
    import psycopg
    from eventsourcing.persistence import IntegrityError, InterfaceError, OperationalError
    from kafka.errors import KafkaError

    INFRASTRUCTURE_ERRORS: tuple[type[BaseException], ...] = (
        KafkaError,  # the broker unreachable: e.g. a poll while it restarts
        psycopg.OperationalError,
        psycopg.InterfaceError,
        OperationalError,
        InterfaceError,
        ConnectionError,
        TimeoutError,
    )
except ImportError:  # pragma: no cover - psycopg is a dependency
    INFRASTRUCTURE_ERRORS = (ConnectionError, TimeoutError)


def failed_service(err: BaseException) -> str:
    """Which service an infrastructure failure came from: "kafka" or "postgresql"."""
    return "kafka" if type(err).__module__.startswith("kafka") else "postgresql"


#: the first pause after a failure, doubled after each further one up to MAX_PAUSE (seconds)
FIRST_PAUSE = 0.5
MAX_PAUSE = 10.0

T = TypeVar("T")


def until_reachable(
    attempt: Callable[[], T],
    stop: threading.Event,
    what: str,
    logger: logging.Logger = log,
    errors: tuple[type[BaseException], ...] = INFRASTRUCTURE_ERRORS,
    count: Callable[[str], None] | None = None,
) -> T | None:
    """``attempt()``'s answer once the services it needs answer; None if ``stop`` is set first.

    A long-running command started while PostgreSQL or the broker is down waits for it instead of failing: each
    failure is logged as a retry (warning, the service named, the pause before the next attempt), counted by
    ``count(service)``, and tried again after a pause growing from 0.5 s to 10 s.
    """
    pause = FIRST_PAUSE
    while not stop.is_set():
        try:
            return attempt()
        except errors as err:
            service = failed_service(err)
            if count is not None:
                count(service)
            logger.warning(
                "%s: waiting for %s, retrying in %.1fs: %s", what, service, pause, err,
                extra={"service": service, "retry_in_s": pause},
            )
            stop.wait(pause)
            pause = min(pause * 2, MAX_PAUSE)
    return None


def count_retry(service: str) -> None:
    """The referee's retries metric, by service."""
    RETRIES.labels(service).inc()


#: how long a rebalance may leave the runner without partitions before it joins again with a new consumer (s):
#: three session timeouts, so a crashed member's partitions (10 s) are waited for as usual
REBALANCE_STALL_S = 30.0

#: the longest poll while the runner waits for a service (seconds): how soon a stop is seen
WAITING_POLL_S = 1.0

#: how long the broker may hold a fetch for partitions with nothing new (ms)
FETCH_MAX_WAIT_MS = 50
#: how much of one partition a fetch brings back: thousands of records, so the referee rarely waits for the log
PARTITION_FETCH_BYTES = 4 * 1024 * 1024


#: the collector's thresholds while the referee runs (Python's default: 700, 10, 10)
REFEREE_GC_THRESHOLDS = (100_000, 10, 10)


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect garbage less often while judging: each record allocates hundreds of short-lived, acyclic
    objects (dicts of JSON, events), so a young-generation pass every 700 allocations found almost nothing
    and cost the referee a fifth of its time; the cycles a finished hand leaves are still collected."""
    before = gc.get_threshold()
    gc.set_threshold(*REFEREE_GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def drain_embedded(event_log: EmbeddedLog, referee: Referee, batch_max: int = BATCH_MAX) -> list[Verdict]:
    """Judge everything on the embedded log the store has not yet judged; return the verdicts."""
    verdicts: list[Verdict] = []
    for partition in range(event_log.partitions()):
        while True:
            records = event_log.read(partition, referee.resume_offset(partition), batch_max)
            if not records:
                break
            verdicts += referee.judge(partition, records)
    return verdicts


def rejections_publisher(bootstrap: str, topic: str, partitions: int) -> Publish:
    ensure_topic(bootstrap, topic, partitions)
    out = producer(bootstrap, client_id="pokeraudit-rejections")

    def publish(messages: Sequence[tuple[bytes, dict[str, Any]]]) -> None:
        for key, value in messages:
            out.send(topic, key=key, value=json.dumps(value).encode())
        out.flush()

    return publish


class _SeekToTracked(ConsumerRebalanceListener):  # type: ignore[misc]
    """Runs on the Kafka client's IO thread, where nothing may block: it pauses what it is given and leaves the
    placing (log checked against the store, seek to the tracked offsets, resume) to the runner's loop."""

    def __init__(self, runner: KafkaRefereeRunner) -> None:
        self.runner = runner

    def on_partitions_revoked(self, revoked: Any) -> None:
        log.info("partitions revoked", extra={"partitions": sorted(tp.partition for tp in revoked)})
        self.runner.referee.forget()
        with self.runner.unplaced_lock:
            self.runner.unplaced -= set(revoked)
            # still listed as assigned (paused or not) until the rebalance ends: not to be placed
            self.runner.revoked |= set(revoked)
            if self.runner.unassigned_since is None:
                self.runner.unassigned_since = time.monotonic()

    def on_partitions_assigned(self, assigned: Any) -> None:
        log.info("partitions assigned", extra={"partitions": sorted(tp.partition for tp in assigned)})
        # paused, a partition's records are not returned by a poll: none is read before it is placed
        self.runner.consumer.pause(*assigned)
        with self.runner.unplaced_lock:
            self.runner.unplaced |= set(assigned)
            self.runner.revoked.clear()
            self.runner.assignments += 1
            self.runner.unassigned_since = None


class KafkaRefereeRunner:
    def __init__(
        self,
        bootstrap: str,
        topic: str,
        referee: Referee,
        batch_max: int = BATCH_MAX,
        batch_ms: int = 200,
        group_id: str = "pokeraudit-referee",
        rebalance_stall_s: float = REBALANCE_STALL_S,
    ) -> None:
        self.topic = topic
        self.referee = referee
        self.batch_max = batch_max
        self.batch_ms = batch_ms
        self._bootstrap, self._group_id = bootstrap, group_id
        self.rebalance_stall_s = rebalance_stall_s
        self.consumer = self._new_consumer()
        self.judged = 0
        #: assigned partitions not yet at the store's tracked offsets (paused): newly assigned, or after a failure
        self.unplaced: set[Any] = set()
        #: assignments received so far: a placing that saw one come meanwhile leaves the new partitions unplaced
        self.assignments = 0
        #: partitions revoked by a rebalance still in progress (the client lists them as assigned until it ends)
        self.revoked: set[Any] = set()
        #: since when the runner has been joining the group or revoked, waiting for an assignment (None: assigned)
        self.unassigned_since: float | None = None
        self.unplaced_lock = threading.Lock()

    @property
    def group_id(self) -> str:
        """The consumer group this runner's consumers join (``POKERAUDIT_REFEREE_GROUP`` from the command line)."""
        return self._group_id

    def _new_consumer(self) -> KafkaConsumer:
        return KafkaConsumer(
            bootstrap_servers=self._bootstrap,
            group_id=self._group_id,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            max_poll_records=self.batch_max,
            # kafka-python keeps one fetch in flight per broker, and the broker holds a fetch up to this long
            # when the partitions it names are empty: a fetch for the idle partitions made the busy one wait
            # behind it (about 80 µs a record). Short waits and large fetches keep the busy partition fed.
            fetch_max_wait_ms=max(min(self.batch_ms, FETCH_MAX_WAIT_MS), 1),
            max_partition_fetch_bytes=PARTITION_FETCH_BYTES,
            # Kept on (kafka-python's default), measured: a record batch's CRC-32C is one call of the crc32c
            # extension per batch (a v2 record has no CRC of its own), no difference within the noise in a bare
            # consumer (8.4 against 8.5 µs a record, docs/BENCHMARKS.md). It is the one check between the bytes
            # the producer wrote and those judged that covers the broker's disk and memory, where TCP's checksum
            # ends; a flipped digit in an amount would otherwise pass the strict envelope as a valid record.
            check_crcs=True,
            client_id="pokeraudit-referee",
            # kafka-python 3 defaults to 45 s: a crashed referee's partitions would wait that long for its
            # successor. Heartbeats come from a background thread, so a long batch does not miss them.
            session_timeout_ms=10_000,
            heartbeat_interval_ms=3_000,
        )

    def refuse_a_log_behind_the_store(self, partitions: Any = None) -> None:
        """:class:`LogBehindStore` if the store has judged offsets the log (``partitions``, else all of the
        topic's) does not reach."""
        if partitions is None:
            numbers = self.consumer.partitions_for_topic(self.topic) or set()
            partitions = [TopicPartition(self.topic, p) for p in numbers]
        ends = self.consumer.end_offsets(list(partitions)) if partitions else {}
        behind = partitions_behind(
            {tp.partition: end for tp, end in ends.items()},
            lambda p: self.referee.store.tracked_offset(self.topic, p),
        )
        if behind:
            raise LogBehindStore(self.topic, behind)

    def seek_to_tracked(self, partitions: Any) -> None:
        for tp in partitions:
            self.consumer.seek(tp, self.referee.resume_offset(tp.partition))

    def run(self, stop: threading.Event | None = None, idle_exit_s: float | None = None) -> int:
        """Judge until ``stop`` is set (or, with ``idle_exit_s``, until the log has been quiet that long)."""
        with fewer_collections():
            return self._run(stop or threading.Event(), idle_exit_s)

    def _run(self, stop: threading.Event, idle_exit_s: float | None) -> int:
        try:
            # at once, before joining the group: a log behind the store stops the referee with its reason
            until_reachable(self.refuse_a_log_behind_the_store, stop, "checking the log against the store",
                            count=count_retry)
            return self._judge(stop, idle_exit_s)
        finally:
            # whatever ended the loop (a stop, a log behind the store, an error): leave the group at once
            self.consumer.close()

    def _judge(self, stop: threading.Event, idle_exit_s: float | None) -> int:
        self._subscribe()
        log.info("referee started", extra={"topic": self.topic, "batch_max": self.batch_max, "batch_ms": self.batch_ms})
        summaries = BatchSummaries()
        quiet_since = time.monotonic()
        backoff = FIRST_PAUSE
        while not stop.is_set():
            # No reading poll until every assigned partition is at the store's tracked offset: after a failure a
            # poll would move past the records of the batch that failed, and the next commit's offset would skip
            # them for good. A partition paused and not waiting to be placed would never be read again: none is.
            self._rejoin_if_stalled()
            unplaced = self._to_place()
            if unplaced:
                try:
                    self._place(unplaced)
                except INFRASTRUCTURE_ERRORS as err:
                    service = failed_service(err)
                    RETRIES.labels(service).inc()
                    log.warning("cannot read tracked offsets yet, retrying in %.1fs: %s", backoff, err,
                                extra={"service": service, "retry_in_s": backoff})
                    self._wait_in_the_group(stop, backoff)
                    backoff = min(backoff * 2, MAX_PAUSE)
                    continue
                # just placed: their records come with the next fetches; the quiet time (--idle-exit) starts now,
                # not when the group began to form (joining it can take longer than the quiet time allowed)
                quiet_since = time.monotonic()
            try:
                polled = self.consumer.poll(timeout_ms=self.batch_ms, max_records=self.batch_max)
                # the broker answered: the next failure waits from the start again (an empty poll too, or a
                # backoff grown while the store was down would delay the first batch after the broker's restart)
                backoff = FIRST_PAUSE
                if not polled:
                    if not self.consumer.assignment() or self.consumer.paused() or self.unassigned_since is not None:
                        # Still joining the group (e.g. waiting out a crashed member's session), a partition
                        # assigned and not yet placed, or revoked by a rebalance still in progress (the client lists
                        # them as assigned, unpaused, until it ends): not quiet — idling out then left a partition's
                        # records unjudged (seen in a fresh-clone run: 312 of 416 judged; in bench/pipeline.py's
                        # two referees: 98,256 of 100,224).
                        quiet_since = time.monotonic()
                    elif idle_exit_s is not None and time.monotonic() - quiet_since > idle_exit_s:
                        break
                    continue
                quiet_since = time.monotonic()
                received = _times()
                for tp, messages in polled.items():
                    topic, partition = tp.topic, tp.partition
                    records = [
                        LogRecord(topic, partition, m.offset, m.key or b"", m.value or b"", received(m.timestamp))
                        for m in messages
                    ]
                    started = time.perf_counter()
                    try:
                        verdicts = self.referee.judge(tp.partition, records)
                    except IntegrityError:
                        # the tracking record refused an offset: the log under the referee was replaced
                        self.refuse_a_log_behind_the_store([tp])
                        raise
                    self.judged += len(verdicts)
                    summaries.observe(tp.partition, verdicts, time.perf_counter() - started, self._lag(tp))
                    # Asynchronous: the store's tracking record is what counts; this commit only shows lag to
                    # Kafka's tools, and waiting for it cost a broker round trip per batch.
                    self.consumer.commit_async({tp: _offset_and_metadata(records[-1].offset + 1)})
            except INFRASTRUCTURE_ERRORS as err:
                service = failed_service(err)
                RETRIES.labels(service).inc()
                log.warning(
                    "infrastructure failure, retrying in %.1fs: %s", backoff, err,
                    extra={"service": service, "retry_in_s": backoff},
                )
                self.referee.forget()
                self._unplace_all()
                self._wait_in_the_group(stop, backoff)
                backoff = min(backoff * 2, MAX_PAUSE)
        log.info("referee stopped", extra={"judged": self.judged})
        return self.judged

    def _unplace_all(self) -> None:
        """After a failure: every assigned partition paused until it is back at the store's tracked offset."""
        assigned = self.consumer.assignment()
        self.consumer.pause(*assigned)
        with self.unplaced_lock:
            self.unplaced |= set(assigned)

    def _wait_in_the_group(self, stop: threading.Event, seconds: float) -> None:
        """Wait ``seconds`` (or until ``stop``) still a live member of the group: polls with every assigned
        partition paused read nothing, and answer the rebalances that come meanwhile (the listener pauses what
        they assign). Not polling, the runner held every other member's rebalance for up to 300 s."""
        deadline = time.monotonic() + seconds
        while not stop.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            # the failure that brought the runner here may have left partitions running: pause them all again
            self._unplace_all()
            try:
                polled = self.consumer.poll(timeout_ms=max(1, int(min(left, WAITING_POLL_S) * 1000)))
            except INFRASTRUCTURE_ERRORS as err:  # the broker away too: the next attempt says so
                log.debug("poll while waiting failed: %s", err)
                stop.wait(min(left, WAITING_POLL_S))
                continue
            if polled:  # cannot happen while all are paused; if it did, dropped: the seek back re-reads them
                log.warning("records polled while waiting were dropped, to be read again",
                            extra={"partitions": sorted(tp.partition for tp in polled)})

    def _subscribe(self) -> None:
        self.unassigned_since = time.monotonic()
        self.consumer.subscribe([self.topic], listener=_SeekToTracked(self))
        # The topic's partitions known to the group's leader before it first joins. kafka-python 3.0.12 notes them
        # only on a metadata update after the subscription, and its first join races that update: when the leader
        # assigned before it came (1 start in 3 on an empty group), the update then differed from what it had
        # assigned by, and it joined again at once; a poll that timed out during that second join lost it for good
        # (the client no longer thinks it needs a join, so never reads the join's answer: no assignment, its
        # heartbeats off, expelled by the broker 10 s later) — the runner sat unassigned until
        # ``rebalance_stall_s`` joined again with a new consumer. Seen as a restarted referee storing nothing
        # for 30 s (tests/integration/test_faults.py). A metadata fetch now is that update, before the first join.
        with contextlib.suppress(*INFRASTRUCTURE_ERRORS):  # unreachable now: the first poll fetches it, as before
            self.consumer.topics()

    def _rejoin_if_stalled(self) -> None:
        """A rebalance that has not given the runner its partitions within ``rebalance_stall_s``: the group joined
        again with a new consumer. Seen on kafka-python 3.0.12 (1 run in 6 of a test whose group rebalanced right
        after each assignment): a leader's join went silent after "performing partition assignments", its
        heartbeats off for the join, and the runner sat unassigned for good (one cause, a leader's second join
        right after its first, is now avoided: :meth:`_subscribe`; a topic's partitions changing mid-run would set
        it off again). A rebalance that waits for another
        member takes as long with a new consumer; one stuck in the client ends."""
        since = self.unassigned_since
        if since is None or time.monotonic() - since < self.rebalance_stall_s:
            return
        try:
            fresh = self._new_consumer()  # first: while the broker cannot be reached the old one stays
        except INFRASTRUCTURE_ERRORS as err:
            log.warning("no partitions assigned for %.0fs, and no new consumer yet: %s", time.monotonic() - since,
                        err, extra={"service": "kafka"})
            self.unassigned_since = time.monotonic()
            return
        RETRIES.labels("kafka").inc()
        log.warning("no partitions assigned for %.0fs after joining or a revoke: joining the group again with a new "
                    "consumer", time.monotonic() - since, extra={"service": "kafka"})
        old = self.consumer
        with contextlib.suppress(*INFRASTRUCTURE_ERRORS):
            old.close(timeout_ms=5000)  # a client stuck in its rebalance must not hold the runner too
        self.referee.forget()
        with self.unplaced_lock:
            self.unplaced.clear()
            self.revoked.clear()
        self.consumer = fresh
        self._subscribe()

    def _to_place(self) -> set[Any]:
        """The assigned partitions to place before the next reading poll: those the listener or a failure left
        unplaced, and any other paused one (none should be: a paused partition nobody places is never read)."""
        paused = self.consumer.paused()
        with self.unplaced_lock:
            stray = paused - self.unplaced - self.revoked
            if stray:
                log.warning("paused partitions not waiting to be placed, placed now",
                            extra={"partitions": sorted(tp.partition for tp in stray)})
                self.unplaced |= stray
            return set(self.unplaced)

    def _place(self, partitions: set[Any]) -> None:
        """``partitions`` checked against the store (:class:`LogBehindStore`), sought to the offsets after the
        store's tracked ones and resumed. Raises an infrastructure error while the broker or the store cannot say."""
        with self.unplaced_lock:
            assignments = self.assignments
        mine = partitions & (self.consumer.assignment() - self.revoked)
        if mine:
            self.refuse_a_log_behind_the_store(mine)
            self.seek_to_tracked(mine)
            self.consumer.resume(*mine)
        with self.unplaced_lock:
            # an assignment that came meanwhile (the listener runs on the client's IO thread) paused what it
            # assigned: that stays to be placed on the next turn, or it would sit paused for good
            if self.assignments == assignments:
                self.unplaced -= partitions

    def _lag(self, tp: Any) -> int | None:
        """Records of ``tp`` on the log past the consumer's position, as of the last fetch."""
        high = self.consumer.highwater(tp)
        if high is None:
            return None
        # timeout 0: the position the consumer holds, never a wait on the coordinator (without one, position()
        # waits as long as its offset lookups take, a rebalance's included: the loop would stop polling)
        position = self.consumer.position(tp, timeout_ms=0)
        return None if position is None else max(0, high - position)


def _times() -> Callable[[int | None], datetime | None]:
    """A poll's Kafka timestamps as times, one object per millisecond: records appended in the same millisecond
    share it (and the referee writes a time it has just written once, :func:`ingest.judgement.meta_of`)."""
    made: dict[int | None, datetime | None] = {}

    def received(millis: int | None) -> datetime | None:
        if millis in made:
            return made[millis]
        at = made[millis] = from_millis(millis)
        return at

    return received


def _offset_and_metadata(offset: int) -> OffsetAndMetadata:
    return OffsetAndMetadata(offset, "", -1)


__all__ = ["KafkaRefereeRunner", "TopicPartition", "drain_embedded", "rejections_publisher", "until_reachable"]
