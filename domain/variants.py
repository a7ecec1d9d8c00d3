"""The games the engine knows: their decks, streets, betting structures and how hands are ranked.

Keys of :data:`VARIANTS` are PHH's variant codes (``NT``, ``PO``, ``F7S`` ...), so an imported history names
its game directly. A :class:`Street` says what the dealer does on it (hole cards with their face-up pattern,
board cards, a draw, a burn first) and how its betting round is sized and opened.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domain.evaluation.kinds import EvaluationKind


class BettingStructure(StrEnum):
    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    FIXED_LIMIT = "fixed_limit"


class Opener(StrEnum):
    """Who acts first on a street's betting round."""

    #: first seat after the last blind (heads-up: the button, which posts the small blind) (bfsp 5.6.2)
    AFTER_BLINDS = "after_blinds"
    #: first seat in the hand left of the button (bfsp 5.6.4)
    LEFT_OF_BUTTON = "left_of_button"
    #: stud third street: the lowest up-card brings in (razz: the highest) (bfsp 5.8.2)
    BRING_IN = "bring_in"
    #: stud later streets: the best hand showing (razz: the lowest) (bfsp 5.8.6)
    BEST_SHOWING = "best_showing"


@dataclass(frozen=True, slots=True)
class Street:
    """One street: what is dealt, then (maybe) a draw, then a betting round."""

    name: str
    #: hole cards dealt to each seat still in the hand, and which of them are dealt face up
    hole_cards: int = 0
    face_up: tuple[bool, ...] = ()
    board_cards: int = 0
    #: a draw round (discard and replace) before this street's betting
    draw: bool = False
    #: one card is burned before this street's cards (never before the first deal, bfsp 4.1 "Burn card")
    burn: bool = True
    #: fixed limit: this street's bets and raises are the big bet (else the small bet)
    big_bet: bool = False
    opener: Opener = Opener.LEFT_OF_BUTTON


@dataclass(frozen=True, slots=True)
class Variant:
    code: str
    name: str
    deck: str  # "standard" (52 cards) or "short" (36 cards, sixes to aces)
    betting: BettingStructure
    streets: tuple[Street, ...]
    high: EvaluationKind | None
    low: EvaluationKind | None
    uses_button: bool = True
    #: stud high: an open pair on fourth street lets the big bet be made at once (bfsp 5.8.5)
    open_pair_big_bet: bool = False

    @property
    def is_stud(self) -> bool:
        return not self.uses_button

    @property
    def bring_in_kind(self) -> EvaluationKind:
        """The ranking that decides the bring-in and who acts first (razz: low; others: high)."""
        kind = self.high or self.low
        assert kind is not None
        return kind

    @property
    def hand_size(self) -> int:
        return sum(street.hole_cards for street in self.streets)


def _flop_game(hole: int, limit: bool = False) -> tuple[Street, ...]:
    return (
        Street("preflop", hole_cards=hole, face_up=(False,) * hole, burn=False, opener=Opener.AFTER_BLINDS),
        Street("flop", board_cards=3),
        Street("turn", board_cards=1, big_bet=limit),
        Street("river", board_cards=1, big_bet=limit),
    )


_STUD = (
    Street("third street", hole_cards=3, face_up=(False, False, True), burn=False, opener=Opener.BRING_IN),
    Street("fourth street", hole_cards=1, face_up=(True,), opener=Opener.BEST_SHOWING),
    Street("fifth street", hole_cards=1, face_up=(True,), big_bet=True, opener=Opener.BEST_SHOWING),
    Street("sixth street", hole_cards=1, face_up=(True,), big_bet=True, opener=Opener.BEST_SHOWING),
    Street("seventh street", hole_cards=1, face_up=(False,), big_bet=True, opener=Opener.BEST_SHOWING),
)


def _draw_game(hole: int, draws: int) -> tuple[Street, ...]:
    first = Street(
        "pre-draw", hole_cards=hole, face_up=(False,) * hole, burn=False, opener=Opener.AFTER_BLINDS
    )
    names = ("first draw", "second draw", "third draw")
    return (first,) + tuple(Street(names[i], draw=True, big_bet=i >= 1) for i in range(draws))


_NL, _PL, _FL = BettingStructure.NO_LIMIT, BettingStructure.POT_LIMIT, BettingStructure.FIXED_LIMIT
_K = EvaluationKind

VARIANTS: dict[str, Variant] = {
    v.code: v
    for v in (
        Variant("NT", "no-limit Texas hold'em", "standard", _NL, _flop_game(2), _K.STANDARD_HIGH, None),
        Variant("PT", "pot-limit Texas hold'em", "standard", _PL, _flop_game(2), _K.STANDARD_HIGH, None),
        Variant(
            "FT", "fixed-limit Texas hold'em", "standard", _FL, _flop_game(2, True), _K.STANDARD_HIGH, None
        ),
        Variant("NS", "no-limit short-deck hold'em", "short", _NL, _flop_game(2), _K.SHORT_DECK_HIGH, None),
        Variant("PO", "pot-limit Omaha", "standard", _PL, _flop_game(4), _K.OMAHA_HIGH, None),
        Variant("NO", "no-limit Omaha", "standard", _NL, _flop_game(4), _K.OMAHA_HIGH, None),
        Variant(
            "PO/8",
            "pot-limit Omaha hi-lo",
            "standard",
            _PL,
            _flop_game(4),
            _K.OMAHA_HIGH,
            _K.OMAHA_EIGHT_OR_BETTER_LOW,
        ),
        Variant(
            "FO/8",
            "fixed-limit Omaha hi-lo, eight or better",
            "standard",
            _FL,
            _flop_game(4, True),
            _K.OMAHA_HIGH,
            _K.OMAHA_EIGHT_OR_BETTER_LOW,
        ),
        Variant(
            "F7S",
            "seven-card stud",
            "standard",
            _FL,
            _STUD,
            _K.STANDARD_HIGH,
            None,
            False,
            open_pair_big_bet=True,
        ),
        Variant(
            "F7S/8",
            "seven-card stud hi-lo, eight or better",
            "standard",
            _FL,
            _STUD,
            _K.STANDARD_HIGH,
            _K.EIGHT_OR_BETTER_LOW,
            False,
        ),
        Variant("FR", "razz", "standard", _FL, _STUD, None, _K.RAZZ, False),
        Variant(
            "N2L1D",
            "no-limit 2-7 single draw",
            "standard",
            _NL,
            _draw_game(5, 1),
            None,
            _K.DEUCE_TO_SEVEN_LOW,
        ),
        Variant(
            "F2L3D",
            "fixed-limit 2-7 triple draw",
            "standard",
            _FL,
            _draw_game(5, 3),
            None,
            _K.DEUCE_TO_SEVEN_LOW,
        ),
        Variant("FB", "fixed-limit badugi", "standard", _FL, _draw_game(4, 3), None, _K.BADUGI),
    )
}
