"""Validate PHH hands: replay each through the engine and report, in the file's own units, what came of it.

The report of one hand says whether every event was legal (else which one was refused, by which rule, and
the PHH action and line it came from), the finishing stacks in the file's player order, the pots, the
showdown order, and — where the file records ``finishing_stacks`` — whether ours equal them, and if not,
which rule explains the difference.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from functools import partial
from operator import attrgetter
from pathlib import Path

from domain.cards import Card, format_cards
from domain.hand.events import PotAwarded, ReportedEvent
from domain.hand.replay import Replayer, ReplayResult
from domain.rulebooks import Rulebook
from ingest.phh import PhhError, PhhHand, read_named
from ingest.phh_events import PhhEvents
from ingest.phh_report import (
    Amount,
    DifferenceReport,
    HandReport,
    PotReport,
    RejectionReport,
    ShareReport,
    UnreadableReport,
)

__all__ = [
    "Amount", "DifferenceReport", "HandReport", "PotReport", "RejectionReport", "ShareReport", "UnreadableReport",
    "describe", "unreadable", "validate_file", "validate_hand",
]


_STATE = attrgetter("state")


def validate_file(path: Path | str, rulebook: Rulebook) -> Iterator[HandReport | UnreadableReport]:
    """One report per hand, or one unreadable report for a file we cannot read (then nothing else of it)."""
    try:
        hands = read_named(str(path))
    except PhhError as error:
        yield unreadable(error)
        return
    for hand in hands:
        yield validate_hand(hand, rulebook)


def unreadable(error: PhhError) -> UnreadableReport:
    return UnreadableReport(
        file=error.file, hand=error.hand, field=error.field, line=error.line, error=error.reason
    )


def validate_hand(hand: PhhHand, rulebook: Rulebook) -> HandReport:
    replayer = Replayer(rulebook)
    # the engine's state read in C (the importer asks it before most acts; a lambda is a Python frame each time)
    events = PhhEvents(hand, partial(_STATE, replayer))
    try:
        result = replayer.run(events)
    except Exception as error:
        error.add_note(f"while replaying {hand.file} hand {hand.index}")
        raise
    return _report(hand, result, events, rulebook)


def _report(hand: PhhHand, result: ReplayResult, events: PhhEvents, rulebook: Rulebook) -> HandReport:
    names = dict(zip(hand.seats, hand.players, strict=True))
    ours = _finishing_stacks(hand, result)
    report = HandReport(
        file=hand.file,
        hand=hand.index,
        line=hand.line,
        variant=hand.variant,
        scale=hand.scale,
        players=list(hand.players),
        ok=result.ok,
        complete=result.is_over,
        undetermined=result.undetermined,
        rejection=_rejection(result, events),
        finishing_stacks=ours,
        pots=[_pot(hand, names, pot) for pot in result.pots],
        showdown_order=[names[seat] for seat in result.showdown_order],
    )
    if hand.finishing_stacks is not None:
        _compare(hand, result, report, rulebook)
    return report


def _finishing_stacks(hand: PhhHand, result: ReplayResult) -> list[Amount | None]:
    stacks = dict(result.stacks)
    return [
        None if player in hand.unknown_stacks else _in_units(hand, stacks.get(seat, 0))
        for player, seat in enumerate(hand.seats, start=1)
    ]


def _rejection(result: ReplayResult, events: PhhEvents) -> RejectionReport | None:
    refused = result.rejection
    if refused is None:
        return None
    source = events.sources[refused.event_index] if refused.event_index < len(events.sources) else None
    return RejectionReport(
        event_index=refused.event_index,
        event=describe(refused.event),
        rule=str(refused.rule),
        message=refused.message,
        action=source.text if source else "",
        line=source.line if source else None,
    )


def _pot(hand: PhhHand, names: dict[int, str], pot: PotAwarded) -> PotReport:
    return PotReport(
        amount=_in_units(hand, pot.amount),
        eligible=[names[seat] for seat in pot.eligible],
        winners=[
            ShareReport(player=names[s.seat], amount=_in_units(hand, s.amount))
            for s in pot.shares
        ],
        half=pot.half,
        winning_hand=pot.winning_hand,
        odd_chip=pot.odd_chip,
    )


def _compare(hand: PhhHand, result: ReplayResult, report: HandReport, rulebook: Rulebook) -> None:
    record = hand.finishing_stacks
    assert record is not None
    expected = report.expected_finishing_stacks = [_amount(value) for value in record]
    known = [i for i in range(hand.player_count) if i + 1 not in hand.unknown_stacks]
    differing = [i for i in known if report.finishing_stacks[i] != expected[i]]
    report.matches = not differing
    for i in differing:
        report.differences.append(
            DifferenceReport(
                player=hand.players[i],
                ours=report.finishing_stacks[i],
                record=expected[i],
                explanation=_explain(hand, result, record[i], rulebook),
            )
        )


def _explain(hand: PhhHand, result: ReplayResult, recorded: Decimal, rulebook: Rulebook) -> str:
    if result.rejection is not None:
        return f"the replay stopped at a refused event: {result.rejection.message}"
    if (recorded * hand.scale) % 1:
        odd = "; ".join(pot.odd_chip for pot in result.pots if pot.odd_chip)
        rule = odd or f"the odd chip goes by the odd-chip rule ({rulebook.cite('odd_chip')})"
        return f"the record splits a pot into fractions of the smallest chip ({recorded}); chips do not split: {rule}"
    if result.undetermined:
        return "the record lacks the cards that decide a pot, so the engine leaves it undetermined"
    if not result.is_over:
        return "the record stops before the hand is over"
    return "the engine's result differs from the record"


def describe(event: ReportedEvent) -> str:
    """An event as one readable line: ``PlayerActed(seat=2, action=raise, amount=750000)``."""
    parts = []
    for name in event.__dataclass_fields__:
        value = getattr(event, name)
        if isinstance(value, tuple) and value and all(isinstance(c, Card | None) for c in value):
            value = format_cards(value)
        parts.append(f"{name}={value}")
    return f"{type(event).__name__}({', '.join(parts)})"


def _in_units(hand: PhhHand, chips: int) -> Amount:
    """Chips in the file's units, as the report writes them; a file in whole chips (most) needs no decimal."""
    return chips if hand.scale == 1 else _amount(hand.in_file_units(chips))


def _amount(value: Decimal) -> Amount:
    return int(value) if value == value.to_integral_value() else float(value)
