"""A table for engine tests: start a hand, post the forced bets and deal as the engine asks, act, and check
that a refused event leaves the hand exactly as it was."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from domain.cards import parse_cards
from domain.errors import HandError
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    CardBurned,
    DerivedEvent,
    ForcedBetPosted,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    ReportedEvent,
    SeatEntry,
    Stakes,
)
from domain.hand.legal import NextActKind
from domain.hand.state import HandState
from domain.rulebooks import Rulebook, get_rulebook

BFSP = get_rulebook("bfsp")
F, X, C, B, R = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE


def start(
    variant: str = "NT",
    stacks: Sequence[int] = (10_000,) * 6,
    button: int | None = None,
    blinds: Sequence[int] = (50, 100),
    antes: Sequence[tuple[int, int]] = (),
    rulebook: Rulebook = BFSP,
    burns: bool = False,
    **stakes: int,
) -> Table:
    """Seats 1..n; the button defaults to the last seat, the blinds to the seats after it (heads-up: the
    button posts the small blind)."""
    seats = list(range(1, len(stacks) + 1))
    stud = variant in ("F7S", "F7S/8", "FR")
    if stud:
        button, blind_seats = None, []
    else:
        button = button or seats[-1]
        after = seats[seats.index(button) + 1 :] + seats[: seats.index(button) + 1]
        blind_seats = [button, *after] if len(seats) == 2 else after
    started = HandStarted(
        table_id="t",
        hand_number=1,
        variant=variant,
        seats=tuple(SeatEntry(s, f"P{s}", stack) for s, stack in zip(seats, stacks, strict=True)),
        button=button,
        stakes=Stakes(
            antes=tuple(antes),
            blinds=tuple(zip(blind_seats, blinds, strict=False)) if not stud else (),
            **stakes,
        ),
        burns_recorded=burns,
    )
    return Table(HandState.start(started, rulebook), rulebook)


class Table:
    def __init__(self, state: HandState, rulebook: Rulebook) -> None:
        self.state = state
        self.rulebook = rulebook
        self.derived: list[DerivedEvent] = []

    def apply(self, event: ReportedEvent) -> tuple[DerivedEvent, ...]:
        out = self.state.apply(event)
        self.derived.extend(out)
        return out

    def post(self) -> Table:
        while (nxt := self.state.expected_next()).kind is NextActKind.FORCED_BET:
            assert nxt.seat is not None and nxt.forced_bet is not None
            self.apply(ForcedBetPosted(nxt.seat, nxt.forced_bet, nxt.amount))
        return self

    def deal(self, **cards: str) -> Table:
        """Deal every owed hole card (``s3="AsKd"`` gives seat 3 its cards; others get unknown cards)."""
        while (nxt := self.state.expected_next()).kind in (NextActKind.DEAL_HOLE, NextActKind.BURN):
            if nxt.kind is NextActKind.BURN:
                self.apply(CardBurned())
                continue
            assert nxt.seat is not None
            text = cards.get(f"s{nxt.seat}")
            dealt = parse_cards(text) if text else (None,) * nxt.count
            self.apply(HoleCardsDealt(nxt.seat, dealt))
        return self

    def board(self, text: str) -> tuple[DerivedEvent, ...]:
        if self.state.expected_next().kind is NextActKind.BURN:
            self.apply(CardBurned())
        return self.apply(BoardDealt(parse_cards(text)))

    def act(self, seat: int, action: ActionKind, amount: int | None = None) -> tuple[DerivedEvent, ...]:
        return self.apply(PlayerActed(seat, action, amount))

    def acts(self, *moves: tuple[int, ActionKind] | tuple[int, ActionKind, int]) -> Table:
        for move in moves:
            self.act(*move)
        return self

    def snapshot(self) -> tuple[object, ...]:
        s = self.state
        return (
            dict(s.stacks),
            dict(s.contributions),
            s.actor,
            s.phase,
            s.street_index,
            set(s.folded),
            {k: list(v) for k, v in s.hole.items()},
            list(s.board),
            s.expected_next(),
        )

    def refuse(
        self, event: ReportedEvent, error: type[HandError], topic: str, message: str | None = None
    ) -> str:
        """The engine refuses ``event`` with ``error`` citing ``topic`` (and ``message``); nothing changes."""
        before = self.snapshot()
        with pytest.raises(error) as caught:
            self.state.apply(event)
        assert caught.value.rule == self.rulebook.cite(topic), caught.value
        if message is not None:
            assert caught.value.reason == message
        assert str(caught.value).endswith(f"({self.rulebook.cite(topic)})")
        assert self.snapshot() == before
        return caught.value.reason


def with_rules(**changes: object) -> Rulebook:
    return replace(BFSP, **changes)  # type: ignore[arg-type]
