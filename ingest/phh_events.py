"""A PHH hand as our events (domain/hand/events.py), produced lazily while the engine replays them.

PHH writes what it saw without saying all we need: ``cc`` is a check or a call, ``cbr`` a bet, a raise or a
completion, and a draw is a discard (``p4 sd AsQs``) followed later by the replacement cards (``d dh p4 2hQh``).
The engine's state after the events so far answers the first two; the draw is held until its cards arrive.

Positions become seats (DESIGN decision 6): player ``pN`` sits in ``seats[N-1]`` (PHH's ``seats`` field, else
seat N). PHH lists players from the first seat left of the button, so in a button game the button is the last
player's seat; heads-up, that player posts the small blind and the forced-bet arrays are read reversed (phh-std:
"the antes, blinds, and straddles are reverse-assigned for heads-up"). A negative blind (Party Poker) is a
blind posted out of its place: it does not decide who acts first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from domain.cards import MaybeCard
from domain.hand.events import (
    ActionKind,
    BoardDealt,
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
    Stakes,
)
from domain.variants import VARIANTS
from ingest.phh_actions import PhhAction, PhhVerb
from ingest.phh_model import PhhHand

if TYPE_CHECKING:
    from domain.hand.state import HandState

#: The engine's state after the events yielded so far (``None`` before the hand has started).
StateView = Callable[[], "HandState | None"]

_BLIND_KINDS = (ForcedBetKind.SMALL_BLIND, ForcedBetKind.BIG_BLIND)
# The verbs and acts of the per-action path as module names: on Python 3.11 reading an enum member off its class
# (``PhhVerb.FOLD``) costs about fifteen times reading a global, and these are read several times an action.
_DEAL_BOARD, _DEAL_HOLE, _BRING_IN, _FOLD = PhhVerb.DEAL_BOARD, PhhVerb.DEAL_HOLE, PhhVerb.BRING_IN, PhhVerb.FOLD
_CHECK_OR_CALL, _COMPLETE_BET_OR_RAISE = PhhVerb.CHECK_OR_CALL, PhhVerb.COMPLETE_BET_OR_RAISE
_STAND_PAT_OR_DISCARD, _SHOW_OR_MUCK = PhhVerb.STAND_PAT_OR_DISCARD, PhhVerb.SHOW_OR_MUCK
_CHECK, _CALL, _RAISE, _FOLDS = ActionKind.CHECK, ActionKind.CALL, ActionKind.RAISE, ActionKind.FOLD
_ANTE, _DEAD_BLIND, _STRADDLE = ForcedBetKind.ANTE, ForcedBetKind.DEAD_BLIND, ForcedBetKind.STRADDLE
_SMALL_BLIND, _BIG_BLIND = ForcedBetKind.SMALL_BLIND, ForcedBetKind.BIG_BLIND

# The values every hand's start repeats (a seat's entry, the stakes, a blind, a fold, a check, a call), each made
# once and given again while equal: they are frozen, so one is as good as another equal to it, and making one is
# an interpreted __init__ (several times the rest of its share of a hand's start). Cleared when full.
_MADE_MAX = 4096
_SEAT_ENTRIES: dict[tuple[int, str, int], SeatEntry] = {}
_STAKES: dict[
    tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int, int, int], Stakes
] = {}
# forced bets by (seat, amount), one table a kind (a kind is an enum: its hash is written in Python)
_ANTES: dict[tuple[int, int], ForcedBetPosted] = {}
_SMALL_BLINDS: dict[tuple[int, int], ForcedBetPosted] = {}
_BIG_BLINDS: dict[tuple[int, int], ForcedBetPosted] = {}
# acts without an amount, by seat
_FOLDS_MADE: dict[int, PlayerActed] = {}
_CHECKS_MADE: dict[int, PlayerActed] = {}
_CALLS_MADE: dict[int, PlayerActed] = {}


def seat_of(hand: PhhHand, player: int) -> int:
    return hand.seats[player - 1]


def is_button_game(hand: PhhHand) -> bool:
    return VARIANTS[hand.variant].uses_button


def per_player(hand: PhhHand, amounts: tuple[int, ...]) -> tuple[int, ...]:
    """A forced-bet array as each player owes it (heads-up: reversed)."""
    return amounts[::-1] if hand.player_count == 2 else amounts


def hand_started(hand: PhhHand) -> HandStarted:
    seats = hand.seats
    return HandStarted(
        table_id=hand.table or hand.file,
        hand_number=hand.hand_number if hand.hand_number is not None else hand.index,
        variant=hand.variant,
        seats=tuple(
            _seat_entry(seats[i], name, stack)
            for i, (name, stack) in enumerate(zip(hand.players, hand.starting_stacks, strict=True))
        ),
        button=seats[hand.player_count - 1] if is_button_game(hand) else None,
        stakes=stakes(hand),
        burns_recorded=False,  # PHH records no burn cards
    )


def _seat_entry(seat: int, player: str, stack: int) -> SeatEntry:
    key = (seat, player, stack)
    entry = _SEAT_ENTRIES.get(key)
    if entry is None:
        if len(_SEAT_ENTRIES) >= _MADE_MAX:
            _SEAT_ENTRIES.clear()
        entry = _SEAT_ENTRIES[key] = SeatEntry(seat, player, stack)
    return entry


def stakes(hand: PhhHand) -> Stakes:
    """The hand's stakes; what they are read from is the key they are kept by (as equal values: see above)."""
    key = (
        hand.player_count, hand.seats, hand.antes, hand.blinds_or_straddles,
        hand.bring_in, hand.small_bet, hand.big_bet, hand.min_bet,
    )
    made = _STAKES.get(key)
    if made is None:
        if len(_STAKES) >= _MADE_MAX:
            _STAKES.clear()
        made = _STAKES[key] = _stakes(hand)
    return made


def _stakes(hand: PhhHand) -> Stakes:
    antes = per_player(hand, hand.antes)
    return Stakes(
        antes=tuple((seat_of(hand, i), a) for i, a in enumerate(antes, start=1) if a),
        blinds=tuple((bet.seat, bet.amount) for bet in _blinds(hand, trim=False)),
        bring_in=hand.bring_in,
        small_bet=hand.small_bet,
        big_bet=hand.big_bet,
        min_bet=hand.min_bet,
    )


def forced_bets(hand: PhhHand) -> list[ForcedBetPosted]:
    """Antes (in PHH order), then blinds and straddles in posting order, each cut to what the stack holds."""
    antes = per_player(hand, hand.antes)
    posted = [
        _forced_bet(seat_of(hand, i), _ANTE, min(ante, hand.starting_stacks[i - 1]))
        for i, ante in enumerate(antes, start=1)
        if ante
    ]
    return posted + _blinds(hand, trim=True)


def _forced_bet(seat: int, kind: ForcedBetKind, amount: int) -> ForcedBetPosted:
    if kind is _SMALL_BLIND:
        made = _SMALL_BLINDS
    elif kind is _BIG_BLIND:
        made = _BIG_BLINDS
    elif kind is _ANTE:
        made = _ANTES
    else:
        return ForcedBetPosted(seat, kind, amount)
    key = (seat, amount)
    bet = made.get(key)
    if bet is None:
        if len(made) >= _MADE_MAX:
            made.clear()
        bet = made[key] = ForcedBetPosted(seat, kind, amount)
    return bet


def _blinds(hand: PhhHand, trim: bool) -> list[ForcedBetPosted]:
    blinds = hand.blinds_or_straddles
    antes = per_player(hand, hand.antes)
    posted = []
    for position, amount in enumerate(blinds):
        if not amount:
            continue
        # heads-up the arrays are reversed: position 0 (small blind) is posted by the last player
        player = hand.player_count - position if hand.player_count == 2 else position + 1
        kind = _BLIND_KINDS[position] if position < 2 else _STRADDLE
        if amount < 0:
            kind, amount = _DEAD_BLIND, -amount
        if trim:
            amount = min(amount, hand.starting_stacks[player - 1] - antes[player - 1])
        posted.append(_forced_bet(seat_of(hand, player), kind, amount))
    return posted


class PhhEvents:
    """A hand's events in order, lazily. ``state`` must return the engine's state after the events yielded so
    far. ``sources[i]`` is the PHH action that produced event ``i`` (``None`` for the start and forced bets,
    which come from the hand's fields)."""

    def __init__(self, hand: PhhHand, state: StateView) -> None:
        self.hand = hand
        self.state = state
        self.sources: list[PhhAction | None] = []

    def __iter__(self) -> Iterator[ReportedEvent]:
        sources = self.sources
        sources.append(None)
        yield hand_started(self.hand)
        for bet in self._in_posting_order(forced_bets(self.hand)):
            sources.append(None)
            yield bet
        mapper = _Mapper(self.hand, self.state)
        if mapper.draws_possible:
            for action, event in mapper.events():
                sources.append(action)
                yield event
            return
        # no discard in the hand, so no draw is ever held back: each action is its event, in order (the loop of
        # _Mapper.events without the draws, which runs once an action)
        last_show, to_event = mapper.last_show, mapper._event
        for action in self.hand.actions:
            if action.verb is _SHOW_OR_MUCK and last_show[action.player] is not action:
                continue
            sources.append(action)
            yield to_event(action)

    def _in_posting_order(self, bets: list[ForcedBetPosted]) -> Iterator[ForcedBetPosted]:
        """The record's forced bets (seat and amount) in the order the engine asks for them. PHH says only
        where a blind lies, not what it is called (one blind at the button, a lone first blind): the
        engine's name for it is used. A bet the engine does not ask for comes next as recorded, to be refused."""
        while bets:
            state = self.state()
            due = state.forced_bet_due() if state is not None else None  # expected_next()'s, cheaper
            if due is None:
                yield bets.pop(0)
                continue
            seat, kind = due
            seats = [i for i, bet in enumerate(bets) if bet.seat == seat]
            kinds = [i for i in seats if bets[i].kind is kind]
            bet = bets.pop((kinds or seats or [0])[0])
            if bet.kind is not kind and bet.seat == seat and _is_live_blind(bet.kind) and _is_live_blind(kind):
                bet = _forced_bet(bet.seat, kind, bet.amount)
            yield bet


def _is_live_blind(kind: ForcedBetKind) -> bool:
    return kind is not _ANTE and kind is not _DEAD_BLIND


def hand_events(hand: PhhHand, state: StateView | None = None) -> Iterator[ReportedEvent]:
    """The hand's events; without ``state`` the hand is replayed here (default rulebook) to read it."""
    if state is not None:
        return iter(PhhEvents(hand, state))
    return _self_replayed(hand)


def _self_replayed(hand: PhhHand) -> Iterator[ReportedEvent]:
    from domain.hand.replay import Replayer
    from domain.rulebooks import get_rulebook

    replayer = Replayer(get_rulebook("bfsp"))
    for event in PhhEvents(hand, lambda: replayer.state):
        yield event
        replayer.apply(event)


def _face_up_pattern(variant: str) -> tuple[bool, ...]:
    """Which of a seat's hole cards, in the order dealt, the variant deals face up (kept per variant: every hand
    asks it)."""
    pattern = _FACE_UP_PATTERNS.get(variant)
    if pattern is None:
        pattern = _FACE_UP_PATTERNS[variant] = tuple(
            f for street in VARIANTS[variant].streets for f in street.face_up
        )
    return pattern


_FACE_UP_PATTERNS: dict[str, tuple[bool, ...]] = {}


@dataclass
class _Draw:
    """A discard (``action``) waiting for its replacement cards (``drawn`` stays ``None`` until dealt)."""

    action: PhhAction
    seat: int
    discarded: tuple[MaybeCard, ...]
    drawn: tuple[MaybeCard, ...] | None


def _act(made: dict[int, PlayerActed], seat: int, kind: ActionKind) -> PlayerActed:
    """``PlayerActed(seat, kind)`` for an act without an amount, kept in ``made`` (that kind's) by seat."""
    act = made.get(seat)
    if act is None:
        if len(made) >= _MADE_MAX:
            made.clear()
        act = made[seat] = PlayerActed(seat, kind)
    return act


class _Mapper:
    """PHH actions to events, one at a time, asking the engine's state where PHH is ambiguous."""

    def __init__(self, hand: PhhHand, state: StateView) -> None:
        self.hand = hand
        self.state = state
        self.face_up_pattern = _face_up_pattern(hand.variant)
        self.held: dict[int, list[MaybeCard]] = {}
        self.draws: list[_Draw] = []
        #: PHH repeats a show as more becomes known (``????`` while all-in, the cards at the end): the last counts
        self.last_show = {a.player: a for a in hand.actions if a.verb is _SHOW_OR_MUCK}
        #: a draw is held only after a discard (``sd``): without one the actions map one to one
        self.draws_possible = any(a.verb is _STAND_PAT_OR_DISCARD for a in hand.actions)

    def events(self) -> Iterator[tuple[PhhAction, ReportedEvent]]:
        # the draws are looked at only when one is pending: most games have none, and these run per action
        for action in self.hand.actions:
            verb = action.verb
            if verb is _STAND_PAT_OR_DISCARD:
                self._discard(action)
            elif verb is _DEAL_HOLE and self.draws and self._is_draw(action):
                self._drawn(action)
            elif verb is _SHOW_OR_MUCK and self.last_show[action.player] is not action:
                continue
            else:
                if self.draws:
                    yield from self._flush(complete_only=False)
                yield action, self._event(action)
            if self.draws:
                yield from self._flush(complete_only=True)
        yield from self._flush(complete_only=False)

    def _event(self, action: PhhAction) -> ReportedEvent:
        seat = self.hand.seats[action.player - 1] if action.player is not None else 0
        verb = action.verb
        if verb is _FOLD:
            return _act(_FOLDS_MADE, seat, _FOLDS)
        if verb is _CHECK_OR_CALL:
            state = self.state()
            if state is not None and state.may_check(seat):  # a check where the seat, to bet, may check
                return _act(_CHECKS_MADE, seat, _CHECK)
            return _act(_CALLS_MADE, seat, _CALL)  # else a call (out of turn: a call, refused)
        if verb is _DEAL_HOLE:
            return self._deal(seat, action.cards or ())
        if verb is _DEAL_BOARD:
            return BoardDealt(action.cards or ())
        if verb is _COMPLETE_BET_OR_RAISE:
            assert action.amount is not None
            return PlayerActed(seat, self._wager_kind(seat), int(action.amount * self.hand.scale))
        if verb is _BRING_IN:
            return PlayerActed(seat, ActionKind.BRING_IN, self._bring_in(seat))
        return self._show_or_muck(seat, action)

    def _deal(self, seat: int, cards: tuple[MaybeCard, ...]) -> HoleCardsDealt:
        held = self.held.setdefault(seat, [])
        start = len(held)
        held.extend(cards)
        # the variant's pattern from this card on; past its end a card is dealt face down
        face_up = self.face_up_pattern[start : start + len(cards)]
        if len(face_up) < len(cards):
            face_up += (False,) * (len(cards) - len(face_up))
        return HoleCardsDealt(seat, cards, face_up)

    def _show_or_muck(self, seat: int, action: PhhAction) -> HandShown | HandMucked:
        if action.show_dealt:
            return HandShown(seat, tuple(self.held.get(seat, ())))
        if action.cards is None:
            return HandMucked(seat)
        return HandShown(seat, action.cards)

    # --- draws: the discard waits for its replacement cards ----------------------------------------------

    def _is_draw(self, action: PhhAction) -> bool:
        seat = seat_of(self.hand, action.player or 0)
        return any(d.seat == seat and d.drawn is None for d in self.draws)

    def _discard(self, action: PhhAction) -> None:
        discarded = action.cards or ()
        self.draws.append(
            _Draw(action, seat_of(self.hand, action.player or 0), discarded, None if discarded else ())
        )

    def _drawn(self, action: PhhAction) -> None:
        seat = seat_of(self.hand, action.player or 0)
        draw = next(d for d in self.draws if d.seat == seat and d.drawn is None)
        draw.drawn = action.cards or ()

    def _flush(self, complete_only: bool) -> Iterator[tuple[PhhAction, CardsDiscarded]]:
        while self.draws and (self.draws[0].drawn is not None or not complete_only):
            draw = self.draws.pop(0)
            held = self.held.setdefault(draw.seat, [])
            for card in draw.discarded:
                if card in held:
                    held.remove(card)
            held.extend(draw.drawn or ())
            yield draw.action, CardsDiscarded(draw.seat, draw.discarded, draw.drawn or ())

    # --- what the engine's state decides ------------------------------------------------------------------

    def _current(self) -> HandState:
        state = self.state()
        assert state is not None, "the replay applies HandStarted before asking for the next event"
        return state

    def _wager_kind(self, seat: int) -> ActionKind:
        """Bet, raise or complete, as the engine reads the seat's position (out of turn: a raise, refused)."""
        state = self.state()
        return (state.aggressive_action(seat) if state is not None else None) or _RAISE

    def _bring_in(self, seat: int) -> int:
        stack = dict(self._current().stacks).get(seat, self.hand.bring_in)
        return min(self.hand.bring_in, stack)
