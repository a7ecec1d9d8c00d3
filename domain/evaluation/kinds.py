"""The ways a showdown can rank hands."""

from __future__ import annotations

from enum import StrEnum


class EvaluationKind(StrEnum):
    """How a hand is ranked at showdown; each names the PokerKit 0.7.7 hand class it agrees with."""

    #: Best five of five or more cards, aces high or low in the wheel (PokerKit ``StandardHighHand``).
    STANDARD_HIGH = "standard_high"
    #: Short deck (sixes to aces): a flush beats a full house, A-6-7-8-9 is the lowest straight
    #: (PokerKit ``ShortDeckHoldemHand``; a straight beats three of a kind there, as it does here).
    SHORT_DECK_HIGH = "short_deck_high"
    #: Exactly two hole cards and three board cards (PokerKit ``OmahaHoldemHand``).
    OMAHA_HIGH = "omaha_high"
    #: Ace-to-five low of any five cards, five different ranks eight or lower, straights and flushes
    #: ignored (PokerKit ``EightOrBetterLowHand``): stud hi-lo's low half.
    EIGHT_OR_BETTER_LOW = "eight_or_better_low"
    #: The same low with exactly two hole and three board cards (PokerKit ``OmahaEightOrBetterLowHand``).
    OMAHA_EIGHT_OR_BETTER_LOW = "omaha_eight_or_better_low"
    #: Ace-to-five low of any five cards, no qualifier, pairs count against, straights and flushes
    #: ignored (PokerKit ``RegularLowHand``).
    RAZZ = "razz"
    #: Deuce-to-seven low: aces high, straights and flushes count against, A-2-3-4-5 is no straight
    #: (PokerKit ``StandardLowHand``, which PokerKit's 2-7 draw games use).
    DEUCE_TO_SEVEN_LOW = "deuce_to_seven_low"
    #: Badugi, aces low: the most cards of different suits and ranks, then the lowest
    #: (PokerKit ``BadugiHand``, which PokerKit's badugi game uses).
    BADUGI = "badugi"


#: Kinds where the lowest hand wins; their values are inverted so that higher is still better.
LOW_KINDS = frozenset(
    {
        EvaluationKind.EIGHT_OR_BETTER_LOW,
        EvaluationKind.OMAHA_EIGHT_OR_BETTER_LOW,
        EvaluationKind.RAZZ,
        EvaluationKind.DEUCE_TO_SEVEN_LOW,
        EvaluationKind.BADUGI,
    }
)
