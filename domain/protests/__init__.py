"""Challenges of a hand's result (bfsp 5.9.1) and protests in two tiers (bfsp 2.1.3, 2.2.3, 7.3)."""

from domain.protests.challenges import (
    ChallengeWindow,
    challenge,
    challenge_deadline,
    verify_challenge_in_time,
)
from domain.protests.events import (
    CATALOG,
    ChallengeKind,
    Contested,
    ContestedKind,
    ProtestDecision,
    ProtestFiled,
    ProtestTier,
)
from domain.protests.protest import Protest, ProtestState, protest_id

__all__ = [
    "CATALOG",
    "ChallengeKind",
    "ChallengeWindow",
    "Contested",
    "ContestedKind",
    "Protest",
    "ProtestDecision",
    "ProtestFiled",
    "ProtestState",
    "ProtestTier",
    "challenge",
    "challenge_deadline",
    "protest_id",
    "verify_challenge_in_time",
]
