"""Deck integrity: the right deck, no card twice (bfsp 4.4, 6.2.2; TDA 35-E).

Cards nobody saw (``None``) are never guessed: they pass, and the checks apply to the cards the record knows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from domain.cards import Card, MaybeCard, format_cards, short_deck, standard_deck
from domain.errors import DealingError
from domain.rulebooks import Rulebook

#: every Card is a rank 2..14 of a suit, so a deck is told by its lowest rank (the short deck starts at six)
_LOWEST_RANK = {"standard": min(c.rank for c in standard_deck()), "short": min(c.rank for c in short_deck())}


class Deck:
    """The cards of one hand seen so far, and the deck they must come from."""

    __slots__ = ("low_rank", "name", "seen", "rulebook", "size", "dealt")

    def __init__(self, name: str, rulebook: Rulebook) -> None:
        self.name = name
        self.low_rank = _LOWEST_RANK[name]
        self.size = (15 - self.low_rank) * 4
        #: every card taken from the deck, seen or not
        self.dealt = 0
        self.seen: set[Card] = set()
        self.rulebook = rulebook

    def stub(self) -> int:
        """Cards left in the stub, as far as the record tells (burns it does not record are not counted)."""
        return self.size - self.dealt

    def verify(
        self, cards: Sequence[MaybeCard], what: str, seat: int = 0, reshuffled: frozenset[Card] = frozenset()
    ) -> None:
        """Refuse a card from another deck or a card already dealt in this hand; ``what`` names the deal
        (``{seat}`` in it is filled in, only when a card is refused). ``reshuffled`` cards (the discards, when
        a draw has exhausted the stub) may come again."""
        seen = self.seen
        known: set[Card] = set()  # a set: a card's hash tells cards apart without the dataclass's __eq__
        for card in cards:
            if card is None:
                continue
            if card.rank < self.low_rank:
                raise DealingError(
                    f"{what.format(seat=seat)} includes {card}, which is not in the {self.name} deck",
                    self.rulebook.cite("duplicate_card"),
                )
            if (card in seen and card not in reshuffled) or card in known:
                raise DealingError(
                    f"{what.format(seat=seat)} includes {card}, which was already dealt in this hand",
                    self.rulebook.cite("duplicate_card"),
                )
            known.add(card)

    def add(self, cards: Iterable[MaybeCard], dealt: bool = True) -> None:
        """Note ``cards`` as seen; ``dealt``: they were taken from the stub (not revealed from a hand)."""
        seen = self.seen
        for c in cards:
            if dealt:
                self.dealt += 1
            if c is not None:
                seen.add(c)


def reveal(held: Sequence[MaybeCard], shown: Sequence[MaybeCard]) -> list[MaybeCard] | None:
    """The seat's cards after a show or a discard check: ``shown`` matched against ``held``.

    Known shown cards must be among the known held cards or fill unknown places; the result keeps the
    held order with unknown places filled. None when ``shown`` cannot be this hand.
    """
    result = list(held)
    unknown = [i for i, c in enumerate(held) if c is None]
    for card in shown:
        if card is None:
            continue
        if card in held:
            continue
        if not unknown:
            return None
        result[unknown.pop(0)] = card
    return result


def cards_phrase(cards: Sequence[MaybeCard]) -> str:
    return format_cards(list(cards)) or "no cards"
