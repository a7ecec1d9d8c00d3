"""The write path's handler for Open-Face Chinese records (bfsp 8): the referee hands it every OFC event.

A round is an :class:`domain.ofc.aggregate.OfcRound`, one stream per competition, table and round number (the
envelope's ``hand_id`` is the round number), numbered by ``seq`` like a hand: the start at seq 0, then one per
reported event. For each record the handler

1. checks the recorder's role: the game as dealt is recorded at the table (a dealer, a judge, the Chief Judge)
   or by a machine reporting it (the importer, the simulator) (bfsp 2.4.1);
2. routes it to its round: a start of a round that exists, an event of a round that does not, or a sequence
   number out of step is *out of sequence*;
3. at a start, checks who plays in fantasy against the table's round before (:func:`domain.ofc.game
   .verify_fantasy`: the domain does no I/O, so the handler finds that round);
4. judges it through the round's engine: accepted, or refused with its rule (*illegal*, citing bfsp 8).

A round of a competition that has a Competition aggregate (an OFC competition run by its Regulations) is judged
against it too: at its start, the draw's players at the table, the round's number and the button's move
(:meth:`Competition.verify_ofc_round`); once scored, the Competition counts it (``OfcRoundCounted``), so its
places are by points (domain/competition/ofc_points.py). A competition without one (plain simulations, imports)
keeps its rounds judged by the round alone.

It keeps its rounds hot in the referee's own table of hot aggregates, as the desk does, so the referee's
``forget()`` after a failed commit drops them too. It is given the referee's :class:`ingest.judgement.Bench`,
never the referee itself.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.clock import time_of_stored_act
from domain.competition.aggregate import Competition, competition_stream_id
from domain.competition.events import OfcPoints, OfcRoundCounted
from domain.competition.hand_checks import table_number
from domain.competition.ofc_points import verify_recorder
from domain.errors import NotPermittedError, RuleError
from domain.ofc.aggregate import OfcRound, ofc_round_id
from domain.ofc.events import OFC, OFC_REPORTED, OfcRoundScored, OfcRoundStarted
from domain.ofc.game import verify_fantasy
from domain.ofc.recording import DEALT_BY, numbered_table, verify_dealt_by, verify_previous_round_over
from domain.rejections import Rejection
from domain.rulebooks import get_rulebook
from ingest.envelope import Envelope, MalformedRecord
from ingest.judgement import Batch, Bench, illegal, malformed, meta_of, out_of_sequence
from ingest.log import LogRecord
from ingest.store import Store

JSON = dict[str, Any]
_REPORTED = tuple(OFC_REPORTED.values())


def is_ofc(event: Any) -> bool:
    return isinstance(event, _REPORTED)


def route_ofc(bench: Bench, batch: Batch, record: LogRecord, event_id: UUID, envelope: Envelope, event: Any) -> None:
    """Judge an OFC record: accepted into its round (and the competition that counts it), or rejected."""
    outcome = judge_ofc(bench.store, bench.hot, record, envelope, event)
    if isinstance(outcome, Rejection):
        bench.reject(batch, record, event_id, envelope, outcome)
        return
    batch.accept(record, event_id, envelope, *outcome)


def judge_ofc(
    store: Store, hot: MutableMapping[UUID, Any], record: LogRecord, envelope: Envelope, event: Any
) -> tuple[Aggregate, ...] | Rejection:
    """The round ``event`` was accepted into (and the competition that counted it), with their new events
    pending; or the rejection."""
    meta = meta_of(envelope, record)
    role = envelope.recorded_by.role
    try:
        verify_dealt_by(role)
    except NotPermittedError as refusal:
        return _illegal(record, envelope, refusal)
    if not envelope.table_id:
        return _malformed(record, envelope, "an OFC round's event must name its table", "table_id")
    try:
        number = int(envelope.hand_id or "")
    except ValueError:
        return _malformed(record, envelope, f"hand_id {envelope.hand_id!r} is not a round number", "hand_id")
    stream = ofc_round_id(envelope.table_id, number, envelope.competition_id)
    found = _round(store, hot, stream)
    at = time_of_stored_act(envelope.occurred_at, meta)  # the service's clock (domain/clock.py)
    if isinstance(event, OfcRoundStarted):
        if event.table_id != envelope.table_id or event.round_number != number:
            return _malformed(record, envelope,
                f"the envelope says table {envelope.table_id} round {number}, the start table {event.table_id} "
                f"round {event.round_number}",
                "hand_id",
            )
        if found is not None:
            return out_of_sequence(record, envelope, f"round {number} at table {envelope.table_id} has already started")
        if envelope.seq != 0:
            return out_of_sequence(record, envelope, f"a round starts at seq 0; this start has seq {envelope.seq}")
        previous = _round(store, hot, ofc_round_id(envelope.table_id, number - 1, envelope.competition_id))
        try:
            previous_over = previous.is_over if previous is not None else None
            verify_previous_round_over(envelope.table_id, number, previous_over, get_rulebook(event.rulebook))
            verify_fantasy(event, previous.engine.scored if previous is not None else None, get_rulebook(event.rulebook))
            competition = _competition(store, hot, envelope.competition_id)
            if competition is not None:
                who = envelope.recorded_by
                verify_recorder(competition.officials, competition.competition_id, who.person, who.role, DEALT_BY)
                players = tuple((p.seat, p.player) for p in event.players)
                at_table = numbered_table(competition.competition_id, envelope.table_id, competition.rulebook)
                competition.verify_ofc_round(at_table, number, event.button, players)
            started = OfcRound.start(event, at, meta)
        except (RuleError, KeyError) as err:
            return _illegal(record, envelope, err)
        hot[started.id] = started
        return (started,)
    if found is None:
        return out_of_sequence(record, envelope, f"no round {number} has started at table {envelope.table_id}")
    expected = len(found.reported) + 1
    if envelope.seq != expected:
        gap = "a gap" if envelope.seq > expected else "already recorded"
        return out_of_sequence(
            record, envelope, f"seq {envelope.seq} is out of step: the round expects seq {expected} ({gap})"
        )
    try:
        derived = found.record(event, at, meta)
    except RuleError as err:
        return _illegal(record, envelope, err)
    scored = next((d for d in derived if isinstance(d, OfcRoundScored)), None)
    competition = _competition(store, hot, envelope.competition_id) if scored is not None else None
    table = table_number(envelope.table_id)
    # Counted only where the start was judged against an OFC competition (one adopted after the round started,
    # or of another variant, does not count it: nothing here may raise past the referee).
    if scored is None or competition is None or competition.regulations.variant != OFC or table is None:
        return (found,)
    counted = OfcRoundCounted(
        table,
        number,
        found.engine.started.button,
        tuple(OfcPoints(h.player, h.points, h.fouled, sum(h.royalties)) for h in scored.hands),
    )
    competition.count_ofc_round(counted, at, {**meta, "follows": meta.get("event_id")})
    return (found, competition)


def _competition(store: Store, hot: MutableMapping[UUID, Any], competition_id: str) -> Competition | None:
    """The competition's aggregate, from the referee's hot aggregates (the desk keeps it there too) or the store."""
    stream = competition_stream_id(competition_id)
    held = hot.get(stream)
    if isinstance(held, Competition):
        return held
    try:
        found: Aggregate = store.repository.get(stream)
    except AggregateNotFoundError:
        return None
    if not isinstance(found, Competition):
        return None
    hot[stream] = found
    return found


def _round(store: Store, hot: MutableMapping[UUID, Any], stream: UUID) -> OfcRound | None:
    held = hot.get(stream)
    if isinstance(held, OfcRound):
        return held
    try:
        found: Aggregate = store.repository.get(stream)
    except AggregateNotFoundError:
        return None
    if not isinstance(found, OfcRound):
        return None
    hot[stream] = found
    return found


def _illegal(record: LogRecord, envelope: Envelope, err: Exception) -> Rejection:
    if isinstance(err, RuleError):
        return illegal(record, envelope, err)
    # a KeyError: the start names a rulebook the catalog does not hold
    return malformed(record, envelope, MalformedRecord(str(err), "payload.rulebook"))


def _malformed(record: LogRecord, envelope: Envelope, why: str, field: str) -> Rejection:
    return malformed(record, envelope, MalformedRecord(why, field))
