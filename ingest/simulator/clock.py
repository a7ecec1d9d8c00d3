"""The simulation's clock, for the log that receives a simulation (DESIGN decision 9).

A simulated competition is played on synthetic times (seeded: the same seed gives the same records), and its
deadlines — protests before the end, the federation's 30 days, challenge windows, levels — are meant on those
times. The log's clock decides when an act is judged, so the operator's ``pokeraudit simulate`` and the demo
publish a simulation to the embedded log under this clock: the log receives each record at the time the
simulation played it. Nothing else appends under it (the API's records are received at the service's clock).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime


def simulation_clock(value: bytes) -> datetime:
    """When the simulation played the record ``value`` (its ``occurred_at``); now for a record without one."""
    try:
        at = datetime.fromisoformat(json.loads(value)["occurred_at"])
    except (ValueError, KeyError, TypeError):
        return datetime.now(UTC)
    return at if at.tzinfo is not None else datetime.now(UTC)
