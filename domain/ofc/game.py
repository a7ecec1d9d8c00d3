"""The rules engine of one Open-Face Chinese Pineapple round (bfsp 8): it replays the reported events one by
one, refuses an illegal one with the rule it breaks, and answers an accepted one with what follows from it.

The order of play (bfsp 8, set-up, first deal, later deals): position 1 (the first seat after the button)
first, the button last. The first deal gives each player 5 cards, dealt in turn from position 1, and the
players set them in turn; each later deal gives a player 3 cards, of which he sets 2 and discards 1, player
after player, until everyone has 13. A player is dealt his next cards only once he has set his last ones, and
the next street starts only when everyone has set the street before. Placed cards never move: a setting adds
cards to the rows, never takes any away. One 52-card deck: no card is dealt twice in a round (a redeal starts
a fresh deck).

A player in fantasy is dealt ``ofc_fantasy_cards`` (14) at once and sets 13 of them, discarding the rest,
before the others play (``FANTASY_FIRST``, bfsp 8 as worded) or after them (``FANTASY_LAST``); a wrong number
of fantasy cards is a redeal (:class:`OfcRoundRedealt`), not a refusal. Who is in fantasy is checked against
the round before by :func:`verify_fantasy`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from domain.cards import Card
from domain.errors import HandError
from domain.ofc.events import (
    OFC,
    OfcCardsDealt,
    OfcCardsSet,
    OfcDerived,
    OfcHandResult,
    OfcPairResult,
    OfcReported,
    OfcRoundRedealt,
    OfcRoundScored,
    OfcRoundStarted,
)
from domain.ofc.rows import HAND_SIZE, ROW_SIZE, Row, repeats_fantasy, top_enters_fantasy
from domain.ofc.scoring import SetHand, settle
from domain.rulebooks import FantasyOrder, Rulebook

MIN_PLAYERS = 2
MAX_PLAYERS = 3
FIRST_DEAL = 5
LATER_DEAL = 3
LATER_DISCARDS = 1


class OfcError(HandError):
    """An OFC act the rules do not allow (bfsp 8)."""


@dataclass
class Seat:
    seat: int
    player: str
    position: int
    fantasy: bool
    rows: dict[Row, list[Card]] = field(default_factory=lambda: {row: [] for row in Row})
    pending: tuple[Card, ...] | None = None
    deals: int = 0
    sets: int = 0
    discards: list[Card] = field(default_factory=list)

    @property
    def placed(self) -> int:
        return sum(len(cards) for cards in self.rows.values())

    @property
    def complete(self) -> bool:
        return self.placed == HAND_SIZE


def positions(button: int, seats: Sequence[int]) -> list[int]:
    """Seats in the order of play: the first seat clockwise after the button first, the button last."""
    ordered = sorted(seats)
    after = [s for s in ordered if s > button] + [s for s in ordered if s <= button]
    return after


class OfcGame:
    """One round's state. :meth:`apply` judges one reported event; the derived events it returns follow it."""

    def __init__(self, started: OfcRoundStarted, rulebook: Rulebook) -> None:
        self.rulebook = rulebook
        self.started = started
        cite = rulebook.cite
        seats = [p.seat for p in started.players]
        names = [p.player for p in started.players]
        if started.variant != OFC:
            raise OfcError(f"an OFC round is of the variant OFC, not {started.variant}", cite("ofc_players"))
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
            raise OfcError(f"OFC is played by 2 to 3 players, not {len(seats)}", cite("ofc_players"))
        if len(set(seats)) != len(seats) or len(set(names)) != len(names):
            raise OfcError("each player sits in one seat and each seat holds one player", cite("ofc_players"))
        if started.round_number < 1:
            raise OfcError(f"rounds are numbered from 1, not {started.round_number}", cite("ofc_players"))
        if started.button not in seats:
            raise OfcError(
                f"the button is at seat {started.button}, where nobody plays", cite("ofc_turn_order")
            )
        unknown = [name for name in started.fantasy if name not in names]
        if unknown:
            raise OfcError(f"{', '.join(unknown)} in fantasy but not playing this round", cite("ofc_fantasy"))
        order = positions(started.button, seats)
        self.seats: dict[int, Seat] = {
            p.seat: Seat(p.seat, p.player, order.index(p.seat) + 1, p.player in started.fantasy)
            for p in started.players
        }
        self.order: list[Seat] = [self.seats[s] for s in order]
        self.dealt: set[Card] = set()
        self.redeals = 0
        self.scored: OfcRoundScored | None = None

    # --- the questions the referee and the reads ask -----------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.scored is not None

    @property
    def normal(self) -> list[Seat]:
        return [s for s in self.order if not s.fantasy]

    @property
    def in_fantasy(self) -> list[Seat]:
        return [s for s in self.order if s.fantasy]

    # --- judging ------------------------------------------------------------------------------------------

    def apply(self, event: OfcReported) -> tuple[OfcDerived, ...]:
        if isinstance(event, OfcRoundStarted):
            raise OfcError("the round has already started", self.rulebook.cite("ofc_turn_order"))
        if self.scored is not None:
            raise OfcError(
                "the round is over: every hand has been set and settled", self.rulebook.cite("ofc_scoring")
            )
        if isinstance(event, OfcCardsDealt):
            return self._deal(event)
        return self._set(event)

    def _seat(self, number: int) -> Seat:
        seat = self.seats.get(number)
        if seat is None:
            raise OfcError(f"nobody plays at seat {number} this round", self.rulebook.cite("ofc_players"))
        return seat

    def _deal(self, event: OfcCardsDealt) -> tuple[OfcDerived, ...]:
        cite = self.rulebook.cite
        seat = self._seat(event.seat)
        if seat.pending is not None:
            raise OfcError(
                f"seat {seat.seat} must set the cards he was dealt before he is dealt more",
                cite("ofc_turn_order"),
            )
        if seat.complete:
            raise OfcError(f"seat {seat.seat} already has his 13 cards", cite("ofc_later_deals"))
        if seat.fantasy:
            self._fantasy_turn(seat)
            wanted = self.rulebook.ofc_fantasy_cards
            if len(event.cards) != wanted:
                return (self._redeal(seat, len(event.cards)),)
        else:
            self._normal_deal_turn(seat)
            wanted = FIRST_DEAL if seat.deals == 0 else LATER_DEAL
            if len(event.cards) != wanted:
                which = "first deal" if seat.deals == 0 else "later deals"
                raise OfcError(
                    f"seat {seat.seat} was dealt {len(event.cards)} cards; the {which} gives {wanted}",
                    cite("ofc_first_deal" if seat.deals == 0 else "ofc_later_deals"),
                )
        self._unique(event.cards)
        self.dealt.update(event.cards)
        seat.pending = event.cards
        seat.deals += 1
        return ()

    def _unique(self, cards: Sequence[Card]) -> None:
        twice = sorted(
            {str(c) for c, n in Counter(cards).items() if n > 1} | {str(c) for c in cards if c in self.dealt}
        )
        if twice:
            raise OfcError(
                f"{', '.join(twice)} already dealt this round: one 52-card deck, every card once",
                self.rulebook.cite("ofc_deck"),
            )

    def _fantasy_turn(self, seat: Seat) -> None:
        cite = self.rulebook.cite
        earlier = [s for s in self.in_fantasy if s.position < seat.position and not s.complete]
        if earlier:
            raise OfcError(
                f"seat {earlier[0].seat} (position {earlier[0].position}) is in fantasy before seat {seat.seat} "
                "and has not set his hand",
                cite("ofc_turn_order"),
            )
        if self.rulebook.ofc_fantasy_order is FantasyOrder.FANTASY_LAST:
            waiting = [s for s in self.normal if not s.complete]
            if waiting:
                raise OfcError(
                    f"the players in fantasy play after the others, and seat {waiting[0].seat} has not finished",
                    cite("ofc_fantasy"),
                )

    def _normal_deal_turn(self, seat: Seat) -> None:
        cite = self.rulebook.cite
        if self.rulebook.ofc_fantasy_order is FantasyOrder.FANTASY_FIRST:
            waiting = [s for s in self.in_fantasy if not s.complete]
            if waiting:
                raise OfcError(
                    f"seat {waiting[0].seat} is in fantasy and sets his hand before the others are dealt",
                    cite("ofc_fantasy"),
                )
        street = seat.deals
        earlier = [s for s in self.normal if s.position < seat.position]
        if street == 0:
            behind = [s for s in earlier if s.deals == 0]
            if behind:
                raise OfcError(
                    f"the first deal goes in turn from position 1: seat {behind[0].seat} (position "
                    f"{behind[0].position}) is dealt before seat {seat.seat}",
                    cite("ofc_first_deal"),
                )
            return
        behind = [s for s in self.normal if s.sets < street] + [s for s in earlier if s.sets < street + 1]
        if behind:
            raise OfcError(
                f"seat {behind[0].seat} (position {behind[0].position}) sets before seat {seat.seat} is dealt "
                f"his next cards: position 1 first, the button last",
                cite("ofc_turn_order"),
            )

    def _redeal(self, seat: Seat, count: int) -> OfcRoundRedealt:
        rule = self.rulebook.cite("ofc_fantasy")
        self.redeals += 1
        reason = (
            f"seat {seat.seat} in fantasy was dealt {count} cards, not {self.rulebook.ofc_fantasy_cards}: "
            "the round is dealt again"
        )
        for s in self.order:
            s.rows = {row: [] for row in Row}
            s.pending = None
            s.deals = s.sets = 0
            s.discards = []
        self.dealt = set()
        return OfcRoundRedealt(reason, str(rule), self.redeals)

    def _set(self, event: OfcCardsSet) -> tuple[OfcDerived, ...]:
        cite = self.rulebook.cite
        seat = self._seat(event.seat)
        if seat.pending is None:
            raise OfcError(f"seat {seat.seat} has no cards dealt to set", cite("ofc_turn_order"))
        if not seat.fantasy:
            behind = [s for s in self.normal if s.position < seat.position and s.sets <= seat.sets]
            if behind:
                raise OfcError(
                    f"seat {behind[0].seat} (position {behind[0].position}) sets before seat {seat.seat}",
                    cite("ofc_turn_order"),
                )
        added = {Row.BOTTOM: event.bottom, Row.MIDDLE: event.middle, Row.TOP: event.top}
        placed = [c for cards in added.values() for c in cards]
        given = Counter(placed + list(event.discarded))
        if given != Counter(seat.pending):
            dealt = " ".join(str(c) for c in seat.pending)
            shown = " ".join(str(c) for c in given.elements())
            raise OfcError(
                f"seat {seat.seat} was dealt {dealt} and set or discarded {shown}: he sets and discards exactly "
                "the cards of his last deal, each once, and placed cards never move",
                cite("ofc_placed_cards"),
            )
        if seat.fantasy:
            discards, topic = self.rulebook.ofc_fantasy_cards - HAND_SIZE, "ofc_fantasy"
        elif seat.sets == 0:
            discards, topic = 0, "ofc_first_deal"
        else:
            discards, topic = LATER_DISCARDS, "ofc_later_deals"
        if len(event.discarded) != discards:
            raise OfcError(
                f"seat {seat.seat} discarded {len(event.discarded)} cards; this deal's setting discards {discards}",
                cite(topic),
            )
        for row, cards in added.items():
            if len(seat.rows[row]) + len(cards) > ROW_SIZE[row]:
                raise OfcError(
                    f"the {row} row holds {ROW_SIZE[row]} cards; seat {seat.seat} would have "
                    f"{len(seat.rows[row]) + len(cards)}",
                    cite("ofc_placed_cards"),
                )
        for row, cards in added.items():
            seat.rows[row].extend(cards)
        seat.discards.extend(event.discarded)
        seat.pending = None
        seat.sets += 1
        if all(s.complete for s in self.order):
            self.scored = self._score()
            return (self.scored,)
        return ()

    def _score(self) -> OfcRoundScored:
        hands = [
            SetHand(
                s.seat,
                s.position,
                tuple(s.rows[Row.BOTTOM]),
                tuple(s.rows[Row.MIDDLE]),
                tuple(s.rows[Row.TOP]),
            )
            for s in self.order
        ]
        settlement = settle(hands, self.rulebook.ofc_scoop_points)
        points = settlement.points()
        repeat_allowed = not self.rulebook.ofc_repeat_fantasy_heads_up_only or len(self.order) == MIN_PLAYERS
        results = []
        for hand, score in zip(hands, settlement.scores, strict=True):
            seat = self.seats[hand.seat]
            alive = not score.fouled
            results.append(
                OfcHandResult(
                    seat=seat.seat,
                    player=seat.player,
                    position=seat.position,
                    bottom=hand.bottom,
                    middle=hand.middle,
                    top=hand.top,
                    fouled=score.fouled,
                    foul=str(score.foul) if score.foul else "",
                    royalties=score.royalties,
                    points=points[seat.seat],
                    fantasy=seat.fantasy,
                    earns_fantasy=alive and not seat.fantasy and top_enters_fantasy(hand.top),
                    may_repeat_fantasy=alive
                    and seat.fantasy
                    and repeat_allowed
                    and repeats_fantasy(hand.bottom, hand.top),
                )
            )
        pairs = tuple(
            OfcPairResult(p.first, p.second, p.rows, p.row_points, p.scoop, p.royalties, p.points)
            for p in settlement.pairs
        )
        return OfcRoundScored(tuple(results), pairs)


def verify_fantasy(started: OfcRoundStarted, previous: OfcRoundScored | None, rulebook: Rulebook) -> None:
    """Who plays ``started`` in fantasy, against the round before at the table (``None``: none was recorded).

    A player who set QQ or better on top without fouling (and was not in fantasy) enters fantasy: he must be
    listed. A player in fantasy who made trips on top or quads or better on the bottom may declare a repeat
    fantasy: listed or not, as he chose. Nobody else may be listed (bfsp 8, fantasy).
    """
    rule = rulebook.cite("ofc_fantasy")
    playing = {p.player for p in started.players}
    listed = set(started.fantasy)
    if previous is None:
        if listed:
            raise OfcError(
                f"{', '.join(sorted(listed))} cannot be in fantasy: no round {started.round_number - 1} at table "
                f"{started.table_id} earned it",
                rule,
            )
        return
    earned = {h.player for h in previous.hands if h.earns_fantasy}
    may_repeat = {h.player for h in previous.hands if h.may_repeat_fantasy}
    missing = sorted((earned & playing) - listed)
    if missing:
        raise OfcError(
            f"{', '.join(missing)} set QQ or better on top without fouling in round {started.round_number - 1} "
            "and plays this round in fantasy",
            rule,
        )
    unearned = sorted(listed - earned - may_repeat)
    if unearned:
        raise OfcError(
            f"{', '.join(unearned)} did not earn fantasy in round {started.round_number - 1}: it takes QQ or better "
            "on top without a foul, and a repeat takes trips on top or quads or better on the bottom",
            rule,
        )


def hand_cards(seat: Seat) -> dict[str, list[str]]:
    """A seat's rows as card names (for the reads)."""
    return {row.value: [str(c) for c in cards] for row, cards in seat.rows.items()}
