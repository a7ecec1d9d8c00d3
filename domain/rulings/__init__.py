"""Officials' rulings on a hand — findings of fact, the Chief Judge's decisions, fairness overrides — that amend
its mechanical outcome, and the Chief Judge's inspection of mucked cards (bfsp 2.1-2.2, 5.9.2, 7.4)."""

from domain.rulings.amend import (
    AmendedOutcome,
    AmendedPot,
    MechanicalOutcome,
    Provenance,
    amend,
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
    "hand_review_id",
    "inspect_mucked_cards",
    "verify_ruling",
]
