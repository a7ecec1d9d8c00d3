"""docs/RULEBOOKS.md documents every Rulebook parameter, so the document cannot drift from the code again."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from domain.rulebooks import RULEBOOKS, Rulebook

pytestmark = pytest.mark.unit

DOC = (Path(__file__).resolve().parents[2] / "docs" / "RULEBOOKS.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [f.name for f in fields(Rulebook)])
def test_every_rulebook_field_is_in_the_document(name: str) -> None:
    assert f"`{name}`" in DOC, f"docs/RULEBOOKS.md does not document Rulebook.{name}"


def _row(name: str) -> list[str]:
    row = next(line for line in DOC.splitlines() if line.startswith(f"| `{name}`"))
    return [cell.strip() for cell in row.strip("|").split("|")]


PARAMETERS = [f.name for f in fields(Rulebook) if f.name not in ("name", "title", "rules")]


@pytest.mark.parametrize("name", PARAMETERS)
def test_every_parameter_has_a_row_with_a_rule_for_each_preset(name: str) -> None:
    cells = _row(name)
    assert len(cells) == 1 + len(RULEBOOKS), cells
    for cell in cells[1:]:
        # a value, then the rule it comes from: "yes — 3.1", "3 — D-10 D", "no — → tda-2022 11-D"
        assert re.search(r" — .*\d", cell), f"{name}: {cell!r} names no rule"
