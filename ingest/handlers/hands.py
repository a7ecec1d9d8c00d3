"""A hand's events (the game as dealt, and the officials' acts at a hand): the handler the referee gives
every record that is neither an OFC round's nor a federation act.

The hand is loaded by its natural key (competition, table, hand number: :func:`ingest.judgement.hand_stream`)
from the referee's hot hands, numbered by ``seq`` (a start at seq 0, then one per reported event), and judged
by the Hand aggregate and its engine (domain/hand/). Before that, the desk's checks of the recorder
(:meth:`ingest.handlers.desk.Desk.refusal_of_hand_event`: the roles table and the appointments), of a player
serving missed rounds (:meth:`~ingest.handlers.desk.Desk.refusal_while_serving`) and, for a new hand of a
competition, of the competition's floor (:meth:`~ingest.handlers.desk.Desk.refusal_of_hand_start`); after
it, the competition follows its hands (:meth:`~ingest.handlers.desk.Desk.follow_hand`).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.clock import is_imported, time_of_act
from domain.errors import HandError, RuleError
from domain.hand.aggregate import Hand
from domain.hand.events import HandStarted
from ingest.envelope import Envelope, MalformedRecord
from ingest.handlers.desk import Desk
from ingest.judgement import Batch, Bench, hand_stream, illegal, malformed, meta_of, out_of_sequence
from ingest.log import LogRecord


def judge_hand_event(
    bench: Bench, desk: Desk, batch: Batch, record: LogRecord, event_id: UUID, envelope: Envelope, event: Any
) -> None:
    """Accept ``event`` into its hand, or reject it with the rule (or as out of sequence, or malformed)."""
    refusal: RuleError | None = desk.refusal_of_hand_event(envelope) or desk.refusal_while_serving(envelope, event)
    if refusal is None and isinstance(event, HandStarted) and _opens_a_hand(bench, envelope, event):
        at = time_of_act(envelope.occurred_at, record.received_at, is_imported(envelope.recorded_by.role))
        refusal = desk.refusal_of_hand_start(envelope, event, at)
    if refusal is not None:
        bench.reject(batch, record, event_id, envelope, illegal(record, envelope, refusal))
        return
    meta = meta_of(envelope, record)
    at = time_of_act(envelope.occurred_at, record.received_at, is_imported(envelope.recorded_by.role))
    try:
        stream = hand_stream(envelope, event)
    except MalformedRecord as unplaced:  # (not ``err``: compiled, an exception's name keeps its first type)
        bench.reject(batch, record, event_id, envelope, malformed(record, envelope, unplaced))
        return
    hand = bench.hand(stream)
    if isinstance(event, HandStarted):
        if hand is not None:
            why = f"hand {envelope.hand_id} at table {envelope.table_id} has already started"
            bench.reject(batch, record, event_id, envelope, out_of_sequence(record, envelope, why))
            return
        if envelope.seq != 0:
            why = f"a hand starts at seq 0; this start has seq {envelope.seq}"
            bench.reject(batch, record, event_id, envelope, out_of_sequence(record, envelope, why))
            return
        try:
            hand = Hand.start(event, at, meta)
        except HandError as err:
            bench.reject(batch, record, event_id, envelope, illegal(record, envelope, err))
            return
        bench.keep(hand)
    else:
        if hand is None:
            why = f"no hand {envelope.hand_id} has started at table {envelope.table_id}"
            bench.reject(batch, record, event_id, envelope, out_of_sequence(record, envelope, why))
            return
        expected = len(hand.reported) + 1
        if envelope.seq != expected:
            gap = "a gap" if envelope.seq > expected else "already recorded"
            why = f"seq {envelope.seq} is out of step: the hand expects seq {expected} ({gap})"
            bench.reject(batch, record, event_id, envelope, out_of_sequence(record, envelope, why))
            return
        try:
            hand.record(event, at, meta)
        except HandError as err:
            bench.reject(batch, record, event_id, envelope, illegal(record, envelope, err))
            return
    batch.follow(hand)
    desk.follow_hand(batch, envelope, event, hand, meta)  # a competition's floor follows its hands
    batch.accept(record, event_id, envelope, hand)


def _opens_a_hand(bench: Bench, envelope: Envelope, started: HandStarted) -> bool:
    """A start the referee would take as a new hand (a start of a hand that exists, or one out of step, is
    rejected below as out of sequence, not by the competition)."""
    if envelope.seq != 0:
        return False
    try:
        return bench.hand(hand_stream(envelope, started)) is None
    except MalformedRecord:
        return False
