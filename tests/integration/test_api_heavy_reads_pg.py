"""Heavy reads on PostgreSQL (issue 11, §7): sixty protocol PDFs at once against the store's pool of four
connections, while a judge reads a federation view from the same store: no answer is a 500 (the PDFs are
answered or refused for load with Retry-After) and the judge's reads are answered soon."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from federation_records import COMPETITION, Records, opening, play_to_the_end
from heavy_reads import check, serving, storm

from api.app import create_app
from api.auth import issue_token
from api.settings import Settings
from ingest.log import EmbeddedLog
from ingest.referee import Referee
from ingest.store import Store, store_env

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = pytest.mark.integration

SECRET = "integration-secret-of-at-least-32-bytes"


def test_sixty_pdfs_at_once_never_fail_and_leave_the_pool_to_a_judge(
    tmp_path: Path, kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase
) -> None:
    records = Records()
    log = EmbeddedLog(tmp_path / "log.sqlite", "events", partitions=1)
    log.append([*opening(records), *play_to_the_end(records)])
    store = Store(env=store_env(pg_database.url))
    try:
        verdicts = Referee(store, "events").judge(0, log.read(0, 0, 10_000))
        assert {v.outcome for v in verdicts} == {"accepted"}
    finally:
        store.close()
        log.close()
    settings = Settings(
        KAFKA_BOOTSTRAP_SERVERS=kafka_bootstrap,
        DATABASE_URL=pg_database.url,
        POKERAUDIT_TOPIC=topic_factory(partitions=1),
        POKERAUDIT_CHECKPOINTS_TOPIC=topic_factory(partitions=1),
        POKERAUDIT_PARTITIONS=1,
        POKERAUDIT_JWT_SECRET=SECRET,
        POKERAUDIT_HEAVY_READS=2,
        POKERAUDIT_HEAVY_READS_WAIT_S=2,
    )
    judge = {"Authorization": f"Bearer {issue_token(SECRET, 'j-1', 'judge')}"}
    with serving(create_app(settings, workers=False)) as base:
        # The PDFs asked by one reader, the judge's reads by another (each token has its own rate limit)
        reader = {"Authorization": f"Bearer {issue_token(SECRET, 'j-2', 'judge')}"}
        found = storm(base, COMPETITION, reader, f"/v1/competitions/{COMPETITION}/penalties", judge)
    check(found)
