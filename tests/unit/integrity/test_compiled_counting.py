"""The compiled counting (deploy/native.py's integrity modules) counts exactly what its sources count
interpreted: the shared hands counted in this process by the build and, in a fresh process, by the sources
(every extension refused), give the same rows to the byte: players (with their all-in adjusted winnings, from
the equities), pairs (their decisions by strength bucket, luck, and evidence in words) and the seating."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import domain.integrity.strength as strength
import projections.integrity.counters as counters
import projections.integrity.equity as equity
from ingest.phh import phh_files
from ingest.phh_integrity import read_records
from projections.integrity.counters import Counters
from projections.integrity.live import dump_pair, dump_player, dump_seating

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[3]
SHARED_HANDS = ROOT / ".." / "shared" / "data" / "phh"
#: the integrity modules that are compiled together
COMPILED = (counters, strength, equity)

#: counts the shared hands with the modules' sources, whatever is built: a guard that knows no build stands
#: first on the import path, so every extension is refused and its source loaded (domain/native.py)
_INTERPRETED = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from domain.native import FreshBuildsOnly
sys.meta_path.insert(0, FreshBuildsOnly(manifest=Path(sys.argv[1]) / "no-such-manifest.json"))
import domain.integrity.strength as strength
import projections.integrity.counters as counters
import projections.integrity.equity as equity
from ingest.phh import phh_files
from ingest.phh_integrity import read_records
from projections.integrity.counters import Counters
from projections.integrity.live import dump_pair, dump_player, dump_seating
assert all(m.__file__.endswith(".py") for m in (counters, strength, equity)), "a compiled module was loaded"
found = Counters()
records = list(read_records(sorted(phh_files([Path(sys.argv[2])]))))
for record in records:
    found.add(record)
rows = {"players": {n: dump_player(p) for n, p in found.players.items()},
        "pairs": {"|".join(k): dump_pair(p) for k, p in found.pairs.items()}, "seating": dump_seating(found),
        "hands": found.hands}
print(json.dumps(rows))
"""


def _compiled() -> bool:
    return all(str(module.__file__).endswith((".so", ".pyd")) for module in COMPILED)


@pytest.mark.skipif(not _compiled(), reason="the integrity modules are not compiled in this checkout: build them "
                    "with `make native` (deploy/native.py build) to compare the build with its sources")
def test_the_compiled_counting_counts_what_its_sources_count() -> None:
    records = list(read_records(sorted(phh_files([SHARED_HANDS]))))
    assert len(records) >= 2000
    ours = Counters()
    for record in records:
        ours.add(record)
    rows: dict[str, Any] = {"players": {n: dump_player(p) for n, p in ours.players.items()},
            "pairs": {"|".join(k): dump_pair(p) for k, p in ours.pairs.items()}, "seating": dump_seating(ours),
            "hands": ours.hands}
    done = subprocess.run([sys.executable, "-c", _INTERPRETED, str(ROOT), str(SHARED_HANDS)],
                          capture_output=True, text=True, check=True)
    theirs = json.loads(done.stdout.strip().splitlines()[-1])
    assert theirs["hands"] == rows["hands"] == len(records)
    assert theirs["seating"] == rows["seating"]
    assert theirs["players"] == rows["players"]
    assert theirs["pairs"].keys() == rows["pairs"].keys()
    differing = [key for key in rows["pairs"] if theirs["pairs"][key] != rows["pairs"][key]]
    assert not differing, differing[:5]
    # the counting met all-ins and worded evidence: what is compared is not empty
    assert any(json.loads(p)[7] for p in rows["pairs"].values())
    assert sum(len(json.loads(p)[10]) for p in rows["pairs"].values()) > 100
