"""Cards and decks: the 52-card standard deck and the 36-card short deck.

A card is written as rank then suit, as in PHH and most hand histories: ``As``, ``Td``, ``2c``.
A card the record does not know (a hole card nobody saw) is written ``??`` and is ``None`` here:
the engine never guesses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Suit(StrEnum):
    """Suits, listed from the highest to the lowest where a rulebook ranks them (bfsp 4.5.1)."""

    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"


RANK_CHARS = "23456789TJQKA"
#: Suit seniority for the few places a rulebook uses it (stud bring-in, button draw): higher is senior.
SUIT_SENIORITY: dict[Suit, int] = {Suit.SPADES: 3, Suit.HEARTS: 2, Suit.DIAMONDS: 1, Suit.CLUBS: 0}


class CardParseError(ValueError):
    """A card written in a way no deck knows."""


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """One playing card. ``rank`` runs 2..14 (ace high); ``suit`` is a :class:`Suit`."""

    rank: int
    suit: Suit

    def __hash__(self) -> int:
        # what the dataclass would make, hash((rank, suit)), calls the enum's __hash__ written in Python; the
        # engine hashes a card at every deal (the deck's seen cards), so the suit's one letter is read in C
        return self.rank * 128 + ord(self.suit)

    def __str__(self) -> str:
        return RANK_CHARS[self.rank - 2] + self.suit.value

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # a card is pickled (a process pool, copy) as its name: compiled by mypyc (deploy/native.py), the frozen
        # class cannot be rebuilt field by field, which is what the slotted dataclass's own pickling does
        return (_parse_known, (str(self),))

    @classmethod
    def parse(cls, text: str) -> Card:
        return _parse_known(text)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        """On the wire a card is its two-character name (``"As"``), the way hand histories write it. (pydantic's
        ``GetCoreSchemaHandler`` and ``CoreSchema``, imported here: ``pokeraudit validate`` reads cards without
        pydantic, whose import was a twentieth of its start-up.)"""
        from pydantic_core import core_schema

        def validate(value: object) -> Card:
            # Strict: a record writes a card one way only; "10h" or "as" is refused, not read as "Th" or "As"
            # (hand histories written at a table are read by the importers, which say how they read them).
            if isinstance(value, Card):
                return value
            card = _CANONICAL.get(value) if isinstance(value, str) else None
            if card is None:
                raise CardParseError(
                    f"{value!r} is not a card as a record writes it: rank 2-9, T, J, Q, K or A, then suit s, h, d "
                    "or c (e.g. 'Th', 'As')"
                )
            return card

        return core_schema.no_info_plain_validator_function(
            validate,
            json_schema_input_schema=core_schema.str_schema(pattern=r"^[2-9TJQKA][shdc]$"),
            serialization=core_schema.plain_serializer_function_ser_schema(str),
        )


MaybeCard = Card | None


def _build_cache() -> dict[str, Card]:
    cache: dict[str, Card] = {}
    for i, r in enumerate(RANK_CHARS):
        for s in Suit:
            card = Card(i + 2, s)
            cache[r + s.value] = card
            cache[r.lower() + s.value] = card
    # "10h" is how people write it at a table.
    for s in Suit:
        cache["10" + s.value] = cache["T" + s.value]
    return cache


_CARDS = _build_cache()
#: each card by the one name a record writes it with
_CANONICAL = {str(card): card for card in _CARDS.values()}


def _parse_known(text: str) -> Card:
    card = _CARDS.get(text)
    if card is None:
        raise CardParseError(f"{text!r} is not a card: write rank (2-9, T, J, Q, K, A) then suit (s, h, d, c)")
    return card


def parse_card(text: str) -> MaybeCard:
    """One card, or ``None`` for ``??`` (unknown)."""
    if text == "??":
        return None
    return _parse_known(text)


def parse_cards(text: str) -> tuple[MaybeCard, ...]:
    """A run of cards without separators, as PHH writes them: ``"AsKd"``, ``"????"``, ``"Th9h8h"``."""
    text = text.strip()
    if "10" in text:
        text = text.replace("10", "T")
    if len(text) % 2:
        raise CardParseError(f"{text!r} is not a run of two-character cards")
    return tuple(parse_card(text[i : i + 2]) for i in range(0, len(text), 2))


def format_cards(cards: Sequence[MaybeCard]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


def standard_deck() -> tuple[Card, ...]:
    """The 52-card deck (bfsp 4.4)."""
    return tuple(Card(r, s) for r in range(2, 15) for s in Suit)


def short_deck() -> tuple[Card, ...]:
    """The 36-card short deck: sixes to aces."""
    return tuple(Card(r, s) for r in range(6, 15) for s in Suit)
