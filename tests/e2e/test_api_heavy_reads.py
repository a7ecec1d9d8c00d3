"""Heavy reads on the embedded store (issue 11, §7): sixty protocol PDFs at once are rendered at most
POKERAUDIT_HEAVY_READS at a time, the rest wait their turn off the worker threads or are refused for load (503,
Retry-After); a judge's reads meanwhile are answered at once. (The PostgreSQL variant:
tests/integration/test_api_heavy_reads_pg.py.)"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from embedded_referee import Pipeline
from federation_records import COMPETITION, Records, opening, play_to_the_end
from heavy_reads import check, serving, storm

import api.routes.protocol as protocol_route
from api.app import create_app
from api.auth import issue_token
from api.settings import Settings

pytestmark = pytest.mark.e2e

SECRET = "test-secret-of-at-least-thirty-two-bytes"


def test_sixty_pdfs_at_once_are_bounded_and_never_fail_while_a_judge_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pipeline = Pipeline(tmp_path)
    records = Records()
    assert {v.outcome for v in pipeline.judge([*opening(records), *play_to_the_end(records)])} == {"accepted"}
    pipeline.store.close()

    # A real competition's PDF takes longer than this small one's: each render holds its thread a while longer,
    # and how many run at once is counted.
    rendering, most = 0, 0
    lock = threading.Lock()
    real = protocol_route.to_pdf

    def slow_pdf(document: dict[str, Any]) -> bytes:
        nonlocal rendering, most
        with lock:
            rendering += 1
            most = max(most, rendering)
        try:
            time.sleep(0.3)
            return real(document)
        finally:
            with lock:
                rendering -= 1

    monkeypatch.setattr(protocol_route, "to_pdf", slow_pdf)
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET, POKERAUDIT_HEAVY_READS=2,
                        POKERAUDIT_HEAVY_READS_WAIT_S=2)
    judge = {"Authorization": f"Bearer {issue_token(SECRET, 'j-1', 'judge')}"}
    with serving(create_app(settings, workers=False)) as base:
        # The PDFs asked by one reader, the judge's reads by another (each token has its own rate limit)
        reader = {"Authorization": f"Bearer {issue_token(SECRET, 'j-2', 'judge')}"}
        found = storm(base, COMPETITION, reader, f"/v1/competitions/{COMPETITION}/penalties", judge)
    check(found)
    assert most <= 2, f"{most} PDFs were rendered at once"
    assert any(r.status_code == 503 for r in found.pdfs), "sixty renders of 0.3 s, two at a time, within 2 s each"
