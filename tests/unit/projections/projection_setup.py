"""The embedded pipeline the projection tests read from: a local log, the referee, the SQLite store, and
hands to put through it (real PHH hands from the shared set, and a small hand built event by event)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from read_model_checks import everything  # noqa: F401  (the projection tests import it from here)

from api.operations import phh_records
from domain.cards import parse_cards
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    ForcedBetKind,
    ForcedBetPosted,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    ReportedEvent,
    SeatEntry,
    Stakes,
)
from ingest.envelope import RecordedBy
from ingest.log import EmbeddedLog
from ingest.publish import hand_records
from ingest.referee import Referee
from ingest.runners import drain_embedded
from ingest.simulator.clock import simulation_clock
from ingest.store import Store, store_env

ROOT = Path(__file__).resolve().parents[3]
PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT / ".." / "shared" / "data" / "phh"))
WSOP = PHH_DIR / "data" / "wsop" / "2023" / "43" / "5"
AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
DEALER = RecordedBy(person="dealer-3", role="dealer")

START = HandStarted(
    "t1", 1, "NT", (SeatEntry(1, "Ann", 1000), SeatEntry(2, "Bob", 1000)), 2,
    Stakes(blinds=((2, 50), (1, 100)), min_bet=100), burns_recorded=False,
)
BLINDS_AND_CARDS: list[ReportedEvent] = [
    START,
    ForcedBetPosted(2, ForcedBetKind.SMALL_BLIND, 50),
    ForcedBetPosted(1, ForcedBetKind.BIG_BLIND, 100),
    HoleCardsDealt(1, parse_cards("AsKd")),
    HoleCardsDealt(2, parse_cards("QsQd")),
]
#: Bob shoves, Ann calls, both table their hands, the board runs out: Ann pairs her ace and takes it all
ALL_IN: list[ReportedEvent] = [
    *BLINDS_AND_CARDS,
    PlayerActed(2, ActionKind.RAISE, 1000),
    PlayerActed(1, ActionKind.CALL),
    HandShown(1, parse_cards("AsKd")),
    HandShown(2, parse_cards("QsQd")),
    BoardDealt(parse_cards("Ah9c4d")),
    BoardDealt(parse_cards("Tc")),
    BoardDealt(parse_cards("3h")),
]


def checked_down(table: str, number: int) -> list[ReportedEvent]:
    """Checked to the river; Ann (first to show, bfsp 5.9.2) shows, Bob mucks unshown and loses 100."""
    start = HandStarted(
        table, number, "NT", (SeatEntry(1, "Ann", 1000), SeatEntry(2, "Bob", 1000)), 2,
        Stakes(blinds=((2, 50), (1, 100)), min_bet=100), burns_recorded=False,
    )
    check = ActionKind.CHECK
    return [
        start, *BLINDS_AND_CARDS[1:],
        PlayerActed(2, ActionKind.CALL), PlayerActed(1, check),
        BoardDealt(parse_cards("Ah9c4d")), PlayerActed(1, check), PlayerActed(2, check),
        BoardDealt(parse_cards("Tc")), PlayerActed(1, check), PlayerActed(2, check),
        BoardDealt(parse_cards("3h")), PlayerActed(1, check), PlayerActed(2, check),
        HandShown(1, parse_cards("AsKd")), HandMucked(2),
    ]


class Pipeline:
    """Log → referee → store, embedded, in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.log = EmbeddedLog(folder / "log.sqlite", "events", partitions=2, clock=simulation_clock)
        self.store = Store(env=store_env(None, str(folder / "store.sqlite")))
        self.referee = Referee(self.store, "events")

    def hand(self, events: Sequence[ReportedEvent], competition: str = "open") -> dict[str, int]:
        return self.records(list(hand_records(events, competition, DEALER, AT)))

    def phh(self, paths: Sequence[Path], competition: str) -> dict[str, int]:
        return self.records(list(phh_records(paths, competition)))

    def records(self, records: list[tuple[bytes, bytes]]) -> dict[str, int]:
        self.log.append(records)
        counts: dict[str, int] = {}
        for verdict in drain_embedded(self.log, self.referee):
            counts[verdict.outcome] = counts.get(verdict.outcome, 0) + 1
        return counts

    def close(self) -> None:
        self.log.close()
        self.store.close()
