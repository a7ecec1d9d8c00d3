"""One betting round: whose turn it is, what each seat may do, and what an act changes.

The sizes follow bfsp 4.7-4.9 and TDA 2022 40-48: the minimum raise is the last full increment (43), a
short all-in re-opens the betting only for a full raise (no-limit, pot-limit) or half a bet (fixed limit)
(bfsp 4.9.8, TDA 47), pot-limit's maximum is the pot after the call (bfsp 4.9.6), fixed limit has its
sizes and its cap (bfsp 4.7.3). A big blind all-in for less still sets the call and the raise sizes (bfsp
4.9.8; TDA 54-B for the pot).
"""

from __future__ import annotations

from typing import Final

from domain.errors import IllegalActionError, OutOfTurnError, chips
from domain.hand.events import ActionKind
from domain.hand.legal import LegalActions
from domain.rulebooks import Rulebook, ShortAllInReraise
from domain.variants import BettingStructure

_AGGRESSIVE: Final = (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE)
# the acts as module names: on Python 3.11 reading an enum member off its class costs about fifteen times reading a
# global, and the round reads them several times an act; Final, so that the compiled module (mypyc,
# deploy/native.py) keeps each in a C static instead of looking it up in the module's dict
_BET: Final = ActionKind.BET
_RAISE: Final = ActionKind.RAISE
_COMPLETE: Final = ActionKind.COMPLETE
_FOLD: Final = ActionKind.FOLD
_CHECK: Final = ActionKind.CHECK
_CALL: Final = ActionKind.CALL
_BRING_IN: Final = ActionKind.BRING_IN
_ALL_IN_PLUS_BIG_BLIND: Final = ShortAllInReraise.ALL_IN_PLUS_BIG_BLIND


class BettingRound:
    """The state of one street's betting. The dicts and the folded set are the hand's own (shared)."""

    __slots__ = (
        "rulebook",
        "limit",
        "pot_limit",
        "stacks",
        "contributions",
        "folded",
        "seats",
        "next_seat",
        "bets",
        "call_level",
        "full_level",
        "increment",
        "min_bet",
        "size",
        "big",
        "may_double",
        "raises",
        "cap",
        "pl_adjust",
        "bring_in",
        "awaiting_bring_in",
        "bring_in_fold_ok",
        "bring_in_posted",
        "acted_at",
        "acted_seq",
        "full_seq",
        "last_aggressor",
        "actor",
        "able_count",
    )

    def __init__(
        self,
        *,
        rulebook: Rulebook,
        structure: BettingStructure,
        stacks: dict[int, int],
        contributions: dict[int, int],
        folded: set[int],
        seats: tuple[int, ...],
        next_seat: dict[int, int],
        min_bet: int,
        big: int,
    ) -> None:
        """What stays the same for every round of a hand; :meth:`open` starts each round."""
        self.rulebook = rulebook
        self.limit = structure is BettingStructure.FIXED_LIMIT
        self.pot_limit = structure is BettingStructure.POT_LIMIT
        self.stacks = stacks
        self.contributions = contributions
        self.folded = folded
        self.seats = seats
        self.next_seat = next_seat
        self.min_bet = min_bet
        self.big = big

    def open(
        self,
        bets: dict[int, int],
        call_level: int,
        size: int,
        may_double: bool,
        cap: int | None,
        pl_adjust: int,
        bring_in: int,
        first: int | None,
        bring_in_fold_ok: bool = False,
    ) -> None:
        """Start a round: ``bets`` are the street's bets so far (the blinds before the flop), ``first`` the seat
        that opens it (it acts if it must, else the next that must)."""
        self.bets = bets
        self.call_level = call_level
        self.full_level = call_level
        self.increment = max(self.min_bet, call_level)
        self.size = size
        self.may_double = may_double
        self.raises = 0
        self.cap = cap
        self.pl_adjust = pl_adjust
        self.bring_in = bring_in
        self.awaiting_bring_in = bring_in > 0 and first is not None
        #: the seat due the bring-in is all-in: the next ones may fold, bring in or complete (bfsp 6.5.4)
        self.bring_in_fold_ok = bring_in_fold_ok
        self.bring_in_posted = False
        self.acted_at: dict[int, int] = {}
        self.acted_seq: dict[int, int] = {}
        self.full_seq = 0
        self.last_aggressor: int | None = None
        self.actor: int | None = None
        stacks, folded = self.stacks, self.folded
        self.able_count = sum(1 for s in self.seats if s not in folded and stacks[s] > 0)
        if first is not None:
            self.actor = first if self.needs_action(first) else self.seat_after(first)

    # --- questions ----------------------------------------------------------------------------------------

    def able(self) -> int:
        """Seats still in the hand with chips behind (they can still bet)."""
        return self.able_count

    def needs_action(self, seat: int) -> bool:
        if seat in self.folded or self.stacks[seat] == 0:
            return False
        if self.able_count < 2:
            return self.bets[seat] < max(self.bets.values())
        return self.bets[seat] < self.call_level or seat not in self.acted_at

    def seat_after(self, seat: int) -> int | None:
        """The next seat clockwise that must act: facing a bet, or not yet acted while two can bet."""
        folded, stacks, bets, acted = self.folded, self.stacks, self.bets, self.acted_at
        call, two = self.call_level, self.able_count >= 2
        if not two:
            # alone with chips: only a bet actually in front of him is to be called (a short big blind's
            # full amount is owed only while someone could still raise)
            call = max(bets.values())
        nxt = self.next_seat
        s = seat
        for _ in range(len(self.seats)):
            s = nxt[s]
            if s in folded or stacks[s] == 0:
                continue
            if bets[s] < call or (two and s not in acted):
                return s
        return None

    def to_match(self) -> int:
        """The street total a call reaches: the current bet, a short big blind counted in full (bfsp 4.9.8) while
        two players can still bet; alone with chips, only what others actually put in."""
        return self.call_level if self.able_count >= 2 else max(self.bets.values())

    def reopened(self, seat: int) -> bool:
        """May this seat raise, having already acted? (bfsp 4.7 "Right to raise", TDA 47)."""
        if seat not in self.acted_at or self.acted_seq[seat] < self.full_seq:
            return True
        if self.rulebook.short_all_in_bet_reopens and self._checked_to_short_bet(seat):
            return True
        if not self.rulebook.short_all_ins_add_up:
            return False
        return self.call_level - self.acted_at[seat] >= self._reopen_threshold()

    def _checked_to_short_bet(self, seat: int) -> bool:
        """Decision D10: he checked, and the bet he faces is only all-ins short of a full bet (no-limit, pot-limit)."""
        return not self.limit and self.acted_at[seat] == 0 and self.full_level == 0 < self.call_level

    def _reopen_threshold(self) -> float:
        if self.limit:
            return self.rulebook.limit_reopen_fraction * self.size
        return self.rulebook.nl_pl_reopen_fraction * self.increment

    def full_raise(self) -> int:
        """The size of a full bet or raise now, before any all-in cap: what the 50 % rule measures against
        (TDA 2022 43; bfsp 4.9.6): the fixed size in limit, else the opening bet or the last full increment."""
        if self.limit:
            return self.full_level + self.size - self.call_level
        if self.call_level == 0:
            return self.min_bet
        if self.full_level < self.call_level and (
            self.rulebook.short_all_in_reraise is _ALL_IN_PLUS_BIG_BLIND
        ):
            return self.min_bet
        return self.increment

    def completing(self) -> bool:
        """Stud: only the bring-in is in; the next aggressive act completes it to the small bet."""
        return self.bring_in_posted and self.full_level == 0

    def aggressive_kind(self, seat: int) -> ActionKind | None:
        """The act that would raise the stakes now (bet, raise or complete), or None if the seat may not: what
        :meth:`aggressive_range` says first, without working out the sizes (an importer asks it every act)."""
        if self.bets[seat] + self.stacks[seat] <= self.call_level or not self.reopened(seat):
            return None
        if not self._someone_could_answer(seat):
            return None
        if self.limit and self.cap is not None and self.full_level > 0 and self.raises >= self.cap:
            return None
        if self.call_level == 0:
            return _BET
        return _COMPLETE if self.completing() else _RAISE

    def can_check(self, seat: int) -> bool:
        """Whether ``seat`` may check now (nothing to call, and not the stud round's opening act): what
        :meth:`legal` says of it, without the rest of the view."""
        return not self.awaiting_bring_in and self.to_match() <= self.bets[seat]

    def aggressive_range(self, seat: int) -> tuple[ActionKind, int, int, tuple[int, ...]] | None:
        """(act, min total, max total, allowed totals in limit), or None if the seat may not raise the stakes."""
        kind = self.aggressive_kind(seat)
        if kind is None:
            return None
        all_in_to = self.bets[seat] + self.stacks[seat]
        if self.limit:
            sizes = (self.size, self.big) if self.may_double else (self.size,)
            allowed = tuple(sorted({min(self.full_level + z, all_in_to) for z in sizes}))
            return kind, allowed[0], allowed[-1], allowed
        if self.call_level == 0:
            min_to = self.min_bet
        elif self.full_level < self.call_level and (
            self.rulebook.short_all_in_reraise is _ALL_IN_PLUS_BIG_BLIND
        ):
            min_to = self.call_level + self.min_bet
        else:
            min_to = self.call_level + self.increment
        max_to = all_in_to
        if self.pot_limit:
            # the minimum bet or raise is always allowed, even where the pot is smaller (blinds all-in short)
            max_to = min(max_to, max(self.pot_limit_max(seat), min_to))
        min_to = min(min_to, max_to)
        return kind, min_to, max_to, ()

    def _someone_could_answer(self, seat: int) -> bool:
        """A raise needs an opponent who could put in more than the current bet; else it is only returned."""
        level = self.call_level
        bets, stacks, folded = self.bets, self.stacks, self.folded
        return any(
            s != seat and s not in folded and stacks[s] and bets[s] + stacks[s] > level for s in self.seats
        )

    def pot_limit_max(self, seat: int) -> int:
        """The pot after the call, raised on top of the call (bfsp 4.9.6; TDA 54-B for a short blind)."""
        owe = self.call_level - self.bets[seat]
        pot = sum(self.contributions.values()) + self.pl_adjust
        return self.call_level + pot + owe

    def legal(self, seat: int) -> LegalActions:
        stack = self.stacks[seat]
        bet = self.bets[seat]
        raises_left = None
        if self.limit and self.cap is not None:
            raises_left = max(0, self.cap - self.raises) if self.full_level > 0 else self.cap
        if self.awaiting_bring_in:
            bring = min(self.bring_in, stack)
            complete_to = min(self.size, bet + stack)
            return LegalActions(
                seat, self.bring_in_fold_ok, False, False, 0, False, False, complete_to > bring, True, bring,
                complete_to, complete_to, _COMPLETE, raises_left, True, (complete_to,),
            )  # fmt: skip
        owe = self.to_match() - bet
        rng = self.aggressive_range(seat)
        kind = rng[0] if rng else None
        return LegalActions(
            seat=seat,
            can_fold=True,
            can_check=owe <= 0,
            can_call=owe > 0,
            call_amount=min(max(owe, 0), stack),
            can_bet=kind is _BET,
            can_raise=kind is _RAISE,
            can_complete=kind is _COMPLETE,
            can_bring_in=False,
            bring_in_amount=0,
            min_bet_or_raise_to=rng[1] if rng else None,
            max_bet_or_raise_to=rng[2] if rng else None,
            aggressive_action=kind,
            raises_left=raises_left,
            reopened=self.reopened(seat),
            allowed_to=rng[3] if rng else (),
        )

    # --- verification -------------------------------------------------------------------------------------

    def verify(self, seat: int, action: ActionKind, amount: int | None) -> int:
        """Refuse an illegal act with the rule and a sentence; else return the seat's street total after it."""
        if seat != self.actor:
            raise OutOfTurnError(
                f"seat {seat} acted out of turn; it is seat {self.actor}'s turn", self.rulebook.cite("turn_order")
            )
        bet = self.bets[seat]
        if self.awaiting_bring_in:
            return self._verify_opening_stud(seat, action, amount)
        owe = self.to_match() - bet
        if action is _FOLD:
            return bet
        if action is _CHECK:
            if owe > 0:
                raise IllegalActionError(
                    f"seat {seat} checked facing a bet of {chips(bet + owe)}; seat {seat} may call "
                    f"{chips(min(owe, self.stacks[seat]))}, raise or fold",
                    self.rulebook.cite("check"),
                )
            return bet
        if action is _CALL:
            return self._verify_call(seat, owe, amount)
        if action is _BRING_IN:
            raise IllegalActionError(
                f"seat {seat} posted a bring-in, but the bring-in is only the opening act of the first stud round",
                self.rulebook.cite("bring_in"),
            )
        return self._verify_aggressive(seat, action, amount)

    def _verify_call(self, seat: int, owe: int, amount: int | None) -> int:
        bet = self.bets[seat]
        if owe <= 0:
            raise IllegalActionError(
                f"seat {seat} called, but there is no bet to call; seat {seat} may check",
                self.rulebook.cite("call"),
            )
        add = min(owe, self.stacks[seat])
        if amount is not None and amount not in (add, bet + add):
            raise IllegalActionError(
                f"seat {seat} called {chips(amount)}; the call is {chips(add)} more, to {chips(bet + add)}",
                self.rulebook.cite("call"),
            )
        return bet + add

    def _verify_opening_stud(self, seat: int, action: ActionKind, amount: int | None) -> int:
        cite = self.rulebook.cite
        bet = self.bets[seat]
        stack = self.stacks[seat]
        if action is _BRING_IN:
            bring = min(self.bring_in, stack)
            if amount is not None and amount != bet + bring:
                raise IllegalActionError(
                    f"seat {seat} brought in for {chips(amount)}; the bring-in is {chips(bring)}",
                    cite("bring_in"),
                )
            return bet + bring
        if action in (_COMPLETE, _RAISE, _BET):
            complete_to = min(self.size, bet + stack)
            if amount is not None and amount != complete_to:
                raise IllegalActionError(
                    f"seat {seat} completed to {chips(amount)}; the completion is to {chips(complete_to)}",
                    cite("complete"),
                )
            return complete_to
        if action is _FOLD and self.bring_in_fold_ok:
            return bet
        raise IllegalActionError(
            f"seat {seat} must open with the bring-in of {chips(min(self.bring_in, stack))} or complete to "
            f"{chips(min(self.size, bet + stack))}; a {action} is not allowed",
            cite("bring_in"),
        )

    def _verify_aggressive(self, seat: int, action: ActionKind, amount: int | None) -> int:
        cite = self.rulebook.cite
        verb = {_BET: "bet", _RAISE: "raised to", _COMPLETE: "completed to"}[
            action
        ]
        if amount is None:
            raise IllegalActionError(f"seat {seat} {verb.split()[0]} without an amount", cite("bet"))
        rng = self.aggressive_range(seat)
        if rng is None:
            raise self.refusal(seat, action)
        kind, min_to, max_to, allowed = rng
        if action is not kind and not (kind is _COMPLETE and action is _RAISE):
            raise IllegalActionError(self.wrong_kind(seat, action, kind), cite("bet"))
        all_in_to = self.bets[seat] + self.stacks[seat]
        if amount > all_in_to:
            raise IllegalActionError(
                f"seat {seat} {verb} {chips(amount)} but has only {chips(all_in_to)} in all on this round",
                cite("bet"),
            )
        if self.limit:
            if amount not in allowed:
                sizes = " or ".join(chips(a) for a in allowed)
                raise IllegalActionError(
                    f"seat {seat} {verb} {chips(amount)}; in this fixed-limit round it must be to {sizes}",
                    cite("limit_bet_size"),
                )
            return amount
        if amount < min_to and amount != all_in_to:
            what = "bet is" if kind is _BET else "raise is to"
            raise IllegalActionError(
                f"seat {seat} {verb} {chips(amount)}; the minimum {what} {chips(min_to)}",
                cite("min_bet" if kind is _BET else "min_raise"),
            )
        if amount > max_to:
            raise IllegalActionError(
                f"seat {seat} {verb} {chips(amount)}; the pot-limit maximum is {chips(max_to)}",
                cite("max_bet_pot_limit"),
            )
        return amount

    def wrong_kind(self, seat: int, action: ActionKind, kind: ActionKind) -> str:
        if kind is _BET:
            return f"seat {seat} made a {action}, but nobody has bet on this round: it is a bet"
        if kind is _COMPLETE:
            return f"seat {seat} made a {action}, but only the bring-in is in: it is a completion"
        return f"seat {seat} made a {action}, but there is a bet of {chips(self.call_level)}: it is a raise"

    def refusal(self, seat: int, action: ActionKind) -> IllegalActionError:
        cite = self.rulebook.cite
        bet = self.bets[seat]
        owe = self.call_level - bet
        if bet + self.stacks[seat] <= self.call_level:
            return IllegalActionError(
                f"seat {seat} cannot {action}: {chips(self.stacks[seat])} behind does not cover more than the call",
                cite("bet"),
            )
        if not self.reopened(seat):
            return IllegalActionError(
                f"seat {seat} already acted and the betting was not re-opened by a full raise; seat {seat} may "
                f"only call {chips(owe)} or fold",
                cite("reopen"),
            )
        if self.limit and self.cap is not None and self.raises >= self.cap:
            return IllegalActionError(
                f"seat {seat} cannot raise: the betting is capped at {self.cap} raises on this round",
                cite("raise_cap"),
            )
        return IllegalActionError(
            f"seat {seat} cannot {action}: no other player has chips to answer it, so seat {seat} may only call "
            f"or fold",
            cite("bet"),
        )

    # --- acts ---------------------------------------------------------------------------------------------

    def _put(self, seat: int, total: int) -> None:
        add = total - self.bets[seat]
        left = self.stacks[seat] - add
        self.stacks[seat] = left
        self.contributions[seat] += add
        self.bets[seat] = total
        if left == 0 and add:
            self.able_count -= 1

    def act(self, seat: int, action: ActionKind, total: int) -> None:
        """Apply an act already verified; ``total`` is what :meth:`verify` returned."""
        if action is _FOLD:
            self.folded.add(seat)
            if self.stacks[seat]:
                self.able_count -= 1
        elif action is _BRING_IN:
            self._put(seat, total)
            self.call_level = max(self.call_level, total)
            self.bring_in_posted = True
        elif action in _AGGRESSIVE:
            self._raise(seat, total)
        elif action is _CALL:
            self._put(seat, total)
        if not (action is _FOLD and self.awaiting_bring_in and self.bring_in_fold_ok):
            self.awaiting_bring_in = False
        self.acted_at[seat] = self.call_level
        self.acted_seq[seat] = self.full_seq
        self.actor = self.seat_after(seat)

    def _raise(self, seat: int, total: int) -> None:
        self._put(seat, total)
        self.last_aggressor = seat
        if total <= self.call_level:
            return
        by = total - self.call_level
        if self.limit:
            size = self.size
            if self.may_double and total - self.full_level == self.big:
                self.size, self.may_double = self.big, False
                size = self.big
            full = total - self.full_level >= self.rulebook.limit_reopen_fraction * size
        elif self.call_level == 0:
            full = total >= self.min_bet
        else:
            full = by >= self.rulebook.nl_pl_reopen_fraction * self.increment
        if full:
            if self.full_level > 0:
                self.raises += 1
            if not self.limit:
                self.increment = max(self.increment, by)
            self.full_level = total
            self.full_seq += 1
        self.call_level = total

    def accept_incorrect(self, seat: int, total: int) -> None:
        """A bet or raise of a size the rules do not allow, accepted at the table (TDA 2022 52): it plays as made.
        Made in turn with chips behind, it is a bet or raise and re-opens the betting; the raise to beat stays
        the largest full one (TDA 2022 43-A), so a raise short of it does not lower it."""
        self._put(seat, total)
        self.last_aggressor = seat
        if self.full_level > 0:
            self.raises += 1
        if not self.limit:
            self.increment = max(self.increment, total - self.call_level)
        self.full_level = self.call_level = total
        self.full_seq += 1
        self.acted_at[seat] = total
        self.acted_seq[seat] = self.full_seq
        self.actor = self.seat_after(seat)

    def correct_to(self, level: int, call_before: int, increment_before: int, seats: list[int]) -> None:
        """An incorrect bet corrected while its round lasts: the bet to call is ``level`` and the raise to beat
        what it would have been had the bet been right; the seats brought to it have acted at it."""
        self.call_level = self.full_level = level
        if not self.limit:
            self.increment = max(increment_before, level - call_before)
        for seat in seats:
            self.acted_at[seat] = level
            self.acted_seq[seat] = self.full_seq
        folded, stacks = self.folded, self.stacks
        self.able_count = sum(1 for s in self.seats if s not in folded and stacks[s] > 0)
        if self.actor is not None and not self.needs_action(self.actor):
            self.actor = self.seat_after(self.actor)

    def finish(self) -> tuple[int, int] | None:
        """Close the round: the part of the highest bet nobody matched goes back to its seat (TDA 2022 65)."""
        top = second = 0
        top_seat = -1
        for s, b in self.bets.items():
            if b > top:
                second, top, top_seat = top, b, s
            elif b > second:
                second = b
        if top_seat < 0 or top == second:
            return None
        back = top - second
        self.stacks[top_seat] += back
        self.contributions[top_seat] -= back
        self.bets[top_seat] = second
        return top_seat, back
