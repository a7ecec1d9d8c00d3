"""The rules engine: one hand, replayed event by event under a rulebook.

:meth:`HandState.apply` checks a reported event against the rules and the hand so far, refuses an illegal
one with a :class:`domain.errors.HandError` (its rule and a sentence a floor official would say) without
changing anything, and otherwise applies it and answers with the events that follow from it mechanically:
an uncalled bet returned, the pots awarded, the hand ended.

In PokerKit's shape, every act has ``verify_x`` (raises) and ``can_x`` (yes/no); the act itself goes through
``apply``. :meth:`HandState.expected_next` says what the table must do next and
:meth:`HandState.legal_actions` what the player to act may do: importers and the simulator drive hands
with them.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Any, Final

from domain.cards import MaybeCard
from domain.errors import ForcedBetError, HandError, HandStateError, IllegalActionError, RuleRef, chips
from domain.hand.betting import BettingRound
from domain.hand.corrections import (
    check_board_corrected,
    check_burn_corrected,
    check_burns_shuffled,
    check_community_card,
    check_dealt_short,
    check_exposed,
    check_exposed_replaced,
    check_foreign_card,
    check_four_card_flop,
    check_kill,
    check_missing_card,
    check_mistaken_muck,
    check_muck_shuffled,
    check_penalty_kill,
    check_premature,
    check_premature_return,
    check_reform,
    check_unburned_flop,
    do_board_corrected,
    do_burn_corrected,
    do_burns_shuffled,
    do_community_card,
    do_dealt_short,
    do_exposed,
    do_exposed_replaced,
    do_foreign_card,
    do_four_card_flop,
    do_kill,
    do_missing_card,
    do_mistaken_muck,
    do_muck_shuffled,
    do_penalty_kill,
    do_premature,
    do_premature_return,
    do_reform,
    do_unburned_flop,
)
from domain.hand.deal_acts import (
    check_draw,
    do_draw,
)
from domain.hand.dealing import Deck
from domain.hand.events import (
    ActionKind,
    ActionObliged,
    BoardDealt,
    BoxedCardFound,
    BurnsShuffledIntoStub,
    CardBurned,
    CardsDiscarded,
    ClockCalled,
    ClockExpired,
    CommunityCardDealt,
    DealtShort,
    DerivedEvent,
    ExposedCardReplaced,
    ExtraCardDealt,
    FlopDealtUnburned,
    FlopReformed,
    ForcedBetKind,
    ForcedBetPosted,
    ForeignCardFound,
    FourCardFlopDealt,
    HandEnded,
    HandKilled,
    HandMucked,
    HandMuckedByMistake,
    HandShown,
    HandStarted,
    HandVoided,
    HoleCardExposed,
    HoleCardsDealt,
    IncorrectBetAccepted,
    IncorrectBetCorrected,
    MisdealDeclared,
    MissingCardDealt,
    MuckShuffledIntoStub,
    PenaltyHandKilled,
    PlayerActed,
    PotAwarded,
    PrematureCardsDealt,
    PrematureCardsReturned,
    RawActReported,
    ReportedEvent,
    RulingRequested,
    ShowRequested,
    UncalledBetReturned,
)
from domain.hand.in_play import Corrections, HandReading, PendingError, PendingOutOfTurn
from domain.hand.legal import LegalActions, NextAct, NextActKind
from domain.hand.misdeals import (
    check_boxed,
    check_extra_card,
    check_first_hole,
    do_boxed,
    do_extra_card,
    do_first_hole,
)
from domain.hand.phase import Phase
from domain.hand.pots import Pot
from domain.hand.showdown import showdown_order
from domain.hand.start import ForcedBet, verify_start
from domain.hand.tabling import (
    award_to,
    check_muck,
    check_show,
    do_muck,
    do_show,
    finish,
    pots,
    showdown_awards,
)
from domain.hand.turn import best_showing_seat, bring_in_seat, clockwise_after, topology, up_cards
from domain.rulebooks import Rulebook
from domain.variants import BettingStructure, Opener, Street, Variant

if TYPE_CHECKING:
    from domain.hand.interpretation import BettingContext, Correction

__all__ = ["HandState", "Phase"]

_NO_EVENTS: Final[tuple[DerivedEvent, ...]] = ()
# members read on every event, as module names: on Python 3.11 reading an enum member off its class costs about
# fifteen times reading a global; Final, so that the compiled module (mypyc, deploy/native.py) keeps each in a C
# static instead of looking it up in the module's dict
_BETTING: Final = Phase.BETTING
_OVER: Final = Phase.OVER
_SHOWDOWN: Final = Phase.SHOWDOWN
_DEALING: Final = Phase.DEALING
_DRAW: Final = Phase.DRAW
_FORCED_BETS: Final = Phase.FORCED_BETS
_ANTE: Final = ForcedBetKind.ANTE
_DEAD_BLIND: Final = ForcedBetKind.DEAD_BLIND
_AFTER_BLINDS: Final = Opener.AFTER_BLINDS
_LEFT_OF_BUTTON: Final = Opener.LEFT_OF_BUTTON
_BRING_IN_OPENER: Final = Opener.BRING_IN
_FIXED_LIMIT: Final = BettingStructure.FIXED_LIMIT
_CHECK: Final = ActionKind.CHECK
_COMPLETE: Final = ActionKind.COMPLETE


class HandState:
    """One hand in play. Build it with :meth:`start`, feed it with :meth:`apply`."""

    __slots__ = (
        "started",
        "rulebook",
        "variant",
        "seats",
        "next_seat",
        "from_button",
        "starting_stacks",
        "stacks",
        "contributions",
        "folded",
        "mucked",
        "shown",
        "hole",
        "face_up",
        "board",
        "deck",
        "phase",
        "street_index",
        "forced_owed",
        "live_blinds",
        "bets",
        "owed_hole",
        "owed_board",
        "burned",
        "burn_due",
        "dealt_on_street",
        "draw_order",
        "round",
        "table_round",
        "any_bettor",
        "open_bring_in",
        "last_aggressor_any",
        "last_aggressor_final",
        "undetermined",
        "acted",
        "awards",
        "dead",
        "antes_dead",
        "actions",
        "obligation",
        "ruling",
        "ruling_forfeit",
        "out_of_turn",
        "readings",
        "corrections",
        "incorrect",
        "stood",
        "boxed",
        "extra",
        "show_owed",
        "clock",
    )

    def __init__(
        self, started: HandStarted, rulebook: Rulebook, variant: Variant, owed: list[ForcedBet]
    ) -> None:
        self.started = started
        self.rulebook = rulebook
        self.variant = variant
        self.starting_stacks = {e.seat: e.stack for e in started.seats}
        self.seats = tuple(sorted(self.starting_stacks))
        button = started.button if started.button is not None else self.seats[-1]
        self.next_seat, self.from_button = topology(self.seats, button)
        self.stacks = dict(self.starting_stacks)
        self.contributions = dict.fromkeys(self.seats, 0)
        self.folded: set[int] = set()
        self.mucked: set[int] = set()
        self.shown: set[int] = set()
        self.hole: dict[int, list[MaybeCard]] = {s: [] for s in self.seats}
        self.face_up: dict[int, list[bool]] = {s: [] for s in self.seats}
        self.board: list[MaybeCard] = []
        self.deck = Deck(variant.deck, rulebook)
        self.phase = _FORCED_BETS
        self.street_index = 0
        self.forced_owed = owed
        self.live_blinds: list[tuple[int, int, int]] = []  # (seat, owed, posted)
        self.bets: dict[int, int] = dict.fromkeys(self.seats, 0)
        self.owed_hole: dict[int, int] = {}
        self.owed_board = 0
        self.burned = False
        self.burn_due = False
        self.dealt_on_street = False
        self.draw_order: list[int] = []
        self.round: BettingRound | None = None
        #: the hand's one betting-round object, opened again on every street
        self.table_round: BettingRound | None = None
        self.any_bettor = False
        self.open_bring_in = False
        self.last_aggressor_any: int | None = None
        self.last_aggressor_final: int | None = None
        self.undetermined = False
        self.acted = False
        self.awards: list[PotAwarded] = []
        #: dead money (a big-blind ante, dead blinds): it goes to the main pot, outside the side-pot layers
        self.dead: dict[int, int] = {}
        antes = started.stakes.antes
        self.antes_dead = len(antes) != len(self.seats) or len({a for _, a in antes}) > 1
        #: every action in turn so far (substantial action, TDA 2022 36)
        self.actions: list[ActionKind] = []
        #: a seat held by a raw act to a choice still to make, with its rule (domain/hand/raw_acts.py)
        self.obligation: tuple[ActionObliged, RuleRef] | None = None
        #: a raw act the director must read: the hand waits for an official's entry of the action
        self.ruling: tuple[RulingRequested, RuleRef] | None = None
        #: what the ruled seat forfeits if the director's entry is a fold (an undercall's chips, TDA 2022 51-B)
        self.ruling_forfeit = 0
        #: out-of-turn acts waiting for their seat's turn
        self.out_of_turn: dict[int, PendingOutOfTurn] = {}
        #: the readings of raw acts the last applied event produced (the aggregate stores them)
        self.readings: list[HandReading] = []
        #: what dealing corrections leave pending (domain/hand/corrections.py), made when first needed
        self.corrections: Corrections | None = None
        #: accepted incorrect bets whose window to be corrected is open, and those that stood
        #: (domain/hand/incorrect_bets.py)
        self.incorrect: list[PendingError] = []
        self.stood: list[tuple[PendingError, Correction]] = []
        #: cards found boxed in the first deal, and seats found with cards too many (domain/hand/misdeals.py)
        self.boxed = 0
        self.extra: dict[int, int] = {}
        #: seats whose hand a granted show request obliges them to table (domain/hand/show_requests.py)
        self.show_owed: set[int] = set()
        #: (seat, actions recorded when it was called): the action clock running on the seat to act
        #: (domain/hand/clock.py)
        self.clock: tuple[int, int] | None = None
        if not owed:
            self._start_street(0)

    @classmethod
    def start(cls, started: HandStarted, rulebook: Rulebook) -> HandState:
        """A new hand, or :class:`HandError` when the start itself breaks the rules."""
        variant, owed = verify_start(started, rulebook)
        return cls(started, rulebook, variant, owed)

    # --- what the table sees ------------------------------------------------------------------------------

    @property
    def street(self) -> Street:
        return self.variant.streets[self.street_index]

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def actor(self) -> int | None:
        """The seat whose turn it is to bet or to draw, or None."""
        if self.phase is _BETTING and self.round is not None:
            return self.round.actor
        if self.phase is _DRAW and self.draw_order:
            return self.draw_order[0]
        return None

    @property
    def in_hand(self) -> tuple[int, ...]:
        """Seats that have not folded, clockwise from the button (stud: seat order)."""
        folded = self.folded
        return tuple([s for s in self.from_button if s not in folded])

    def final_stacks(self) -> dict[int, int]:
        return dict(self.stacks)

    def pot_total(self) -> int:
        return sum(self.contributions.values())

    def betting_context(self, seat: int) -> BettingContext:
        """Where the betting stands for ``seat`` now, as the rulebook reads a raw act (domain/hand/raw_acts.py)."""
        from domain.hand.raw_acts import betting_context

        return betting_context(self, seat)

    def legal_actions(self) -> LegalActions:
        """The options of the player to act (bfsp 3.4 "action legality view"), narrowed to what a raw act
        obliges him to (domain/hand/raw_acts.py)."""
        if self.phase is not _BETTING or self.round is None or self.round.actor is None:
            raise HandStateError("nobody is to bet now", self.rulebook.cite("turn_order"))
        from domain.hand.raw_acts import obliged_options

        return obliged_options(self, self.round.legal(self.round.actor))

    def forced_bet_due(self) -> tuple[int, ForcedBetKind] | None:
        """The seat and kind of the forced bet owed next: ``expected_next()``'s seat and ``forced_bet`` while the
        forced bets are being posted, without building the view (an importer asks it before every forced bet it
        posts; issue 17). None in any other phase."""
        if self.phase is not _FORCED_BETS:
            return None
        f = self.forced_owed[0]
        return f.seat, f.kind

    def may_check(self, seat: int) -> bool:
        """Whether ``seat`` is to bet now and may check: ``legal_actions().can_check`` without building the
        whole view (an importer asks it of every check-or-call; issue 17). False when it is not his turn."""
        rnd = self.round
        if self.phase is not _BETTING or rnd is None or rnd.actor != seat or not rnd.can_check(seat):
            return False
        held = self.obligation
        return held is None or held[0].seat != seat or _CHECK in held[0].options

    def aggressive_action(self, seat: int) -> ActionKind | None:
        """The act by which ``seat``, to bet now, would raise the stakes (bet, raise or complete), within what a
        raw act obliges him to: ``legal_actions().aggressive_action`` without working out the sizes. None when it
        is not his turn or he may not raise the stakes."""
        rnd = self.round
        if self.phase is not _BETTING or rnd is None or rnd.actor != seat:
            return None
        kind = _COMPLETE if rnd.awaiting_bring_in else rnd.aggressive_kind(seat)
        held = self.obligation
        if held is None or held[0].seat != seat or kind in held[0].options:
            return kind
        return None

    def expected_next(self) -> NextAct:
        """What the table must do next (the first of several owed acts when their order is free)."""
        phase = self.phase
        if phase is _FORCED_BETS:
            f = self.forced_owed[0]
            return NextAct(NextActKind.FORCED_BET, f.seat, f.kind, min(f.amount, self.stacks[f.seat]))
        if phase is _DEALING:
            if self.burn_owed():
                return NextAct(NextActKind.BURN)
            for s in self.from_button:
                n = self.owed_hole.get(s, 0)
                if n:
                    start = self.street.hole_cards - n
                    return NextAct(NextActKind.DEAL_HOLE, s, count=n, face_up=self.street.face_up[start:])
            return NextAct(NextActKind.DEAL_BOARD, count=self.owed_board)
        if phase is _DRAW:
            if self.burn_owed():
                return NextAct(NextActKind.BURN)
            return NextAct(NextActKind.DRAW, self.draw_order[0])
        if phase is _BETTING:
            return NextAct(NextActKind.PLAYER_ACTION, self.actor)
        if phase is _SHOWDOWN:
            order = self.showdown_order()
            return NextAct(NextActKind.SHOWDOWN, seats=tuple(s for s in order if s not in self.shown))
        return NextAct(NextActKind.OVER)

    def showdown_order(self) -> tuple[int, ...]:
        """The order in which the contesting seats table their cards (bfsp 5.9.2; TDA 2022 17)."""
        contest = [s for s in self._final_order() if s not in self.mucked]
        if not contest:
            return ()
        final = self.last_aggressor_final if self.last_aggressor_final in contest else None
        return showdown_order(contest, final, self.last_aggressor_any, self.rulebook)

    def _final_order(self) -> tuple[int, ...]:
        in_hand = self.in_hand
        if self.variant.uses_button:
            return in_hand
        kind = self.variant.bring_in_kind
        first = best_showing_seat(kind, in_hand, self.hole, self.face_up, in_hand)
        if first is None:
            return in_hand
        i = in_hand.index(first)
        return in_hand[i:] + in_hand[:i]

    # --- the one door in ----------------------------------------------------------------------------------

    def apply(self, event: ReportedEvent) -> tuple[DerivedEvent, ...]:
        """Check ``event``; refuse it (nothing changes) or apply it and return what follows from it."""
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise HandStateError(
                f"a {type(event).__name__} cannot be applied to a hand in play",
                self.rulebook.cite("hand_over"),
            )
        check, do = handler
        if self.readings:
            self.readings = []
        if self.phase is _OVER:
            if not self._is_reshow(event):
                raise HandStateError(
                    f"the hand is over; a {type(event).__name__} cannot follow", self.rulebook.cite("hand_over")
                )
            return _NO_EVENTS
        if self.ruling is not None:
            self._check_ruling(event)
        # the acts of nearly every hand are called by name: compiled (mypyc, deploy/native.py), a direct call
        # passes its arguments unboxed, where the table's callables are called as Python objects; the rest (and
        # the interpreter, which gains nothing either way) go through the table
        result: tuple[DerivedEvent, ...]
        if isinstance(event, PlayerActed):
            result = self.do_act(event, self.check_act(event))
        elif isinstance(event, HoleCardsDealt):
            result = do_first_hole(self, event, check_first_hole(self, event))
        elif isinstance(event, BoardDealt):
            check_board_corrected(self, event)
            result = do_board_corrected(self, event, None)
        elif isinstance(event, CardBurned):
            check_burn_corrected(self, event)
            result = do_burn_corrected(self, event, None)
        elif isinstance(event, ForcedBetPosted):
            result = self._do_forced(event, self._check_forced(event))
        else:
            result = do(self, event, check(self, event))
        if self.incorrect:
            # the act may have closed an incorrect bet's window: it stands, and that comes before what follows
            from domain.hand.incorrect_bets import stood

            result = (*stood(self), *result)
        return result

    def _is_reshow(self, event: ReportedEvent) -> bool:
        """A tabled hand shown again after the award, card for card: it changes nothing and is accepted."""
        if not isinstance(event, HandShown) or event.seat not in self.shown:
            return False
        return list(event.cards) == self.hole[event.seat] or all(c is None for c in event.cards)

    def verify(self, event: ReportedEvent) -> None:
        """Raise the :class:`HandError` that :meth:`apply` would raise for ``event``; change nothing."""
        handler = _HANDLERS.get(type(event))
        if handler is None or (self.phase is _OVER and not self._is_reshow(event)):
            raise HandStateError(
                f"a {type(event).__name__} cannot be applied to this hand now",
                self.rulebook.cite("hand_over"),
            )
        if self.phase is not _OVER:
            self._check_ruling(event)
            handler[0](self, event)

    def _check_ruling(self, event: ReportedEvent) -> None:
        """While a ruling is pending, only the official's entry of an action, or a void, may follow; while it is
        on an undercall, the next seat's raw act too: a second undercall in a row (TDA 2022 51-C)."""
        if self.ruling is None or isinstance(event, PlayerActed | HandVoided | MisdealDeclared):
            return
        if isinstance(event, RawActReported):
            from domain.hand.raw_acts import undercall_may_follow

            if undercall_may_follow(self, event.seat):
                return
        asked, rule = self.ruling
        raise HandStateError(
            f"a {type(event).__name__} cannot follow: the director's ruling on seat {asked.seat}'s act is "
            f"pending ({asked.reason})",
            rule,
        )

    def can(self, event: ReportedEvent) -> bool:
        try:
            self.verify(event)
        except HandError:
            return False
        return True

    # pokerkit's shape: verify_x raises, can_x answers
    def verify_fold(self, seat: int) -> None:
        self.verify(PlayerActed(seat, ActionKind.FOLD))

    def can_fold(self, seat: int) -> bool:
        return self.can(PlayerActed(seat, ActionKind.FOLD))

    def verify_check(self, seat: int) -> None:
        self.verify(PlayerActed(seat, ActionKind.CHECK))

    def can_check(self, seat: int) -> bool:
        return self.can(PlayerActed(seat, ActionKind.CHECK))

    def verify_call(self, seat: int) -> None:
        self.verify(PlayerActed(seat, ActionKind.CALL))

    def can_call(self, seat: int) -> bool:
        return self.can(PlayerActed(seat, ActionKind.CALL))

    def verify_bet(self, seat: int, to: int) -> None:
        self.verify(PlayerActed(seat, ActionKind.BET, to))

    def can_bet(self, seat: int, to: int) -> bool:
        return self.can(PlayerActed(seat, ActionKind.BET, to))

    def verify_raise(self, seat: int, to: int) -> None:
        self.verify(PlayerActed(seat, ActionKind.RAISE, to))

    def can_raise(self, seat: int, to: int) -> bool:
        return self.can(PlayerActed(seat, ActionKind.RAISE, to))

    def verify_complete(self, seat: int, to: int) -> None:
        self.verify(PlayerActed(seat, ActionKind.COMPLETE, to))

    def can_complete(self, seat: int, to: int) -> bool:
        return self.can(PlayerActed(seat, ActionKind.COMPLETE, to))

    def verify_bring_in(self, seat: int) -> None:
        self.verify(PlayerActed(seat, ActionKind.BRING_IN))

    def can_bring_in(self, seat: int) -> bool:
        return self.can(PlayerActed(seat, ActionKind.BRING_IN))

    def verify_post(self, seat: int, kind: ForcedBetKind, amount: int) -> None:
        self.verify(ForcedBetPosted(seat, kind, amount))

    def can_post(self, seat: int, kind: ForcedBetKind, amount: int) -> bool:
        return self.can(ForcedBetPosted(seat, kind, amount))

    def verify_deal_hole(self, seat: int, cards: tuple[MaybeCard, ...]) -> None:
        self.verify(HoleCardsDealt(seat, cards))

    def can_deal_hole(self, seat: int, cards: tuple[MaybeCard, ...]) -> bool:
        return self.can(HoleCardsDealt(seat, cards))

    def verify_burn(self, card: MaybeCard = None) -> None:
        self.verify(CardBurned(card))

    def can_burn(self, card: MaybeCard = None) -> bool:
        return self.can(CardBurned(card))

    def verify_deal_board(self, cards: tuple[MaybeCard, ...]) -> None:
        self.verify(BoardDealt(cards))

    def can_deal_board(self, cards: tuple[MaybeCard, ...]) -> bool:
        return self.can(BoardDealt(cards))

    def verify_draw(self, seat: int, discarded: tuple[MaybeCard, ...], drawn: tuple[MaybeCard, ...]) -> None:
        self.verify(CardsDiscarded(seat, discarded, drawn))

    def can_draw(self, seat: int, discarded: tuple[MaybeCard, ...], drawn: tuple[MaybeCard, ...]) -> bool:
        return self.can(CardsDiscarded(seat, discarded, drawn))

    def verify_show(self, seat: int, cards: tuple[MaybeCard, ...]) -> None:
        self.verify(HandShown(seat, cards))

    def can_show(self, seat: int, cards: tuple[MaybeCard, ...]) -> bool:
        return self.can(HandShown(seat, cards))

    def verify_muck(self, seat: int) -> None:
        self.verify(HandMucked(seat))

    def can_muck(self, seat: int) -> bool:
        return self.can(HandMucked(seat))

    # --- forced bets --------------------------------------------------------------------------------------

    def _check_forced(self, e: ForcedBetPosted) -> ForcedBet:
        cite = self.rulebook.cite
        if self.phase is not _FORCED_BETS:
            raise ForcedBetError(
                f"seat {e.seat} posted a {_kind_words(e.kind)} after the forced bets were in",
                cite("forced_bet"),
            )
        is_ante = e.kind is _ANTE
        owed = next(
            (f for f in self.forced_owed if f.seat == e.seat and (f.kind is _ANTE) == is_ante),
            None,
        )
        if owed is None:
            raise ForcedBetError(f"seat {e.seat} owes no {_kind_words(e.kind)} this hand", cite("forced_bet"))
        # which blind is which is a reading of the posting order, not a fact of the stakes: any blind kind
        # pays a blind the seat owes, and the amount is what is checked
        if is_ante != (owed.kind is _ANTE):
            raise ForcedBetError(
                f"seat {e.seat} posted a {_kind_words(e.kind)}; seat {e.seat} owes the {_kind_words(owed.kind)}",
                cite("forced_bet"),
            )
        due = min(owed.amount, self.stacks[e.seat])
        if e.amount != due:
            tail = f" (all-in for {chips(due)})" if due < owed.amount else ""
            raise ForcedBetError(
                f"seat {e.seat} posted {chips(e.amount)}; the {_kind_words(owed.kind)} is {chips(owed.amount)}{tail}",
                cite("forced_bet"),
            )
        return owed

    def _do_forced(self, e: ForcedBetPosted, owed: ForcedBet) -> tuple[DerivedEvent, ...]:
        owed_list = self.forced_owed
        del owed_list[next(i for i, f in enumerate(owed_list) if f is owed)]
        self.stacks[e.seat] -= e.amount
        self.contributions[e.seat] += e.amount
        if e.kind is _DEAD_BLIND or (e.kind is _ANTE and self.antes_dead):
            self.dead[e.seat] = self.dead.get(e.seat, 0) + e.amount
        if e.kind not in (_ANTE, _DEAD_BLIND):
            self.bets[e.seat] += e.amount
            self.live_blinds.append((e.seat, owed.amount, e.amount))
        if not self.forced_owed:
            self._start_street(0)
        return _NO_EVENTS

    # --- dealing (domain/hand/deal_acts.py) ---------------------------------------------------------------

    def burn_owed(self) -> bool:
        if not self.burn_due or self.burned:
            return False
        # a correction may have put this street's burn down already (domain/hand/corrections.py)
        fix = self.corrections
        return fix is None or fix.burn_down_street != self.street_index

    def waiting_for(self) -> str:
        nxt = self.expected_next()
        if nxt.kind is NextActKind.FORCED_BET:
            return f"seat {nxt.seat} has not posted the {_kind_words(nxt.forced_bet)}"
        if nxt.kind is NextActKind.PLAYER_ACTION:
            return f"the betting on the {self.street.name} is not over (seat {nxt.seat} to act)"
        if nxt.kind is NextActKind.DRAW:
            return f"the draw is not over (seat {nxt.seat} to draw)"
        if nxt.kind is NextActKind.SHOWDOWN:
            return "every card has been dealt and the hand is at the showdown"
        if nxt.kind is NextActKind.DEAL_HOLE:
            return f"seat {nxt.seat} is owed {nxt.count} card(s) on the {self.street.name}"
        if nxt.kind is NextActKind.DEAL_BOARD:
            return f"{nxt.count} board card(s) are owed on the {self.street.name}"
        return "the dealer must burn a card"

    # --- betting ------------------------------------------------------------------------------------------

    def check_act(self, e: PlayerActed) -> int:
        rnd = self.round
        if self.phase is not _BETTING or rnd is None:
            raise IllegalActionError(
                f"seat {e.seat} made a {e.action} now: {self.waiting_for()}", self.rulebook.cite("turn_order")
            )
        if self.open_bring_in and e.seat not in self.folded and self.stacks.get(e.seat, 0) > 0:
            saved = rnd.actor
            rnd.actor = e.seat  # up-cards unknown: the record names the bring-in
            try:
                return rnd.verify(e.seat, e.action, e.amount)
            finally:
                rnd.actor = saved
        total = rnd.verify(e.seat, e.action, e.amount)
        if self.obligation is not None:
            from domain.hand.raw_acts import check_obligation

            check_obligation(self, e)
        return total

    def do_act(self, e: PlayerActed, total: int) -> tuple[DerivedEvent, ...]:
        rnd = self.round
        assert rnd is not None
        self.acted = True
        self.actions.append(e.action)
        # what raw acts left pending (a ruling, an obligation, acts out of turn) is settled by before_act and
        # turn_comes; a hand without any, nearly every hand, skips the calls (this runs once an action)
        pending = self.ruling is not None or self.obligation is not None or bool(self.out_of_turn)
        forfeited = 0
        if pending:
            from domain.hand.raw_acts import before_act

            forfeited = before_act(self, e)
        if self.open_bring_in:
            self.open_bring_in = False
            rnd.actor = e.seat
        rnd.act(e.seat, e.action, total)
        if forfeited:
            from domain.hand.raw_acts import forfeit

            forfeit(self, e.seat, forfeited)
        if rnd.actor is None or len(self.folded) >= len(self.seats) - 1:
            return self.end_round()
        if self.out_of_turn:
            from domain.hand.raw_acts import turn_comes

            return turn_comes(self)
        return _NO_EVENTS

    # --- streets ------------------------------------------------------------------------------------------

    def _start_street(self, index: int) -> None:
        self.street_index = index
        street = self.variant.streets[index]
        self.burned = False
        self.burn_due = street.burn and self.started.burns_recorded
        self.dealt_on_street = False
        live = self.in_hand
        if index:
            self.bets = dict.fromkeys(self.seats, 0)
        self.owed_hole = dict.fromkeys(live, street.hole_cards) if street.hole_cards else {}
        self.owed_board = street.board_cards
        if street.draw:
            self.phase = _DRAW
            self.draw_order = list(live)
        else:
            self.phase = _DEALING

    def begin_betting(self) -> tuple[DerivedEvent, ...]:
        v = self.variant
        street = self.street
        stakes = self.started.stakes
        live = self.in_hand
        able = [s for s in live if self.stacks[s] > 0]
        first: int | None = None
        bring_in = 0
        bring_in_fold_ok = False
        call_level = 0
        pl_adjust = 0
        if street.opener is _AFTER_BLINDS:
            blinds = [b for b in self.live_blinds]
            after = blinds[-1][0] if blinds else self._button()
            first = (
                self.next_seat[after] if after in self.next_seat else clockwise_after(self.seats, after)[0]
            )
            if self.rulebook.short_big_blind_full_call:
                call_level = max((owed for _, owed, _ in blinds), default=0)
                pl_adjust = sum(owed - posted for _, owed, posted in blinds if posted < owed)
            else:
                call_level = max((posted for _, _, posted in blinds), default=0)
        elif street.opener is _LEFT_OF_BUTTON:
            first = self.from_button[0]
        elif street.opener is _BRING_IN_OPENER:
            bring_in = stakes.bring_in
            # the lowest up-card is due the bring-in; if it is all-in on the ante, the action starts at his
            # left and each may fold, bring in or complete (bfsp 6.5.4; TDA 2017 D-59 D)
            first = bring_in_seat(v.bring_in_kind, live, self.hole, self.face_up, ())
            if first is None and able:
                first, self.open_bring_in = able[0], True
            bring_in_fold_ok = first is not None and first not in able
        else:
            # the best board opens; if it is all-in, the next seat clockwise that can act (PokerKit agrees)
            first = best_showing_seat(v.bring_in_kind, live, self.hole, self.face_up, live)
        limit = v.betting is _FIXED_LIMIT
        small, big = stakes.small_bet, stakes.big_bet
        cap: int | None = None
        heads_up_uncapped = self.rulebook.limit_unlimited_heads_up and len(live) == 2
        if limit and not (heads_up_uncapped or self.started.raise_cap_lifted):
            cap = self.rulebook.limit_max_raises
        may_double = (
            limit
            and v.open_pair_big_bet
            and self.rulebook.stud_open_pair_big_bet
            and self.street_index == 1
            and any(_open_pair(up_cards(self.hole[s], self.face_up[s])) for s in live)
        )
        rnd = self.table_round
        if rnd is None:
            rnd = self.table_round = BettingRound(
                rulebook=self.rulebook,
                structure=v.betting,
                stacks=self.stacks,
                contributions=self.contributions,
                folded=self.folded,
                seats=self.seats,
                next_seat=self.next_seat,
                min_bet=_min_bet(self),
                big=big,
            )
        rnd.open(
            self.bets,
            call_level,
            big if street.big_bet else small,
            may_double,
            cap,
            pl_adjust,
            bring_in,
            first if first is not None and able else None,
            bring_in_fold_ok,
        )
        self.round = rnd
        self.phase = _BETTING
        if self.round.actor is None:
            return self.end_round()
        return _NO_EVENTS

    def _button(self) -> int:
        return self.started.button if self.started.button is not None else self.seats[-1]

    def end_round(self) -> tuple[DerivedEvent, ...]:
        rnd = self.round
        assert rnd is not None
        out: list[DerivedEvent] = []
        back = rnd.finish()
        if back is not None:
            out.append(UncalledBetReturned(back[0], back[1]))
        if rnd.last_aggressor is not None:
            self.last_aggressor_any = rnd.last_aggressor
            if self.street_index == len(self.variant.streets) - 1:
                self.last_aggressor_final = rnd.last_aggressor
        self.round = None
        self.open_bring_in = False
        self.out_of_turn.clear()  # an act out of turn whose turn never came lapses with the round
        live = self.in_hand
        if len(live) == 1:
            out.extend(award_to(self, live[0], self.folded))
        elif self.street_index == len(self.variant.streets) - 1:
            self.phase = _SHOWDOWN
            if all(s in self.shown for s in live):
                awards, undetermined = showdown_awards(self, self.hole, set())
                out.extend(finish(self, awards, undetermined))
        else:
            self._start_street(self.street_index + 1)
            if self.phase is _DEALING and not self.owed_hole and not self.owed_board:
                out.extend(self.begin_betting())
        return tuple(out)

    # --- showdown (domain/hand/tabling.py) --------------------------------------------------------------

    def pots(self, out_of_it: set[int] | None = None) -> tuple[Pot, ...]:
        """The main pot and the side pots now (dead money in the main pot)."""
        return pots(self, out_of_it)

    # --- misdeal and void ---------------------------------------------------------------------------------

    def _check_misdeal(self, e: MisdealDeclared) -> None:
        """TDA 2022 35-D: a misdeal until substantial action (36); bfsp 6.3: only before the first action."""
        if self.rulebook.misdeal_until_substantial_action:
            from domain.hand.interpretation import substantial_action

            if substantial_action(self.actions, self.rulebook):
                raise HandStateError(
                    "a misdeal cannot be declared after substantial action (two actions in turn, one of them "
                    "putting chips in, or any three)",
                    self.rulebook.cite("misdeal"),
                )
        elif self.acted:
            raise HandStateError(
                "a misdeal cannot be declared once the betting has begun: the first action has been taken",
                self.rulebook.cite("misdeal"),
            )

    def void(self, e: MisdealDeclared | HandVoided, _: None = None) -> tuple[DerivedEvent, ...]:
        self.stacks = dict(self.starting_stacks)
        self.contributions = dict.fromkeys(self.seats, 0)
        self.phase = _OVER
        self.round = None
        self.obligation = self.ruling = None
        self.out_of_turn.clear()
        self.incorrect.clear()  # every chip is back: nothing is left to stand or to correct
        return (HandEnded(tuple(sorted(self.stacks.items())), False),)

    def _check_void(self, e: HandVoided) -> None:
        return None


def _min_bet(hand: HandState) -> int:
    stakes = hand.started.stakes
    if stakes.min_bet:
        return stakes.min_bet
    blinds = [owed for _, owed, _ in hand.live_blinds]
    if blinds:
        return max(blinds)
    owed = [amount for _, amount in stakes.blinds]
    return max(owed) if owed else max(stakes.small_bet, 1)


def _open_pair(ups: list[Any]) -> bool:
    ranks = [c.rank for c in ups]
    return len(set(ranks)) < len(ranks)


def _kind_words(kind: ForcedBetKind | None) -> str:
    return str(kind).replace("_", " ") if kind else "forced bet"


_Check = Callable[[HandState, Any], Any]
_Do = Callable[[HandState, Any, Any], tuple[DerivedEvent, ...]]


def _lazy(module: str, name: str) -> Callable[..., Any]:
    """``module``'s ``name``, imported at its first call: the acts it handles (raw acts, incorrect bets, show
    requests, the clock) come from tables that report them, none of a plain hand history, and their modules
    were a tenth of a second of every process's start (``pokeraudit validate``, issue 17)."""

    def call(*args: Any) -> Any:
        return getattr(import_module(module), name)(*args)

    return call


_RAW: Final = "domain.hand.raw_acts"
_INCORRECT: Final = "domain.hand.incorrect_bets"
_REQUESTS: Final = "domain.hand.show_requests"
_CLOCK: Final = "domain.hand.clock"

_HANDLERS: dict[type, tuple[_Check, _Do]] = {
    ForcedBetPosted: (HandState._check_forced, HandState._do_forced),
    HoleCardsDealt: (check_first_hole, do_first_hole),
    BoardDealt: (check_board_corrected, do_board_corrected),
    CardBurned: (check_burn_corrected, do_burn_corrected),
    CardsDiscarded: (check_draw, do_draw),
    PlayerActed: (HandState.check_act, HandState.do_act),
    HandShown: (check_show, do_show),
    HandMucked: (check_muck, do_muck),
    MisdealDeclared: (HandState._check_misdeal, HandState.void),
    HandVoided: (HandState._check_void, HandState.void),
    RawActReported: (_lazy(_RAW, "check_raw"), _lazy(_RAW, "do_raw")),
    DealtShort: (check_dealt_short, do_dealt_short),
    MissingCardDealt: (check_missing_card, do_missing_card),
    HandKilled: (check_kill, do_kill),
    PenaltyHandKilled: (check_penalty_kill, do_penalty_kill),
    FourCardFlopDealt: (check_four_card_flop, do_four_card_flop),
    FlopDealtUnburned: (check_unburned_flop, do_unburned_flop),
    FlopReformed: (check_reform, do_reform),
    HandMuckedByMistake: (check_mistaken_muck, do_mistaken_muck),
    ForeignCardFound: (check_foreign_card, do_foreign_card),
    PrematureCardsDealt: (check_premature, do_premature),
    PrematureCardsReturned: (check_premature_return, do_premature_return),
    BurnsShuffledIntoStub: (check_burns_shuffled, do_burns_shuffled),
    CommunityCardDealt: (check_community_card, do_community_card),
    HoleCardExposed: (check_exposed, do_exposed),
    ExposedCardReplaced: (check_exposed_replaced, do_exposed_replaced),
    MuckShuffledIntoStub: (check_muck_shuffled, do_muck_shuffled),
    IncorrectBetAccepted: (_lazy(_INCORRECT, "check_accepted"), _lazy(_INCORRECT, "do_accepted")),
    IncorrectBetCorrected: (_lazy(_INCORRECT, "check_corrected"), _lazy(_INCORRECT, "do_corrected")),
    ExtraCardDealt: (check_extra_card, do_extra_card),
    BoxedCardFound: (check_boxed, do_boxed),
    ShowRequested: (_lazy(_REQUESTS, "check_request"), _lazy(_REQUESTS, "do_request")),
    ClockCalled: (_lazy(_CLOCK, "check_clock_called"), _lazy(_CLOCK, "do_clock_called")),
    ClockExpired: (_lazy(_CLOCK, "check_clock_expired"), _lazy(_CLOCK, "do_clock_expired")),
}
