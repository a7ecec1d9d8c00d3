"""The referee's verdicts as a read model (``rm_verdicts``): for every reported record the store answered, what
its stored answer says of it — who recorded it, at which competition and sequence number, and for a rejection
its kind, rule, reason and the field at fault.

The projector keeps it like the other read models, exactly once and rebuilt from scratch: a row for each stream
a record's id appears in, from the first stored event of that stream carrying the id (an accepted record's events
name it in their meta, a rejection in its payload). A hand's streams are the exception: their events are most of
what is stored, and the hand's history (``rm_history``) already keeps each one's event id, recorder and sequence
number, so a hand's answer is read there (:data:`projections.schema.HISTORY_ANSWERS`) rather than written twice.
The API reads a verdict here instead of replaying the stream the store answered the id with (api/verdicts.py,
where the answer is checked against the record submitted).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from projections.hand_projection import Stored
from projections.schema import VERDICT_COLUMNS

#: a rejection in a competition's rejection log (domain/rejections.py); any other stored event is an acceptance
REJECTED = "RecordRejected"


class StoredVerdict(BaseModel):
    """One stored answer to a record's id, in one stream."""

    event_id: str
    stream: str
    rejected: bool
    #: as the answer's meta records the record (blank or None where the record had no envelope)
    competition: str
    recorded_by: str
    role: str
    seq: int | None
    #: for a rejection, as its payload names the record and why it was refused
    event_type: str = ""
    table_id: str = ""
    hand: str = ""
    kind: str = ""
    rule: str = ""
    reason: str = ""
    field: str = ""


def verdict_row(event: Stored) -> tuple[Any, ...] | None:
    """The row ``event`` gives ``rm_verdicts`` (None: it answers no record's id)."""
    meta = event.meta if isinstance(event.meta, dict) else {}
    payload = event.payload if isinstance(event.payload, dict) else {}
    rejected = event.type == REJECTED
    event_id = str((payload if rejected else meta).get("event_id") or "")
    if not event_id:
        return None
    by = meta.get("recorded_by") or {}
    seq = meta.get("seq")
    common = (
        event_id, event.stream, str(meta.get("competition_id") or ""), int(rejected), str(by.get("person") or ""),
        str(by.get("role") or ""), seq if isinstance(seq, int) and not isinstance(seq, bool) else None,
    )
    if not rejected:
        return (*common, "", "", "", "", "", "", "")
    return (
        *common, str(payload.get("event_type") or ""), str(payload.get("table_id") or ""),
        str(payload.get("hand_id") or ""), str(payload.get("kind") or ""), str(payload.get("rule") or ""),
        str(payload.get("reason") or ""), str(payload.get("field") or ""),
    )


def of_history(rows: Iterable[tuple[Any, ...]]) -> dict[str, dict[str, StoredVerdict]]:
    """A hand's answers from its history's rows (event id, hand, competition, recorder, role, seq; in version
    order: the first of a stream's events carrying an id is its answer)."""
    out: dict[str, dict[str, StoredVerdict]] = {}
    for event_id, stream, competition, person, role, seq in rows:
        if not event_id or str(stream) in out.get(str(event_id), {}):
            continue
        out.setdefault(str(event_id), {})[str(stream)] = StoredVerdict(
            event_id=str(event_id), stream=str(stream), rejected=False, competition=str(competition),
            recorded_by=str(person), role=str(role), seq=None if seq is None else int(seq),
        )
    return out


def of_rows(rows: Iterable[tuple[Any, ...]]) -> dict[str, dict[str, StoredVerdict]]:
    """Rows of ``rm_verdicts`` by record id, then by stream."""
    out: dict[str, dict[str, StoredVerdict]] = {}
    for row in rows:
        found = dict(zip(VERDICT_COLUMNS, row, strict=True))
        found["rejected"] = bool(found["rejected"])
        found["seq"] = None if found["seq"] is None else int(found["seq"])
        verdict = StoredVerdict(**found)
        out.setdefault(verdict.event_id, {})[verdict.stream] = verdict
    return out
