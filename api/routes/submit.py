"""Reporting events: one record or a batch onto the log of record, and, when asked, the referee's verdict.

A record is checked before it reaches the log (its envelope and its payload against the catalog's schemas,
the caller's right to report it at that table), so the log holds only what could be judged; the rules are the
referee's to apply. ``recorded_by`` is the token's person and role: a record that names someone else is
refused, one that names nobody is signed with the token's.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, TypeVar
from uuid import UUID

from fastapi import APIRouter, Body, Depends, Query, Response
from pydantic import BaseModel, ConfigDict, Field

from api.auth import Principal
from api.bootstrap import Pipeline
from api.deps import (
    CurrentPipeline,
    CurrentSealing,
    CurrentSettings,
    CurrentWorkers,
    LiveReadModels,
    roles,
)
from api.errors import ERROR_RESPONSES, ApiError, ErrorBody
from api.sealing import SealingPolicy
from api.settings import Settings
from api.verdicts import EventVerdict, await_projected, await_seen, verdicts
from api.workers import Workers
from domain.clock import RULE as CLOCK_RULE
from domain.clock import refusal_of_payload_times, refusal_of_time
from domain.hand.aggregate import hand_id
from domain.officials.permissions import PERMISSIONS
from domain.roles import Role
from ingest.catalog import INTEGRITY_CASE_CATALOG
from ingest.envelope import Envelope, MalformedRecord, RecordedBy, decode_event, encode
from ingest.referee import record_digest
from ingest.runners import INFRASTRUCTURE_ERRORS
from projections import views
from projections.read_models import ReadModels

#: most records in one batch (a hand is a few dozen; a batch is a table's worth of hands)
MAX_BATCH = 1000
#: longest a request waits for the referee
MAX_WAIT_SECONDS = 30.0
#: the shortest wait a client may ask for: the log of record confirms an append in milliseconds, but not in no
#: time — a wait shorter than that would answer 503 (the log did not confirm) with the broker up
MIN_WAIT_SECONDS = 0.5
#: who may report at all (a dealer only at his own table). Which acts each may record is the roles table's, applied
#: by the referee: an act refused for its recorder's role is stored as a rejection, so the attempt stays on record
REPORTERS = frozenset({Role.DEALER, Role.JUDGE, Role.CHIEF_JUDGE, Role.SECRETARY, Role.FEDERATION})
#: what a participant records: his own challenges and protests (the roles table's acts of the participant)
PARTICIPANT_ACTS = frozenset(a.value for a, p in PERMISSIONS.items() if Role.PARTICIPANT in p.roles)
#: what the integrity team records: its cases (domain/integrity/case.py); nothing at a table or of the officials'
INTEGRITY_ACTS = frozenset(INTEGRITY_CASE_CATALOG)
#: longest a submission without ``wait`` waits for the log to take its records
APPEND_SECONDS = 10.0
#: how long a waiting submission pauses after the store failed to answer
STORE_RETRY_SECONDS = 0.2
#: ids named in a 503 or 504's message (the rest counted)
LISTED_IDS = 20
#: threads that do a submission's waiting, so that the request answers at its deadline whatever they wait on
_WAITING = ThreadPoolExecutor(max_workers=16, thread_name_prefix="pokeraudit-submit")
T = TypeVar("T")
#: failures of the log (the broker, the embedded log's file): the records were not taken
LOG_ERRORS: tuple[type[BaseException], ...] = (*INFRASTRUCTURE_ERRORS, sqlite3.Error)


router = APIRouter(prefix="/v1", tags=["events"])


class EventSubmission(Envelope):
    """A record as a client reports it: the log's envelope, ``recorded_by`` optional (the token's)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    recorded_by: RecordedBy | None = None  # type: ignore[assignment]


class SubmissionResult(BaseModel):
    event_ids: list[UUID] = Field(description="the records' ids, in the order submitted")
    verdicts: list[EventVerdict] = Field(default_factory=list, description="with wait=true: each record's verdict")


RESPONSES: dict[int | str, dict[str, object]] = {
    **ERROR_RESPONSES,
    200: {"model": SubmissionResult, "description": "with wait=true: the referee's verdict on every record"},
    504: {"model": ErrorBody, "description": "the referee did not judge every record within the timeout"},
}

#: the caller, if his role may report at all (401 without a token, 403 for a role that reports nothing)
Reporter = Annotated[
    Principal,
    Depends(roles(
        REPORTERS | {Role.INTEGRITY, Role.PARTICIPANT}, "reporting events",
        signed_in="reporting events needs a bearer token",
    )),
]
Wait = Annotated[bool, Query(description="wait for the referee's verdict (200) instead of answering 202")]
Timeout = Annotated[float, Query(ge=MIN_WAIT_SECONDS, le=MAX_WAIT_SECONDS,
                                 description="seconds to wait for the verdict, the log's confirmation included")]


@router.post("/events", status_code=202, response_model=SubmissionResult, responses=RESPONSES)
def submit_event(
    submission: EventSubmission,
    caller: Reporter,
    wiring: Wiring,
    response: Response,
    wait: Wait = False,
    timeout: Timeout = 10.0,
) -> SubmissionResult:
    """Report one event; 202 once it is on the log, or with ``wait=true`` 200 with the referee's verdict."""
    return _submit(wiring, response, caller, [(submission, "")], wait, timeout)


@router.post("/events/batch", status_code=202, response_model=SubmissionResult, responses=RESPONSES)
def submit_batch(
    submissions: Annotated[list[EventSubmission], Body(min_length=1, max_length=MAX_BATCH)],
    caller: Reporter,
    wiring: Wiring,
    response: Response,
    wait: Wait = False,
    timeout: Timeout = 10.0,
) -> SubmissionResult:
    """Report up to 1000 events in order, all or none: one refused record refuses the batch."""
    return _submit(wiring, response, caller, [(s, f"{n}.") for n, s in enumerate(submissions)], wait, timeout)


@dataclass(frozen=True)
class Submitting:
    """What a submission needs of the process: where its records go, who judges and projects them, and how a
    rejection's reason is sealed for the caller."""

    settings: Settings
    pipeline: Pipeline
    workers: Workers | None
    models: ReadModels | None
    sealing: SealingPolicy


def submitting(
    settings: CurrentSettings, pipeline: CurrentPipeline, workers: CurrentWorkers, models: LiveReadModels,
    sealing: CurrentSealing,
) -> Submitting:
    return Submitting(settings, pipeline, workers, models, sealing)


Wiring = Annotated[Submitting, Depends(submitting)]


def _submit(
    wiring: Submitting,
    response: Response,
    caller: Principal,
    submissions: list[tuple[EventSubmission, str]],
    wait: bool,
    timeout: float,
) -> SubmissionResult:
    skew = wiring.settings.clock_skew
    envelopes = [envelope_for(caller, s, at, skew) for s, at in submissions]
    pipeline, models = wiring.pipeline, wiring.models
    ids = [e.event_id for e in envelopes]
    written = [encode(e) for e in envelopes]
    # the whole answer within ``timeout`` whatever is down (a client's timeout must hold): the log's client and
    # the store's wait for a down service far longer than a request may
    deadline = time.monotonic() + (timeout if wait else APPEND_SECONDS)
    try:
        _within(deadline, lambda: pipeline.log.append([(e.key, raw) for e, raw in zip(envelopes, written, strict=True)]))
    except FutureTimeout as exc:
        raise ApiError(
            503, "log_unavailable",
            f"the log of record did not confirm the records within {deadline_seconds(timeout, wait):g} s (its client "
            f"may still deliver them once the broker is back): submit them again (each id is judged once): "
            f"{_listed(ids)}",
        ) from exc
    except LOG_ERRORS as exc:
        raise ApiError(503, "log_unavailable", f"the log of record did not take the records: {exc}") from exc
    if wiring.workers is not None:
        wiring.workers.wake()
    if not wait:
        return SubmissionResult(event_ids=ids)
    if models is None:
        raise ApiError(
            503, "read_models_unavailable",
            "the records are on the log, but the read models, where verdicts are read, are not open in this process: "
            "submit them again without wait and read them when projected: " + _listed(ids),
        )

    def judged() -> tuple[set[UUID], list[EventVerdict], BaseException | None, bool]:
        # the store unreachable is waited out like a slow referee: the records are on the log either way
        while True:
            try:
                seen = await_seen(pipeline.store, ids, max(0.0, deadline - time.monotonic()))
                if len(seen) < len(set(ids)):
                    return seen, [], None, True
                # the verdicts are the read models': read once the projector has taken the answers
                answers = await_projected(pipeline.store, models, ids, max(0.0, deadline - time.monotonic()))
                if answers is None:
                    return seen, [], None, False
                digests = [record_digest(raw) for raw in written]
                return seen, verdicts(pipeline.store, answers, envelopes, readable, digests), None, True
            except INFRASTRUCTURE_ERRORS as exc:
                if time.monotonic() + STORE_RETRY_SECONDS >= deadline:
                    return set(), [], exc, True
                time.sleep(STORE_RETRY_SECONDS)

    readable = _readable(caller, models, wiring.sealing)
    try:
        seen, found, failure, projected = _within(deadline, judged)
    except FutureTimeout:
        seen, found, failure, projected = set(), [], None, True
    if not found and not projected:
        raise ApiError(
            504,
            "verdict_timeout",
            f"the referee judged all {len(set(ids))} records, but the read models did not take its verdicts within "
            f"{timeout:g} s (is the projector running?): submit them again with wait=true to read the verdict (each "
            "id is judged once): " + _listed(ids),
        )
    if not found:
        unreachable = f" (the store could not be read: {failure})" if failure is not None else ""
        raise ApiError(
            504,
            "verdict_timeout",
            f"the referee judged {len(seen)} of {len(set(ids))} records within {timeout:g} s{unreachable}; they are "
            "on the log and will be judged: submit them again with wait=true to read the verdict (each id is judged "
            "once): " + _listed(ids),
        )
    response.status_code = 200
    return SubmissionResult(event_ids=ids, verdicts=found)


def submit_and_wait(
    wiring: Submitting, caller: Principal, submission: EventSubmission, timeout: float = 10.0
) -> EventVerdict:
    """One record put on the log and its verdict awaited, as ``POST /v1/events?wait=true`` does it (the same
    checks before the log, the same 503 and 504): for routes whose act is one record (the protocol's snapshots
    and signatures)."""
    return _submit(wiring, Response(), caller, [(submission, "")], True, timeout).verdicts[0]


def deadline_seconds(timeout: float, wait: bool) -> float:
    return timeout if wait else APPEND_SECONDS


def _listed(ids: list[UUID]) -> str:
    shown = ", ".join(str(i) for i in ids[:LISTED_IDS])
    return shown + (f" and {len(ids) - LISTED_IDS} more" if len(ids) > LISTED_IDS else "")


def _within(deadline: float, work: Callable[[], T]) -> T:
    """``work()``'s answer, or :class:`concurrent.futures.TimeoutError` at ``deadline`` (the work goes on in
    its thread and ends when its client's own timeout does: an append may still land, harmlessly)."""
    return _WAITING.submit(work).result(timeout=max(0.0, deadline - time.monotonic()))


def _readable(caller: Principal, models: ReadModels, sealing: SealingPolicy) -> Callable[[Envelope, str], str]:
    """A rejection's reason as ``caller`` may read it: the cards it quotes sealed as on the hand it is about
    (api/sealing.py; a hand the read models do not show yet is taken as being played)."""

    def readable(envelope: Envelope, reason: str) -> str:
        def hand_of(table_id: str, number: str) -> views.Hand | None:
            if not number.isdigit() or len(number) > 18:
                return None
            with models.pinned() as pinned:
                return pinned.hand(str(hand_id(table_id, int(number), envelope.competition_id)))

        return sealing.reason(
            reason, envelope.competition_id, envelope.table_id or "", envelope.hand_id or "", hand_of, caller
        )

    return readable


def envelope_for(
    caller: Principal, submission: EventSubmission, at: str = "", skew: timedelta | None = None
) -> Envelope:
    """The log's envelope for ``submission``, signed by ``caller``; 401/403/422 if it may not go on the log
    (a time the referee would refuse by the service's clock included: domain/clock.py)."""
    recorded_by = _reporter(caller, submission, at)
    envelope = Envelope(**{**dict(submission), "recorded_by": recorded_by})
    try:
        decode_event(envelope)
    except MalformedRecord as err:
        raise ApiError(422, "validation_error", f"{at}{err.field}: {err.reason}", field=at + err.field) from err
    now = datetime.now(UTC)
    untimely = refusal_of_time(envelope.occurred_at, now, recorded_by.role, skew)
    if untimely is not None:
        raise ApiError(422, "validation_error", f"{at}occurred_at: {untimely}", field=f"{at}occurred_at", rule=CLOCK_RULE)
    ahead = refusal_of_payload_times(envelope.payload, now, skew)
    if ahead is not None:
        raise ApiError(422, "validation_error", f"{at}{ahead[0]}: {ahead[1]}", field=at + ahead[0], rule=CLOCK_RULE)
    return envelope


def _reporter(caller: Principal, submission: EventSubmission, at: str) -> RecordedBy:
    """Who recorded the submission (a :data:`Reporter`, checked for where he may report)."""
    if caller.role is Role.INTEGRITY and submission.type not in INTEGRITY_ACTS:
        raise ApiError(
            403, "forbidden",
            f"the integrity role reports its cases' acts only ({', '.join(sorted(INTEGRITY_ACTS))}); this record is "
            f"a {submission.type}",
        )
    if caller.role is Role.PARTICIPANT and submission.type not in PARTICIPANT_ACTS:
        raise ApiError(
            403, "forbidden",
            f"a participant reports his own challenges and protests only ({', '.join(sorted(PARTICIPANT_ACTS))}); "
            f"this record is a {submission.type}",
        )
    if caller.role is Role.DEALER and submission.table_id != caller.table:
        raise ApiError(
            403,
            "forbidden",
            f"a dealer reports only at his own table ({caller.table}); this record is for table {submission.table_id}",
            field=f"{at}table_id",
        )
    if caller.competition is not None and submission.competition_id != caller.competition:
        raise ApiError(
            403,
            "forbidden",
            f"this token is for competition {caller.competition}; the record is for {submission.competition_id}",
            field=f"{at}competition_id",
        )
    claimed = submission.recorded_by
    if claimed is not None and (claimed.person, claimed.role) != (caller.person, caller.role):
        raise ApiError(
            403,
            "forbidden",
            f"the record says {claimed.person} ({claimed.role.value}) recorded it, but the token is "
            f"{caller.person}'s ({caller.role.value}): a record is signed by whoever reports it",
            field=f"{at}recorded_by",
        )
    return RecordedBy(person=caller.person, role=caller.role)
