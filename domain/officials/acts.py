"""Which act of the roles table a recorded event is (:mod:`domain.officials.permissions`).

Most events are their own act (``MisdealDeclared``); some carry acts of different weight, told apart by the
payload: a penalty's kind (a warning is a judge's, a competition disqualification the Chief Judge's), a
ruling's kind, an elimination that is a disqualification. The referee and the API ask the same question here.
"""

from __future__ import annotations

from typing import Any

from domain.competition.events import EliminationReason, PlayerEliminated
from domain.officials.permissions import PERMISSIONS, Act

_ACTS = frozenset(a.value for a in PERMISSIONS)


def act_of(event: Any) -> str | None:
    """The roles table's act for ``event``; None for an event the roles table does not govern."""
    name = type(event).__name__
    if isinstance(event, PlayerEliminated) and event.reason is EliminationReason.DISQUALIFIED:
        return Act.COMPETITION_DISQUALIFICATION
    if name in ("PenaltyImposed", "RulingIssued"):
        act: Act = event.kind.act
        return act
    if name == "ProtocolSigned":
        return Act.FINAL_PROTOCOL_SIGNED
    return name if name in _ACTS else None
