"""A hand's mechanical outcome read back from its stored events: what a ruling on the hand amends. The referee's
desk judges a ruling against it; the federation's rulings view shows it beside the amended outcome."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.hand.events import HandEnded, PotAwarded
from domain.officials.codec import decode
from domain.rulings.amend import MechanicalOutcome

_OUTCOME: dict[str, type] = {"PotAwarded": PotAwarded, "HandEnded": HandEnded}


def stored_outcome(events: Iterable[Any]) -> MechanicalOutcome | None:
    """The engine's pots and the hand's end among a hand's stored events (each with the ``payload`` it was stored
    with); None while the hand has not ended."""
    kept = [e for e in events if type(e).__name__ in _OUTCOME]
    pots = tuple(decode(e.payload, _OUTCOME) for e in kept if type(e).__name__ == "PotAwarded")
    ended = [decode(e.payload, _OUTCOME) for e in kept if type(e).__name__ == "HandEnded"]
    return MechanicalOutcome(pots, ended[-1]) if ended else None
