"""Integrity's detector on seeded fields it has never seen: ROC AUC, precision at K, the ceiling, the time.

For each seed, a field (ingest/simulator/field.py: 120 players, rings of colluders, clubs of honest friends)
is generated and written as PHH files; the files are then scored exactly as ``pokeraudit integrity pairs
PATH --min-hands 30`` scores them (reading included), and the scores are compared with the field's truth.

- AUC: the chance that a colluding pair outscores an honest one, over every pair scored; per behaviour (that
  behaviour's pairs against every honest pair); and against the honest regular pairs alone (the clubs:
  friends who sit together most sessions and play honestly).
- precision@K, K = the colluding pairs scored: the share of the top K that collude; the honest regular pairs
  in the top K (the goal: none).
- the ceiling: ring pairs that changed at least 12 decisions (the rest did too little for any hands to show),
  and how many of those are in the top K (the goal: all).

Seeds: 1–3, 101–110, 301–305 and 601–605 have all been looked at while the detector was tuned; 701–705 were held
out and scored once, at the end of the sixth detector session (docs/INTEGRITY.md). A new evaluation needs seeds
never scored.
The last line is one JSON object: the median scoring time, against the 50 s of the reference detector.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from scipy.stats import rankdata

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ingest.phh import phh_files  # noqa: E402
from ingest.phh_integrity import read_records  # noqa: E402
from ingest.simulator.field import generate_field, write_field  # noqa: E402
from projections.integrity.parallel import count_in_parallel  # noqa: E402
from projections.integrity.score import PairScore, Scorer  # noqa: E402

FINDABLE = 12
ANCHOR_SECONDS = 50.0


def auc(positive: list[float], negative: list[float]) -> float | None:
    """Mann-Whitney's U over the product of the sizes (ties count half)."""
    if not positive or not negative:
        return None
    ranks = rankdata(positive + negative)
    u = float(sum(ranks[: len(positive)])) - len(positive) * (len(positive) + 1) / 2
    return u / (len(positive) * len(negative))


def pairs_of(groups: list[list[str]]) -> set[tuple[str, str]]:
    found = set()
    for group in groups:
        members = sorted(group)
        found.update((a, b) for i, a in enumerate(members) for b in members[i + 1 :])
    return found


def evaluate(scores: list[PairScore], truth: dict) -> dict[str, object]:
    behaviour_of = {}
    for ring in truth["rings"]:
        for pair in pairs_of([ring["members"]]):
            behaviour_of[pair] = ring["behaviour"]
    clubs = pairs_of(truth["clubs"])
    changed = {(a, b): n for a, b, n in truth["changed_decisions"]}
    by_pair = {(s.player_a, s.player_b): s.score for s in scores}
    colluding = [p for p in by_pair if p in behaviour_of]
    honest = [s for p, s in by_pair.items() if p not in behaviour_of]
    k = len(colluding)
    top = [(s.player_a, s.player_b) for s in scores[:k]]
    findable = [p for p in colluding if changed.get(p, 0) >= FINDABLE]
    result: dict[str, object] = {
        "pairs": len(by_pair),
        "K": k,
        "auc": auc([by_pair[p] for p in colluding], honest),
        "precision_at_k": sum(p in behaviour_of for p in top) / k if k else None,
        "regular_auc": auc([by_pair[p] for p in colluding], [by_pair[p] for p in clubs if p in by_pair]),
        "regulars_in_top_k": sum(p in clubs for p in top),
        "findable": len(findable),
        "findable_in_top_k": sum(p in top for p in findable),
    }
    for behaviour in ("soft_play", "chip_dumping", "team_play"):
        mine = [p for p in colluding if behaviour_of[p] == behaviour]
        result[f"auc_{behaviour}"] = auc([by_pair[p] for p in mine], honest)
        result[f"top_k_{behaviour}"] = f"{sum(p in top for p in mine)}/{len(mine)}"
    return result


def run_seed(seed: int, hands: int, players: int, workers: int, folder: Path) -> tuple[dict[str, object], float]:
    """Scores the field of ``seed`` in ``folder`` (generated and written there first unless it already is)."""
    started = time.perf_counter()
    if folder.exists() and not (folder / "truth.json").exists():
        raise SystemExit(f"{folder} holds a field without its truth.json (still being written?): remove it or wait")
    if not (folder / "truth.json").exists():
        write_field(generate_field(seed, players=players, hands=hands), folder)
    generated = time.perf_counter() - started
    truth = json.loads((folder / "truth.json").read_text())
    cpu = _cpu_seconds()
    started = time.perf_counter()
    counters = count_in_parallel(read_records, list(phh_files([folder])), workers)
    counted, counted_cpu = time.perf_counter() - started, _cpu_seconds() - cpu
    scores = Scorer(counters).scores(30)
    scored = time.perf_counter() - started
    result = evaluate(scores, truth)
    # the phases apart: reading and counting (in the reading processes, then merged here), and the scoring
    # itself (this process alone)
    result.update(seed=seed, hands=counters.hands, generated_s=round(generated, 1), scored_s=round(scored, 2),
                  scored_cpu_s=round(_cpu_seconds() - cpu, 2), counted_s=round(counted, 2),
                  counted_cpu_s=round(counted_cpu, 2), scoring_s=round(scored - counted, 2),
                  scoring_cpu_s=round(_cpu_seconds() - cpu - counted_cpu, 2), load=round(os.getloadavg()[0], 1))
    return result, scored


def _cpu_seconds() -> float:
    """CPU time of this process and of its reaped children (the reading processes)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def _fmt(value: object) -> str:
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[101, 102, 103, 104, 105])
    parser.add_argument("--hands", type=int, default=40_000)
    parser.add_argument("--players", type=int, default=120)
    parser.add_argument("--workers", type=int, default=2, help="processes reading the files")
    parser.add_argument("--fields", type=Path, default=None,
                        help="keep the fields in DIR/seed<N> and score the ones already there (default: a scratch "
                        "folder, removed)")
    args = parser.parse_args()
    scratch = args.fields or Path(tempfile.mkdtemp(prefix="pokeraudit-integrity-"))
    results, times = [], []
    try:
        for seed in args.seeds:
            result, scored = run_seed(seed, args.hands, args.players, args.workers, scratch / f"seed{seed}")
            results.append(result)
            times.append(scored)
            print(" ".join(f"{k}={_fmt(v)}" for k, v in result.items()), flush=True)
    finally:
        if args.fields is None:
            shutil.rmtree(scratch, ignore_errors=True)
    numeric = ("auc", "precision_at_k", "regular_auc", "auc_soft_play", "auc_chip_dumping", "auc_team_play")
    means = {k: statistics.mean(r[k] for r in results if r[k] is not None) for k in numeric}  # type: ignore[misc]
    findable = sum(r["findable"] for r in results)  # type: ignore[misc]
    found = sum(r["findable_in_top_k"] for r in results)  # type: ignore[misc]
    regulars = sum(r["regulars_in_top_k"] for r in results)  # type: ignore[misc]
    print("mean over seeds: " + " ".join(f"{k}={v:.4f}" for k, v in means.items())
          + f" findable_in_top_k={found}/{findable} regulars_in_top_k={regulars}"
          + f" (load average {os.getloadavg()[0]:.1f})")
    peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    value = statistics.median(times)
    print(json.dumps({
        "name": f"integrity: score {args.hands:,} hands of {args.players} players from PHH files (reading included)",
        "value": round(value, 2), "unit": "s", "anchor": ANCHOR_SECONDS, "ratio": round(ANCHOR_SECONDS / value, 2),
        "peak_memory_mb": round(peak / 1024, 1), "auc": round(means["auc"], 4),
        "precision_at_k": round(means["precision_at_k"], 4), "findable_in_top_k": f"{found}/{findable}",
        "regulars_in_top_k": regulars, "seeds": args.seeds,
    }))


if __name__ == "__main__":
    main()
