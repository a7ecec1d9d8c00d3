"""Errors that stand unless corrected in time: a bet the dealer accepted though the rules do not allow it.

TDA 2022 52 (TDA 2017 D-42; bfsp 4.13 says the bet is brought to the minimum and is silent on when it is too late,
so it follows TDA 52): a bet or raise below the minimum is brought up, for every bettor, until the next card
(on the last round, the showdown); a pot-limit bet above the pot is cut to it for every caller until the next
card; a "pot" bet counted short is raised to the pot until substantial action follows it. After that the amount
stands and the hand goes on from it.

The act is played as made (``IncorrectBetAccepted``) and the engine notes what it breaks (``IncorrectBetNoted``).
A correction in time (``IncorrectBetCorrected``) moves every matching bet (``BetCorrected``, one per seat); the
act that closes the window says the amount stood (``IncorrectBetStood``). The amounts come from
:func:`domain.hand.interpretation.correct_short_raise` and :func:`~domain.hand.interpretation.correct_pot_limit_bet`.
"""

from __future__ import annotations

from domain.errors import HandStateError, IllegalActionError, RuleRef, chips
from domain.hand.events import (
    ActionKind,
    BetCorrected,
    DerivedEvent,
    IncorrectBetAccepted,
    IncorrectBetCorrected,
    IncorrectBetNoted,
    IncorrectBetStood,
    PlayerActed,
    UncalledBetReturned,
)
from domain.hand.in_play import ErrorKind, HandInPlay, PendingError
from domain.hand.interpretation import (
    Correction,
    correct_pot_limit_bet,
    correct_short_raise,
    substantial_action,
)
from domain.hand.phase import Phase
from domain.hand.raw_acts import before_act, check_obligation, turn_comes

#: what closes each kind's window, in words (the noted event says it)
_CLOSES = {
    ErrorKind.UNDER_MINIMUM: "the next card, or on the last round the showdown",
    ErrorKind.OVER_POT: "the next card, or on the last round the showdown",
    ErrorKind.UNDER_POT: "substantial action after it, or the next card",
}


def check_accepted(hand: HandInPlay, e: IncorrectBetAccepted) -> PendingError:
    """The act must be the seat's turn, a bet or raise he could make, and really break a rule of size."""
    cite = hand.rulebook.cite
    rnd = hand.round
    if hand.phase is not Phase.BETTING or rnd is None:
        raise IllegalActionError(f"seat {e.seat} made a {e.action} now: nobody is to bet", cite("turn_order"))
    if e.seat != rnd.actor:
        raise IllegalActionError(
            f"seat {e.seat} bet out of turn; it is seat {rnd.actor}'s turn", cite("turn_order")
        )
    if e.action not in (ActionKind.BET, ActionKind.RAISE) or rnd.awaiting_bring_in:
        raise IllegalActionError(
            f"seat {e.seat}'s {e.action} cannot be an incorrect bet: only a bet or a raise can be", cite("bet")
        )
    check_obligation(hand, PlayerActed(e.seat, e.action, e.amount))
    rng = rnd.aggressive_range(e.seat)
    if rng is None:
        raise rnd.refusal(e.seat, e.action)
    kind, min_to, max_to, allowed = rng
    if e.action is not kind:
        raise IllegalActionError(rnd.wrong_kind(e.seat, e.action, kind), cite("bet"))
    all_in_to = rnd.bets[e.seat] + hand.stacks[e.seat]
    if e.amount > all_in_to:
        raise IllegalActionError(
            f"seat {e.seat} bet {chips(e.amount)} but has only {chips(all_in_to)} in all on this round", cite("bet")
        )
    if e.amount <= rnd.call_level:
        raise IllegalActionError(
            f"seat {e.seat} raised to {chips(e.amount)}, which is not more than the bet of "
            f"{chips(rnd.call_level)}: that is a call",
            cite("bet"),
        )
    error = _error(hand, e, min_to, max_to, allowed, all_in_to)
    if error is None and rnd.limit and e.amount not in allowed:
        raise IllegalActionError(
            f"seat {e.seat} raised to {chips(e.amount)}, more than the fixed limit allows: only a bet or raise short "
            f"of the limit can stand (TDA 2022 52-A); a larger one is not accepted",
            cite("limit_bet_size"),
        )
    if error is None:
        raise IllegalActionError(
            f"seat {e.seat}'s {e.action} to {chips(e.amount)} is within the rules: it is recorded as an action, "
            f"not as an incorrect bet",
            cite("incorrect_bet"),
        )
    kind_, due, broken = error
    return PendingError(
        e.seat, kind_, e.amount, due, hand.street_index, 0, rnd.call_level, rnd.increment, broken
    )


def _error(
    hand: HandInPlay,
    e: IncorrectBetAccepted,
    min_to: int,
    max_to: int,
    allowed: tuple[int, ...],
    all_in_to: int,
) -> tuple[ErrorKind, int, RuleRef] | None:
    rnd = hand.round
    assert rnd is not None
    cite = hand.rulebook.cite
    if e.pot_declared:
        if not rnd.pot_limit:
            raise IllegalActionError(
                f"seat {e.seat} bet the pot, but a pot bet is counted only in pot-limit", cite("pot_declared")
            )
        pot = min(rnd.pot_limit_max(e.seat), all_in_to)
        if e.amount < pot:
            return ErrorKind.UNDER_POT, pot, cite("pot_limit_correction")
    if rnd.pot_limit and e.amount > max_to:
        return ErrorKind.OVER_POT, max_to, cite("max_bet_pot_limit")
    if e.amount != all_in_to and (e.amount < min_to if not rnd.limit else e.amount < allowed[0]):
        topic = "min_bet" if e.action is ActionKind.BET else "min_raise"
        return ErrorKind.UNDER_MINIMUM, min_to if not rnd.limit else allowed[0], cite(topic)
    return None


def do_accepted(hand: HandInPlay, e: IncorrectBetAccepted, error: PendingError) -> tuple[DerivedEvent, ...]:
    rnd = hand.round
    assert rnd is not None
    hand.acted = True
    hand.actions.append(e.action)
    error.actions_at = len(hand.actions)
    before_act(hand, PlayerActed(e.seat, e.action, e.amount))
    rnd.accept_incorrect(e.seat, e.amount)
    hand.incorrect.append(error)
    noted = IncorrectBetNoted(
        e.seat,
        e.amount,
        error.due,
        str(error.broken),
        f"seat {e.seat}'s {e.action} to {chips(e.amount)} breaks the rule ({_what(error)}); it plays as made "
        f"until corrected to {chips(error.due)}",
        _CLOSES[error.kind],
    )
    if rnd.actor is None or len(hand.folded) >= len(hand.seats) - 1:
        return (noted, *hand.end_round())
    return (noted, *turn_comes(hand))


def _what(error: PendingError) -> str:
    if error.kind is ErrorKind.OVER_POT:
        return f"the pot-limit maximum is {chips(error.due)}"
    if error.kind is ErrorKind.UNDER_POT:
        return f"the pot is {chips(error.due)}"
    return f"the minimum is to {chips(error.due)}"


def ruling(hand: HandInPlay, error: PendingError) -> Correction:
    """What the rule gives now: the corrected amount while the window is open, the amount as made once closed."""
    rulebook = hand.rulebook
    later = hand.street_index > error.street
    next_card = later and (hand.dealt_on_street or hand.phase is not Phase.DEALING)
    showdown = hand.phase is Phase.OVER or (hand.phase is Phase.SHOWDOWN and bool(hand.shown or hand.mucked))
    if error.kind is ErrorKind.UNDER_MINIMUM:
        found = correct_short_raise(
            error.made, error.due, rulebook, next_card_dealt=next_card, showdown_started=showdown
        )
    else:
        since = substantial_action(hand.actions[error.actions_at :], rulebook)
        found = correct_pot_limit_bet(
            error.made,
            error.due,
            rulebook,
            substantial_action_since=since,
            next_card_dealt=next_card or showdown,
        )
    if found.amount == error.made:
        topic = "incorrect_bet_stands" if error.kind is ErrorKind.UNDER_MINIMUM else "pot_limit_bet_stands"
        return Correction(found.amount, rulebook.cite(topic), found.reason)
    return found


def stood(hand: HandInPlay) -> tuple[DerivedEvent, ...]:
    """The errors whose window the last event closed: each stands, and says so."""
    out: list[DerivedEvent] = []
    for error in list(hand.incorrect):
        found = ruling(hand, error)
        if found.amount != error.made:
            continue
        hand.incorrect.remove(error)
        hand.stood.append((error, found))
        out.append(IncorrectBetStood(error.seat, error.made, str(found.rule), found.reason))
    return tuple(out)


def check_corrected(hand: HandInPlay, e: IncorrectBetCorrected) -> tuple[PendingError, Correction]:
    cite = hand.rulebook.cite
    error = next((x for x in reversed(hand.incorrect) if x.seat == e.seat), None)
    if error is None:
        gone = next(((x, c) for x, c in reversed(hand.stood) if x.seat == e.seat), None)
        if gone is not None:
            raise HandStateError(
                f"seat {e.seat}'s bet of {chips(gone[0].made)} can no longer be corrected: {gone[1].reason}",
                gone[1].rule,
            )
        raise HandStateError(
            f"seat {e.seat}'s bet was corrected, but no incorrect bet of seat {e.seat} is pending",
            cite("incorrect_bet"),
        )
    rnd = hand.table_round
    assert rnd is not None
    top = max(rnd.bets.values())
    if top > error.made:
        raise HandStateError(
            f"a raise to {chips(top)} followed seat {e.seat}'s incorrect bet of {chips(error.made)}: the rule "
            f"corrects the bettors of that amount only before anyone raises over it; the rest is the director's",
            cite("floor_decision"),
        )
    found = ruling(hand, error)
    if not _moves(hand, error, found.amount):
        raise HandStateError(
            f"nothing is left to correct in seat {e.seat}'s bet of {chips(error.made)}: no bet stands at that "
            f"amount any more (the part nobody called went back)",
            found.rule,
        )
    return error, found


def _moves(hand: HandInPlay, error: PendingError, to: int) -> dict[int, int]:
    """The seats whose street total the correction moves, and to what: TDA 2022 52-A brings every bettor of the
    amount up (as far as his chips go), 52-B cuts every caller of a bet over the pot."""
    rnd = hand.table_round
    assert rnd is not None
    moved: dict[int, int] = {}
    for seat in hand.from_button:
        bet = rnd.bets[seat]
        if seat in hand.folded:
            continue
        if error.kind is ErrorKind.OVER_POT:
            new = to if to < bet <= error.made else bet
        else:
            new = min(to, bet + hand.stacks[seat]) if bet == error.made else bet
        if new != bet:
            moved[seat] = new
    return moved


def do_corrected(
    hand: HandInPlay, e: IncorrectBetCorrected, prepared: tuple[PendingError, Correction]
) -> tuple[DerivedEvent, ...]:
    error, found = prepared
    rnd = hand.table_round
    assert rnd is not None
    bets, stacks, contributions = rnd.bets, hand.stacks, hand.contributions
    out: list[DerivedEvent] = []
    moved = _moves(hand, error, found.amount)
    for seat, new in moved.items():
        bet = bets[seat]
        stacks[seat] -= new - bet
        contributions[seat] += new - bet
        bets[seat] = new
        out.append(BetCorrected(seat, bet, new, str(found.rule), found.reason))
    hand.incorrect.remove(error)
    if hand.round is rnd and hand.phase is Phase.BETTING and hand.street_index == error.street:
        rnd.correct_to(max(bets.values()), error.call_before, error.increment_before, list(moved))
        if rnd.actor is None:
            out.extend(hand.end_round())
        return tuple(out)
    back = rnd.finish()  # the round is over: a bet nobody can now match goes back (TDA 2022 65)
    if back is not None:
        out.append(UncalledBetReturned(*back))
    return tuple(out)
