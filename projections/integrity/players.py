"""Player statistics with PokerTracker 4's definitions (docs/INTEGRITY.md), each with its sample size and
a 95 % interval: Wilson's for a share, a normal one for winnings per 100 hands, and one on the log of the
ratio for the aggression factor."""

from __future__ import annotations

import math
from dataclasses import dataclass

from projections.integrity.counters import COUNTS, Counters, PlayerCounts

Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class Stat:
    """A statistic: its value (None when its sample is empty), the sample it is taken over, its interval."""

    value: float | None
    sample: int
    low: float | None
    high: float | None


def share(hits: int, sample: int) -> Stat:
    """A percentage with Wilson's 95 % interval."""
    if sample <= 0:
        return Stat(None, 0, None, None)
    p = hits / sample
    denominator = 1 + Z95**2 / sample
    centre = (p + Z95**2 / (2 * sample)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / sample + Z95**2 / (4 * sample**2)) / denominator
    return Stat(100 * p, sample, 100 * max(0.0, centre - half), 100 * min(1.0, centre + half))


def ratio(top: int, bottom: int) -> Stat:
    """Bets and raises per call, with a 95 % interval on log(top/bottom) (each count taken as Poisson)."""
    if bottom <= 0 or top <= 0:
        return Stat(None if bottom <= 0 else 0.0, top + bottom, None, None)
    value = top / bottom
    half = Z95 * math.sqrt(1 / top + 1 / bottom)
    return Stat(value, top + bottom, value * math.exp(-half), value * math.exp(half))


def per_hundred(total: float, squares: float, hands: int) -> Stat:
    """Big blinds won per 100 hands, with a normal 95 % interval from the per-hand variance."""
    if hands <= 0:
        return Stat(None, 0, None, None)
    mean = total / hands
    variance = max(squares / hands - mean * mean, 0.0) * hands / max(hands - 1, 1)
    half = Z95 * math.sqrt(variance / hands)
    return Stat(100 * mean, hands, 100 * (mean - half), 100 * (mean + half))


@dataclass(frozen=True, slots=True)
class PlayerStatistics:
    player: str
    hands: int
    net_chips: int
    vpip: Stat
    pfr: Stat
    three_bet: Stat
    fold_to_three_bet: Stat
    cbet: Stat
    fold_to_cbet: Stat
    af: Stat
    afq: Stat
    wtsd: Stat
    wsd: Stat
    bb_per_100: Stat
    all_in_adjusted_bb_per_100: Stat


def statistics(name: str, counts: PlayerCounts) -> PlayerStatistics:
    c = dict(zip(COUNTS, counts.counts, strict=True))
    aggressive, calls = c["postflop_bets_raises"], c["postflop_calls"]
    return PlayerStatistics(
        name,
        c["hands"],
        counts.net,
        share(c["vpip"], c["vpip_opportunities"]),
        share(c["pfr"], c["vpip_opportunities"]),
        share(c["three_bets"], c["three_bet_opportunities"]),
        share(c["folds_to_three_bet"], c["fold_to_three_bet_opportunities"]),
        share(c["cbets"], c["cbet_opportunities"]),
        share(c["folds_to_cbet"], c["fold_to_cbet_opportunities"]),
        ratio(aggressive, calls),
        share(aggressive, aggressive + calls + c["postflop_folds"]),
        share(c["went_to_showdown"], c["saw_flop"]),
        share(c["won_at_showdown"], c["went_to_showdown"]),
        per_hundred(counts.net_bb, counts.net_bb_sq, c["hands"]),
        per_hundred(counts.adjusted_bb, counts.adjusted_bb_sq, c["hands"]),
    )


def all_statistics(counters: Counters, min_hands: int = 0) -> list[PlayerStatistics]:
    """Every player with at least ``min_hands`` hands, by name."""
    return [
        statistics(name, counts)
        for name, counts in sorted(counters.players.items())
        if counts.counts[0] >= min_hands
    ]
