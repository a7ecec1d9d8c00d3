"""Dealing as the engine checks it: hole cards, board cards, burns and draws (bfsp 4.1 "Burn card", 4.4,
5.6-5.8; TDA 2022 35-38). Each act has its check (raises, changes nothing) and its application."""

from __future__ import annotations

from typing import Final

from domain.cards import Card, MaybeCard
from domain.errors import DealingError, HandStateError, OutOfTurnError
from domain.hand.dealing import cards_phrase, reveal
from domain.hand.events import BoardDealt, CardBurned, CardsDiscarded, DerivedEvent, HoleCardsDealt
from domain.hand.in_play import HandInPlay
from domain.hand.phase import Phase

_NO_EVENTS: Final[tuple[DerivedEvent, ...]] = ()
# read at every deal: a module name is cheaper than the enum's attribute (Final: a C static when compiled)
_DEALING: Final = Phase.DEALING


def _face_words(pattern: tuple[bool, ...]) -> str:
    return ", ".join("up" if up else "down" for up in pattern)


def check_dealing(hand: HandInPlay, template: str, seat: int = 0) -> None:
    if hand.phase is Phase.DEALING and not (hand.burn_due and not hand.burned):
        return
    cite = hand.rulebook.cite
    what = template.format(seat=seat)
    if hand.phase is not Phase.DEALING:
        raise HandStateError(f"{what} now: {hand.waiting_for()}", cite("deal_count"))
    if hand.burn_owed():
        raise DealingError(
            f"{what} before a card was burned; one card is burned before the {hand.street.name}",
            cite("burn"),
        )


def check_hole(hand: HandInPlay, e: HoleCardsDealt) -> tuple[bool, ...]:
    cite = hand.rulebook.cite
    if hand.phase is not _DEALING or (hand.burn_due and not hand.burned):  # check_dealing's test, inlined
        check_dealing(hand, "seat {seat} was dealt hole cards", e.seat)
    street = hand.street
    owed = hand.owed_hole.get(e.seat, 0)
    if e.seat not in hand.hole:
        raise DealingError(f"seat {e.seat} is not in this hand", cite("deal_count"))
    if owed == 0:
        why = "has folded" if e.seat in hand.folded else f"has had its cards for the {street.name}"
        raise DealingError(f"seat {e.seat} was dealt a card but {why}", cite("deal_count"))
    n = len(e.cards)
    if n == 0 or n > owed:
        raise DealingError(
            f"seat {e.seat} was dealt {n} card(s) on the {street.name}; it is owed {owed} "
            f"of the {street.hole_cards} each seat gets",
            cite("deal_count"),
        )
    start = street.hole_cards - owed
    pattern = street.face_up[start : start + n]
    if e.face_up and tuple(e.face_up) != pattern:
        raise DealingError(
            f"seat {e.seat}'s cards were dealt {_face_words(e.face_up)}; on the {street.name} they are dealt "
            f"{_face_words(pattern)}",
            cite("deal_count"),
        )
    hand.deck.verify(e.cards, "the deal to seat {seat}", e.seat)
    return pattern


def do_hole(hand: HandInPlay, e: HoleCardsDealt, pattern: tuple[bool, ...]) -> tuple[DerivedEvent, ...]:
    hand.hole[e.seat].extend(e.cards)
    hand.face_up[e.seat].extend(pattern)
    hand.deck.add(e.cards)
    hand.dealt_on_street = True
    left = hand.owed_hole[e.seat] - len(e.cards)
    if left:
        hand.owed_hole[e.seat] = left
    else:
        del hand.owed_hole[e.seat]
    return after_deal(hand)


def check_board(hand: HandInPlay, e: BoardDealt) -> None:
    check_dealing(hand, "board cards were dealt")
    n = len(e.cards)
    if n == 0 or n > hand.owed_board:
        raise DealingError(
            f"{n} board card(s) were dealt; {hand.owed_board} are owed on the {hand.street.name}",
            hand.rulebook.cite("deal_count"),
        )
    hand.deck.verify(e.cards, "the board")


def do_board(hand: HandInPlay, e: BoardDealt, _: None) -> tuple[DerivedEvent, ...]:
    hand.board.extend(e.cards)
    hand.deck.add(e.cards)
    hand.dealt_on_street = True
    hand.owed_board -= len(e.cards)
    return after_deal(hand)


def check_burn(hand: HandInPlay, e: CardBurned) -> None:
    cite = hand.rulebook.cite
    if hand.phase not in (Phase.DEALING, Phase.DRAW):
        raise DealingError(f"a card was burned now: {hand.waiting_for()}", cite("burn"))
    street = hand.street
    if not street.burn:
        raise DealingError(
            f"no card is burned before the {street.name}, the first deal of a hand", cite("burn")
        )
    if hand.burned:
        raise DealingError(f"a card was already burned before the {street.name}", cite("burn"))
    if hand.dealt_on_street:
        raise DealingError(
            f"the burn comes before the {street.name}'s first card, not after it", cite("burn")
        )
    hand.deck.verify((e.card,), "the burn card", 0, reshuffled(hand, 0, 1))


def do_burn(hand: HandInPlay, e: CardBurned, _: None) -> tuple[DerivedEvent, ...]:
    hand.burned = True
    hand.deck.add((e.card,))
    return _NO_EVENTS


def after_deal(hand: HandInPlay) -> tuple[DerivedEvent, ...]:
    if hand.owed_hole or hand.owed_board:
        return _NO_EVENTS
    return hand.begin_betting()


# --- the draw -----------------------------------------------------------------------------------------


def check_draw(hand: HandInPlay, e: CardsDiscarded) -> list[MaybeCard]:
    cite = hand.rulebook.cite
    if hand.phase is not Phase.DRAW:
        raise HandStateError(f"seat {e.seat} drew now: {hand.waiting_for()}", cite("draw"))
    if e.seat != hand.draw_order[0]:
        raise OutOfTurnError(
            f"seat {e.seat} drew out of turn; seat {hand.draw_order[0]} draws first", cite("draw")
        )
    if len(e.discarded) != len(e.drawn):
        raise DealingError(
            f"seat {e.seat} threw {len(e.discarded)} card(s) and was dealt {len(e.drawn)}; a draw replaces "
            f"each card thrown",
            cite("draw"),
        )
    held = hand.hole[e.seat]
    if e.drawn and hand.burn_owed():
        raise DealingError(
            f"seat {e.seat} was dealt its draw before a card was burned for the {hand.street.name}",
            cite("burn"),
        )
    known = [c for c in e.discarded if c is not None]
    merged = reveal(held, e.discarded) if len(set(known)) == len(known) else None
    if len(e.discarded) > len(held) or merged is None:
        raise DealingError(
            f"seat {e.seat} threw {cards_phrase(e.discarded)}, which is not part of its hand "
            f"{cards_phrase(held)}",
            cite("draw"),
        )
    fresh = [c for c in merged if c not in held]
    hand.deck.verify(fresh, "seat {seat}'s discards", e.seat)
    hand.deck.verify(e.drawn, "the draw to seat {seat}", e.seat, reshuffled(hand, e.seat, len(e.drawn)))
    return merged


def reshuffled(hand: HandInPlay, seat: int, drawing: int) -> frozenset[Card]:
    """When the stub cannot cover a draw, the discards and folded hands are shuffled to finish it (the
    drawer's own discards are still in his hand as he draws, so they are not among them)."""
    stub = hand.deck.stub()
    if not hand.started.burns_recorded:  # the burns the record leaves out were taken all the same
        stub -= sum(1 for st in hand.variant.streets[: hand.street_index + 1] if st.burn)
    if stub >= drawing:
        return frozenset()
    live = {c for s in hand.in_hand for c in hand.hole[s]} | set(hand.board)
    return frozenset(c for c in hand.deck.seen if c not in live)


def do_draw(hand: HandInPlay, e: CardsDiscarded, merged: list[MaybeCard]) -> tuple[DerivedEvent, ...]:
    hand.deck.add(merged, dealt=False)
    hand.deck.add(e.drawn)
    kept = list(merged)
    unknown_thrown = 0
    for c in e.discarded:
        if c is None:
            unknown_thrown += 1
        else:
            kept.remove(c)
    for _ in range(unknown_thrown):
        if None in kept:
            kept.remove(None)
        else:  # a known hand threw cards nobody saw: which ones it kept is unknown
            kept = [None] * (len(kept) - 1)
    hand.hole[e.seat] = kept + list(e.drawn)
    hand.face_up[e.seat] = [False] * len(hand.hole[e.seat])
    if e.drawn:
        hand.dealt_on_street = True
    hand.draw_order.pop(0)
    if hand.draw_order:
        return _NO_EVENTS
    return hand.begin_betting()
