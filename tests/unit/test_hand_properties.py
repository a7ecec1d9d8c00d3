"""Random legal play: hands driven only by what the engine says is next and legal, in every variant and
rulebook. The engine never refuses its own suggestion, the chips are conserved at every step, and every
hand ends."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.cards import Card, short_deck, standard_deck
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    CardBurned,
    CardsDiscarded,
    ForcedBetPosted,
    HandEnded,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    ReportedEvent,
    SeatEntry,
    Stakes,
)
from domain.hand.legal import NextActKind
from domain.hand.state import HandState
from domain.rulebooks import RULEBOOKS, get_rulebook
from domain.variants import VARIANTS, BettingStructure

pytestmark = pytest.mark.unit


def hand_start(data: st.DataObject) -> HandStarted:
    code = data.draw(st.sampled_from(sorted(VARIANTS)), label="variant")
    v = VARIANTS[code]
    n = data.draw(
        st.integers(2, 6 if v.hand_size > 5 or v.streets[0].hole_cards == 5 else 9), label="players"
    )
    seats = sorted(data.draw(st.sets(st.integers(1, 10), min_size=n, max_size=n), label="seats"))
    stacks = data.draw(st.lists(st.integers(1, 3000), min_size=n, max_size=n), label="stacks")
    limit = v.betting is BettingStructure.FIXED_LIMIT
    antes: tuple[tuple[int, int], ...] = ()
    if not v.uses_button or data.draw(st.booleans(), label="antes"):
        ante = data.draw(st.integers(1, 20), label="ante")
        antes = tuple((s, ante) for s in seats)
    blinds: tuple[tuple[int, int], ...] = ()
    button = None
    if v.uses_button:
        button = data.draw(st.sampled_from(seats), label="button")
        after = [s for s in seats if s > button] + [s for s in seats if s <= button]
        order = [button, after[0]] if n == 2 else after[:2]
        blinds = ((order[0], 10), (order[1], 20))
        if n > 3 and data.draw(st.booleans(), label="straddle"):
            blinds += ((after[2], 40),)
    return HandStarted(
        table_id="p",
        hand_number=1,
        variant=code,
        seats=tuple(SeatEntry(s, f"P{s}", st_) for s, st_ in zip(seats, stacks, strict=True)),
        button=button,
        stakes=Stakes(
            antes=antes,
            blinds=blinds,
            bring_in=5 if not v.uses_button else 0,
            small_bet=20 if limit else 0,
            big_bet=40 if limit else 0,
            min_bet=20 if not limit else 0,
        ),
        burns_recorded=data.draw(st.booleans(), label="burns"),
    )


def next_event(state: HandState, data: st.DataObject, deck: list[Card]) -> ReportedEvent:
    nxt = state.expected_next()
    kind = nxt.kind
    if kind is NextActKind.FORCED_BET:
        assert nxt.seat is not None and nxt.forced_bet is not None
        return ForcedBetPosted(nxt.seat, nxt.forced_bet, nxt.amount)
    if kind is NextActKind.BURN:
        if not deck:
            refill(state, deck, set())
        return CardBurned(deck.pop() if deck else None)
    if kind is NextActKind.DEAL_HOLE:
        assert nxt.seat is not None
        unknown = data.draw(st.integers(0, 9), label="unknown") == 0
        dealt = [deck.pop() for _ in range(nxt.count)]
        return HoleCardsDealt(nxt.seat, tuple(None if unknown else c for c in dealt))
    if kind is NextActKind.DEAL_BOARD:
        return BoardDealt(tuple(deck.pop() for _ in range(nxt.count)))
    if kind is NextActKind.DRAW:
        assert nxt.seat is not None
        held = state.hole[nxt.seat]
        thrown = tuple(
            data.draw(st.lists(st.sampled_from(held), unique=True, max_size=len(held)), label="thrown")
        )
        if len(deck) < len(thrown):  # the stub is out: the other seats' discards are shuffled in
            refill(state, deck, set(thrown))
        if len(deck) < len(thrown):
            thrown = ()
        return CardsDiscarded(nxt.seat, thrown, tuple(deck.pop() for _ in thrown))
    if kind is NextActKind.SHOWDOWN:
        seat = data.draw(st.sampled_from(nxt.seats), label="shows")
        if data.draw(st.booleans(), label="muck"):
            return HandMucked(seat)
        return HandShown(seat, tuple(state.hole[seat]))
    assert kind is NextActKind.PLAYER_ACTION and nxt.seat is not None
    return player_act(state, data)


def refill(state: HandState, deck: list[Card], mine: set[object]) -> None:
    live = {c for s in state.in_hand for c in state.hole[s]} | set(state.board)
    deck[:0] = [c for c in state.deck.seen if c not in live and c not in mine and c not in deck]


def player_act(state: HandState, data: st.DataObject) -> PlayerActed:
    legal = state.legal_actions()
    seat = legal.seat
    options: list[PlayerActed] = []
    if legal.can_bring_in:
        options.append(PlayerActed(seat, ActionKind.BRING_IN))
    if legal.can_fold:
        options.append(PlayerActed(seat, ActionKind.FOLD))
    if legal.can_check:
        options.append(PlayerActed(seat, ActionKind.CHECK))
    if legal.can_call:
        options.append(PlayerActed(seat, ActionKind.CALL))
    if legal.aggressive_action is not None and (legal.can_bet or legal.can_raise or legal.can_complete):
        assert legal.min_bet_or_raise_to is not None and legal.max_bet_or_raise_to is not None
        if legal.allowed_to:
            amount = data.draw(st.sampled_from(legal.allowed_to), label="to")
        else:
            amount = data.draw(st.integers(legal.min_bet_or_raise_to, legal.max_bet_or_raise_to), label="to")
        options.append(PlayerActed(seat, legal.aggressive_action, amount))
    assert options, legal
    return data.draw(st.sampled_from(options), label="act")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_legal_play_is_always_accepted_conserves_chips_and_ends(data: st.DataObject) -> None:
    started = hand_start(data)
    rulebook = get_rulebook(data.draw(st.sampled_from(sorted(RULEBOOKS)), label="rulebook"))
    state = HandState.start(started, rulebook)
    total = sum(e.stack for e in started.seats)
    deck = list(short_deck() if VARIANTS[started.variant].deck == "short" else standard_deck())
    deck = data.draw(st.permutations(deck), label="deck")
    ended: HandEnded | None = None
    for _ in range(400):
        if state.is_over:
            break
        event = next_event(state, data, deck)
        assert state.can(event), event
        for derived in state.apply(event):
            if isinstance(derived, HandEnded):
                ended = derived
        if not state.is_over:
            assert sum(state.stacks.values()) + state.pot_total() == total
    assert state.is_over and ended is not None
    final = sum(c for _, c in ended.final_stacks)
    if not ended.undetermined:
        assert final == total
    assert all(c >= 0 for _, c in ended.final_stacks)
