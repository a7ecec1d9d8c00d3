"""The alert queue: pairs whose score passes the threshold, and rings of three or more from the pair graph,
most suspicious first, each with its reasons in words and the hands that say most."""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from projections.integrity.counters import Counters, PairCounts
from projections.integrity.score import RING_EDGE, PairScore, Scorer

#: a pair is an alert from this score on (a z-score: an honest pair passes it about once in 20,000)
ALERT_SCORE = 4.0
#: a ring is three or more players each joined to another by a pair scoring this much
RING_SCORE = RING_EDGE
_KIND = {"soft_play": "soft", "chip_dumping": "dump", "team_play": "team"}
_WORDS = {"soft_play": "soft play", "chip_dumping": "chip dumping", "team_play": "team play"}


@dataclass(frozen=True, slots=True)
class Evidence:
    hand_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class Alert:
    players: tuple[str, ...]
    score: float
    behaviour: str
    hands: int
    reasons: tuple[str, ...]
    evidence: tuple[Evidence, ...]
    #: the pairs of a ring (empty for a pair alert)
    pairs: tuple[tuple[str, str], ...] = ()


def reasons(score: PairScore) -> tuple[str, ...]:
    a, b = score.player_a, score.player_b
    said = [
        f"{_WORDS[score.behaviour]}: {score.score:.1f} standard deviations from their own play against others "
        f"over {score.hands:,} hands together",
    ]
    giver, taker = (a, b) if score.chip_flow >= 0 else (b, a)
    said.append(f"chip flow {abs(score.chip_flow):+,.0f} from {giver} to {taker} over {score.pots:,} pots "
                f"(z = {abs(score.chip_flow_z):.1f})")
    if score.seating_z >= 3:
        said.append(f"they sat together more than the seating makes likely (z = {score.seating_z:.1f})")
    return tuple(said)


def evidence(pair: PairCounts, behaviour: str, limit: int = 6) -> tuple[Evidence, ...]:
    kind = _KIND[behaviour]
    # for chip dumping, the large losses in the direction the chips went on balance
    flow = "flow0" if pair.flow >= 0 else "flow1"
    found = [item for k, heap in pair.evidence.items() if k.startswith(kind) or (kind == "dump" and k == flow)
             for item in heap]
    found.sort(reverse=True)
    seen: set[tuple[str, str]] = set()
    out = []
    for _, hand_id, reason in found:
        if (hand_id, reason) not in seen:
            seen.add((hand_id, reason))
            out.append(Evidence(hand_id, reason))
    return tuple(out[:limit])


def alerts(counters: Counters, scores: list[PairScore]) -> list[Alert]:
    """Rings first where they score higher, then pairs, most suspicious first."""
    queue = [
        Alert((s.player_a, s.player_b), s.score, s.behaviour, s.hands, reasons(s),
              evidence(counters.pairs[(s.player_a, s.player_b)], s.behaviour))
        for s in scores
        if s.score >= ALERT_SCORE
    ]
    queue.extend(rings(counters, scores))
    queue.sort(key=lambda alert: (-alert.score, alert.players))
    return queue


def rings(counters: Counters, scores: list[PairScore]) -> list[Alert]:
    graph = nx.Graph()
    by_pair = {(s.player_a, s.player_b): s for s in scores}
    graph.add_edges_from((s.player_a, s.player_b) for s in scores if s.score >= RING_SCORE)
    found = []
    for component in nx.connected_components(graph):
        if len(component) < 3:
            continue
        members = tuple(sorted(component))
        edges = tuple(sorted(tuple(sorted(e)) for e in graph.subgraph(component).edges))
        strongest = max((by_pair[e] for e in edges), key=lambda s: s.score)
        said = tuple(f"{a} and {b}: {_WORDS[by_pair[(a, b)].behaviour]} ({by_pair[(a, b)].score:.1f})"
                     for a, b in edges)
        shown = tuple(e for a, b in edges for e in evidence(counters.pairs[(a, b)], by_pair[(a, b)].behaviour, 2))
        found.append(Alert(members, strongest.score, strongest.behaviour,
                           min(by_pair[e].hands for e in edges),
                           (f"ring of {len(members)}: " + ", ".join(members),) + said, shown, edges))
    return found


def score_counters(counters: Counters, min_hands: int = 30) -> list[PairScore]:
    return Scorer(counters).scores(min_hands)
