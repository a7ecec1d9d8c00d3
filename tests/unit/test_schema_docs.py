"""The JSON Schema in docs/ is the one the log accepts today (issue 4: "JSON Schema exported to docs/")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.cli import schemas_document
from ingest.envelope import CATALOG

pytestmark = pytest.mark.unit

DOC = Path(__file__).resolve().parents[2] / "docs" / "schemas" / "events.schema.json"


def test_the_committed_schema_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == schemas_document(), (
        "docs/schemas/events.schema.json is stale: run `pokeraudit schemas`"
    )


def test_it_covers_the_envelope_and_every_event_type() -> None:
    doc = json.loads(DOC.read_text(encoding="utf-8"))
    assert set(doc["payloads"]) == set(CATALOG)
    assert {"event_id", "competition_id", "seq", "type", "payload", "recorded_by"} <= set(doc["envelope"]["properties"])
