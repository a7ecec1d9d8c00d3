"""What must hold after hostile records reached the log, on either kind of pipeline (embedded, or Kafka and
PostgreSQL): the referee judged every record (accepted, or a stored rejection; a repeated id a duplicate), the
projector projected everything without passing over anything, every chain verifies, and no GET route of the API
answers 5xx, as a judge or as an anonymous reader."""

from __future__ import annotations

import json
from collections.abc import Sequence

from fastapi.testclient import TestClient
from federation_records import COMPETITION, table
from hostile_records import COMPETITIONS, get_routes

from api.auth import issue_token
from domain.hand.aggregate import hand_id
from domain.rejections import RejectionKind
from ingest.referee import Verdict
from ingest.store import Store
from ingest.verify import verify_store
from projections.runner import Projector, poison_events


def assert_judged(verdicts: Sequence[Verdict], records: Sequence[tuple[bytes, bytes]], before: dict[str, int], store: Store) -> None:
    assert len(verdicts) == len(records)
    assert {v.outcome for v in verdicts} <= {"accepted", "rejected", "duplicate"}
    for v in verdicts:
        assert (v.rejection is not None) == (v.outcome == "rejected"), v
    after = store.outcome_counts()
    stored = {k: after.get(k, 0) - before.get(k, 0) for k in ("accepted", "rejected")}
    # a conflicting duplicate's rejection is stored, its id keeping the first record's answer
    answered = [v for v in verdicts if v.rejection is None or v.rejection.kind is not RejectionKind.CONFLICTING_DUPLICATE]
    judged = {k: sum(v.outcome == k for v in answered) for k in ("accepted", "rejected")}
    assert stored == judged


def assert_projected(projector: Projector) -> None:
    projector.catch_up()
    assert projector.lag() == 0
    assert poison_events(projector.database) == []


def assert_verified(store: Store) -> None:
    report = verify_store(store)
    assert report.ok, report


def assert_reads_answer(client: TestClient, secret: str) -> None:
    judge = {"Authorization": f"Bearer {issue_token(secret, 'judge-sidorov', 'judge')}"}
    hands = [str(hand_id(table(), 1, COMPETITION)), str(hand_id(table(), 2, COMPETITION)), str(hand_id("2", 1, "other-cup"))]
    values: dict[str, list[str]] = {
        "competition_id": list(COMPETITIONS), "competition": [COMPETITION], "table_id": [table()],
        "hand_id": hands, "protest_id": ["1"], "version": ["1"],
    }
    for path in get_routes(client.app):
        for filled in _filled(path, values):
            for headers in (judge, {}):
                response = client.get(filled, headers=headers)
                assert response.status_code < 500, (filled, response.status_code, response.text[:500])
                if response.status_code == 200 and "json" in response.headers.get("content-type", ""):
                    json.loads(response.text)


def _filled(path: str, values: dict[str, list[str]]) -> list[str]:
    out = [path]
    for name, options in values.items():
        token = "{" + name + "}"
        if token in path:
            out = [p.replace(token, option) for p in out for option in options]
    return out
