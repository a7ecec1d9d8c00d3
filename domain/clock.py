"""The service's clock is the authority (DESIGN decision 9): a record's ``occurred_at`` is the table's claim; the
time the log received it (``received_at``: the embedded log's clock at append, Kafka's append time) is the time
the act is judged at, and every deadline — the protest windows (bfsp 2.1.3, 7.3.2), the challenge windows (bfsp
5.9.1), the federation's 30 days (bfsp 7.3.4), levels and the clock — is measured on it (:func:`time_of_act`).

* A time later than the log's by more than the tolerance is refused from any source: nothing is reported before
  it happens. The tolerance is the configured skew, or :data:`FUTURE_TOLERANCE` where none is configured.
* With a skew configured (``POKERAUDIT_CLOCK_SKEW_S``; on by default with Kafka), a time earlier than the log's by
  more than it is refused too, except in an imported record: hand histories of past events (PHH, OHH, PokerStars,
  recorded by the importer) keep their own times, are marked ``imported`` in their meta, and are judged at those
  times, never against a live deadline.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from domain.roles import Role

#: how far ahead of the log's clock a reported time may be where no skew is configured (a table's clock a little
#: fast): beyond it, the time is in the future
FUTURE_TOLERANCE = timedelta(minutes=5)
#: the skew a production service (Kafka and PostgreSQL) allows where none is configured: a table's clock may be
#: this far off the service's, either way, and a record this late to the log
PRODUCTION_SKEW = timedelta(minutes=5)
#: the roles whose records carry the times of past events (imports of hand histories)
HISTORICAL = frozenset({Role.IMPORTER})
RULE = "DESIGN 9: the service's clock is the authority"


def is_imported(role: Role) -> bool:
    """A record of a past event (an imported hand history), which keeps its own time."""
    return role in HISTORICAL


def is_imported_record(meta: Mapping[str, Any]) -> bool:
    """Whether a stored record's meta marks it imported (the referee marks the importer's records so)."""
    return meta.get("imported") is True


def time_of_act(occurred_at: datetime, received_at: datetime | None, imported: bool) -> datetime:
    """The time an act is recorded and judged at: when the log received it, by the service's clock; an imported
    record's own time (a past event's, never held to a live deadline); the claim where the log kept no time (a
    log written before it did)."""
    if imported or received_at is None:
        return occurred_at
    return received_at


def time_of_stored_act(occurred_at: datetime, meta: Mapping[str, Any]) -> datetime:
    """:func:`time_of_act` of a record whose stored meta says when it was received and whether it was imported."""
    received = meta.get("received_at")
    return time_of_act(
        occurred_at,
        datetime.fromisoformat(received) if isinstance(received, str) else None,
        is_imported_record(meta),
    )


def refusal_of_time(
    occurred_at: datetime, received_at: datetime | None, role: Role, skew: timedelta | None
) -> str | None:
    """Why ``occurred_at`` may not stand for a record the log received at ``received_at``; None if it may."""
    if received_at is None:
        return None
    ahead = occurred_at - received_at
    tolerance = skew if skew is not None else FUTURE_TOLERANCE
    if ahead > tolerance:
        return (
            f"occurred_at {occurred_at.isoformat()} is {_seconds(ahead)} after the service received the record "
            f"({received_at.isoformat()}): a time in the future is refused from any source "
            f"(tolerance {_seconds(tolerance)})"
        )
    if skew is not None and not is_imported(role) and -ahead > skew:
        return (
            f"occurred_at {occurred_at.isoformat()} is {_seconds(-ahead)} before the service received the record "
            f"({received_at.isoformat()}), more than the clock skew allowed (POKERAUDIT_CLOCK_SKEW_S = "
            f"{_seconds(skew)}): deadlines are judged by the service's clock, so a record is reported when it happens"
        )
    return None


#: the times a payload reports of an act (a level's start, a protest filed, a decision, a notification): like
#: ``occurred_at``, none may lie in the future of the log's clock. (A deadline is a time to come, and is not one.)
PAYLOAD_TIMES = ("at", "filed_at", "forwarded_at", "decided_at", "notified_at", "raised_at")
_PAYLOAD_TIME_NAMES = frozenset(PAYLOAD_TIMES)


def refusal_of_payload_times(
    payload: dict[str, Any], received_at: datetime | None, skew: timedelta | None
) -> tuple[str, str] | None:
    """(field, why) for a time ``payload`` reports that lies in the future of the log's clock; None if none does."""
    if received_at is None or payload.keys().isdisjoint(_PAYLOAD_TIME_NAMES):
        return None  # most records (a hand's acts) report no time of their own: asked of every record
    tolerance = skew if skew is not None else FUTURE_TOLERANCE
    for name in PAYLOAD_TIMES:
        value = payload.get(name)
        if not isinstance(value, str):
            continue
        try:
            reported = datetime.fromisoformat(value)
        except ValueError:
            continue  # the schema's to refuse
        if reported.tzinfo is not None and reported - received_at > tolerance:
            return f"payload.{name}", (
                f"{name} {reported.isoformat()} is {_seconds(reported - received_at)} after the service received the "
                f"record ({received_at.isoformat()}): a time in the future is refused from any source"
            )
    return None


def _seconds(span: timedelta) -> str:
    return f"{span.total_seconds():g} s"
