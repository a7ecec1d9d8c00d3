"""Raw acts in the engine: a player's words and chips read by the rulebook into what the hand does next.

:func:`check_raw` reads a :class:`RawActReported` against the hand as it stands (its
:func:`betting_context`) with :func:`domain.hand.interpretation.interpret`, and refuses it — nothing changes —
when the action it amounts to is illegal. :func:`do_raw` then applies the reading:

* an action (:class:`InterpretedAct`): applied as if reported, through the same betting checks;
* an obligation: the hand waits for that seat, whose next action must be one of its options
  (:class:`ActionObliged`; TDA 2022 55, bfsp 4.13);
* a ruling: the hand waits for an official's entry of the action (:class:`RulingRequested`);
* out of turn (the seat is not the actor): nothing moves yet. The act waits for the seat's turn, noting what
  the skipped seats do; when the turn comes it binds if the action to him did not change and is released
  into an obligation if it did (:func:`domain.hand.interpretation.resolve_out_of_turn`; TDA 2022 53,
  bfsp 4.10). If the round ends before his turn comes, it lapses;
* premature (the previous player declared a bet or raise and has not stated its amount, and the next player
  acts): his turn has come under the rules, but not yet the engine's, whose actor still owes the amount. A fold
  binds, and anything else is the director's (TDA 2022 50-B, 59-B); either waits for the amount and is ruled
  when his turn comes, the ruling then asked knowing what he faces.

Each reading is put in :attr:`HandState.readings` for the aggregate to store; replaying the raw act reads it
again, to the same result.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from domain.errors import (
    HandError,
    HandStateError,
    IllegalActionError,
    OutOfTurnError,
    RuleRef,
    RulingRequired,
    chips,
)
from domain.hand.events import (
    ActionKind,
    ActionObliged,
    DerivedEvent,
    PlayerActed,
    RawAct,
    RawActReported,
    RulingRequested,
)
from domain.hand.in_play import HandInPlay, PendingOutOfTurn
from domain.hand.in_play import InterpretedAct as InterpretedAct  # where the engine's readers name it
from domain.hand.interpretation import (
    BettingContext,
    Interpreted,
    Obligation,
    Reading,
    interpret,
    resolve_out_of_turn,
    skipped_player_ruling,
    substantial_action,
    undercalls_in_a_row,
)
from domain.hand.legal import LegalActions
from domain.hand.phase import Phase

_NO_EVENTS: tuple[DerivedEvent, ...] = ()
_AGGRESSIVE = frozenset({ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE})


@dataclass(frozen=True, slots=True)
class RawPlan:
    """What :func:`check_raw` found: the reading to apply, or the out-of-turn reading to keep."""

    reading: InterpretedAct | ActionObliged | RulingRequested | None
    rule: RuleRef | None = None
    total: int = 0
    pending: Reading | RulingRequired | None = None
    premature: bool = False
    #: the chips an undercall left to the director put in: forfeit if he rules a fold (TDA 2022 51-B)
    forfeit: int = 0


def betting_context(hand: HandInPlay, seat: int) -> BettingContext:
    """Where the betting stands for ``seat`` now, as :func:`interpret` needs it."""
    rnd = hand.round
    if hand.phase is not Phase.BETTING or rnd is None:
        raise IllegalActionError(f"seat {seat} cannot act now: {hand.waiting_for()}", hand.rulebook.cite("turn_order"))
    completing = rnd.completing()
    return BettingContext(
        structure=hand.variant.betting,
        current_bet=rnd.to_match(),
        committed=rnd.bets[seat],
        stack=hand.stacks[seat],
        last_full_raise=rnd.size if completing else rnd.full_raise(),
        big_blind=rnd.min_bet,
        pot=sum(hand.contributions.values()) + rnd.pl_adjust,
        # the street's first bet (pre-flop the big blind, in stud the bring-in) not yet raised
        opening_bet_only=rnd.raises == 0 and (completing or rnd.call_level == rnd.full_level),
        heads_up=len(hand.in_hand) == 2,
        completing=completing,
    )


def check_raw(hand: HandInPlay, e: RawActReported) -> RawPlan:
    """Read the raw act; refuse it (with the rule) when it cannot be made now or reads as an illegal action."""
    cite = hand.rulebook.cite
    seat = e.seat
    rnd = hand.round
    if hand.phase is not Phase.BETTING or rnd is None:
        raise IllegalActionError(f"seat {seat} acted now: {hand.waiting_for()}", cite("turn_order"))
    if seat not in hand.stacks or seat in hand.folded or hand.stacks[seat] == 0:
        raise OutOfTurnError(f"seat {seat} has no action: not in the hand with chips to bet", cite("turn_order"))
    if rnd.awaiting_bring_in or hand.open_bring_in:
        raise IllegalActionError(
            f"seat {seat} made a raw act, but the round opens with the bring-in: record the bring-in or the "
            "completion as the action",
            cite("bring_in"),
        )
    if seat in hand.out_of_turn:
        raise OutOfTurnError(
            f"seat {seat} already acted out of turn; that act stands until his turn comes", cite("out_of_turn")
        )
    _check_shape(hand, e)
    in_turn = seat == rnd.actor
    premature = not in_turn and seat == amount_awaited_by(hand)
    act = e.act
    if act.out_of_turn != (not in_turn and not premature):
        # the engine sees whose turn it is; the record's flag is only what the terminal believed
        act = replace(act, out_of_turn=not in_turn and not premature)
    context = betting_context(hand, seat)
    if premature:
        context = replace(context, amount_pending=True)
    try:
        reading = interpret(act, context, hand.rulebook)
    except RulingRequired as err:
        if hand.ruling is not None:
            return RawPlan(None, pending=_undercall_in_a_row(hand, seat, err))
        if premature:
            return RawPlan(None, pending=err, premature=True)
        put_in = _chips_put_in(e.act) if err.rule == cite("undercall") else 0
        return RawPlan(RulingRequested(seat, str(err.rule), err.reason), err.rule, forfeit=put_in)
    except ValueError as err:
        raise IllegalActionError(f"seat {seat}: {err}", cite("verbal")) from None
    if hand.ruling is not None:
        raise _ruling_pending(hand, e)
    if not in_turn:
        return RawPlan(None, pending=reading, premature=premature)
    if isinstance(reading, Obligation):
        held = hand.obligation
        if held is not None and held[0].seat == seat and not set(reading.options) <= set(held[0].options):
            raise IllegalActionError(
                f"seat {seat} is held to {_options(held[0].options)} ({held[0].reason}); this act would "
                f"{_options(reading.options)}",
                held[1],
            )
        return RawPlan(_obliged(hand, seat, reading), reading.rule)
    action = reading.as_event(seat)
    total = hand.check_act(action)
    return RawPlan(InterpretedAct(action, reading.rule, reading.reason, reading.returned), reading.rule, total)


def undercalls_unruled(hand: HandInPlay) -> list[int]:
    """Undercalls in sequence the director has yet to rule (TDA 2022 51-C): the first, whose ruling the hand
    waits for (51-B), then the undercalls held after it, in order. Empty when the pending ruling (if any) is not
    on an undercall."""
    if hand.ruling is None:
        return []
    asked, rule = hand.ruling
    cite = hand.rulebook.cite
    if rule != cite("undercall"):
        return []
    row = [asked.seat]
    while True:
        following = _next_in_hand(hand, row[-1])
        held = hand.out_of_turn.get(following) if following is not None else None
        if following is None or held is None or not _is_in_a_row(held.reading, hand):
            return row
        row.append(following)


def undercall_may_follow(hand: HandInPlay, seat: int) -> bool:
    """While the director is asked about an undercall, the next seat's raw act may still be recorded: the table
    did not stop, and if it is an undercall too the two are in a row (TDA 2022 51-C)."""
    row = undercalls_unruled(hand)
    return bool(row) and seat == _next_in_hand(hand, row[-1]) and seat not in row


def _is_in_a_row(reading: Reading | RulingRequired, hand: HandInPlay) -> bool:
    return isinstance(reading, RulingRequired) and reading.rule == hand.rulebook.cite("undercalls_in_a_row")


def _undercall_in_a_row(hand: HandInPlay, seat: int, asked: RulingRequired) -> RulingRequired:
    """An act recorded while the director is asked about the undercall before it: it must be an undercall too
    (anything else waits for the ruling). Action goes back to the first undercaller, whose ruling is already
    asked; this one the director decides when his turn comes (TDA 2022 51-C)."""
    row = undercalls_unruled(hand)
    if not row or asked.rule != hand.rulebook.cite("undercall") or seat != _next_in_hand(hand, row[-1]):
        assert hand.ruling is not None
        raise HandStateError(
            f"seat {seat}'s act cannot be read now: the director's ruling on seat {hand.ruling[0].seat}'s act is "
            f"pending ({hand.ruling[0].reason}); only an undercall by the next seat can follow it",
            hand.ruling[1],
        )
    first, ruling = undercalls_in_a_row([*row, seat], hand.rulebook)
    assert first == row[0] and ruling is not None
    return ruling


def _ruling_pending(hand: HandInPlay, e: RawActReported) -> HandStateError:
    assert hand.ruling is not None
    asked, rule = hand.ruling
    return HandStateError(
        f"seat {e.seat}'s act is not an undercall: it cannot follow while the director's ruling on seat "
        f"{asked.seat}'s undercall is pending ({asked.reason})",
        rule,
    )


def _next_in_hand(hand: HandInPlay, seat: int) -> int | None:
    """The next seat clockwise after ``seat`` still in the hand with chips to bet."""
    for _ in range(len(hand.seats) - 1):
        seat = hand.next_seat[seat]
        if seat not in hand.folded and hand.stacks[seat] > 0:
            return seat
    return None


def amount_awaited_by(hand: HandInPlay) -> int | None:
    """The seat whose turn comes once the player to act states the amount of the bet or raise he declared
    (TDA 2022 50-B: he must wait for it), or None when nobody owes an amount.

    The player to act owes an amount when a raw act bound him to bet or raise without saying how much
    ("raise", "pot" in no-limit: TV-22, TV-24, TV-25, TV-28); the next seat clockwise still in the hand with
    chips must then act on whatever he states."""
    rnd = hand.round
    held = hand.obligation
    if rnd is None or rnd.actor is None or held is None or held[0].seat != rnd.actor:
        return None
    if not held[0].options or not set(held[0].options) <= _AGGRESSIVE:
        return None
    return _next_in_hand(hand, rnd.actor)


def _chips_put_in(act: RawAct) -> int:
    pushed = act.chips
    if pushed is None:
        return 0
    return max(sum(sum(motion) for motion in pushed.motions) - pushed.pulled_back, 0)


def _check_shape(hand: HandInPlay, e: RawActReported) -> None:
    """A raw act must say or push something readable: words with an action or an amount, chips in motions."""
    cite = hand.rulebook.cite
    said, pushed = e.act.declaration, e.act.chips
    if said is None and pushed is None:
        raise IllegalActionError(f"seat {e.seat}'s act records neither words nor chips", cite("verbal"))
    if said is not None and (said.kind is None and said.amount is None or (said.amount or 0) < 0):
        raise IllegalActionError(
            f"seat {e.seat}'s words record neither an action nor an amount a player could say", cite("verbal")
        )
    if pushed is not None:
        if not pushed.motions or not all(pushed.motions) or any(c <= 0 for m in pushed.motions for c in m):
            raise IllegalActionError(
                f"seat {e.seat}'s chips must be one or more motions of chips of positive value", cite("bet")
            )
        if pushed.pulled_back < 0 or (pushed.in_front is not None and pushed.in_front < 0):
            raise IllegalActionError(f"seat {e.seat}'s chips in front cannot be negative", cite("bet"))


def do_raw(hand: HandInPlay, e: RawActReported, plan: RawPlan) -> tuple[DerivedEvent, ...]:
    reading = plan.reading
    if reading is None:
        assert plan.pending is not None
        hand.out_of_turn[e.seat] = PendingOutOfTurn(plan.pending, premature=plan.premature)
        _skipped_through_substantial_action(hand)
        return _NO_EVENTS
    hand.readings.append(reading)
    assert plan.rule is not None
    if isinstance(reading, RulingRequested):
        hand.ruling = (reading, plan.rule)
        hand.ruling_forfeit = plan.forfeit
        return _NO_EVENTS
    if isinstance(reading, ActionObliged):
        hand.obligation = (reading, plan.rule)
        return _NO_EVENTS
    return hand.do_act(reading.event, plan.total)


def _skipped_through_substantial_action(hand: HandInPlay) -> None:
    """TDA 2022 53-B: the acts out of turn since the skipped seat's turn amount to substantial action and he has
    not spoken up: they bind, and what becomes of his hand is the floor's (the hand waits for its entry)."""
    rnd = hand.round
    if hand.ruling is not None or rnd is None or rnd.actor is None:
        return
    # an act read as an obligation (a check facing a bet, 2017 TV-18) is still an action in turn, without chips
    # an act before the amount was stated is the seat's own turn come early (TDA 2022 50-B), not a skip
    acts = [
        p.reading.action if isinstance(p.reading, Interpreted) else ActionKind.CHECK
        for p in hand.out_of_turn.values()
        if not p.premature and not isinstance(p.reading, RulingRequired)
    ]
    if not substantial_action(acts, hand.rulebook):
        return
    asked = skipped_player_ruling(rnd.actor, hand.rulebook)
    ruling = RulingRequested(rnd.actor, str(asked.rule), asked.reason)
    hand.ruling = (ruling, asked.rule)
    hand.readings.append(ruling)


def check_obligation(hand: HandInPlay, e: PlayerActed) -> None:
    """A seat held to an obligation acts within it (TDA 2022 55; bfsp 4.13)."""
    held = hand.obligation
    if held is None or held[0].seat != e.seat:
        return
    ob, rule = held
    if e.action not in ob.options:
        raise IllegalActionError(
            f"seat {e.seat} made a {e.action}; {ob.reason}: seat {e.seat} may only {_options(ob.options)}", rule
        )
    if e.action in _AGGRESSIVE and e.amount is not None:
        if ob.minimum is not None and e.amount < ob.minimum:
            raise IllegalActionError(
                f"seat {e.seat} made a {e.action} to {chips(e.amount)}; he is bound to at least {chips(ob.minimum)}",
                rule,
            )
        if ob.maximum is not None and e.amount > ob.maximum:
            raise IllegalActionError(
                f"seat {e.seat} made a {e.action} to {chips(e.amount)}; he is bound to at most {chips(ob.maximum)}",
                rule,
            )


def obliged_options(hand: HandInPlay, legal: LegalActions) -> LegalActions:
    """The seat's legal actions within his obligation, if he is held to one."""
    held = hand.obligation
    if held is None or held[0].seat != legal.seat:
        return legal
    ob = held[0]
    allowed = set(ob.options)
    aggressive = legal.aggressive_action if legal.aggressive_action in allowed else None
    low, high = legal.min_bet_or_raise_to, legal.max_bet_or_raise_to
    if aggressive is None:
        low = high = None
    else:
        if low is not None and ob.minimum is not None:
            low = max(low, ob.minimum)
        if high is not None and ob.maximum is not None:
            high = min(high, ob.maximum)
    return replace(
        legal,
        can_fold=legal.can_fold and ActionKind.FOLD in allowed,
        can_check=legal.can_check and ActionKind.CHECK in allowed,
        can_call=legal.can_call and ActionKind.CALL in allowed,
        can_bet=legal.can_bet and ActionKind.BET in allowed,
        can_raise=legal.can_raise and ActionKind.RAISE in allowed,
        can_complete=legal.can_complete and ActionKind.COMPLETE in allowed,
        min_bet_or_raise_to=low,
        max_bet_or_raise_to=high,
        aggressive_action=aggressive,
        allowed_to=tuple(a for a in legal.allowed_to if low is not None and high is not None and low <= a <= high),
    )


def before_act(hand: HandInPlay, e: PlayerActed) -> int:
    """Clear what an action settles (a ruling, the seat's obligation); note it for waiting out-of-turn acts.
    Returns what a fold forfeits under the seat's obligation (bfsp 4.10, 4.13), or under the director's ruling on
    his undercall (TDA 2022 51-B: "forfeit the chips put in and fold")."""
    ruled = hand.ruling
    forfeit = 0
    if ruled is not None and ruled[0].seat == e.seat and e.action is ActionKind.FOLD:
        forfeit = min(hand.ruling_forfeit, hand.stacks[e.seat])
    hand.ruling = None
    hand.ruling_forfeit = 0
    held = hand.obligation
    if held is not None and held[0].seat == e.seat:
        hand.obligation = None
        if e.action is ActionKind.FOLD:
            forfeit = max(forfeit, min(held[0].forfeit_on_fold, hand.stacks[e.seat]))
    for seat, pending in hand.out_of_turn.items():
        if seat != e.seat:
            pending.skipped.append(e.action)
    return forfeit


def forfeit(hand: HandInPlay, seat: int, amount: int) -> None:
    """Chips put in out of turn or short stay in the pot when he folds (they are dead money)."""
    if amount:
        hand.stacks[seat] -= amount
        hand.contributions[seat] += amount


def turn_comes(hand: HandInPlay) -> tuple[DerivedEvent, ...]:
    """The seat to act acted out of turn before: his act binds, or is released into an obligation."""
    rnd = hand.round
    if hand.phase is not Phase.BETTING or rnd is None or rnd.actor not in hand.out_of_turn:
        return _NO_EVENTS
    seat = rnd.actor
    pending = hand.out_of_turn.pop(seat)
    rulebook = hand.rulebook
    reading = pending.reading
    if pending.premature or isinstance(reading, RulingRequired):
        return _ruled_at_turn(hand, seat, reading)
    resolved: Reading
    if isinstance(reading, Interpreted):
        resolved = resolve_out_of_turn(reading, pending.skipped, rulebook)
    elif any(a in _AGGRESSIVE for a in pending.skipped):
        resolved = Obligation(
            (ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE),
            rulebook.cite("out_of_turn"),
            f"{reading.reason}, out of turn; the action to him changed, so he has every option",
        )
    else:
        resolved = reading
    if isinstance(resolved, Obligation):
        if resolved.forfeit_on_fold:
            # resolve_out_of_turn counts the total put in; what he already had in front of him is not forfeit
            resolved = replace(resolved, forfeit_on_fold=max(resolved.forfeit_on_fold - hand.bets[seat], 0))
        obliged = _obliged(hand, seat, resolved)
        hand.obligation = (obliged, resolved.rule)
        hand.readings.append(obliged)
        return _NO_EVENTS
    action = resolved.as_event(seat)
    try:
        total = hand.check_act(action)
    except HandError as err:
        ruling = RulingRequested(
            seat, str(resolved.rule), f"his act out of turn binds but cannot be made now: {err.reason}"
        )
        hand.ruling = (ruling, resolved.rule)
        hand.readings.append(ruling)
        return _NO_EVENTS
    hand.readings.append(InterpretedAct(action, resolved.rule, resolved.reason, resolved.returned))
    return hand.do_act(action, total)


def _ruled_at_turn(hand: HandInPlay, seat: int, reading: Reading | RulingRequired) -> tuple[DerivedEvent, ...]:
    """The turn of a seat whose act waited for it: made before the amount he faces was stated (TDA 2022 50-B,
    59-B), a fold binds as made; that, or an undercall in a row after another (51-C), is otherwise the
    director's, ruled now that he knows the bet (he may hold him to call it)."""
    rnd = hand.round
    assert rnd is not None
    if isinstance(reading, Interpreted):
        action = reading.as_event(seat)
        try:
            total = hand.check_act(action)
        except HandError as err:
            reading = RulingRequired(f"his act, made early, binds but cannot be made now: {err.reason}", reading.rule)
        else:
            hand.readings.append(InterpretedAct(action, reading.rule, reading.reason, reading.returned))
            return hand.do_act(action, total)
    # an act held for its turn reads as a fold or as the director's question, never an obligation
    assert isinstance(reading, RulingRequired)
    asked = RulingRequested(seat, str(reading.rule), f"{reading.reason}; the bet to him is {chips(rnd.to_match())}")
    hand.ruling = (asked, reading.rule)
    hand.readings.append(asked)
    return _NO_EVENTS


def _obliged(hand: HandInPlay, seat: int, ob: Obligation) -> ActionObliged:
    return ActionObliged(
        seat, ob.options, str(ob.rule), ob.reason, ob.minimum, ob.maximum, ob.forfeit_on_fold, ob.returned
    )


def _options(options: tuple[ActionKind, ...]) -> str:
    words = [str(o) for o in options]
    return " or ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " or " + words[-1]
