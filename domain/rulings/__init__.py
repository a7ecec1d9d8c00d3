"""Officials' rulings on a hand — findings of fact, the Chief Judge's decisions, fairness overrides — that amend
its mechanical outcome — the outcome in force, whose stacks the next hand is dealt with, while the hand's result
may still be challenged (bfsp 5.9.1) — and the Chief Judge's inspection of mucked cards (bfsp 2.1-2.2, 5.9.2,
7.4)."""

from domain.rulings.amend import (
    AmendedOutcome,
    AmendedPot,
    MechanicalOutcome,
    Provenance,
    amend,
    awards_in_force,
    chips_moved,
    stacks_in_force,
    standing,
    verify_replaces,
    verify_ruling,
)
from domain.rulings.events import (
    CATALOG,
    InspectionOutcome,
    MuckedCardsInspected,
    PotReaward,
    RulingIssued,
    RulingKind,
)
from domain.rulings.inspection import inspect_mucked_cards
from domain.rulings.review import HandReview, hand_review_id
from domain.rulings.window import verify_in_time

__all__ = [
    "CATALOG",
    "AmendedOutcome",
    "AmendedPot",
    "HandReview",
    "InspectionOutcome",
    "MechanicalOutcome",
    "MuckedCardsInspected",
    "PotReaward",
    "Provenance",
    "RulingIssued",
    "RulingKind",
    "amend",
    "awards_in_force",
    "chips_moved",
    "hand_review_id",
    "inspect_mucked_cards",
    "stacks_in_force",
    "standing",
    "verify_in_time",
    "verify_replaces",
    "verify_ruling",
]
