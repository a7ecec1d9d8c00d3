"""Raw acts read by the rulebook: what a verbal declaration and pushed chips amount to (DESIGN decision 4).

The record keeps what physically happened at the table — the words said, the chips pushed by denomination
and motion, which came first, whether it was the player's turn — and this module reads it the way a dealer
and a floor official do (TDA 2022 rules 40–47, 51–57, 61; bfsp 4.8, 4.10–4.14). Pure functions, no I/O.

A reading is one of:

* :class:`Interpreted` — the action the act is under the rules, with its total and the citation;
* :class:`Obligation` — the act binds the player but leaves him a choice still to make ("check" facing a
  bet: call or fold, TDA 2022 55);
* :class:`domain.errors.RulingRequired`, raised — the rules leave it to the director (TDA 2022 40-A, 41,
  51-B, 59-B).

Amounts are totals on the street after the act ("raise to"), as in :class:`domain.hand.events.PlayerActed`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from domain.errors import RuleRef, RulingRequired, chips

# the raw act's shape (RawAct, Declaration, ChipsPlaced, Timing, Declared) is the event catalog's, re-exported
from domain.hand.events import ActionKind, PlayerActed
from domain.hand.events import ChipsPlaced as ChipsPlaced
from domain.hand.events import Declaration as Declaration
from domain.hand.events import Declared as Declared
from domain.hand.events import RawAct as RawAct
from domain.hand.events import Timing as Timing
from domain.rulebooks import AmbiguousAmount, Rulebook, Undercall
from domain.variants import BettingStructure


@dataclass(frozen=True, slots=True)
class BettingContext:
    """Where the betting stands when a player acts.

    ``current_bet`` is the total a player must have in on this street to call; ``committed`` is what this
    player already has in; ``stack`` what he has behind. ``last_full_raise`` is the last full bet or raise
    increment of the street — at the start of a street the big blind (no-limit, pot-limit) or the street's
    bet size (fixed limit). ``pot`` counts every chip in the middle and in front of the players before this
    act (pot-limit and TDA 2022 57). ``opening_bet_only`` says the bet faced is still the street's opening
    bet (pre-flop: the big blind), ``heads_up`` that two players are in the hand (TDA 2022 51-B).
    ``amount_pending`` says the previous player declared a bet or raise without its amount (TDA 2022 50-B).
    ``completing`` says the bet faced is only a stud bring-in: the full bet is then ``last_full_raise`` (the
    small bet) and raising to it completes (bfsp 5.8.3).
    """

    structure: BettingStructure
    current_bet: int
    committed: int
    stack: int
    last_full_raise: int
    big_blind: int
    pot: int = 0
    opening_bet_only: bool = True
    heads_up: bool = False
    amount_pending: bool = False
    completing: bool = False

    @property
    def facing_bet(self) -> bool:
        return self.current_bet > self.committed

    @property
    def all_in_total(self) -> int:
        return self.committed + self.stack

    @property
    def call_total(self) -> int:
        return min(self.current_bet, self.all_in_total)

    @property
    def minimum_total(self) -> int:
        """The smallest legal bet or raise, as a total (bfsp 4.9.3, 4.9.6; TDA 2022 43-A)."""
        if self.completing:
            return self.last_full_raise
        return self.current_bet + self.last_full_raise

    @property
    def full_raise(self) -> int:
        """The size of a full raise now: the last full increment, or what completes a bring-in."""
        return self.minimum_total - self.current_bet

    @property
    def maximum_total(self) -> int:
        """The largest legal bet or raise, as a total (fixed size, the pot, or all-in)."""
        if self.structure is BettingStructure.FIXED_LIMIT:
            return min(self.minimum_total, self.all_in_total)
        if self.structure is BettingStructure.POT_LIMIT:
            largest = max(pot_limit_maximum(self.pot, self.current_bet, self.committed), self.minimum_total)
            return min(largest, self.all_in_total)
        return self.all_in_total

    @property
    def aggressive_kind(self) -> ActionKind:
        if self.completing:
            return ActionKind.COMPLETE
        return ActionKind.BET if self.current_bet == 0 else ActionKind.RAISE


# --- the readings ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Interpreted:
    """The action a raw act is under the rules. ``returned`` is change handed back to the player."""

    action: ActionKind
    amount: int | None
    rule: RuleRef
    reason: str
    returned: int = 0
    all_in: bool = False
    out_of_turn: bool = False

    def __str__(self) -> str:
        return f"{self.reason} ({self.rule})"

    def as_event(self, seat: int) -> PlayerActed:
        return PlayerActed(seat, self.action, self.amount)


@dataclass(frozen=True, slots=True)
class Obligation:
    """The act binds the player to one of ``options`` without fixing which, or how much, yet.

    ``minimum``/``maximum`` bound a bet or raise among the options; ``forfeit_on_fold`` is what he loses if
    he folds (bfsp 4.10, 4.13); ``returned`` is what is handed back to him now (TDA 2022 53-A).
    """

    options: tuple[ActionKind, ...]
    rule: RuleRef
    reason: str
    minimum: int | None = None
    maximum: int | None = None
    forfeit_on_fold: int = 0
    returned: int = 0

    def __str__(self) -> str:
        return f"{self.reason} ({self.rule})"


Reading = Interpreted | Obligation

_CHIP_ACTIONS = frozenset(
    {ActionKind.CALL, ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE, ActionKind.BRING_IN}
)
_AGGRESSIVE = frozenset({ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE})


# --- reading one act ----------------------------------------------------------------------------------------


def interpret(act: RawAct, ctx: BettingContext, rulebook: Rulebook) -> Reading:
    """What ``act`` is under ``rulebook``; raises :class:`RulingRequired` where the director decides."""
    reading = _interpret_in_turn(act, ctx, rulebook)
    if act.out_of_turn and isinstance(reading, Interpreted):
        return replace(
            reading,
            out_of_turn=True,
            reason=f"{reading.reason}; out of turn, it binds unless the action to him changes",
        )
    return reading


def _interpret_in_turn(act: RawAct, ctx: BettingContext, rulebook: Rulebook) -> Reading:
    if act.declaration is None and act.chips is None:
        raise ValueError("a raw act needs a declaration, chips, or both")
    if ctx.amount_pending:
        return _before_amount_stated(act, ctx, rulebook)
    said, pushed = act.declaration, act.chips
    if said is None:
        assert pushed is not None
        return _read_chips(pushed, ctx, rulebook)
    if pushed is None:
        return _read_declaration(said, None, ctx, rulebook)
    return _read_both(said, pushed, act.timing, ctx, rulebook)


def _before_amount_stated(act: RawAct, ctx: BettingContext, rulebook: Rulebook) -> Reading:
    if act.declaration is not None and act.declaration.kind is Declared.FOLD:
        return Interpreted(
            ActionKind.FOLD,
            None,
            rulebook.cite("turn_order"),
            "a fold in turn is binding even before the bet's amount was stated: he should have waited",
        )
    raise RulingRequired(
        "he acted before the bet's amount was stated; the director decides, and may hold him to call any amount",
        rulebook.cite("premature_call"),
    )


def _read_both(
    said: Declaration, pushed: ChipsPlaced, timing: Timing, ctx: BettingContext, rulebook: Rulebook
) -> Reading:
    if timing is Timing.CHIPS_FIRST:
        return _read_chips(pushed, ctx, rulebook, note="the chips came first, so they define the action")
    if timing is Timing.SIMULTANEOUS and not said.clear:
        return _read_chips(pushed, ctx, rulebook, note="said together with unclear words, the chips play")
    if said.clear:
        return _with_change(_read_declaration(said, pushed, ctx, rulebook), pushed, ctx)
    by_words = _with_change(_read_declaration(said, pushed, ctx, rulebook), pushed, ctx)
    by_chips = _read_chips(pushed, ctx, rulebook)
    if _same(by_words, by_chips):
        return by_words
    raise RulingRequired(
        "the words came first but were not clearly heard, and the chips say something else; "
        "the director decides from the circumstances",
        rulebook.cite("verbal"),
    )


def _with_change(reading: Reading, pushed: ChipsPlaced, ctx: BettingContext) -> Reading:
    """Chips pushed beyond what the declared action takes are change handed back."""
    if not isinstance(reading, Interpreted) or reading.returned:
        return reading
    paid = _prior_left(pushed, ctx) + sum(
        pushed.motions[0] if len(pushed.motions) == 1 else sum(pushed.motions, ())
    )
    kept = reading.amount if reading.amount is not None else ctx.committed
    return replace(reading, returned=max(paid - kept, 0))


def _same(a: Reading, b: Reading) -> bool:
    return (
        isinstance(a, Interpreted)
        and isinstance(b, Interpreted)
        and (a.action, a.amount) == (b.action, b.amount)
    )


# --- declarations -------------------------------------------------------------------------------------------


def _read_declaration(
    said: Declaration, pushed: ChipsPlaced | None, ctx: BettingContext, rulebook: Rulebook
) -> Reading:
    kind = said.kind
    if kind is None:
        return _read_amount(_declared_amount(said, ctx, rulebook), ctx, rulebook, declared=True)
    if kind is Declared.FOLD:
        return _fold(ctx, rulebook)
    if kind is Declared.CHECK:
        return _check(ctx, rulebook)
    if kind is Declared.CALL:
        return _call(ctx, rulebook, 'calls by saying "call", which is binding', "binding_declaration")
    if kind is Declared.ALL_IN:
        return _all_in(ctx, rulebook)
    if kind is Declared.POT:
        return _pot(ctx, rulebook)
    return _declared_raise(said, pushed, ctx, rulebook)


def _fold(ctx: BettingContext, rulebook: Rulebook) -> Interpreted:
    if ctx.facing_bet:
        return Interpreted(
            ActionKind.FOLD, None, rulebook.cite("binding_declaration"), "folds; a declaration is binding"
        )
    return Interpreted(
        ActionKind.FOLD,
        None,
        rulebook.cite("fold"),
        "folds when not facing a bet: the fold is binding, the cards dead",
    )


def _check(ctx: BettingContext, rulebook: Rulebook) -> Reading:
    if not ctx.facing_bet:
        return Interpreted(ActionKind.CHECK, None, rulebook.cite("check"), "checks")
    return Obligation(
        (ActionKind.CALL, ActionKind.FOLD),
        rulebook.cite("invalid_declaration"),
        f'said "check" facing a bet of {chips(ctx.current_bet)}: he may call or fold, not raise',
    )


def _call(ctx: BettingContext, rulebook: Rulebook, why: str, topic: str) -> Interpreted:
    if not ctx.facing_bet:
        return Interpreted(
            ActionKind.CHECK,
            None,
            rulebook.cite("invalid_declaration"),
            '"call" when not facing a bet is a check',
        )
    total = ctx.call_total
    return Interpreted(
        ActionKind.CALL,
        total,
        rulebook.cite(topic),
        f"{why}: call {chips(total)}",
        all_in=total == ctx.all_in_total,
    )


def _all_in(ctx: BettingContext, rulebook: Rulebook) -> Interpreted:
    total = ctx.all_in_total
    if total <= ctx.current_bet:
        return Interpreted(
            ActionKind.CALL, total, rulebook.cite("verbal"), f"all-in for {chips(total)}", all_in=True
        )
    capped = min(total, ctx.maximum_total) if ctx.structure is not BettingStructure.NO_LIMIT else total
    if capped < total:
        fixed = ctx.structure is BettingStructure.FIXED_LIMIT
        return Interpreted(
            ctx.aggressive_kind,
            capped,
            rulebook.cite("limit_bet_size" if fixed else "pot_limit_correction"),
            f"all-in is more than the limit allows: {ctx.aggressive_kind} to {chips(capped)}",
        )
    return Interpreted(
        ctx.aggressive_kind, total, rulebook.cite("verbal"), f"all-in for {chips(total)}", all_in=True
    )


def _pot(ctx: BettingContext, rulebook: Rulebook) -> Reading:
    kind = ctx.aggressive_kind
    if ctx.structure is BettingStructure.POT_LIMIT:
        total = ctx.maximum_total
        return Interpreted(
            kind,
            total,
            rulebook.cite("max_bet_pot_limit"),
            f'"pot" is a {kind} to {chips(total)}',
            all_in=total == ctx.all_in_total,
        )
    if ctx.structure is BettingStructure.FIXED_LIMIT:
        return _sized(
            kind, ctx.minimum_total, ctx, rulebook, '"pot" binds him to a valid bet: the fixed size'
        )
    return Obligation(
        (kind,),
        rulebook.cite("pot_declared"),
        f'"pot" is not a bet in no-limit; it binds him to a {kind} of at least {chips(ctx.minimum_total)}',
        minimum=min(ctx.minimum_total, ctx.all_in_total),
        maximum=ctx.all_in_total,
    )


def _declared_raise(
    said: Declaration, pushed: ChipsPlaced | None, ctx: BettingContext, rulebook: Rulebook
) -> Reading:
    kind = ctx.aggressive_kind
    word = "raise" if said.kind is Declared.RAISE else "bet"
    if said.kind is Declared.COMPLETE:
        if kind is not ActionKind.COMPLETE:
            return _sized(kind, ctx.minimum_total, ctx, rulebook, '"complete" facing more than a bring-in')
        total = min(ctx.minimum_total, ctx.all_in_total)
        return Interpreted(
            kind,
            total,
            rulebook.cite("complete"),
            f"completes to {chips(total)}",
            all_in=total == ctx.all_in_total,
        )
    if said.amount is not None and said.bare:
        total = _declared_amount(said, ctx, rulebook)
        why = f'"{word} {said.amount}" can mean more than one amount; it is ruled {chips(total)}'
        return _sized(kind, total, ctx, rulebook, why, topic="unclear_bet")
    if said.amount is not None:
        total = _declared_amount(said, ctx, rulebook)
        topic = "raise_amount" if kind is ActionKind.RAISE else "bet"
        return _sized(kind, total, ctx, rulebook, f'"{word} {chips(total)}" states the total', topic=topic)
    if pushed is not None:
        total = _prior_left(pushed, ctx) + sum(_raise_motions(pushed, ctx, rulebook))
        if len(pushed.motions[0]) == 1 and total > ctx.current_bet:
            why = f'"{word}" before a single chip is the most that chip allows'
            return _sized(kind, total, ctx, rulebook, why, topic="oversized_chip")
        return _sized(kind, total, ctx, rulebook, f'"{word}" then {chips(total)} in chips', topic="verbal")
    if ctx.structure is BettingStructure.FIXED_LIMIT:
        return _sized(kind, ctx.minimum_total, ctx, rulebook, f'"{word}" is the fixed size')
    topic = "binding_declaration" if kind is ActionKind.RAISE else "invalid_declaration"
    return Obligation(
        (kind,),
        rulebook.cite(topic),
        f'"{word}" binds him to a {kind} of at least {chips(ctx.minimum_total)}; the amount is still to come',
        minimum=min(ctx.minimum_total, ctx.all_in_total),
        maximum=ctx.maximum_total,
    )


def _declared_amount(said: Declaration, ctx: BettingContext, rulebook: Rulebook) -> int:
    assert said.amount is not None
    if not said.bare:
        return said.amount
    return _ambiguous_amount(said.amount, ctx, rulebook)


def _ambiguous_amount(spoken: int, ctx: BettingContext, rulebook: Rulebook) -> int:
    readings = sorted({spoken, spoken * 100, spoken * 1000})
    legal = [total for total in readings if ctx.minimum_total <= total <= ctx.maximum_total]
    if not legal:
        raise RulingRequired(
            f'"{spoken}" is no legal amount here whatever its scale; the director decides',
            rulebook.cite("unclear_bet"),
        )
    if rulebook.ambiguous_amount is AmbiguousAmount.SMALLEST:
        return legal[0]
    within_pot = [total for total in legal if total <= ctx.pot]
    return within_pot[-1] if within_pot else legal[0]


def _sized(
    kind: ActionKind,
    total: int,
    ctx: BettingContext,
    rulebook: Rulebook,
    why: str,
    *,
    topic: str = "verbal",
    paid: int = 0,
) -> Interpreted:
    """A bet or raise of ``total``, brought within the structure's limits; ``paid`` chips beyond the result
    are change handed back."""
    reading = _within_limits(kind, total, ctx, rulebook, why, topic)
    assert reading.amount is not None
    return replace(reading, returned=max(paid - reading.amount, 0))


def _within_limits(
    kind: ActionKind, total: int, ctx: BettingContext, rulebook: Rulebook, why: str, topic: str
) -> Interpreted:
    if total >= ctx.all_in_total and ctx.all_in_total <= ctx.maximum_total:
        return Interpreted(
            kind,
            ctx.all_in_total,
            rulebook.cite(topic),
            f"{why}: all-in for {chips(ctx.all_in_total)}",
            all_in=True,
        )
    if ctx.structure is BettingStructure.FIXED_LIMIT:
        fixed = ctx.maximum_total
        return Interpreted(
            kind,
            fixed,
            rulebook.cite("limit_bet_size"),
            f"{why}; in fixed limit that is {kind} to {chips(fixed)}",
        )
    if total > ctx.maximum_total:
        top = ctx.maximum_total
        return Interpreted(
            kind,
            top,
            rulebook.cite("pot_limit_correction"),
            f"{why}, more than the pot allows: corrected to {kind} to {chips(top)}",
        )
    if total < ctx.minimum_total:
        bottom = min(ctx.minimum_total, ctx.all_in_total)
        return Interpreted(
            kind,
            bottom,
            rulebook.cite("min_raise" if kind is ActionKind.RAISE else "min_bet"),
            f"{why}, less than the minimum: he must make it {chips(bottom)}",
            all_in=bottom == ctx.all_in_total,
        )
    return Interpreted(kind, total, rulebook.cite(topic), f"{why}: {kind} to {chips(total)}")


# --- amounts said or pushed silently ------------------------------------------------------------------------


def _read_amount(
    total: int, ctx: BettingContext, rulebook: Rulebook, *, declared: bool, note: str = ""
) -> Reading:
    """An amount alone, said or pushed in chips that pass the one-chip test: the 50 % standard (TDA 43-A)."""
    said = "said" if declared else "put in"
    paid = 0 if declared else total
    lead = f"{note}; " if note else ""
    if ctx.current_bet == 0:
        return _sized(
            ActionKind.BET,
            total,
            ctx,
            rulebook,
            f"{lead}{chips(total)} {said} is a bet",
            topic="bet",
            paid=paid,
        )
    if total <= ctx.current_bet:
        return _at_most_a_call(total, ctx, rulebook, f"{lead}{chips(total)} {said}")
    if total >= ctx.minimum_total:
        return _sized(
            ctx.aggressive_kind,
            total,
            ctx,
            rulebook,
            f"{lead}{chips(total)} {said} is a full raise",
            topic="fifty_percent",
            paid=paid,
        )
    increment = total - ctx.current_bet
    if 2 * increment >= ctx.full_raise:
        return _sized(
            ctx.aggressive_kind,
            ctx.minimum_total,
            ctx,
            rulebook,
            f"{lead}{chips(total)} {said} raises by at least half the last raise, so it must be a full raise",
            topic="fifty_percent",
        )
    call = _call(
        ctx, rulebook, f"{lead}{chips(total)} {said} raises by less than half the last raise", "fifty_percent"
    )
    return replace(call, returned=max(paid - ctx.call_total, 0))


def _at_most_a_call(total: int, ctx: BettingContext, rulebook: Rulebook, what: str) -> Reading:
    if not ctx.facing_bet:
        return Interpreted(
            ActionKind.CHECK,
            None,
            rulebook.cite("invalid_declaration"),
            f"{what} with no bet to call is a check",
            returned=max(total - ctx.committed, 0),
        )
    if total >= ctx.call_total:
        return _call(ctx, rulebook, what, "call")
    return _undercall(total, ctx, rulebook, what)


def _undercall(total: int, ctx: BettingContext, rulebook: Rulebook, what: str) -> Reading:
    short = ctx.call_total - total
    rule = rulebook.cite("undercall")
    if rulebook.undercall is Undercall.COMPLETE_OR_FORFEIT:
        return Obligation(
            (ActionKind.CALL, ActionKind.FOLD),
            rule,
            f"{what} is {chips(short)} short of the call: he completes the call or folds and forfeits those chips",
            forfeit_on_fold=total - ctx.committed,
        )
    if ctx.heads_up or ctx.opening_bet_only:
        facing = "heads-up" if ctx.heads_up else "facing the opening bet"
        return _call(
            ctx, rulebook, f"{what} is an undercall {facing}, so a full call is mandatory", "undercall"
        )
    raise RulingRequired(
        f"{what} is {chips(short)} short of the call, facing a raise multi-way: the director decides between a "
        "full call and forfeiting those chips with a fold",
        rule,
    )


# --- chips pushed without words -----------------------------------------------------------------------------


def _read_chips(pushed: ChipsPlaced, ctx: BettingContext, rulebook: Rulebook, *, note: str = "") -> Reading:
    counted = _counted_motion(pushed)
    if len(pushed.motions) > 1:
        note = _join(note, "chips pushed in several motions: only the first motion counts")
    if not counted:
        raise ValueError("chips were placed without any chip")
    reading = _read_counted(pushed, counted, ctx, rulebook, note)
    if len(pushed.motions) > 1 and isinstance(reading, Interpreted):
        return replace(reading, rule=rulebook.cite("string_bet"))
    return reading


def _read_counted(
    pushed: ChipsPlaced, counted: tuple[int, ...], ctx: BettingContext, rulebook: Rulebook, note: str
) -> Reading:
    prior = _prior_left(pushed, ctx)
    total = prior + sum(counted)
    if ctx.current_bet == 0:
        return _opening_chips(counted, total, ctx, rulebook, note)
    partial = 0 < pushed.pulled_back < ctx.committed
    if partial or prior >= ctx.current_bet:
        why = _join(note, "earlier chips cover the call or were partly drawn back, so the whole is judged")
        return _read_amount(total, ctx, rulebook, declared=False, note=why)
    if len(counted) == 1:
        return _single_chip(counted[0], total, ctx, rulebook, note)
    return _several_chips(counted, total, ctx, rulebook, note)


def _counted_motion(pushed: ChipsPlaced) -> tuple[int, ...]:
    """Chips pushed in several motions without words: only the first motion counts (bfsp 4.11)."""
    return pushed.motions[0]


def _raise_motions(pushed: ChipsPlaced, ctx: BettingContext, rulebook: Rulebook) -> tuple[int, ...]:
    """After "raise": the exact call, then the rest in one more motion, where the rulebook allows it
    (TDA 2017 D-45 (3), tda-club 43-C); otherwise only the first motion counts."""
    first = pushed.motions[0]
    exact_call = _prior_left(pushed, ctx) + sum(first) == ctx.current_bet
    if rulebook.raise_call_then_one_motion and len(pushed.motions) == 2 and exact_call:
        return first + pushed.motions[1]
    return first


def _prior_left(pushed: ChipsPlaced, ctx: BettingContext) -> int:
    in_front = ctx.committed if pushed.in_front is None else pushed.in_front
    return max(in_front - pushed.pulled_back, 0)


def _join(note: str, more: str) -> str:
    return f"{note}; {more}" if note else more


def _opening_chips(
    counted: tuple[int, ...], total: int, ctx: BettingContext, rulebook: Rulebook, note: str
) -> Reading:
    if len(counted) == 1:
        why = _join(note, f"a single {chips(counted[0])} chip opening the betting is a bet of its full value")
        return _sized(ActionKind.BET, total, ctx, rulebook, why, topic="oversized_chip", paid=total)
    return _sized(
        ActionKind.BET,
        total,
        ctx,
        rulebook,
        _join(note, f"{chips(total)} put in is a bet"),
        topic="bet",
        paid=total,
    )


def _single_chip(chip: int, total: int, ctx: BettingContext, rulebook: Rulebook, note: str) -> Reading:
    what = _join(note, f"a single {chips(chip)} chip")
    if total >= ctx.current_bet:
        call = _at_most_a_call(ctx.current_bet, ctx, rulebook, f"{what} without a declaration")
        if isinstance(call, Interpreted):
            topic = "oversized_chip" if total > ctx.current_bet else "call"
            reason = (
                f"{what} without a declaration is a call" if call.action is ActionKind.CALL else call.reason
            )
            return replace(call, rule=rulebook.cite(topic), reason=reason, returned=total - ctx.current_bet)
        return call
    if total >= ctx.all_in_total:
        return _call(ctx, rulebook, f"{what}, his last", "call")
    if rulebook.undercall is Undercall.COMPLETE_OR_FORFEIT:
        return _undercall(total, ctx, rulebook, what)
    raise RulingRequired(
        f"{what} put in silently against {chips(ctx.current_bet)} is not a standard call; the director decides, "
        "and may hold him to the full call",
        rulebook.cite("call"),
    )


def _several_chips(
    counted: tuple[int, ...], total: int, ctx: BettingContext, rulebook: Rulebook, note: str
) -> Reading:
    what = _join(note, f"{_chip_words(counted)} put in silently")
    if total < ctx.call_total:
        return _undercall(total, ctx, rulebook, what)
    if total - min(counted) < ctx.current_bet:
        call = _call(
            ctx,
            rulebook,
            f"{what}: without its smallest chip it would not call, so it is a call",
            "multiple_chips",
        )
        return replace(call, returned=total - call.amount if call.amount is not None else 0)
    if total == ctx.all_in_total and rulebook.last_chips_all_in:
        return _all_in_chips(total, ctx, rulebook, what)
    return _read_amount(total, ctx, rulebook, declared=False, note=what)


def _all_in_chips(total: int, ctx: BettingContext, rulebook: Rulebook, what: str) -> Interpreted:
    if ctx.structure is not BettingStructure.NO_LIMIT and total > ctx.maximum_total:
        return _sized(
            ctx.aggressive_kind,
            total,
            ctx,
            rulebook,
            f"{what}, his last chips",
            topic="multiple_chips",
            paid=total,
        )
    return Interpreted(
        ctx.aggressive_kind,
        total,
        rulebook.cite("multiple_chips"),
        f"{what}, his last chips, pass the one-chip test: all-in for {chips(total)}",
        all_in=True,
    )


def _chip_words(counted: tuple[int, ...]) -> str:
    counts: dict[int, int] = {}
    for chip in counted:
        counts[chip] = counts.get(chip, 0) + 1
    parts = [
        f"{n} × {chips(d)}" if n > 1 else f"one {chips(d)}" for d, n in sorted(counts.items(), reverse=True)
    ]
    return " + ".join(parts)


# --- out of turn, undercalls in a row, substantial action ---------------------------------------------------


def resolve_out_of_turn(
    reading: Interpreted,
    skipped_actions: Sequence[ActionKind],
    rulebook: Rulebook,
    *,
    invited_by_dealer: bool = False,
) -> Reading:
    """An out-of-turn act once the skipped players have acted (TDA 2022 53-A; bfsp 4.10).

    It binds unless the action to him changed — a skipped player bet or raised. A fold out of turn always
    binds. When it changed, TDA 2022 gives his chips back and all options; bfsp 4.10 leaves the chips in the
    pot, unless the dealer invited him to act (bfsp 4.10, 4.13): then he takes them back and calls or folds.
    """
    rule = rulebook.cite("out_of_turn")
    if reading.action is ActionKind.FOLD:
        return replace(reading, rule=rule, reason="a fold out of turn is binding")
    if not any(action in _AGGRESSIVE for action in skipped_actions):
        return replace(
            reading, rule=rule, reason=f"{reading.reason}; the action to him did not change, so it binds"
        )
    put_in = reading.amount or 0
    if invited_by_dealer and not rulebook.out_of_turn_chips_returned:
        return Obligation(
            (ActionKind.CALL, ActionKind.FOLD),
            rulebook.cite("incorrect_bet"),
            "the dealer invited him to act and the action changed: he calls, or takes his chips back and folds",
            returned=put_in,
        )
    options = (ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE)
    if rulebook.out_of_turn_chips_returned:
        return Obligation(
            options,
            rule,
            "the action to him changed: his chips come back and he has every option",
            returned=put_in,
        )
    return Obligation(
        options,
        rule,
        "the action to him changed: he has every option, but his chips stay in the pot",
        forfeit_on_fold=put_in,
    )


def skipped_player_ruling(seat: int, rulebook: Rulebook) -> RulingRequired:
    """A skipped player kept silent through substantial action after an out-of-turn act (TDA 2022 53-B):
    the out-of-turn act binds, and the floor decides what becomes of the skipped hand."""
    return RulingRequired(
        f"seat {seat} was skipped and said nothing before substantial action; the floor decides his hand",
        rulebook.cite("skipped_player"),
    )


def undercalls_in_a_row(seats: Sequence[int], rulebook: Rulebook) -> tuple[int, RulingRequired | None]:
    """Several undercalls in sequence (TDA 2022 51-C): the first undercaller corrects his bet under 51-B;
    the director decides the others."""
    if not seats:
        raise ValueError("no undercall to resolve")
    first, others = seats[0], seats[1:]
    if not others:
        return first, None
    listed = ", ".join(str(seat) for seat in others)
    return first, RulingRequired(
        f"action goes back to seat {first}, the first undercaller; the director decides the bets of seats {listed}",
        rulebook.cite("undercalls_in_a_row"),
    )


def substantial_action(actions: Sequence[ActionKind], rulebook: Rulebook) -> bool:
    """Substantial action (TDA 2022 36): two actions in turn of which one puts chips in, or any three.

    Posted blinds are not actions and must not be passed. Whether check + fold counts is the rulebook's
    ``substantial_action_pair_needs_chips`` (TV-67).
    """
    if len(actions) >= 3:
        return True
    if len(actions) < 2:
        return False
    if any(action in _CHIP_ACTIONS for action in actions):
        return True
    return not rulebook.substantial_action_pair_needs_chips and len(set(actions)) > 1


# --- asking to see a hand at the showdown ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShowRequest:
    """A player asks to see another's hand at a showdown (TDA 2022 18; bfsp 5.9.2).

    ``requester_kept_cards``: he still holds his cards or has tabled them; ``requester_called``: he called the
    final round's last bet; ``target_last_aggressor``: the hand asked for is the final round's last aggressor;
    ``final_round_bet``: there was a bet on the final round; ``target_mucked``: the hand asked for is already
    in the muck.
    """

    requester_kept_cards: bool
    requester_called: bool
    target_last_aggressor: bool
    final_round_bet: bool
    target_mucked: bool = False


@dataclass(frozen=True, slots=True)
class ShowAnswer:
    granted: bool
    rule: RuleRef
    reason: str

    def __str__(self) -> str:
        return f"{self.reason} ({self.rule})"


def answer_show_request(request: ShowRequest, rulebook: Rulebook) -> ShowAnswer:
    """Whether the hand must be shown: a caller who kept his cards has the right to see the last aggressor's
    hand after a bet on the final round (TDA 2022 18-B); who gave up his cards has none (18-A); a mucked hand
    is not shown (bfsp 5.9.2, TDA 2022 14); every other request is the director's (18-B), raised as a ruling."""
    rule = rulebook.cite("show_request")
    if not request.requester_kept_cards:
        return ShowAnswer(False, rule, "he gave up his cards, and with them the right to see another hand")
    if request.target_mucked:
        return ShowAnswer(
            False, rulebook.cite("mucked_hand"), "the hand is in the muck unshown and is not turned up"
        )
    if request.final_round_bet and request.requester_called and request.target_last_aggressor:
        return ShowAnswer(True, rule, "he called the last bet: he paid to see the last aggressor's hand")
    raise RulingRequired("no right to see that hand; the director may allow it", rule)


# --- corrections of wrong amounts ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Correction:
    """What a wrong bet becomes once the error is noticed."""

    amount: int
    rule: RuleRef
    reason: str


def correct_short_raise(
    made: int, minimum: int, rulebook: Rulebook, *, next_card_dealt: bool, showdown_started: bool = False
) -> Correction:
    """A bet or raise below the legal minimum, noticed later (TDA 2022 52-A): brought up to the minimum
    during the betting round (on the last round, until the showdown starts); afterwards it stands."""
    rule = rulebook.cite("incorrect_bet")
    if made >= minimum:
        return Correction(made, rule, f"{chips(made)} is not below the minimum of {chips(minimum)}")
    if next_card_dealt or showdown_started:
        return Correction(
            made, rule, f"{chips(made)} stands: the error was noticed after the betting round ended"
        )
    return Correction(minimum, rule, f"every bet must be brought up to the minimum of {chips(minimum)}")


def correct_pot_limit_bet(
    made: int, pot_bet: int, rulebook: Rulebook, *, substantial_action_since: bool, next_card_dealt: bool
) -> Correction:
    """A pot-limit "pot" bet of a miscounted amount (TDA 2022 52-B): too large, it is cut to the pot for
    everyone anywhere in the current round; too small, it is raised to the pot until substantial action."""
    rule = rulebook.cite("pot_limit_correction")
    if made > pot_bet:
        if next_card_dealt:
            return Correction(made, rule, f"{chips(made)} stands: the next card is out")
        return Correction(
            pot_bet, rule, f"{chips(made)} is more than the pot: reduced to {chips(pot_bet)} for everyone"
        )
    if made < pot_bet and not substantial_action_since and not next_card_dealt:
        return Correction(
            pot_bet,
            rule,
            f"{chips(made)} is less than the pot and nothing substantial followed: raised to {chips(pot_bet)}",
        )
    return Correction(made, rule, f"{chips(made)} stands")


# --- pot-limit sizes ----------------------------------------------------------------------------------------


def pot_limit_maximum(pot: int, current_bet: int, committed: int) -> int:
    """The largest pot-limit bet or raise, as a total: the call, then the pot after the call
    (bfsp 4.7.2, 4.9.6; TDA 2022 54). ``pot`` counts every chip in the middle and in front of the players."""
    to_call = current_bet - committed
    return current_bet + pot + to_call


@dataclass(frozen=True, slots=True)
class Wager:
    """Chips one seat has in front of him on this street; ``full_blind`` is the blind it stands for when a
    blind was posted all-in for less."""

    amount: int
    full_blind: int | None = None


def pot_limit_pot(middle: int, wagers: Sequence[Wager], *, preflop: bool) -> tuple[int, int]:
    """The pot and the bet to call that size a pot-limit bet: (pot, current bet).

    Pre-flop, a blind all-in for less than a full blind does not shrink the pot (TDA 2022 54-B): it counts
    as the full blind. After the flop the actual amounts count.
    """
    counted = [w.full_blind if preflop and w.full_blind is not None else w.amount for w in wagers]
    return middle + sum(counted), max(counted, default=0)


# --- the words themselves -----------------------------------------------------------------------------------

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
_FILLERS = frozenset({"i", "i'm", "im", "and", "a", "to", "make", "it", "that's", "is"})
_SCALES = {"hundred": 100, "thousand": 1000, "k": 1000, "million": 1_000_000}
_KINDS = {
    "fold": Declared.FOLD, "check": Declared.CHECK, "call": Declared.CALL, "bet": Declared.BET,
    "raise": Declared.RAISE, "all-in": Declared.ALL_IN, "allin": Declared.ALL_IN, "pot": Declared.POT,
    "complete": Declared.COMPLETE,
}  # fmt: skip


def parse_declaration(words: str, *, clear: bool = True) -> Declaration:
    """Read what a player said: ``"raise, eight thousand"``, ``"two hundred"``, ``"I bet five"``, ``"call"``."""
    text = re.sub(r"(?<=\d)[,_](?=\d)", "", words.lower().replace("all in", "all-in"))
    tokens = [t for t in re.split(r"[\s,.!]+", text) if t and t not in _FILLERS]
    kind = next((_KINDS[t] for t in tokens if t in _KINDS), None)
    number = [t for t in tokens if t not in _KINDS]
    if not number:
        if kind is None:
            raise ValueError(f"{words!r} declares neither an action nor an amount")
        return Declaration(kind, None, clear=clear)
    amount, bare = _number(number, words)
    return Declaration(kind, amount, bare=bare, clear=clear)


def _number(tokens: list[str], words: str) -> tuple[int, bool]:
    if len(tokens) == 1 and re.fullmatch(r"[\d,_]+", tokens[0]):
        return int(tokens[0].replace(",", "").replace("_", "")), False
    total, current, scaled = 0, 0, False
    for token in (part for t in tokens for part in t.split("-")):
        if token in _UNITS:
            current += _UNITS[token]
        elif token in _SCALES:
            scaled = True
            scale = _SCALES[token]
            if scale == 100:
                current = max(current, 1) * 100
            else:
                total += max(current, 1) * scale
                current = 0
        elif token.isdigit():
            current += int(token)
        elif re.fullmatch(r"\d+k", token):
            scaled = True
            total += int(token[:-1]) * 1000
        else:
            raise ValueError(f"{words!r}: {token!r} is not a number word")
    return total + current, not scaled and current < 100
