"""The showdown: who tables first, and who wins each pot.

Order (bfsp 5.9.2; TDA 2022 17-A): the last aggressor on the final betting round shows first, then
clockwise. When that round was checked through the rulebook decides: bfsp names the last aggressor of
any round, the TDA the seat that would have acted first on it.

Awards: each pot is split on its own (TDA 2022 21), side pots before the main pot (TDA 2022 16,
illustrations). Ties split to the smallest chip in play; the odd chips go by the rulebook (bfsp 5.9.3,
TDA 2022 20). A hi-lo pot is halved when a qualifying low exists, else the high hand scoops.
Cards the record does not know are never guessed: a pot they would decide is left undetermined and gets
no :class:`PotAwarded` at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from domain.cards import SUIT_SENIORITY, Card, MaybeCard
from domain.errors import RuleRef, RulingRequired, chips
from domain.evaluation import EvaluationKind, HandValue, evaluate
from domain.hand.events import PotAwarded, PotShare
from domain.hand.pots import Pot, pot_name, seats_phrase
from domain.rulebooks import CheckedThroughShowsFirst, MultiwayOddChips, OddChipRule, Rulebook

#: Kinds in which the ace is the lowest card, so "the highest card" of such a hand is never its ace.
ACE_LOW_KINDS = frozenset(
    {
        EvaluationKind.RAZZ,
        EvaluationKind.EIGHT_OR_BETTER_LOW,
        EvaluationKind.OMAHA_EIGHT_OR_BETTER_LOW,
        EvaluationKind.BADUGI,
    }
)

# --- order of showing -------------------------------------------------------------------------------------


def showdown_order(
    in_hand: Sequence[int],
    last_aggressor_final_round: int | None,
    last_aggressor_any_round: int | None,
    rulebook: Rulebook,
) -> tuple[int, ...]:
    """The seats in the order they table their cards.

    ``in_hand`` lists the seats still contesting in the order they act on the final round: clockwise from
    the button in flop and draw games; in stud the engine's order (highest board first, razz lowest).
    """
    first, _ = _shows_first(in_hand, last_aggressor_final_round, last_aggressor_any_round, rulebook)
    start = in_hand.index(first)
    return tuple(in_hand[start:]) + tuple(in_hand[:start])


def showdown_order_reason(
    in_hand: Sequence[int],
    last_aggressor_final_round: int | None,
    last_aggressor_any_round: int | None,
    rulebook: Rulebook,
) -> str:
    """Why the first seat shows first, for the showdown-order record: ``seat 5 shows first: …``."""
    first, why = _shows_first(in_hand, last_aggressor_final_round, last_aggressor_any_round, rulebook)
    return f"seat {first} shows first: {why} ({rulebook.cite('showdown_order')})"


def _shows_first(
    in_hand: Sequence[int], final_round: int | None, any_round: int | None, rulebook: Rulebook
) -> tuple[int, str]:
    _check_in_hand(in_hand, final_round)
    if final_round is not None:
        return final_round, "the last aggressor on the final betting round"
    if rulebook.checked_through_shows_first is CheckedThroughShowsFirst.LAST_AGGRESSOR_ANY_ROUND and (
        any_round in in_hand
    ):
        assert any_round is not None
        return any_round, "the final round was checked through; the last aggressor of the hand"
    return in_hand[0], "nobody bet on the final round; the first to act on it"


def _check_in_hand(in_hand: Sequence[int], final_round: int | None) -> None:
    if not in_hand or len(set(in_hand)) != len(in_hand):
        raise ValueError(f"a showdown needs distinct seats still in the hand, not {list(in_hand)}")
    if final_round is not None and final_round not in in_hand:
        raise ValueError(f"seat {final_round} made the last bet on the final round but is not in the hand")


# --- awarding the pots ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Table:
    """What every pot of one showdown is decided with."""

    shown: Mapping[int, Sequence[MaybeCard]]
    board: Sequence[MaybeCard]
    clockwise_from_button: Sequence[int]
    rulebook: Rulebook
    chip_unit: int
    button_game: bool

    def contenders(self, pot: Pot) -> tuple[int, ...]:
        return tuple(
            seat for seat in self.clockwise_from_button if seat in pot.eligible and seat in self.shown
        )

    def known_cards(self, seats: Iterable[int]) -> dict[int, tuple[Card, ...]] | None:
        """Every seat's hole cards, or None when one of them or the board has a card nobody saw."""
        if any(card is None for card in self.board):
            return None
        hands: dict[int, tuple[Card, ...]] = {}
        for seat in seats:
            cards = tuple(card for card in self.shown[seat] if card is not None)
            if len(cards) != len(self.shown[seat]):
                return None
            hands[seat] = cards
        return hands

    def known_board(self) -> tuple[Card, ...]:
        return tuple(card for card in self.board if card is not None)


@dataclass(frozen=True, slots=True)
class _Winners:
    """The seats whose hands tie for best under one kind, clockwise from the button, and that hand."""

    seats: tuple[int, ...]
    value: HandValue
    kind: EvaluationKind
    #: each winner's own hand (the same strength, different cards)
    hands: Mapping[int, HandValue]


def award_pots(
    pots: Sequence[Pot],
    shown: Mapping[int, Sequence[MaybeCard]],
    board: Sequence[MaybeCard],
    high: EvaluationKind | None,
    low: EvaluationKind | None,
    clockwise_from_button: Sequence[int],
    rulebook: Rulebook,
    chip_unit: int = 1,
    *,
    button_game: bool = True,
) -> tuple[tuple[PotAwarded, ...], bool]:
    """Who wins each pot, side pots first; the flag is True when some pot is undetermined.

    ``shown`` holds the cards of every seat still contesting (a seat that mucked is absent; ``None`` is
    a card nobody saw). Give ``high`` and ``low`` for a hi-lo game, one of them for any other.
    ``clockwise_from_button`` orders every eligible seat from the first left of the button; in stud
    (``button_game=False``) it is the engine's seat order and the odd chip goes by the highest card.
    An undetermined pot has no :class:`PotAwarded`: its chips wait for the cards or a ruling. Every tied
    winner has a share, which is 0 when a split has fewer smallest chips than winners.
    """
    if high is None and low is None:
        raise ValueError("a showdown needs a way to rank hands: give the high kind, the low kind or both")
    if chip_unit < 1:
        raise ValueError(f"the smallest chip in play must be worth at least 1, not {chip_unit}")
    table = _Table(shown, board, clockwise_from_button, rulebook, chip_unit, button_game)
    awards: list[PotAwarded] = []
    undetermined = False
    for index in reversed(range(len(pots))):
        awarded = _award_pot(table, index, pots[index], high, low)
        undetermined = undetermined or awarded is None
        awards.extend(awarded or ())
    return tuple(awards), undetermined


def _award_pot(
    table: _Table, index: int, pot: Pot, high: EvaluationKind | None, low: EvaluationKind | None
) -> tuple[PotAwarded, ...] | None:
    contenders = table.contenders(pot)
    _check_contenders(table, index, pot, contenders)
    if len(contenders) == 1:
        return (PotAwarded(index, pot.amount, pot.eligible, (PotShare(contenders[0], pot.amount),)),)
    if pot.amount % table.chip_unit:
        raise ValueError(
            f"the {pot_name(index)} of {chips(pot.amount)} is not made of chips of {chips(table.chip_unit)}"
        )
    hands = table.known_cards(contenders)
    if hands is None:
        return None
    if high is not None and low is not None:
        return _award_hi_lo(table, index, pot, hands, high, low)
    kind = high if high is not None else low
    assert kind is not None
    winners = _best(table, hands, kind)
    if winners is None:
        return None
    return (_split_award(table, index, pot, pot.amount, winners, winners.value.describe()),)


def _check_contenders(table: _Table, index: int, pot: Pot, contenders: Sequence[int]) -> None:
    unplaced = [seat for seat in pot.eligible if seat in table.shown and seat not in contenders]
    if unplaced:
        raise ValueError(
            f"seats {unplaced} of the {pot_name(index)} are missing from the order around the table"
        )
    if not contenders:
        raise RulingRequired(
            f"nobody eligible for the {pot_name(index)} ({seats_phrase(pot.eligible)}) still holds cards",
            table.rulebook.cite("show"),
        )


def _best(table: _Table, hands: Mapping[int, tuple[Card, ...]], kind: EvaluationKind) -> _Winners | None:
    """The best hand under ``kind`` and who holds it; None when a hand cannot be ranked at all."""
    values = _values(table, hands, kind)
    if len(values) != len(hands):
        return None
    return _top(values, kind)


def _values(
    table: _Table, hands: Mapping[int, tuple[Card, ...]], kind: EvaluationKind
) -> dict[int, HandValue]:
    values: dict[int, HandValue] = {}
    for seat, cards in hands.items():
        value = evaluate(kind, cards, table.known_board())
        if value is not None:
            values[seat] = value
    return values


def _top(values: Mapping[int, HandValue], kind: EvaluationKind) -> _Winners:
    best = max(values.values())
    hands = {seat: value for seat, value in values.items() if value == best}
    return _Winners(tuple(hands), best, kind, hands)


def _award_hi_lo(
    table: _Table,
    index: int,
    pot: Pot,
    hands: Mapping[int, tuple[Card, ...]],
    high: EvaluationKind,
    low: EvaluationKind,
) -> tuple[PotAwarded, ...] | None:
    highs = _best(table, hands, high)
    if highs is None:
        return None
    lows = _values(table, hands, low)
    if not lows:
        return (_split_award(table, index, pot, pot.amount, highs, _no_low(highs)),)
    lows_won = _top(lows, low)
    if set(highs.seats) == set(lows_won.seats) and (
        len(highs.seats) == 1 or table.rulebook.hi_lo_same_winners_split_whole
    ):
        both = f"{highs.value.describe()} (high) and {lows_won.value.describe()} (low)"
        return (_split_award(table, index, pot, pot.amount, highs, both),)
    return _halves(table, index, pot, highs, lows_won)


def _no_low(highs: _Winners) -> str:
    return f"{highs.value.describe()}; no qualifying low, the high hand scoops"


def _halves(table: _Table, index: int, pot: Pot, highs: _Winners, lows: _Winners) -> tuple[PotAwarded, ...]:
    units = pot.amount // table.chip_unit
    even_half = units // 2 * table.chip_unit
    odd_half, note = _odd_half(table, highs, lows) if units % 2 else ("", "")
    high_amount = pot.amount - even_half if odd_half != "low" else even_half
    low_amount = pot.amount - high_amount
    high_note, low_note = (note, "") if odd_half == "high" else ("", note)
    return (
        _split_award(table, index, pot, high_amount, highs, highs.value.describe(), "high", high_note),
        _split_award(table, index, pot, low_amount, lows, lows.value.describe(), "low", low_note),
    )


def _odd_half(table: _Table, highs: _Winners, lows: _Winners) -> tuple[str, str]:
    """Which half takes the odd chip of a hi-lo split, and the sentence saying why."""
    rule = _cite(table.rulebook, "odd_chip_hi_lo")
    if table.rulebook.odd_chip_to_high_half:
        return "high", f"odd chip of the split to the high half ({rule})"
    first = next(seat for seat in table.clockwise_from_button if seat in highs.seats or seat in lows.seats)
    half = "high" if first in highs.seats else "low"
    return (
        half,
        f"odd chip of the split to the {half} half: seat {first} won it, the first winner in order ({rule})",
    )


def _split_award(
    table: _Table,
    index: int,
    pot: Pot,
    amount: int,
    winners: _Winners,
    winning_hand: str,
    half: str = "",
    note: str = "",
) -> PotAwarded:
    order, why, topic = _odd_chip_order(table, winners)
    shares, odd = _split(amount, order, table.chip_unit, table.rulebook.multiway_odd_chips)
    odd_chip = _odd_chip_sentence(odd, table.chip_unit, why, _cite(table.rulebook, topic)) if odd else ""
    sentence = "; ".join(part for part in (note, odd_chip) if part)
    return PotAwarded(index, amount, pot.eligible, shares, half, winning_hand, sentence)


def _split(
    amount: int, order: Sequence[int], chip_unit: int, multiway: MultiwayOddChips
) -> tuple[tuple[PotShare, ...], dict[int, int]]:
    """Equal shares down to the smallest chip, and how many odd chips each receiver gets on top."""
    each, extra = divmod(amount // chip_unit, len(order))
    if multiway is MultiwayOddChips.ALL_TO_FIRST:
        odd = {order[0]: extra} if extra else {}
    else:
        odd = {seat: 1 for seat in order[:extra]}
    shares = tuple(PotShare(seat, (each + odd.get(seat, 0)) * chip_unit) for seat in sorted(order))
    return shares, odd


def _odd_chip_order(table: _Table, winners: _Winners) -> tuple[tuple[int, ...], str, str]:
    """The winners in the order odd chips reach them, why, and the rule topic that says so."""
    topic = "odd_chip" if table.button_game else "odd_chip_stud"
    rule = table.rulebook.odd_chip if table.button_game else table.rulebook.odd_chip_stud
    if rule is not OddChipRule.HIGHEST_CARD_BY_SUIT:
        where = "first winner left of the button" if table.button_game else "first winner in seat order"
        return winners.seats, where, topic
    tops = {seat: _highest_card(hand) for seat, hand in winners.hands.items()}
    order = tuple(sorted(winners.seats, key=lambda seat: _card_key(winners.kind, tops[seat]), reverse=True))
    cards = ", ".join(str(tops[seat]) for seat in order)
    return order, f"highest card by suit ({cards})", topic


def _cite(rulebook: Rulebook, topic: str) -> RuleRef:
    """The rulebook's rule for a special case of the odd chip, else its general odd-chip rule."""
    return rulebook.cite(topic if topic in rulebook.rules else "odd_chip")


def _highest_card(hand: HandValue) -> Card:
    """The highest card, suits breaking ties, of the five cards the hand plays (TDA 2022 20-b)."""
    return max(hand.cards, key=lambda card: _card_key(hand.kind, card))


def _card_key(kind: EvaluationKind, card: Card) -> tuple[int, int]:
    rank = 1 if card.rank == 14 and kind in ACE_LOW_KINDS else card.rank
    return rank, SUIT_SENIORITY[card.suit]


def _odd_chip_sentence(odd: Mapping[int, int], chip_unit: int, why: str, rule: RuleRef) -> str:
    worth = f" of {chips(chip_unit)}" if chip_unit != 1 else ""
    count = sum(odd.values())
    if len(odd) == 1:
        what = "odd chip" if count == 1 else f"{count} odd chips"
        return f"{what}{worth} to seat {next(iter(odd))}, {why} ({rule})"
    receivers = ", ".join(str(seat) for seat in odd)
    return f"odd chips{worth} to seats {receivers}, one each in order: {why} ({rule})"
