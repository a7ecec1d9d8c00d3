"""Pair signals and scores, derived on request from the counters (nothing here is stored).

Each player's own play is modelled per situation and known hand strength: the share of folds, checks or
calls, and bets or raises he makes in each cell, from all his decisions *except* those where the other player
of the pair was in the pot (shrunk towards the whole field's play in that cell when he has few). His play
where one particular opponent matters is then compared with that model: the observed count of a class of
act against the count the model expects, as a z-score (observed − expected over the binomial standard
deviation). A player's own style is thus the baseline, and a small sample gives a small z, not a large one.

- soft play: fewer bets and raises than expected when heads-up with the other, or facing his bet, and more
  folds to his bets when his cards were at least as strong — both players' excess acts pooled into one z;
- chip dumping: one player betting weak hands into the other heads-up and folding to him, the other never
  folding to him, and the chips flowing one way (net flow over the root of the sum of squared flows, with four
  pseudo-pots of the field's typical squared flow added);
- team play: bets and raises with weak and middling hands in multiway pots the other is in.

A pair's score is the largest of the three, each combining both players' (soft play: their excess counts over
the root of their pooled variance; the others: Stouffer's sum of z-scores over √n).
Seating (sitting together against what the seating makes likely) and all-in luck are reported beside the
score but do not enter it: friends sit together honestly, and no deal is rigged by a collusion ring.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import chain

import numpy as np

from projections.integrity.counters import (
    AGGRESSIVE,
    BUCKETS,
    CLASSES,
    CODES,
    FOLD,
    PASSIVE,
    PRICES,
    STANDINGS,
    STREETS,
    WAYS,
    Counters,
    PairCounts,
)

_SHAPE = (STREETS, PRICES, WAYS, BUCKETS, STANDINGS, CLASSES)
#: pseudo-decisions of the field's play mixed into a player's cell
PRIOR = 4.0
#: a pair scoring this much is an edge of the pair graph rings are looked for in
RING_EDGE = 3.5
BEHAVIOURS = ("soft_play", "chip_dumping", "team_play")
#: the most decisions a player's model of one cell is taken to rest on, however many he made there: the cells
#: do not hold everything a decision depends on (the exact price, how many raises before it), so a model from
#: thousands of decisions is still wrong by a little, and friends who play together thousands of hands would
#: otherwise turn that little into a large z (seed 105's club pair P084–P106, 2,280 hands together)
MAX_SUPPORT = 60.0
#: pseudo-pots of the field's typical flow (its mean squared flow a shared pot) added to a pair's own in the chip
#: flow's z, as the other z's add one to their variance: a pair's net flow over the root of its squared flows
#: alone is a t-statistic that a few small pots all one way make large (seed 109's honest P015-P040, 2,067 chips
#: over 25 pots, z −3.05); with the prior such a pair says little and a real dump's thousands of chips still
#: count (docs/INTEGRITY.md, the sixth detector session)
FLOW_PRIOR = 4.0
#: a bucket's standing as the counters record the other player's cards (weak, good, strong)
_STANDING_OF = np.array((0, 0, 1, 2, 2))


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
    #: the weaker of the two scores joining both players to a third one, where that closes a ring (else 0)
    ring_support: float = 0.0


_CELLS = int(np.prod(_SHAPE[:-1]))
#: directed pairs scored at once (arrays of this many rows × 2,880 codes, in float32: small enough to stay in the
#: processor's cache, which made scoring a quarter faster than 512 rows)
CHUNK = 128


def _dense(rows: Sequence[Mapping[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """Sparse counts (one dict per row) as two float arrays of rows × cells × classes: the codes below
    ``CODES``, and those from ``CODES`` on (+BETTOR). All rows' codes are gathered in one pass (a call per row
    cost more than the arithmetic)."""
    out = np.zeros((len(rows), 2 * CODES), dtype=np.float32)
    sizes = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    total = int(sizes.sum())
    if total:
        codes = np.fromiter(chain.from_iterable(rows), dtype=np.int64, count=total)
        values = np.fromiter(chain.from_iterable(r.values() for r in rows), dtype=np.float32, count=total)
        where = np.repeat(np.arange(len(rows)), sizes)
        keep = (codes >= 0) & (codes < 2 * CODES)
        out[where[keep], codes[keep]] = values[keep]
    shaped = out.reshape(len(rows), 2, _CELLS, CLASSES)
    return shaped[:, 0], shaped[:, 1]


def _classes_summed(counts: np.ndarray) -> np.ndarray:
    """The decisions per cell: its three classes added (the same as ``sum(axis=-1)`` — whole counts add up
    exactly in any order — at a fraction of the cost of numpy's reduction over an axis of three)."""
    total: np.ndarray = counts[..., 0] + counts[..., 1] + counts[..., 2]
    return total


def _model(rest: np.ndarray, field_p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The player's share of each class of act per cell, from his own decisions, shrunk towards the field; and
    the decisions it rests on per cell (the prior's counted in), for the uncertainty of the estimate."""
    rest = np.maximum(rest, 0.0)
    support = _classes_summed(rest)[..., None] + PRIOR
    shares: np.ndarray = (rest + PRIOR * field_p) / support
    return shares, np.minimum(support[..., 0], MAX_SUPPORT)


def _z(observed: np.ndarray, p: np.ndarray, n: np.ndarray, mask: np.ndarray, support: np.ndarray) -> np.ndarray:
    """Per row: (observed − expected) over its standard deviation, summed over the cells in ``mask``.

    The deviation counts both the binomial spread of the decisions observed and the uncertainty of the model
    they are compared with: the expected count n·p rests on ``support`` decisions of the player's own, so its
    variance is n²·p(1−p)/support. Without that term a pair that plays together most of the time (friends at
    one table every session, whose play away from each other is a thin sample) would turn a small error of
    the model into a large z."""
    n, p, m = n[:, mask], p[:, mask], support[:, mask]
    expected = n * p
    spread = p * (1 - p)
    variance = (n * spread + n * n * spread / m).sum(axis=1)
    z: np.ndarray = (observed[:, mask].sum(axis=1) - expected.sum(axis=1)) / np.sqrt(variance + 1.0)
    return z


def _excess(observed: np.ndarray, p: np.ndarray, n: np.ndarray, mask: np.ndarray,
            support: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row: (observed − expected) summed over the cells in ``mask``, and its variance (the binomial spread
    and the model's own uncertainty, as in ``_z``) — left apart so that several can be pooled into one z."""
    n, p, m = n[:, mask], p[:, mask], support[:, mask]
    spread = p * (1 - p)
    excess: np.ndarray = (observed[:, mask] - n * p).sum(axis=1)
    variance: np.ndarray = (n * spread + n * n * spread / m).sum(axis=1)
    return excess, variance


class Scorer:
    """Scores pairs from one set of counters."""

    def __init__(self, counters: Counters) -> None:
        self.counters = counters
        self.names = sorted(counters.players)
        self.index = {name: i for i, name in enumerate(self.names)}
        opposed = [counters.players[n].opposed for n in self.names]
        self.totals, self.bettor_totals = _dense(opposed)
        self.field_p = _field(self.totals)
        self.field_bettor_p = _field(self.bettor_totals)
        self.seating = _seating_z(counters)
        pots = sum(p.pots for p in counters.pairs.values())
        #: the field's mean squared chip flow a pot both players put chips in (0 with no such pot)
        self.typical_flow_sq = sum(p.flow_sq for p in counters.pairs.values()) / pots if pots else 0.0
        street, price, ways, bucket, his = (a.ravel() for a in np.indices(_SHAPE[:-1]))
        heads_up, multiway, facing, weak = ways == 0, ways == 1, price >= 1, bucket <= 1
        self.heads_up = heads_up
        # his cards beat mine by the buckets: strong against my good or worse, good against my weak
        ahead = ((his == 2) & (bucket <= 2)) | ((his == 1) & (bucket <= 1))
        # and mine beat his: strong against his good or worse, good against his weak
        behind = ((bucket >= 3) & (his <= 1)) | ((bucket == 2) & (his == 0))
        self.masks = {
            "everywhere": np.ones(_CELLS, bool),
            "weak_heads_up_postflop": heads_up & weak & (street >= 1),
            "heads_up_facing_ahead": heads_up & facing & ahead,
            "heads_up_facing": heads_up & facing,
            "heads_up_postflop_ahead": heads_up & ahead & (street >= 1),
            "heads_up_facing_behind": heads_up & facing & behind,
            "multiway_he_strong": multiway & (his == 2),
            # facing his bet while his cards were at least as strong as mine (by the standings)
            "facing_not_behind": facing & (his >= _STANDING_OF[bucket]),
        }

    def directed(self, actors: list[str], pairs: list[PairCounts], directions: list[int]) -> dict[str, list[float]]:
        """Each actor's signals where the other player of his pair was in the pot, one row per actor."""
        rows = [pair.decisions[d] for pair, d in zip(pairs, directions, strict=True)]
        with_other, his_bets = _dense(rows)
        who = np.array([self.index[a] for a in actors])
        p, support = _model(self.totals[who] - with_other, self.field_p)
        p_facing, support_facing = _model(self.bettor_totals[who] - his_bets, self.field_bettor_p)
        hu = self.heads_up[None, :, None]
        focus = np.where(hu, with_other, his_bets)
        p_focus = np.where(hu, p, p_facing)
        support_focus = np.where(self.heads_up[None, :], support, support_facing)
        n_with, n_focus = _classes_summed(with_other), _classes_summed(focus)
        m = self.masks
        # soft play: no bets or raises at him (fewer than expected: *timid*), and folds to his bets while his
        # cards were at least as strong as mine (more: *yields*); the two are pooled as counts, not as z-scores,
        # so the part with more decisions behind it weighs more (a passive player's soft play is mostly folds)
        timid, timid_var = _excess(focus[..., AGGRESSIVE], p_focus[..., AGGRESSIVE], n_focus, m["everywhere"],
                                   support_focus)
        yields, yields_var = _excess(focus[..., FOLD], p_focus[..., FOLD], n_focus, m["facing_not_behind"],
                                     support_focus)
        # chip dumping, played against the cards he knows: bets into him with weak hands and when he holds the
        # better hand, calls when he holds it, folds to him when he holds the worse one; the receiving side bets
        # weak hands into him (he will fold them) and does not fold to him
        continuing = with_other[..., PASSIVE] + with_other[..., AGGRESSIVE]
        bets_weak = _z(with_other[..., AGGRESSIVE], p[..., AGGRESSIVE], n_with, m["weak_heads_up_postflop"], support)
        bets_behind = _z(with_other[..., AGGRESSIVE], p[..., AGGRESSIVE], n_with, m["heads_up_postflop_ahead"],
                         support)
        pays_off = _z(continuing, 1 - p[..., FOLD], n_with, m["heads_up_facing_ahead"], support)
        gives_up = _z(with_other[..., FOLD], p[..., FOLD], n_with, m["heads_up_facing_behind"], support)
        never_folds = -_z(with_other[..., FOLD], p[..., FOLD], n_with, m["heads_up_facing"], support)
        # team play: raises in multiway pots while he holds a strong hand
        team = _z(with_other[..., AGGRESSIVE], p[..., AGGRESSIVE], n_with, m["multiway_he_strong"], support)
        signals = {"soft": yields - timid, "soft_var": yields_var + timid_var,
                   "dump": (bets_weak + bets_behind + pays_off + gives_up) / 2,
                   "receive": (bets_weak + never_folds) / math.sqrt(2), "team": team}
        return {k: v.astype(np.float64).tolist() for k, v in signals.items()}

    def _chunk(self, keys: list[tuple[str, str]]) -> list[PairScore]:
        pairs = [self.counters.pairs[k] for k in keys]
        ab = self.directed([a for a, _ in keys], pairs, [0] * len(keys))
        ba = self.directed([b for _, b in keys], pairs, [1] * len(keys))
        out = []
        for r, ((a, b), pair) in enumerate(zip(keys, pairs, strict=True)):
            flow_z = pair.flow / math.sqrt(pair.flow_sq + FLOW_PRIOR * self.typical_flow_sq) if pair.flow_sq else 0.0
            # both players' excess acts pooled into one z (a ring's members soft-play each other alike)
            soft = (ab["soft"][r] + ba["soft"][r]) / math.sqrt(ab["soft_var"][r] + ba["soft_var"][r] + 1.0)
            team = (ab["team"][r] + ba["team"][r]) / math.sqrt(2)
            # a dumps to b: a's weak bets and calls, b's refusal to fold, chips from a to b; or the other way
            a_dumps = (ab["dump"][r] + ba["receive"][r] + flow_z) / math.sqrt(3)
            b_dumps = (ba["dump"][r] + ab["receive"][r] - flow_z) / math.sqrt(3)
            signals = {"soft_play": soft, "chip_dumping": max(a_dumps, b_dumps), "team_play": team}
            behaviour = max(signals, key=lambda k: signals[k])
            luck_z = pair.luck / math.sqrt(pair.luck_var) if pair.luck_var else 0.0
            out.append(PairScore(a, b, pair.hands, signals[behaviour], behaviour, soft, signals["chip_dumping"],
                                 team, pair.flow, flow_z, self.seating.get((a, b), 0.0), luck_z, pair.pots))
        return out

    def scores(self, min_hands: int = 30) -> list[PairScore]:
        """Every pair dealt in together in at least ``min_hands`` hands, most suspicious first."""
        keys = sorted(k for k, p in self.counters.pairs.items() if p.hands >= min_hands)
        found: list[PairScore] = []
        for start in range(0, len(keys), CHUNK):
            found.extend(self._chunk(keys[start : start + CHUNK]))
        found = _with_rings(found)
        found.sort(key=lambda s: (-s.score, s.player_a, s.player_b))
        return found


def _with_rings(scores: list[PairScore]) -> list[PairScore]:
    """A pair whose two players are each joined to a third by a pair scoring at least ``RING_EDGE`` is part of a
    possible ring: its score becomes ``(own + support) / √2`` where that is higher, ``support`` being the weaker
    of those two joining scores (two honest pairs rarely both score so high with one player)."""
    strong: dict[str, dict[str, float]] = {}
    for s in scores:
        if s.score >= RING_EDGE:
            strong.setdefault(s.player_a, {})[s.player_b] = s.score
            strong.setdefault(s.player_b, {})[s.player_a] = s.score
    out = []
    for s in scores:
        mine, theirs = strong.get(s.player_a, {}), strong.get(s.player_b, {})
        support = max((min(mine[c], theirs[c]) for c in mine.keys() & theirs.keys()), default=0.0)
        if support:
            s = replace(s, ring_support=support, score=max(s.score, (s.score + support) / math.sqrt(2)))
        out.append(s)
    return out


def _field(totals: np.ndarray) -> np.ndarray:
    """The whole field's share of each class of act per cell (one pseudo-decision of each class added)."""
    field_total = totals.sum(axis=0)
    shares: np.ndarray = (field_total + 1.0) / (field_total.sum(axis=-1, keepdims=True) + CLASSES)
    return shares


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
