"""Asking to see a hand at the showdown (TDA 2022 18; TDA 2017 D-17; bfsp 5.9.2 follows TDA 18).

``ShowRequested`` records who asked to see whose cards; the engine answers it from the hand itself with
:func:`domain.hand.interpretation.answer_show_request` (``ShowRequestAnswered``): a caller of the final round's last
bet who kept his cards may insist on seeing the last aggressor's hand, which must then be tabled, not mucked; one who
gave up his cards has no right; a mucked hand is not turned up; anything else is the director's.
"""

from __future__ import annotations

from domain.errors import HandStateError, IllegalActionError, RulingRequired
from domain.hand.events import DerivedEvent, ShowRequestAnswered, ShowRequested
from domain.hand.in_play import HandInPlay
from domain.hand.interpretation import ShowRequest, answer_show_request
from domain.hand.phase import Phase


def check_request(hand: HandInPlay, e: ShowRequested) -> ShowRequestAnswered:
    cite = hand.rulebook.cite
    if hand.phase is not Phase.SHOWDOWN:
        raise HandStateError(
            f"seat {e.seat} asked to see seat {e.target}'s hand, but the hand is not at the showdown",
            cite("show_request"),
        )
    if e.seat not in hand.hole or e.target not in hand.hole or e.seat == e.target:
        raise IllegalActionError(
            f"seat {e.seat} asked to see seat {e.target}'s hand: both must be dealt in, and two different seats",
            cite("show_request"),
        )
    request = ShowRequest(
        requester_kept_cards=e.seat not in hand.folded and e.seat not in hand.mucked,
        requester_called=_called_the_last_bet(hand, e.seat),
        target_last_aggressor=e.target == hand.last_aggressor_final,
        final_round_bet=hand.last_aggressor_final is not None,
        target_mucked=e.target in hand.mucked or e.target in hand.folded,
    )
    try:
        answer = answer_show_request(request, hand.rulebook)
    except RulingRequired as ruling:
        return ShowRequestAnswered(e.seat, e.target, "director", str(ruling.rule), ruling.reason)
    verdict = "granted" if answer.granted else "refused"
    return ShowRequestAnswered(e.seat, e.target, verdict, str(answer.rule), answer.reason)


def _called_the_last_bet(hand: HandInPlay, seat: int) -> bool:
    """He matched the final round's last bet or raise without being its maker."""
    rnd = hand.table_round
    final = hand.last_aggressor_final
    if rnd is None or final is None or seat == final:
        return False
    return rnd.bets.get(seat, 0) == rnd.bets.get(final, 0) > 0 or (
        hand.stacks[seat] == 0 and rnd.bets.get(seat, 0) > 0
    )


def do_request(hand: HandInPlay, e: ShowRequested, answer: ShowRequestAnswered) -> tuple[DerivedEvent, ...]:
    if answer.answer == "granted" and e.target not in hand.shown:
        hand.show_owed.add(e.target)
    return (answer,)
