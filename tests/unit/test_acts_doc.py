"""docs/ACTS.md is what the catalog, the schemas and the roles table say today (issue 13: generated, so it cannot
drift), and each of its example records is one the log's schema accepts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from api.acts_doc import RULES_REQUIRE, acts_document
from domain.officials.permissions import PERMISSIONS, Act
from ingest.envelope import CATALOG, Envelope

pytestmark = pytest.mark.unit

DOC = Path(__file__).resolve().parents[2] / "docs" / "ACTS.md"


def test_the_committed_acts_reference_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == acts_document(), "docs/ACTS.md is stale: run `pokeraudit schemas`"


def examples() -> dict[str, dict[str, object]]:
    found = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", acts_document(), flags=re.S)]
    return {str(record["type"]): record for record in found}


def test_every_event_type_has_an_example_record_the_schema_accepts() -> None:
    records = examples()
    assert set(records) == set(CATALOG)
    for name, record in records.items():
        Envelope.model_validate(record)
        TypeAdapter(CATALOG[name]).validate_python(record["payload"])


def test_each_act_names_who_may_record_it_with_the_rule() -> None:
    doc = acts_document()
    section = doc.split("### `SeatDrawConducted`", 1)[1].split("### ", 1)[0]
    assert "conduct the seat draw: Chief Judge, Secretary (bfsp 2.3.2); *delegable* (`draw`)" in section
    penalties = doc.split("### `PenaltyImposed`", 1)[1].split("### ", 1)[0]
    assert "disqualify from the competition: Chief Judge (bfsp 7.2.2)" in penalties
    # every act of the roles table a record can carry is named somewhere
    named = {act for act in PERMISSIONS if f": {PERMISSIONS[act].doing}: " in doc or f"- {PERMISSIONS[act].doing}: " in doc}
    assert {Act.PROTEST_FILED, Act.SEAT_DRAW_COMMITTED, Act.PLAYER_MOVED, Act.FINDING_OF_FACT} <= named


def test_a_field_the_rules_require_but_the_schema_does_not_is_marked() -> None:
    assert ("PlayerEliminated", "starting_stack") in RULES_REQUIRE
    eliminated = acts_document().split("### `PlayerEliminated`", 1)[1].split("### ", 1)[0]
    (row,) = [line for line in eliminated.splitlines() if line.startswith("| `starting_stack`")]
    assert "**rules**: bfsp 5.10.2" in row
    schema = TypeAdapter(CATALOG["PlayerEliminated"]).json_schema()
    assert "starting_stack" not in schema["required"], "the schema requires it now: drop it from RULES_REQUIRE"
