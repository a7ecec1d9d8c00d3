"""The chip race at a scheduled colour-up (TDA 2022 24, TDA 2017 D-23; the federation's text has none).

1. Each player's chips of the removed denomination are exchanged for as many chips of the next denomination as
   their value buys (24-A).
2. What is left (his odd chips, worth less than one new chip) is raced. The race cards are dealt from the deck
   one at a time, **from seat 1** clockwise, one card per odd chip, each seat skipped once it has all its cards.
3. The number of chips raced is the odd chips' total value in new chips, rounded to the nearest chip (half up:
   the convention the digests assume, since 24 gives no number), and never more than the players racing.
4. Each racer's highest card (rank, then suit, bfsp 4.5.1 ♠ ♥ ♦ ♣) ranks him; the best take one chip each:
   **one chip at most per player**.
5. Odd chips that win nothing leave play without compensation (24-C).
6. **Nobody is raced out**: a player left with no chip gets one chip of the smallest denomination in play.

Where the rulebook rounds up instead (tda-club 24-A), there is no race and no race card: every player's odd
chips become one chip of the next denomination.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.cards import SUIT_SENIORITY, Card, CardParseError, parse_card
from domain.competition.events import RaceEntry, RaceResult
from domain.errors import CompetitionError, RuleRef, chips


def race(
    removed: int,
    next_denomination: int,
    entries: Sequence[RaceEntry],
    dealt: Sequence[str],
    rule: RuleRef,
    rounds_up: bool = False,
) -> tuple[tuple[RaceResult, ...], int]:
    """The results of a chip race, and how many chips were raced; :class:`CompetitionError` if the race cards
    do not fit the race (too few, too many, a card twice)."""
    if not 0 < removed < next_denomination or next_denomination % removed:
        raise CompetitionError(
            f"chips of {chips(removed)} cannot be coloured up into chips of {chips(next_denomination)}", rule
        )
    seats = sorted(entries, key=lambda e: e.seat)
    odd = {e.seat: (e.removed_chips * removed) % next_denomination // removed for e in seats}
    racers = [e for e in seats if odd[e.seat]]
    if rounds_up:
        if dealt:
            raise CompetitionError("odd chips are rounded up here: no race cards are dealt", rule)
        cards: dict[int, list[Card]] = {e.seat: [] for e in seats}
        winners = {e.seat for e in racers}
        raced = len(winners)
    else:
        cards = _deal(seats, odd, _cards(dealt, rule), rule)
        odd_value = sum(odd.values()) * removed
        raced = min(len(racers), (2 * odd_value + next_denomination) // (2 * next_denomination))
        ranked = sorted(racers, key=lambda e: max(_strength(c) for c in cards[e.seat]), reverse=True)
        winners = {e.seat for e in ranked[:raced]}
    results = []
    for e in seats:
        exchanged = e.removed_chips * removed // next_denomination
        won = e.seat in winners
        stack = e.other_chips + (exchanged + won) * next_denomination
        results.append(
            RaceResult(
                seat=e.seat,
                participant=e.participant,
                exchanged=exchanged,
                cards=tuple(str(c) for c in cards[e.seat]),
                won_race_chip=won,
                given_minimum_chip=stack == 0,
                removed_value=0 if won else odd[e.seat] * removed,
                stack_after=stack or next_denomination,
            )
        )
    return tuple(results), raced


def _cards(dealt: Sequence[str], rule: RuleRef) -> list[Card]:
    cards: list[Card] = []
    for text in dealt:
        try:
            card = parse_card(text)
        except CardParseError as error:
            raise CompetitionError(f"race card {text!r}: {error}", rule) from None
        if card is None or card in cards:
            raise CompetitionError(f"race card {text!r} is unknown or was dealt twice", rule)
        cards.append(card)
    return cards


def _deal(
    seats: Sequence[RaceEntry], odd: dict[int, int], deck: list[Card], rule: RuleRef
) -> dict[int, list[Card]]:
    """One card per odd chip, from seat 1 clockwise, a seat skipped once it has all its cards."""
    needed = sum(odd.values())
    if len(deck) != needed:
        raise CompetitionError(
            f"the race needs {needed} cards, one per odd chip, and {len(deck)} were dealt", rule
        )
    hands: dict[int, list[Card]] = {e.seat: [] for e in seats}
    cards = iter(deck)
    while any(len(hands[s]) < n for s, n in odd.items()):
        for e in seats:
            if len(hands[e.seat]) < odd[e.seat]:
                hands[e.seat].append(next(cards))
    return hands


def _strength(card: Card) -> tuple[int, int]:
    return card.rank, SUIT_SENIORITY[card.suit]
