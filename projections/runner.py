"""The projector: follows the event store's notification log into the read models, exactly once.

Each page of stored events is projected in memory and written in ONE read-model transaction together with
the position of its last event, so a crash leaves either the whole page and its position or neither; the
next run resumes after the stored position. The transaction holds the position row and writes the page only
if the position is still the one the page follows: a second projector on the same read models (the API's
worker beside ``pokeraudit projections run``) never writes a page twice; the one overtaken stops and starts
again from the new position. A hand whose earlier events were projected by another run is warmed up from the
store (its events before the one at hand, replayed without writing) before it goes on.
"""

from __future__ import annotations

import gc
import logging
import sqlite3
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any
from uuid import UUID

import psycopg
from eventsourcing.application import Application
from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.utils import get_topic

from domain.competition.aggregate import Competition
from domain.discipline import SeasonRecord
from domain.hand.aggregate import Hand, hand_id
from domain.integrity.case import IntegrityCase
from domain.ofc.aggregate import OfcRound
from domain.officials.codec import decode
from domain.rating import SeasonRating
from domain.rejections import RejectionLog
from domain.rulings.amend import chips_moved, stacks_in_force
from domain.rulings.events import CATALOG as RULING_CATALOG
from domain.rulings.events import RulingIssued
from domain.rulings.outcome import stored_outcome
from domain.rulings.review import HandReview
from projections import schema
from projections.chip_account import ProjectedHand
from projections.database import ReadDatabase, Writer
from projections.hand_projection import Stored, history_row
from projections.integrity import tables
from projections.integrity.cases import ProjectedCase
from projections.integrity.live import IntegrityProjection
from projections.ofc import ProjectedRound
from projections.parallel import Reopen, Where, rebuild_in_parallel, turns
from projections.rating import RESULT_EVENTS, ProjectedResults, disqualification_row, rules_row
from projections.stored import StoredRow, served, stored_rows
from projections.verdicts import verdict_row

#: the stored events these read models are made of; other aggregates' events (competitions, protests, …)
#: are passed over but for the verdicts' read model (any stored event may answer a record), though the
#: position moves past them
_HANDS = f"{get_topic(Hand)}."
_REJECTIONS = f"{get_topic(RejectionLog)}."
_REVIEWS = f"{get_topic(HandReview)}."
_OFC_ROUNDS = f"{get_topic(OfcRound)}."
_INTEGRITY_CASES = f"{get_topic(IntegrityCase)}."
_COMPETITIONS = f"{get_topic(Competition)}."
_SEASON_RECORDS = f"{get_topic(SeasonRecord)}."
_SEASON_RATINGS = f"{get_topic(SeasonRating)}."


#: failures of the databases or the machine, not of the events being projected: they stop the projector (it
#: resumes from its position), never make an event poison
NOT_THE_EVENTS_FAULT: tuple[type[BaseException], ...] = (
    OperationalError,
    InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
    sqlite3.OperationalError,
    OSError,
    MemoryError,
)
#: how much of a failure's message a poison-event entry keeps
POISON_EXCERPT = 500

log = logging.getLogger(__name__)

#: stored events a page when catching up (one transaction each, with the position), and a rebuild's
PAGE = 2000
REBUILD_PAGE = 10_000

@dataclass
class _Page:
    """The rows one page of events adds, and the hands whose snapshot rows it changed."""

    history: list[tuple[Any, ...]] = field(default_factory=list)
    stacks: list[tuple[Any, ...]] = field(default_factory=list)
    rejections: list[tuple[Any, ...]] = field(default_factory=list)
    rejection_logs: list[tuple[Any, ...]] = field(default_factory=list)
    rulings: list[tuple[Any, ...]] = field(default_factory=list)
    reviews: list[tuple[Any, ...]] = field(default_factory=list)
    ruled_stacks: list[tuple[Any, ...]] = field(default_factory=list)
    touched: dict[str, ProjectedHand] = field(default_factory=dict)
    ofc_rounds: dict[str, ProjectedRound] = field(default_factory=dict)
    ofc_points: list[tuple[Any, ...]] = field(default_factory=list)
    verdicts: list[tuple[Any, ...]] = field(default_factory=list)
    integrity_cases: dict[str, ProjectedCase] = field(default_factory=dict)
    #: competitions whose places changed: their rows are written once at the page's end
    rating_results: dict[str, ProjectedResults] = field(default_factory=dict)
    rating_rules: list[tuple[Any, ...]] = field(default_factory=list)
    season_disqualifications: list[tuple[Any, ...]] = field(default_factory=list)


class _Overtaken(Exception):
    """Another projector on the same read models wrote this page first."""


class Projector:
    """``catch_up()`` projects what is stored and not yet projected; ``rebuild()`` starts over."""

    #: how a hand is followed: by its chip accountant, the engine taking over where it must (the tests
    #: compare it with :class:`projections.hand_projection.HandProjection`, the engine's replay throughout)
    hand_type: Any = ProjectedHand
    #: stored events read from their JSON (else through the store's mapper, as the tests' reference reads)
    reads_raw = True

    def __init__(
        self,
        store: Application[UUID],
        database: ReadDatabase,
        page: int | None = None,
        hot_hands: int = 5000,
        owns: bool = False,
        reopen: tuple[Where, Reopen] | None = None,
    ) -> None:
        self.store = store
        self.database = database
        self.page = PAGE if page is None else page
        #: a rebuild's pages: no reader sees its fresh tables until the swap, so they only bound its memory, and
        #: larger ones write integrity's counters (replaced whole at each page) and a hand spanning two pages
        #: fewer times; a page size given is kept for both (the tests' small pages cross many boundaries)
        self.rebuild_page = REBUILD_PAGE if page is None else page
        self.hot_hands = hot_hands
        self._owns = owns
        #: where the store and the read models are and how a worker process of a rebuild opens them again (the
        #: composition root's, api/bootstrap.py: projections name the store only by its Protocol)
        self.reopen = reopen
        #: (k, n): project only the streams whose id is k modulo n (one of n processes of a rebuild)
        self.partition: tuple[int, int] | None = None
        self._hands: OrderedDict[str, ProjectedHand] = OrderedDict()
        self._competitions: dict[str, str] = {}
        self._reviews: dict[str, str] = {}
        self._rounds: dict[str, ProjectedRound] = {}
        self._cases: dict[str, ProjectedCase] = {}
        #: competitions whose places the rating list reads, each at the version last projected
        self._results: dict[str, ProjectedResults] = {}
        #: what each topic of stored event is projected by (None: passed over)
        self._by_topic: dict[str, Any] = {}
        #: integrity's counters per competition (projections/integrity/live.py), and the tables a page goes to
        self.integrity = IntegrityProjection()
        self._writes: schema.Writes = schema.IN_USE
        #: a rebuild's hands whose rows its fresh tables already hold (committed by an earlier page): only
        #: these are replaced (upsert, their pots deleted first); the others' rows are appended by COPY, which
        #: spares the server a statement a hand for each of its three tables. None when not rebuilding.
        self._in_fresh: set[str] | None = None

    # --- positions -----------------------------------------------------------------------------------------

    def position(self) -> int:
        row = self.database.one(schema.POSITION_OF, (schema.POSITION_NAME,))
        return 0 if row is None else int(row[0])

    def lag(self) -> int:
        """Stored events not yet projected (notification ids run without gaps but for rolled-back commits,
        which only ever make this count high until the projector passes them)."""
        head = self.store.recorder.max_notification_id() or 0
        return max(0, head - self.position())

    # --- projecting ----------------------------------------------------------------------------------------

    def catch_up(self) -> int:
        """Project every stored event after the position; the number of events projected (by this
        projector: where another one on the same read models got to a page first, this one stops)."""
        done = 0
        position = self.position()
        while batch := stored_rows(self.store.recorder, position + 1, self.page):
            try:
                self._project_or_pass(batch, schema.IN_USE, after=position)
            except _Overtaken:
                return done
            done += len(batch)
            position = batch[-1][0]
        return done

    def rebuild(self, workers: int = 1) -> int:
        """Project the whole store again; the number of events projected.

        The rebuild fills fresh tables beside the ones in use and swaps them in, with the position they were
        projected to, in one transaction: readers (the API) see the old read models until then and the new
        ones after, never a half-built one; a rebuild cut short leaves the old ones as they were. Then it
        catches up with what was stored meanwhile.

        With ``workers`` > 1 (and a projector told how to ``reopen`` its databases), that many processes each project
        the streams of one partition of the store into the fresh tables (hands are independent of each other).
        """
        self._forget()
        self.database.prepare_rebuild()
        head = self.store.recorder.max_notification_id() or 0
        self.database.filling(True)
        try:
            if workers > 1 and self.reopen is not None:
                where, reopen = self.reopen
                # integrity's evaluation tables (projections/integrity/tables.py), which its first hold'em hand fills
                # in a process (~5 % of a worker's CPU), filled once here for the forked workers to share
                tables.fill()
                done = rebuild_in_parallel(project_part, where, reopen, workers, head, self.rebuild_page)
            else:
                done = self.project_partition(head)
        finally:
            self.database.filling(False)
        self.database.swap_in(head)
        return done + self.catch_up()

    def project_partition(self, head: int) -> int:
        """Project this projector's partition of the stored events up to ``head`` into a rebuild's fresh
        tables, without a position (the rebuild records it when it swaps them in)."""
        done = 0
        self._in_fresh = set()
        read = partial(stored_rows, self.store.recorder, limit=self.rebuild_page, stop=head, part=self.partition)
        # a PostgreSQL store answers from its own process: the next page is read while this one is projected
        # and written, its server's time overlapping the projecting instead of adding to it (SQLite answers in
        # this process, holding the interpreter's lock, and the thread only cost time there)
        ahead = ThreadPoolExecutor(1) if served(self.store.recorder) else None
        # a rebuild makes millions of short-lived containers (parsed payloads, rows) and next to no cycles (10
        # objects collected over 230,600 events): the collector's automatic passes, the full ones walking every
        # live object, were a fifth of its CPU; here it runs once a page, on what the page left alive
        collecting = gc.isenabled()
        gc.disable()
        # integrity's rows written once at the end, not every touched pair's at every page (live.py ``hold``)
        self.integrity.hold(True)
        try:
            batch = read(1)
            while batch:
                start = batch[-1][0] + 1
                following = ahead.submit(read, start) if ahead is not None else None
                self._project_or_pass(batch, schema.FRESH, after=None)
                done += len(batch)
                gc.collect(1)
                batch = following.result() if following is not None else read(start)
            self._write_held_integrity()
        finally:
            self.integrity.hold(False)
            if collecting:
                gc.enable()
            self._in_fresh = None
            if ahead is not None:
                ahead.shutdown()
        return done

    def _write_held_integrity(self) -> None:
        """The integrity rows a rebuild held back, written into its fresh tables in one transaction."""
        try:
            self.integrity.ready(self._read_back, schema.FRESH)
            competitions, players, pairs = self.integrity.rows(final=True)
            with self.database.transaction() as w:
                w.executemany(schema.FRESH.integrity_competition, competitions)
                w.executemany(schema.FRESH.integrity_player, players)
                w.executemany(schema.FRESH.integrity_pair, pairs)
        except BaseException:
            self._forget()
            raise
        self.integrity.committed()

    def close(self) -> None:
        if self._owns:
            self.database.close()
            self.store.close()

    def _project_or_pass(self, rows: list[StoredRow], writes: schema.Writes, after: int | None) -> None:
        """Project a page; if it fails for something in it (not for the databases), project its events one at
        a time, and record each event that still fails as a poison event for operators and pass over it
        (DESIGN decision 10: no event stops the projector). A hand's events after one passed over are warmed up
        through it, so they are passed over too if it cannot be replayed."""
        try:
            self._project(rows, writes, after)
        except _Overtaken:
            raise
        except NOT_THE_EVENTS_FAULT:
            raise
        except Exception as err:
            if len(rows) > 1:
                for i, row in enumerate(rows):
                    self._project_or_pass([row], writes, after if after is None or i == 0 else rows[i - 1][0])
                return
            self._pass_over(rows[0], err, after)

    def _pass_over(self, row: StoredRow, err: Exception, after: int | None) -> None:
        notification_id, stream, version, topic, _ = row
        why = f"{type(err).__name__}: {err}"[:POISON_EXCERPT]
        log.error("event %s (stream %s, version %s, %s) cannot be projected: %s", notification_id, stream, version, topic, why)
        with self.database.transaction() as w:
            if after is not None:
                held = w.one(schema.LOCK_POSITION[self.database.dialect], (schema.POSITION_NAME,))
                if (0 if held is None else int(held[0])) != after:
                    raise _Overtaken
            w.execute(schema.SAVE_POISON, (notification_id, str(stream), version, topic, why))
            if after is not None:
                w.execute(schema.SAVE_POSITION, (schema.POSITION_NAME, notification_id))

    def poison_events(self, limit: int = 100) -> list[dict[str, Any]]:
        """The events passed over because they could not be projected, oldest first."""
        return poison_events(self.database, limit)

    def poison_count(self) -> int:
        """How many events were passed over (the operators' gauge ``pokeraudit_projector_poison_events``)."""
        return poison_count(self.database)

    def _project(self, rows: list[StoredRow], writes: schema.Writes, after: int | None) -> None:
        """Project one page and write it; ``after`` is the position the page follows (None: write no
        position, for a rebuild's fresh tables), checked under the transaction's hold on it."""
        page = _Page()
        self._writes = writes
        self.integrity.part = self.partition[0] if self.partition is not None else 0
        mapper = self.store.mapper
        plain = self.reads_raw and mapper.cipher is None and mapper.compressor is None
        try:
            by_topic = self._by_topic
            hand_event = self._hand_event
            for row in rows:
                topic = row[3]
                project = by_topic.get(topic, False)
                if project is False:
                    project = by_topic[topic] = self._projection_of(topic)
                event = Stored.of_row(row) if plain else None
                if event is None:
                    _, stream, version, _, state = row
                    event = Stored.of_event(mapper.to_domain_event(StoredEvent(UUID(stream), version, topic, state)))
                if project != hand_event:
                    # any other stored event may answer a reported record (a competition's, a rejection): the
                    # verdicts' read model. A hand's events answer theirs in the hand's history, which keeps
                    # each one's event id and recorder (projections/verdicts.py)
                    answer = verdict_row(event)
                    if answer is not None:
                        page.verdicts.append(answer)
                if project is not None:
                    project(page, event)
            with self.database.transaction() as w:
                if after is not None:
                    held = w.one(schema.LOCK_POSITION[self.database.dialect], (schema.POSITION_NAME,))
                    if (0 if held is None else int(held[0])) != after:
                        raise _Overtaken
                self._write(w, page, writes, rows[-1][0] if after is not None else None)
            if self._in_fresh is not None and writes is schema.FRESH:
                self._in_fresh.update(page.touched)
            self.integrity.committed()
        except BaseException:
            # the in-memory hands may be ahead of what was committed: they are warmed up again from the store
            self._forget()
            raise
        self._forget_finished()

    def _projection_of(self, topic: str) -> Any:
        return (
            self._hand_event if topic.startswith(_HANDS)
            else self._rejection if topic.startswith(_REJECTIONS)
            else self._ruling if topic.startswith(_REVIEWS)
            else self._ofc_event if topic.startswith(_OFC_ROUNDS)
            else self._integrity_case if topic.startswith(_INTEGRITY_CASES)
            else self._competition_result if topic.startswith(_COMPETITIONS)
            else self._season_record if topic.startswith(_SEASON_RECORDS)
            else self._season_rating if topic.startswith(_SEASON_RATINGS)
            else None
        )

    def _hand_event(self, page: _Page, event: Stored) -> None:
        stream = event.stream
        version = event.version
        if version == 1:
            hand = self.hand_type(stream, event)
            self._hands[stream] = hand
            changes = hand.opening_stacks()
        else:
            hand = self._hand(stream, version)
            changes = hand.apply(event)
        hand_id = hand.hand_id
        if changes:  # most events move no chips (cards dealt, checks, folds)
            page.stacks.extend([(hand_id, version, seat, stack, committed) for seat, stack, committed in changes])
        page.history.append(history_row(hand_id, event))
        page.touched[hand_id] = hand
        self._integrity(event, getattr(hand, "started", None) if version == 1 else None)

    def _integrity(self, event: Stored, started: object = None) -> None:
        """Integrity's counters take the hand's events (an event they cannot read leaves the hand out of
        them, logged; it does not stop the hand's other read models); ``started``: the hand's start as the
        hand projection decoded it, so it is not decoded twice."""
        try:
            self.integrity.event(event, self._earlier, self._read_back, self._writes, started)
        except NOT_THE_EVENTS_FAULT:
            raise
        except Exception as err:
            log.error("hand %s left out of the integrity statistics: %s: %s", event.stream, type(err).__name__, err)
            self.integrity.leave_out(event.stream)

    def _earlier(self, stream: str, version: int) -> list[Stored]:
        return [Stored.of_event(e) for e in self.store.events.get(UUID(stream), lte=version)]

    def _read_back(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        return self.database.query(sql, params)

    def _hand(self, stream: str, version: int) -> ProjectedHand:
        known = self._hands.get(stream)
        if known is not None and known.version == version - 1:
            self._hands.move_to_end(stream)
            return known
        earlier = iter(self.store.events.get(UUID(stream), lte=version - 1))
        hand: ProjectedHand = self.hand_type(stream, Stored.of_event(next(earlier)))
        for event in earlier:
            hand.apply(Stored.of_event(event))
        self._hands[stream] = hand
        return hand

    def _forget_finished(self) -> None:
        # an ended hand rarely hears more (a hand shown again after the award); it is warmed up if it does
        for stream in [s for s, hand in self._hands.items() if hand.is_over]:
            del self._hands[stream]
        for stream in [s for s, found in self._rounds.items() if found.is_over]:
            del self._rounds[stream]
        while len(self._hands) > self.hot_hands:
            self._hands.popitem(last=False)

    def _ofc_event(self, page: _Page, event: Stored) -> None:
        """An OFC round's event: the round's row as it now stands, and its points once scored."""
        stream = event.stream
        if event.version == 1:
            found = self._rounds[stream] = ProjectedRound(stream, event)
        else:
            found = self._round(stream, event.version)
            found.apply(event)
            if event.type == "OfcRoundScored":
                page.ofc_points.extend(found.points_rows())
        page.ofc_rounds[stream] = found

    def _round(self, stream: str, version: int) -> ProjectedRound:
        known = self._rounds.get(stream)
        if known is not None and known.version == version - 1:
            return known
        # projected by another run (or passed over as poison): warmed up from the store, as a hand is
        earlier = iter(self.store.events.get(UUID(stream), lte=version - 1))
        found = ProjectedRound(stream, Stored.of_event(next(earlier)))
        for event in earlier:
            found.apply(Stored.of_event(event))
        self._rounds[stream] = found
        return found

    def _integrity_case(self, page: _Page, event: Stored) -> None:
        """An integrity case's event: the case's row as it now stands."""
        stream = event.stream
        found = self._cases.get(stream)
        if event.version == 1:
            found = ProjectedCase(event)
        else:
            if found is None or found.version != event.version - 1:
                # projected by another run: read again from the store (a case has a handful of events)
                earlier = iter(self.store.events.get(UUID(stream), lte=event.version - 1))
                found = ProjectedCase(Stored.of_event(next(earlier)))
                for e in earlier:
                    found.apply(Stored.of_event(e))
            found.apply(event)
        self._cases[stream] = found
        page.integrity_cases[stream] = found

    def _competition_result(self, page: _Page, event: Stored) -> None:
        """A competition's event that may change its places (projections/rating.py): the Competition brought up to
        it from the store (only the events since the one last projected are read), its places and its row."""
        if event.type not in RESULT_EVENTS:
            return
        known = self._results.get(event.stream)
        if known is None or known.version > event.version:
            aggregate: Competition = self.store.repository.get(UUID(event.stream), version=event.version)
            known = self._results[event.stream] = ProjectedResults(aggregate)
        else:
            later: Any
            for later in self.store.events.get(UUID(event.stream), gt=known.version, lte=event.version):
                known.competition = later.mutate(known.competition)
        page.rating_results[event.stream] = known

    def _season_record(self, page: _Page, event: Stored) -> None:
        if event.type == "SeasonDisqualificationDecided":
            page.season_disqualifications.append(disqualification_row(event))

    def _season_rating(self, page: _Page, event: Stored) -> None:
        if event.type == "RatingRulesAdopted":
            page.rating_rules.append(rules_row(event))

    def _rejection(self, page: _Page, event: Stored) -> None:
        stream = event.stream
        if event.type == "Opened":
            competition = str(event.payload["competition_id"])
            self._competitions[stream] = competition
            page.rejection_logs.append((stream, competition))
            return
        competition = self._competitions.get(stream) or self._competition_of(stream)
        p = event.payload
        page.rejections.append(
            (
                competition, event.version - 1, p["kind"], p.get("rule", ""), p["reason"],
                p.get("field", ""), p.get("event_id", ""), p.get("event_type", ""), p.get("table_id", ""),
                p.get("hand_id", ""), p.get("seq"), event.at,
            )
        )

    def _competition_of(self, stream: str) -> str:
        row = self.database.one(schema.REJECTION_LOG_COMPETITION, (str(stream),))
        if row is None:
            opened: Any = next(iter(self.store.events.get(UUID(stream), lte=1)))
            competition = str(opened.payload["competition_id"])
        else:
            competition = str(row[0])
        self._competitions[stream] = competition
        return competition

    def _ruling(self, page: _Page, event: Stored) -> None:
        """An official's ruling on a hand, or the Chief Judge's inspection of its mucked cards (a
        HandReview's events: the review names its hand as ``<table>/<number>`` of its competition)."""
        if event.type == "HandReviewOpened":
            hand = reviewed_hand(event.payload)
            self._reviews[event.stream] = hand
            page.reviews.append((event.stream, hand))
            return
        hand = self._reviews.get(event.stream) or self._reviewed(event.stream)
        recorded_by = event.meta.get("recorded_by") or {}
        page.rulings.append(
            (
                hand, event.version, event.type, event.payload_text(), str(recorded_by.get("person", "")),
                str(recorded_by.get("role", "")), str(event.meta.get("event_id") or ""), event.at, event.link,
            )
        )
        if event.type == "RulingIssued":
            page.ruled_stacks.extend(self._ruled_stacks(hand, event))

    def _ruled_stacks(self, hand: str, event: Stored) -> list[tuple[Any, ...]]:
        """The hand's final stacks as this ruling leaves them beside the engine's, a row a seat, if it moved
        chips against what the hand's earlier rulings left (one that moves none leaves the last one's stacks
        in force). The domain amends the outcome: the hand's and the review's stored events are read for it
        (rulings are rare; a rebuild's partitions may have the hand's events in another process)."""
        outcome = stored_outcome(self.store.events.get(UUID(hand)))
        if outcome is None:
            return []
        ruling: RulingIssued = decode(event.payload, RULING_CATALOG)
        reviewed: Any = self.store.events.get(UUID(event.stream), lte=event.version - 1)
        earlier: list[RulingIssued] = [
            decode(e.payload, RULING_CATALOG) for e in reviewed if type(e).__name__ == "RulingIssued"
        ]
        if not chips_moved(outcome, earlier, ruling):
            return []
        ruled = stacks_in_force(outcome, [*earlier, ruling])
        return [
            (hand, event.version, ruling.ruling, ruling.kind.value, seat, ruled[seat], engine)
            for seat, engine in sorted(outcome.ended.final_stacks)
        ]

    def _reviewed(self, stream: str) -> str:
        row = self.database.one(schema.REVIEW_HAND, (str(stream),))
        if row is None:
            opened: Any = next(iter(self.store.events.get(UUID(stream), lte=1)))
            hand = reviewed_hand(opened.payload)
        else:
            hand = str(row[0])
        self._reviews[stream] = hand
        return hand

    def _forget(self) -> None:
        self.integrity.forget()
        self._hands.clear()
        self._competitions.clear()
        self._reviews.clear()
        self._rounds.clear()
        self._cases.clear()
        self._results.clear()

    def _write(self, w: Writer, page: _Page, sql: schema.Writes, last_id: int | None) -> None:
        hands = list(page.touched.values())
        for hand in hands:
            hand.settle()
        known = self._in_fresh if sql is schema.FRESH else None
        if known is None:
            new, replaced = [], hands
        else:
            new = [hand for hand in hands if hand.hand_id not in known]
            replaced = [hand for hand in hands if hand.hand_id in known]
        w.insert(sql.hands, [hand.hand_row() for hand in new])
        w.executemany(sql.upsert_hand, [hand.hand_row() for hand in replaced])
        w.insert(sql.history, page.history)
        w.insert(sql.stacks, page.stacks)
        w.executemany(sql.delete_pots, [(hand.hand_id,) for hand in replaced])
        w.insert(sql.pots, [row for hand in hands for row in hand.pot_rows()])
        w.insert(sql.showdowns, [row for hand in new if (row := hand.showdown_row()) is not None])
        w.executemany(sql.upsert_showdown, [row for hand in replaced if (row := hand.showdown_row()) is not None])
        w.insert(sql.rejection_logs, page.rejection_logs)
        w.insert(sql.rejections, page.rejections)
        w.insert(sql.reviews, page.reviews)
        w.insert(sql.rulings, page.rulings)
        w.insert(sql.ruled_stacks, page.ruled_stacks)
        w.executemany(sql.upsert_ofc_round, [found.round_row() for found in page.ofc_rounds.values()])
        w.insert(sql.ofc_points, page.ofc_points)
        w.executemany(sql.upsert_integrity_case, [found.row() for found in page.integrity_cases.values()])
        results = page.rating_results.values()
        w.executemany(sql.upsert_rating_competition, [found.competition_row() for found in results])
        w.executemany(sql.upsert_rating_place, [row for found in results for row in found.place_rows()])
        w.executemany(sql.upsert_rating_rules, page.rating_rules)
        w.executemany(sql.season_disqualification, page.season_disqualifications)
        competitions, players, pairs = self.integrity.rows()
        w.executemany(sql.integrity_competition, competitions)
        w.executemany(sql.integrity_player, players)
        w.executemany(sql.integrity_pair, pairs)
        w.executemany(sql.verdict, page.verdicts)
        if last_id is not None:
            w.execute(schema.SAVE_POSITION, (schema.POSITION_NAME, last_id))


def project_part(where: Where, part: int, parts: int, head: int, page: int, reopen: Reopen) -> int:
    """One worker process of a parallel rebuild: project the streams of partition ``part`` of ``parts``."""
    store, database = reopen(where)
    projector = Projector(store, database, page=page, owns=True)
    projector.partition = (part, parts)
    projector.database.take_turns(turns())
    projector.database.filling(True)
    try:
        return projector.project_partition(head)
    finally:
        projector.close()


def reviewed_hand(opened: dict[str, Any]) -> str:
    """The id of the hand a review is about: the federation's records name it ``<table>/<number>``."""
    table, _, number = str(opened["hand"]).rpartition("/")
    return str(hand_id(table, int(number), str(opened["competition"])))



def poison_events(database: ReadDatabase, limit: int = 100) -> list[dict[str, Any]]:
    """What the projector passed over (``rm_poison_events``): the operators' list, oldest first."""
    rows = database.query(schema.POISON_EVENTS, (limit,))
    return [
        {"notification_id": int(r[0]), "stream": str(r[1]), "version": int(r[2]), "topic": str(r[3]), "error": str(r[4])}
        for r in rows
    ]


def poison_count(database: ReadDatabase) -> int:
    row = database.one(schema.POISON_COUNT)
    return 0 if row is None else int(row[0])
