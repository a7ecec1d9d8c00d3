"""The shared real hands as the tests find them: ../shared/data/phh beside the checkout, or $POKERAUDIT_PHH_DIR
(read where they are, never copied into the repository), the ones several tests name, and a hand's events as
the importer publishes them and as a client reports them to the API."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from api.operations import phh_records
from domain.errors import HandError
from domain.hand.events import ReportedEvent
from ingest.phh import PhhHand
from ingest.phh_events import hand_events

ROOT = Path(__file__).resolve().parents[1]
PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT / ".." / "shared" / "data" / "phh"))
#: Day 5 of the 2023 WSOP $50,000 Poker Players Championship (event 43): 83 hands of mixed games, one a file
WSOP_DAY_5 = PHH_DIR / "data" / "wsop" / "2023" / "43" / "5"
#: their one table: the event and day every file names (ingest/phh_tables.py); each hand keeps its ``hand`` number
WSOP_TABLE = "2023 World Series of Poker Event #43: $50,000 Poker Players Championship | Day 5 (2023-06-22)"
#: its first hand, five-handed no-limit hold'em with a big-blind ante, shown down
WSOP_HAND = WSOP_DAY_5 / "00-02-07.phh"
#: a razz hand whose 6th-street raise breaks the fixed-limit size (bfsp 4.7.3): the rules refuse it
WSOP_RAZZ_HAND = WSOP_DAY_5 / "03-50-24.phh"


def events_of(hand: PhhHand) -> list[ReportedEvent]:
    """The hand's events up to and including one the rules refuse (as the importer publishes them)."""
    events: list[ReportedEvent] = []
    with contextlib.suppress(HandError):
        events.extend(hand_events(hand))
    return events


def as_reported(paths: Iterable[Path], competition: str) -> list[dict[str, Any]]:
    """The hands' events as a client reports them: envelopes without ``recorded_by`` (the token signs)."""
    out = []
    for _, value in phh_records(list(paths), competition):
        body = json.loads(value)
        del body["recorded_by"]
        out.append(body)
    return out
