"""Write a hand's events (domain/hand/events.py, as the store holds them) as PHH text (uoftcprg/phh-std).

The writer is the reader (:mod:`ingest.phh_events`) run backwards: players are listed from the first seat left
of the button, the button last (DESIGN decision 6 read the other way); forced bets become the ``antes`` and
``blinds_or_straddles`` arrays by position (heads-up reversed, a dead blind negative); every reported act
becomes one action string. Amounts are written in integer chips, so a hand read from a file in dollars comes
back in cents: the events, which are in chips, are the same.

A hand PHH cannot hold is refused with :class:`PhhWriteError` naming the field or event, never written
approximately: the start the text would read back as is compared with the hand's own, so a seating or a
forced bet that PHH's positional arrays cannot place is caught here rather than on re-import. PHH records
no burns, so ``CardBurned`` is left out (the re-imported hand says ``burns_recorded = false``); the rulebook
and level are not PHH fields either, and the re-imported hand is judged under the default rulebook.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from domain.cards import format_cards
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    CardBurned,
    CardsDiscarded,
    ForcedBetKind,
    ForcedBetPosted,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    ReportedEvent,
    SeatEntry,
)
from domain.variants import VARIANTS
from ingest.phh import UNKNOWN_STACK, loads
from ingest.phh_events import forced_bets, hand_started
from ingest.phh_fields import VARIANT_FIELDS

__all__ = ["PhhWriteError", "write_hand", "write_hands"]

_WAGERS = {ActionKind.BET: "cbr", ActionKind.RAISE: "cbr", ActionKind.COMPLETE: "cbr"}


class PhhWriteError(ValueError):
    """A hand PHH cannot express: ``field`` is the PHH field (or the event type) that cannot hold it."""

    def __init__(self, reason: str, field: str, table_id: str = "", hand_number: int | None = None) -> None:
        self.reason = reason
        self.field = field
        where = f"hand {table_id}#{hand_number}: " if table_id else ""
        super().__init__(f"{where}PHH field {field!r}: {reason}")


@dataclass(frozen=True, slots=True)
class _Seating:
    """Players in PHH order: ``order[i]`` is the seat of player ``p{i+1}``."""

    start: HandStarted
    order: tuple[int, ...]

    @property
    def count(self) -> int:
        return len(self.order)

    def player(self, seat: int) -> int:
        return self.order.index(seat) + 1

    def position(self, seat: int) -> int:
        """The index in a forced-bet array of what this seat owes (heads-up the arrays run reversed)."""
        player = self.player(seat)
        return self.count - player if self.count == 2 else player - 1

    def fail(self, reason: str, field: str) -> PhhWriteError:
        return PhhWriteError(reason, field, self.start.table_id, self.start.hand_number)


def write_hand(events: Iterable[ReportedEvent], final_stacks: Mapping[int, int] | None = None) -> str:
    """One hand as the text of a ``.phh`` file; ``final_stacks`` (seat → chips) adds ``finishing_stacks``."""
    return "\n".join(_lines(list(events), final_stacks)) + "\n"


def write_hands(hands: Iterable[Sequence[ReportedEvent]]) -> str:
    """Several hands as the text of a ``.phhs`` file: tables ``[1]``, ``[2]``, …"""
    parts = []
    for number, events in enumerate(hands, start=1):
        parts.append(f"[{number}]\n" + "\n".join(_lines(list(events), None)) + "\n")
    return "\n".join(parts)


def _lines(events: list[ReportedEvent], final_stacks: Mapping[int, int] | None) -> list[str]:
    if not events or not isinstance(events[0], HandStarted):
        raise PhhWriteError("a hand's first event is HandStarted", "events")
    seating = _seating(events[0])
    posted = [e for e in events[1:] if isinstance(e, ForcedBetPosted)]
    fields = _fields(seating, posted)
    fields["actions"] = [text for e in _acts(seating, events[1:]) for text in _actions(seating, e)]
    fields["players"] = [_seat_entry(seating, s).player for s in seating.order]
    if list(seating.order) != list(range(1, seating.count + 1)):
        fields["seats"] = list(seating.order)
    fields["table"] = seating.start.table_id
    fields["hand"] = seating.start.hand_number
    if final_stacks is not None:
        fields["finishing_stacks"] = [final_stacks[s] for s in seating.order]
    lines = [f"{name} = {_toml(value)}" for name, value in fields.items()]
    _check_read_back(seating, posted, "\n".join(lines))
    return lines


def _seating(start: HandStarted) -> _Seating:
    seats = [entry.seat for entry in start.seats]
    if start.variant not in VARIANT_FIELDS:
        raise PhhWriteError(
            f"{start.variant!r} has no PHH code ({', '.join(VARIANT_FIELDS)})",
            "variant",
            start.table_id,
            start.hand_number,
        )
    if VARIANTS[start.variant].uses_button and start.button in seats:
        # PHH's player order starts left of the button and ends on it
        at = seats.index(start.button)
        seats = seats[at + 1 :] + seats[: at + 1]
    return _Seating(start, tuple(seats))


def _seat_entry(seating: _Seating, seat: int) -> SeatEntry:
    return next(e for e in seating.start.seats if e.seat == seat)


def _fields(seating: _Seating, posted: list[ForcedBetPosted]) -> dict[str, object]:
    start = seating.start
    stakes = start.stakes
    antes = [0] * seating.count
    for seat, amount in stakes.antes:
        antes[seating.position(seat)] = amount
    fields: dict[str, object] = {"variant": start.variant, "antes": antes}
    needed = VARIANT_FIELDS[start.variant]
    if "blinds_or_straddles" in needed:
        dead = {bet.seat for bet in posted if bet.kind is ForcedBetKind.DEAD_BLIND}
        blinds = [0] * seating.count
        for seat, amount in stakes.blinds:
            blinds[seating.position(seat)] = -amount if seat in dead else amount
        fields["blinds_or_straddles"] = blinds
    elif stakes.blinds:
        raise seating.fail(f"{start.variant} is a stud game: PHH gives it a bring-in, not blinds", "blinds_or_straddles")
    sizes = {"bring_in": stakes.bring_in, "small_bet": stakes.small_bet, "big_bet": stakes.big_bet,
             "min_bet": stakes.min_bet}
    for name, amount in sizes.items():
        if name in needed or amount:
            fields[name] = amount
    stacks = {e.seat: e.stack for e in start.seats}
    fields["starting_stacks"] = [stacks[s] for s in seating.order]
    return fields


def _acts(seating: _Seating, events: list[ReportedEvent]) -> list[ReportedEvent]:
    """The events that become action strings; forced bets come from the fields, burns are not recorded."""
    acts: list[ReportedEvent] = []
    for index, event in enumerate(events, start=1):
        if isinstance(event, ForcedBetPosted | CardBurned):
            continue
        if not isinstance(event, HoleCardsDealt | BoardDealt | PlayerActed | CardsDiscarded | HandShown | HandMucked):
            raise seating.fail(f"event {index} ({type(event).__name__}) has no PHH action", "actions")
        acts.append(event)
    return acts


def _actions(seating: _Seating, event: ReportedEvent) -> list[str]:
    match event:
        case BoardDealt(cards=cards):
            return [f"d db {format_cards(cards)}"]
        case HoleCardsDealt(seat=seat, cards=cards):
            return [f"d dh p{seating.player(seat)} {format_cards(cards)}"]
        case HandShown(seat=seat, cards=cards):
            return [f"p{seating.player(seat)} sm {format_cards(cards)}"]
        case HandMucked(seat=seat):
            return [f"p{seating.player(seat)} sm"]
        case CardsDiscarded(seat=seat, discarded=discarded, drawn=drawn):
            player = f"p{seating.player(seat)}"
            discard = f"{player} sd {format_cards(discarded)}".rstrip()
            # the replacement cards follow at once, so the reader pairs them with this discard
            return [discard, f"d dh {player} {format_cards(drawn)}"] if drawn else [discard]
        case PlayerActed():
            return [_betting(seating, event)]
    raise AssertionError(f"{type(event).__name__} is filtered out by _acts")


def _betting(seating: _Seating, event: PlayerActed) -> str:
    player = f"p{seating.player(event.seat)}"
    if event.action in _WAGERS:
        if event.amount is None:
            raise seating.fail(f"seat {event.seat}'s {event.action} has no amount", "actions")
        return f"{player} cbr {event.amount}"
    verbs = {ActionKind.FOLD: "f", ActionKind.CHECK: "cc", ActionKind.CALL: "cc", ActionKind.BRING_IN: "pb"}
    return f"{player} {verbs[event.action]}"


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return "inf" if value == UNKNOWN_STACK else str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"{value!r} is not a PHH value")


def _check_read_back(seating: _Seating, posted: list[ForcedBetPosted], text: str) -> None:
    """Refuse what the text would read back differently: PHH places forced bets by position, not by seat."""
    (hand,) = loads(text, f"<{seating.start.table_id}>")
    start, back = seating.start, hand_started(hand)
    # the order the seats are listed in carries nothing: PHH lists them from the button, whatever came in
    start = replace(start, seats=tuple(sorted(start.seats, key=lambda e: e.seat)))
    back = replace(back, seats=tuple(sorted(back.seats, key=lambda e: e.seat)))
    for name, field in (("seats", "players"), ("button", "seats"), ("stakes", "blinds_or_straddles")):
        if getattr(back, name) != getattr(start, name):
            raise seating.fail(
                f"the hand's {name} ({getattr(start, name)}) would read back as {getattr(back, name)}", field
            )
    ours = sorted((bet.seat, bet.amount) for bet in posted)
    theirs = sorted((bet.seat, bet.amount) for bet in forced_bets(hand))
    if ours != theirs:
        raise seating.fail(f"the forced bets posted {ours} are not the ones the stakes owe ({theirs})", "antes")
