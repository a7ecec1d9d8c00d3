"""Pair signals and scores, derived on request from the counters (nothing here is stored).

Each player's own play is modelled per situation and known hand strength: the share of folds, checks or
calls, and bets or raises he makes in each cell, from all his decisions *except* those where the other player
of the pair was in the pot (shrunk towards the whole field's play in that cell when he has few). His play
where one particular opponent matters is then compared with that model: the observed count of a class of
act against the count the model expects, as a z-score (observed − expected over the binomial standard
deviation). A player's own style is thus the baseline, and a small sample gives a small z, not a large one.

- soft play: fewer bets and raises than expected when heads-up with the other, or facing his bet;
- chip dumping: one player betting weak hands into the other heads-up and folding to him, the other never
  folding to him, and the chips flowing one way (net flow over the root of the sum of squared flows);
- team play: bets and raises with weak and middling hands in multiway pots the other is in.

A pair's score is the largest of the three, each combining both players' z-scores (Stouffer's sum over √n).
Seating (sitting together against what the seating makes likely) and all-in luck are reported beside the
score but do not enter it: friends sit together honestly, and no deal is rigged by a collusion ring.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from projections.integrity.counters import (
    AGGRESSIVE,
    BUCKETS,
    CLASSES,
    CODES,
    FOLD,
    PASSIVE,
    PRICES,
    STREETS,
    WAYS,
    Counters,
    PairCounts,
)

_SHAPE = (STREETS, PRICES, WAYS, BUCKETS, CLASSES)
#: pseudo-decisions of the field's play mixed into a player's cell
PRIOR = 4.0
BEHAVIOURS = ("soft_play", "chip_dumping", "team_play")


@dataclass(frozen=True, slots=True)
class PairScore:
    player_a: str
    player_b: str
    hands: int
    score: float
    behaviour: str
    soft_play: float
    chip_dumping: float
    team_play: float
    chip_flow: float  # chips from a to b
    chip_flow_z: float
    seating_z: float
    all_in_luck_z: float
    pots: int


def _dense(counts: dict[int, int], offset: int = 0) -> np.ndarray:
    out = np.zeros(CODES, dtype=np.float64)
    for code, n in counts.items():
        if offset <= code < offset + CODES:
            out[code - offset] = n
    return out.reshape(_SHAPE)


def _model(rest: np.ndarray, field_p: np.ndarray) -> np.ndarray:
    """The player's share of each class of act per cell, from his own decisions, shrunk towards the field."""
    rest = np.maximum(rest, 0.0)
    return (rest + PRIOR * field_p) / (rest.sum(axis=-1, keepdims=True) + PRIOR)


def _z(observed: np.ndarray, expected_p: np.ndarray, n: np.ndarray, mask: np.ndarray) -> float:
    """(observed − expected) over the binomial deviation, summed over the cells in ``mask``."""
    o = float(observed[mask].sum())
    e = float((n * expected_p)[mask].sum())
    v = float((n * expected_p * (1 - expected_p))[mask].sum())
    return (o - e) / math.sqrt(v + 1.0)


class Scorer:
    """Scores pairs from one set of counters."""

    def __init__(self, counters: Counters) -> None:
        self.counters = counters
        self.totals = {name: _dense(p.opposed) for name, p in counters.players.items()}
        self.bettor_totals = {name: _dense(p.opposed, CODES) for name, p in counters.players.items()}
        field_total = sum(self.totals.values(), np.zeros(_SHAPE))
        self.field_p = (field_total + 1.0) / (field_total.sum(axis=-1, keepdims=True) + CLASSES)
        field_bettor = sum(self.bettor_totals.values(), np.zeros(_SHAPE))
        self.field_bettor_p = (field_bettor + 1.0) / (field_bettor.sum(axis=-1, keepdims=True) + CLASSES)
        self.seating = _seating_z(counters)
        street, price, ways, bucket = np.indices(_SHAPE[:-1])
        self.postflop = street >= 1
        self.heads_up = ways == 0
        self.multiway = ways == 1
        self.weak = bucket <= 1
        self.middling = bucket <= 2
        self.facing = price >= 1

    def directed(self, actor: str, pair: PairCounts, direction: int) -> dict[str, float]:
        """The actor's signals where the other player of ``pair`` was in the pot."""
        counts = pair.decisions[direction]
        with_other = _dense(counts)
        his_bets = _dense(counts, CODES)
        p = _model(self.totals[actor] - with_other, self.field_p)
        p_facing = _model(self.bettor_totals[actor] - his_bets, self.field_bettor_p)
        n_with, n_bets = with_other.sum(axis=-1), his_bets.sum(axis=-1)
        everywhere = np.ones(_SHAPE[:-1], bool)
        # heads-up with him, or facing his bet in a multiway pot
        soft = -(
            _z(with_other[..., AGGRESSIVE], p[..., AGGRESSIVE], n_with, self.heads_up)
            + _z(his_bets[..., AGGRESSIVE], p_facing[..., AGGRESSIVE], n_bets, self.multiway & everywhere)
        ) / math.sqrt(2)
        weak_hu = self.heads_up & self.weak
        dumping = _z(with_other[..., AGGRESSIVE], p[..., AGGRESSIVE], n_with, weak_hu & self.postflop)
        continuing = with_other[..., PASSIVE] + with_other[..., AGGRESSIVE]
        calls_in = _z(continuing, 1 - p[..., FOLD], n_with, weak_hu & self.facing & ~self.postflop)
        never_folds = -_z(with_other[..., FOLD], p[..., FOLD], n_with, self.heads_up & self.facing)
        team = _z(with_other[..., AGGRESSIVE], p[..., AGGRESSIVE], n_with, self.multiway & self.middling)
        return {"soft": soft, "dump": (dumping + calls_in) / math.sqrt(2), "receive": never_folds, "team": team}

    def pair(self, a: str, b: str, pair: PairCounts) -> PairScore:
        ab, ba = self.directed(a, pair, 0), self.directed(b, pair, 1)
        flow_z = pair.flow / math.sqrt(pair.flow_sq) if pair.flow_sq else 0.0
        soft = (ab["soft"] + ba["soft"]) / math.sqrt(2)
        team = (ab["team"] + ba["team"]) / math.sqrt(2)
        # a dumps to b: a's weak bets and calls, b's refusal to fold, chips from a to b; or the other way
        a_dumps = (ab["dump"] + ba["receive"] + flow_z) / math.sqrt(3)
        b_dumps = (ba["dump"] + ab["receive"] - flow_z) / math.sqrt(3)
        dump = max(a_dumps, b_dumps)
        signals = {"soft_play": soft, "chip_dumping": dump, "team_play": team}
        behaviour = max(signals, key=lambda k: signals[k])
        luck_z = pair.luck / math.sqrt(pair.luck_var) if pair.luck_var else 0.0
        return PairScore(a, b, pair.hands, signals[behaviour], behaviour, soft, dump, team, pair.flow, flow_z,
                         self.seating.get((a, b), 0.0), luck_z, pair.pots)

    def scores(self, min_hands: int = 30) -> list[PairScore]:
        """Every pair dealt in together in at least ``min_hands`` hands, most suspicious first."""
        found = [self.pair(a, b, p) for (a, b), p in self.counters.pairs.items() if p.hands >= min_hands]
        found.sort(key=lambda s: (-s.score, s.player_a, s.player_b))
        return found


def _seating_z(counters: Counters) -> dict[tuple[str, str], float]:
    """Per pair: sessions at one table, against what random seating of the players there makes likely."""
    observed: dict[tuple[str, str], float] = {}
    expected: dict[tuple[str, str], float] = {}
    variance: dict[tuple[str, str], float] = {}
    for tables in counters.seating.values():
        present = sorted({name for names in tables.values() for name in names})
        if len(present) < 2:
            continue
        seats = sum(len(names) for names in tables.values())
        share = sum(len(names) * (len(names) - 1) for names in tables.values()) / max(seats * (seats - 1), 1)
        for names in tables.values():
            ordered = sorted(names)
            for x, a in enumerate(ordered):
                for b in ordered[x + 1 :]:
                    observed[(a, b)] = observed.get((a, b), 0.0) + 1
        for x, a in enumerate(present):
            for b in present[x + 1 :]:
                expected[(a, b)] = expected.get((a, b), 0.0) + share
                variance[(a, b)] = variance.get((a, b), 0.0) + share * (1 - share)
    return {
        key: (observed.get(key, 0.0) - e) / math.sqrt(variance[key] + 1e-9)
        for key, e in expected.items()
        if key in counters.pairs
    }
