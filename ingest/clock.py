"""The service's clock is the authority (DESIGN decision 9): a record's ``occurred_at`` is the table's claim,
judged against the time the log received it.

* A time later than the log's by more than the tolerance is refused from any source: nothing is reported before
  it happens. The tolerance is the configured skew, or :data:`FUTURE_TOLERANCE` where none is configured.
* With a skew configured (``POKERAUDIT_CLOCK_SKEW_S``), a time earlier than the log's by more than it is refused
  too, except from an importer: hand histories of past events keep their own times (their records are marked by
  the importer's role) and are never judged against live deadlines.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from domain.roles import Role

#: how far ahead of the log's clock a reported time may be where no skew is configured (a table's clock a little
#: fast): beyond it, the time is in the future
FUTURE_TOLERANCE = timedelta(minutes=5)
#: the roles whose records carry the times of past events (imports of hand histories)
HISTORICAL = frozenset({Role.IMPORTER})
RULE = "DESIGN 9: the service's clock is the authority"


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
    if skew is not None and role not in HISTORICAL and -ahead > skew:
        return (
            f"occurred_at {occurred_at.isoformat()} is {_seconds(-ahead)} before the service received the record "
            f"({received_at.isoformat()}), more than the clock skew allowed (POKERAUDIT_CLOCK_SKEW_S = "
            f"{_seconds(skew)}): deadlines are judged by the service's clock, so a record is reported when it happens"
        )
    return None


#: the times a payload reports of an act (a level's start, a protest filed, a decision, a notification): like
#: ``occurred_at``, none may lie in the future of the log's clock. (A deadline is a time to come, and is not one.)
PAYLOAD_TIMES = ("at", "filed_at", "forwarded_at", "decided_at", "notified_at", "raised_at")


def refusal_of_payload_times(
    payload: dict[str, Any], received_at: datetime | None, skew: timedelta | None
) -> tuple[str, str] | None:
    """(field, why) for a time ``payload`` reports that lies in the future of the log's clock; None if none does."""
    if received_at is None:
        return None
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
