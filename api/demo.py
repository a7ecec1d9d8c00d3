"""``pokeraudit demo``: the embedded pipeline end to end on real hands, no Kafka or PostgreSQL needed.

It publishes the 2023 WSOP $50,000 Poker Players Championship final table (83 hands in 9 variants, from the
shared PHH set) to the embedded log, lets the referee judge every event into the embedded store, and prints
what an official would ask first: how many events were accepted, what was refused and under which rule,
the chip counts after the last hand, and whether every stored chain verifies.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from eventsourcing.utils import get_topic

from api.bootstrap import bootstrap
from api.operations import phh_records, publish, referee_once, status, verify
from api.settings import Settings
from domain.errors import chips
from domain.hand.aggregate import Hand
from domain.rejections import RejectionLog
from ingest.store import Store

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PHH = ROOT.parent / "shared" / "data" / "phh"
COMPETITION = "wsop-2023-event-43"


def phh_dir() -> Path:
    return Path(os.environ.get("POKERAUDIT_PHH_DIR", DEFAULT_PHH))


def run_demo(data_dir: Path, out: Callable[[str], None] = print) -> int:
    final_table = phh_dir() / "data" / "wsop" / "2023" / "43" / "5"
    if not final_table.is_dir():
        out(f"the shared hand histories are not at {final_table}: set POKERAUDIT_PHH_DIR to ../shared/data/phh")
        return 2
    shutil.rmtree(data_dir, ignore_errors=True)
    settings = Settings(POKERAUDIT_DATA_DIR=data_dir)  # type: ignore[call-arg]
    pipeline = bootstrap(settings)
    try:
        out(f"pokeraudit demo: embedded log and store in {data_dir}")
        published = publish(pipeline, phh_records([final_table], COMPETITION), progress=False)
        out(f"published {published} events of {COMPETITION} to the log")
        counts = referee_once(pipeline)
        out(f"referee: {counts.get('accepted', 0)} accepted, {counts.get('rejected', 0)} rejected")
        for line in _rejections(pipeline.store):
            out(f"  rejected: {line}")
        out("chip counts after the last hand of the record:")
        for line in _last_stacks(pipeline.store):
            out(f"  {line}")
        report = status(pipeline)
        out(f"lag {report['lag']}; accepted {report['accepted']}, rejected {report['rejected']} stored")
        chain = verify(pipeline)
        verdict = "every chain holds" if chain.ok else chain.broken
        out(f"verify: {chain.events} events in {chain.streams} streams, {verdict}")
        return 0 if chain.ok else 1
    finally:
        pipeline.close()


def _stored(store: Store, event_class: type) -> list[Any]:
    """Stored events of one type, in the order they were stored."""
    topics = [get_topic(event_class)]
    return [store.mapper.to_domain_event(n) for n in store.notifications(topics=topics)]


def _rejections(store: Store) -> list[str]:
    lines = []
    for event in _stored(store, RejectionLog.RecordRejected):  # type: ignore[attr-defined]
        p = event.payload
        where = f"{p['event_type']} (table {p['table_id']}, hand {p['hand_id']}, seq {p['seq']})"
        lines.append(f"{where}: {p['reason']} ({p['rule']})" if p["rule"] else f"{where}: {p['reason']}")
    return lines


def _last_stacks(store: Store) -> list[str]:
    ended = _stored(store, Hand.HandEnded)  # type: ignore[attr-defined]
    if not ended:
        return ["(no hand ended)"]
    last = ended[-1]
    hand: Any = store.repository.get(last.originator_id)
    players = {s["seat"]: s["player"] for s in hand.started["seats"]}
    return [f"seat {seat} {players.get(seat, '?')}: {chips(stack)}" for seat, stack in last.payload["final_stacks"]]
