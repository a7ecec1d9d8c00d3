"""A small written hand for the hand-history writers' tests: Ann, Bob and Cy at hand 7 of the final table,
blinds 10 and 20."""

from __future__ import annotations

from domain.hand.events import ForcedBetKind, ForcedBetPosted, HandStarted, ReportedEvent, SeatEntry, Stakes


def three_handed(*acts: ReportedEvent, button: int = 6) -> list[ReportedEvent]:
    """The hand's start and both blinds (Ann's 10 from seat 2, Bob's 20 from seat 4), then ``acts``."""
    start = HandStarted(
        table_id="final", hand_number=7, variant="NT",
        seats=(SeatEntry(2, "Ann", 1000), SeatEntry(4, "Bob", 800), SeatEntry(6, "Cy", 1200)),
        button=button, stakes=Stakes(blinds=((2, 10), (4, 20)), min_bet=20), burns_recorded=False,
    )
    return [start, ForcedBetPosted(2, ForcedBetKind.SMALL_BLIND, 10), ForcedBetPosted(4, ForcedBetKind.BIG_BLIND, 20),
            *acts]
