"""Misdeals the deal itself shows (TDA 2022 35-A; TDA 2017 D-34; tda-club 35-A; bfsp 6.3): the deal begun at the
wrong seat, a card dealt to a seat not entitled to a hand (an empty seat), a seat dealt out, two cards boxed in the
first deal, a card too many found before substantial action.

Each is recognised as the record shows it, before substantial action (bfsp: before the first action), and the
hand ends as a declared misdeal does, every chip back, with ``MisdealRecognised`` saying why and under which rule.
A card too many found after it is recorded (``ExtraCardDealt``), so that the dead hand's count agrees with the
deal (TDA 2022 38, TV-71).

The deal's order is checked only where the record keeps the deal as it was dealt, card after burn (a live table's
record, ``burns_recorded``): imported and online histories list the hole cards in their own order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.errors import DealingError, HandStateError, RuleRef
from domain.hand.deal_acts import check_dealing, check_hole, do_hole
from domain.hand.events import (
    BoxedCardFound,
    DealtShort,
    DerivedEvent,
    ExtraCardDealt,
    HoleCardsDealt,
    MisdealDeclared,
    MisdealRecognised,
)
from domain.hand.in_play import HandInPlay
from domain.hand.phase import Phase

if TYPE_CHECKING:
    from collections.abc import Sequence

    from domain.hand.events import ActionKind
    from domain.rulebooks import Rulebook

#: the rulebooks for which two boxed cards in the first deal are a misdeal (TDA 2022 35-A-1, TDA 2017 D-34 A-1,
#: tda-club 35-A-1); bfsp 6.4.5 discards each boxed card and deals the next in its place
_TWO_BOXED_MISDEAL = frozenset({"tda-2022", "tda-2017", "tda-club"})


def misdeal_possible(hand: HandInPlay) -> bool:
    """A misdeal may still be declared: before substantial action (TDA 2022 35-D), or under bfsp 6.3 before the
    first action."""
    if hand.rulebook.misdeal_until_substantial_action:
        return not _substantial_action(hand.actions, hand.rulebook)
    return not hand.acted


def recognise(hand: HandInPlay, reason: str, topic: str) -> tuple[DerivedEvent, ...]:
    return recognise_by(hand, reason, hand.rulebook.cite(topic))


def recognise_by(hand: HandInPlay, reason: str, rule: RuleRef) -> tuple[DerivedEvent, ...]:
    """The hand ends as a misdeal: ``MisdealRecognised`` says why, then every chip goes back."""
    return (MisdealRecognised(reason, str(rule)), *hand.void(MisdealDeclared(reason, str(rule)), None))


# --- the first card to the wrong seat ------------------------------------------------------------------------


def _first_card_elsewhere(hand: HandInPlay, e: HoleCardsDealt) -> bool:
    return (
        hand.started.burns_recorded
        and hand.variant.uses_button
        and hand.street_index == 0
        and not any(hand.hole.values())
        and e.seat != hand.from_button[0]
    )


def _not_entitled(hand: HandInPlay, e: HoleCardsDealt) -> bool:
    """A card of the first deal went to a seat with nobody dealt in: an empty seat, or a player not entitled to
    a hand (TDA 2022 35-A-3; bfsp 6.3.4). Only a live table's record shows it; in an imported history a seat
    outside the hand is the import's error and is refused."""
    return (
        hand.started.burns_recorded
        and e.seat not in hand.hole
        and hand.street_index == 0
        and hand.phase is Phase.DEALING
        and 0 < e.seat <= _MOST_SEATS
    )


#: the most seats a table has (a ten-handed table; TDA 2017 D-11 never seats a final table above ten): a seat
#: number beyond it is no seat at all and is refused as not in the hand
_MOST_SEATS = 10


def check_first_hole(hand: HandInPlay, e: HoleCardsDealt) -> tuple[bool, ...]:
    """The deal's checks; a card to a seat not entitled to a hand passes them, to be recognised a misdeal."""
    if _not_entitled(hand, e):
        check_dealing(hand, "seat {seat} was dealt hole cards", e.seat)
        hand.deck.verify(e.cards, "the deal to seat {seat}", e.seat)
        if not e.cards:
            raise DealingError(f"seat {e.seat} was dealt no card", hand.rulebook.cite("deal_count"))
        return ()
    return check_hole(hand, e)


def do_first_hole(hand: HandInPlay, e: HoleCardsDealt, pattern: tuple[bool, ...]) -> tuple[DerivedEvent, ...]:
    if _not_entitled(hand, e):
        hand.deck.add(e.cards)
        return recognise(hand, f"seat {e.seat}, with nobody entitled to a hand, was dealt a card", "not_entitled")
    if _first_card_elsewhere(hand, e):
        hand.deck.add(e.cards)
        first = hand.from_button[0]
        return recognise(
            hand, f"the deal began at seat {e.seat}; the first card goes to seat {first}, left of the button",
            "wrong_seat",
        )
    return do_hole(hand, e, pattern)


# --- a seat dealt out ---------------------------------------------------------------------------------------


def dealt_out(hand: HandInPlay, e: DealtShort) -> bool:
    """The seat was given no card of the first deal (TDA 2022 35-A-4; bfsp 6.3.4)."""
    street = hand.street
    return (
        hand.street_index == 0
        and hand.phase is Phase.DEALING
        and e.missing == street.hole_cards == hand.owed_hole.get(e.seat, 0)
        and not hand.hole.get(e.seat)
    )


def do_dealt_out(hand: HandInPlay, e: DealtShort) -> tuple[DerivedEvent, ...]:
    return recognise(hand, f"seat {e.seat}, entitled to a hand, was dealt out", "dealt_out")


# --- boxed cards --------------------------------------------------------------------------------------------


def check_boxed(hand: HandInPlay, e: BoxedCardFound) -> None:
    if e.card is not None:
        hand.deck.verify((e.card,), "the boxed card")


def do_boxed(hand: HandInPlay, e: BoxedCardFound, _: None) -> tuple[DerivedEvent, ...]:
    """The card is not a playing card and the next one replaces it (bfsp 6.4.5); a second one in the first deal
    is a misdeal under the TDA (35-A-1)."""
    if e.card is not None:
        hand.deck.add((e.card,))
    first_deal = hand.street_index == 0 and hand.phase is Phase.DEALING
    if not first_deal:
        return ()
    hand.boxed += 1
    if hand.boxed >= 2 and hand.rulebook.name in _TWO_BOXED_MISDEAL:
        return recognise(hand, "a second card was found boxed in the deck during the first deal", "boxed_card")
    return ()


# --- a card too many ------------------------------------------------------------------------------------------


def check_extra_card(hand: HandInPlay, e: ExtraCardDealt) -> None:
    cite = hand.rulebook.cite
    if e.seat not in hand.hole or e.seat in hand.folded or e.seat in hand.mucked:
        raise HandStateError(f"seat {e.seat} was found with a card too many, but has no live hand", cite("fold"))
    if not hand.hole[e.seat]:
        raise DealingError(f"seat {e.seat} was found with a card too many before it was dealt any", cite("deal_count"))
    if e.card is not None:
        hand.deck.verify((e.card,), "the card too many to seat {seat}", e.seat)


def do_extra_card(hand: HandInPlay, e: ExtraCardDealt, _: None) -> tuple[DerivedEvent, ...]:
    if e.card is not None:
        hand.deck.add((e.card,))
    if misdeal_possible(hand):
        return recognise(
            hand, f"seat {e.seat} was dealt {len(hand.hole[e.seat]) + 1} cards; the game deals "
            f"{len(hand.hole[e.seat])}", "deal_count",
        )  # fmt: skip
    hand.extra[e.seat] = hand.extra.get(e.seat, 0) + 1
    return ()


def _substantial_action(actions: Sequence[ActionKind], rulebook: Rulebook) -> bool:
    # imported when a misdeal is weighed: domain/hand/interpretation.py reads raw acts, which a plain hand
    # history never reports, and was a twentieth of a second of every process's start (issue 17)
    from domain.hand.interpretation import substantial_action

    return substantial_action(actions, rulebook)
