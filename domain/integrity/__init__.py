"""Integrity's pure vocabulary: how strong a known hand is, and one hand as the integrity team reads it.

The statistics (projections/integrity) and the seeded field (ingest/simulator/field) both read hands through
these, so a bot's "strong hand" and the detector's are the same thing.
"""

from domain.integrity.record import Act, HandRecord, Street
from domain.integrity.strength import Strength, describe, postflop_bucket, preflop_bucket, preflop_percentile

__all__ = [
    "Act",
    "HandRecord",
    "Street",
    "Strength",
    "describe",
    "postflop_bucket",
    "preflop_bucket",
    "preflop_percentile",
]
