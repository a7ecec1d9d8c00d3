"""The hostile-input property on the embedded pipeline (issue 11 §1): random envelopes of every event type in the
catalog — extreme numbers, wrong types, unknown and missing fields, loose cards, junk bytes — appended to the log
of a competition in progress. Whatever they hold, the referee judges each (accepted or a stored rejection), the
projector projects everything, every chain verifies, and no GET route answers 5xx.

``POKERAUDIT_HOSTILE_EXAMPLES`` sets how many lists of records are tried (default 40)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hostile_records import hostile_record, ids_of, scenario
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pipeline_under_fire import assert_judged, assert_projected, assert_reads_answer, assert_verified

from api.app import create_app
from api.bootstrap import bootstrap, open_projector
from api.settings import Settings
from ingest.runners import drain_embedded

SECRET = "test-secret-of-at-least-thirty-two-bytes"
SCENARIO = scenario()
EXAMPLES = int(os.environ.get("POKERAUDIT_HOSTILE_EXAMPLES", "40"))


def _settings(folder: Path) -> Settings:
    return Settings(POKERAUDIT_DATA_DIR=folder, POKERAUDIT_JWT_SECRET=SECRET, POKERAUDIT_PUBLIC_READ=True)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The competition in progress, judged and projected once; each example starts from a copy."""
    folder = tmp_path_factory.mktemp("hostile-template")
    pipeline = bootstrap(_settings(folder))
    pipeline.log.append(SCENARIO)
    verdicts = drain_embedded(pipeline.log, pipeline.referee)  # type: ignore[arg-type]
    assert {v.outcome for v in verdicts} == {"accepted"}
    pipeline.close()
    projector = open_projector(_settings(folder))
    projector.catch_up()
    projector.close()
    return folder


@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.data_too_large])
@given(records=st.lists(hostile_record(ids_of(SCENARIO)), min_size=1, max_size=8))
def test_no_record_stops_the_embedded_pipeline(template: Path, records: list[tuple[bytes, bytes]]) -> None:
    folder = Path(tempfile.mkdtemp(prefix="hostile-"))
    try:
        shutil.copytree(template, folder, dirs_exist_ok=True)
        settings = _settings(folder)
        pipeline = bootstrap(settings)
        try:
            before = pipeline.store.outcome_counts()
            pipeline.log.append(records)
            verdicts = drain_embedded(pipeline.log, pipeline.referee)  # type: ignore[arg-type]
            assert_judged(verdicts, records, before, pipeline.store)
            assert_verified(pipeline.store)
        finally:
            pipeline.close()
        projector = open_projector(settings)
        try:
            assert_projected(projector)
        finally:
            projector.close()
        with TestClient(create_app(settings, workers=False), raise_server_exceptions=False) as client:
            assert_reads_answer(client, SECRET)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
