"""The showdown as the engine plays it: tabling, shows and mucks in any order, and the awards that end the hand.

All-in hands may be tabled as soon as no more betting is possible (TDA 2022 16); at the showdown each seat
still in shows or mucks in any order (the order the rules ask for is :meth:`HandState.showdown_order`); the
last hand not mucked wins without showing (bfsp 5.9.2). The pots are built and awarded by
:mod:`domain.hand.pots` and :mod:`domain.hand.showdown`; a card nobody saw leaves its pot undetermined.
"""

from __future__ import annotations

from typing import Final

from domain.cards import MaybeCard
from domain.errors import IllegalActionError
from domain.hand.dealing import cards_phrase, reveal
from domain.hand.events import DerivedEvent, HandEnded, HandMucked, HandShown, PotAwarded, PotShare
from domain.hand.in_play import HandInPlay
from domain.hand.phase import Phase
from domain.hand.pots import Pot, build_pots
from domain.hand.showdown import award_pots

_NO_EVENTS: Final[tuple[DerivedEvent, ...]] = ()


def tabling_allowed(hand: HandInPlay) -> bool:
    """All-in hands may be tabled once no more betting is possible (TDA 2022 16)."""
    if hand.phase is Phase.SHOWDOWN:
        return True
    if hand.phase not in (Phase.DEALING, Phase.DRAW) or len(hand.in_hand) < 2:
        return False
    return sum(1 for s in hand.in_hand if hand.stacks[s] > 0) <= 1 and hand.street_index > 0


def check_show(hand: HandInPlay, e: HandShown) -> list[MaybeCard]:
    cite = hand.rulebook.cite
    if not tabling_allowed(hand):
        raise IllegalActionError(f"seat {e.seat} showed its hand now: {hand.waiting_for()}", cite("show"))
    if e.seat not in hand.hole or e.seat in hand.folded or e.seat in hand.mucked:
        raise IllegalActionError(f"seat {e.seat} has no live hand to show", cite("show"))
    held = hand.hole[e.seat]
    if len(e.cards) != len(held):
        raise IllegalActionError(
            f"seat {e.seat} showed {len(e.cards)} card(s); it holds {len(held)}", cite("show")
        )
    known = [c for c in e.cards if c is not None]
    merged = reveal(held, e.cards) if len(set(known)) == len(known) else None
    if merged is None:
        raise IllegalActionError(
            f"seat {e.seat} showed {cards_phrase(e.cards)}, but was dealt {cards_phrase(held)}",
            cite("show"),
        )
    hand.deck.verify([c for c in merged if c not in held], "seat {seat}'s shown hand", e.seat)
    return merged


def do_show(hand: HandInPlay, e: HandShown, merged: list[MaybeCard]) -> tuple[DerivedEvent, ...]:
    if hand.phase is Phase.SHOWDOWN and complete_with(hand, shown={e.seat}):
        hole = dict(hand.hole)
        hole[e.seat] = merged
        awards, undetermined = showdown_awards(hand, hole, set())
    else:
        awards, undetermined = None, False
    hand.deck.add(merged, dealt=False)
    hand.hole[e.seat] = merged
    if hand.phase is Phase.SHOWDOWN or None not in merged:
        # a hand tabled face down ("????") before the showdown has not been shown yet
        hand.shown.add(e.seat)
    if awards is None:
        return _NO_EVENTS
    return finish(hand, awards, undetermined)


def check_muck(hand: HandInPlay, e: HandMucked) -> None:
    cite = hand.rulebook.cite
    if hand.phase is not Phase.SHOWDOWN:
        raise IllegalActionError(
            f"seat {e.seat} mucked before the showdown; during the betting a hand is folded", cite("show")
        )
    if e.seat not in hand.hole or e.seat in hand.folded or e.seat in hand.mucked:
        raise IllegalActionError(f"seat {e.seat} has no live hand to muck", cite("show"))
    if e.seat in hand.shown:
        raise IllegalActionError(f"seat {e.seat} has already tabled its hand", cite("show"))
    if e.seat in hand.show_owed:
        raise IllegalActionError(
            f"seat {e.seat} must table his hand: a caller of his last bet asked to see it", cite("show_request")
        )


def do_muck(hand: HandInPlay, e: HandMucked, _: None) -> tuple[DerivedEvent, ...]:
    if complete_with(hand, mucked={e.seat}):
        awards, undetermined = showdown_awards(hand, hand.hole, {e.seat})
        hand.mucked.add(e.seat)
        return finish(hand, awards, undetermined)
    hand.mucked.add(e.seat)
    return _NO_EVENTS


def complete_with(hand: HandInPlay, shown: set[int] | None = None, mucked: set[int] | None = None) -> bool:
    gone = hand.mucked | (mucked or set())
    showed = hand.shown | (shown or set())
    contest = [s for s in hand.in_hand if s not in gone]
    return len(contest) <= 1 or all(s in showed for s in contest)


def showdown_awards(
    hand: HandInPlay, hole: dict[int, list[MaybeCard]], mucking: set[int]
) -> tuple[tuple[PotAwarded, ...], bool]:
    out_of_it = hand.folded | hand.mucked | mucking
    contest = [s for s in hand.in_hand if s not in out_of_it]
    if len(contest) == 1:
        return single_awards(hand, contest[0], out_of_it), False
    v = hand.variant
    return award_pots(
        pots(hand, out_of_it),
        {s: hole[s] for s in contest},
        hand.board,
        v.high,
        v.low,
        hand.from_button,
        hand.rulebook,
        1,
        button_game=v.uses_button,
    )


def single_awards(hand: HandInPlay, winner: int, out_of_it: set[int]) -> tuple[PotAwarded, ...]:
    # every layer of the pots has the winner as its only eligible seat or none, and build_pots joins those
    # into one pot: the winner takes all of it
    total = sum(hand.contributions.values())
    return (PotAwarded(0, total, (winner,), (PotShare(winner, total),)),)


def pots(hand: HandInPlay, out_of_it: set[int] | None = None) -> tuple[Pot, ...]:
    """The main pot and the side pots now; dead money (antes others did not owe, dead blinds) is in the main
    pot whatever the side pots (PokerKit's convention for big-blind antes)."""
    out = hand.folded | hand.mucked if out_of_it is None else out_of_it
    if not hand.dead:
        return build_pots(hand.contributions, out)
    live = {s: c - hand.dead.get(s, 0) for s, c in hand.contributions.items()}
    layers = list(build_pots(live, out))
    dead = sum(hand.dead.values())
    if layers:
        main = layers[0]
        who = tuple(sorted(set(main.contributors) | set(hand.dead)))
        layers[0] = Pot(main.amount + dead, main.eligible, who)
    else:
        layers.append(Pot(dead, tuple(s for s in hand.seats if s not in out), tuple(sorted(hand.dead))))
    return tuple(layers)


def award_to(hand: HandInPlay, winner: int, out_of_it: set[int]) -> tuple[DerivedEvent, ...]:
    return finish(hand, single_awards(hand, winner, out_of_it), False)


def finish(hand: HandInPlay, awards: tuple[PotAwarded, ...], undetermined: bool) -> tuple[DerivedEvent, ...]:
    for award in awards:
        for share in award.shares:
            hand.stacks[share.seat] += share.amount
    hand.awards.extend(awards)
    hand.undetermined = undetermined
    hand.phase = Phase.OVER
    hand.round = None
    ended = HandEnded(tuple(sorted(hand.stacks.items())), undetermined)
    return (*awards, ended)
