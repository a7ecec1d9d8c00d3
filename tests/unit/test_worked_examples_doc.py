"""docs/WORKED_EXAMPLES.md lists every worked example of ../shared/rules, and every test it names exists."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = Path(os.environ.get("POKERAUDIT_RULES_DIR", ROOT / ".." / "shared" / "rules"))
DOC = (ROOT / "docs" / "WORKED_EXAMPLES.md").read_text(encoding="utf-8")
TEST_REF = re.compile(r"`((?:competition/)?test_[a-z_]+\.py)::(test_[a-z0-9_]+)(?:\[([^\]]+)\])?`")


def _rows() -> set[str]:
    return set(re.findall(r"^\| ((?:2017/)?TV-\d+) \|", DOC, flags=re.MULTILINE))


def _ids_in(name: str, pattern: str) -> set[str]:
    path = RULES_DIR / name
    assert path.is_file(), f"the rules are not at {RULES_DIR} (set POKERAUDIT_RULES_DIR)"
    text = path.read_text(encoding="utf-8").replace("\u2011", "-")
    return {f"TV-{int(number):02d}" for number in re.findall(pattern, text, flags=re.MULTILINE)}


def test_every_tda_2022_worked_example_has_a_row() -> None:
    ids = _ids_in("tda-2022-rules-and-illustrations.md", r"^\| TV-(\d+) \|")
    assert len(ids) == 117
    assert ids <= _rows()


def test_every_tda_2017_worked_example_has_a_row_under_its_own_prefix() -> None:
    ids = _ids_in("tda-2017-and-casino-rules.md", r"^TV-(\d+):")
    assert len(ids) == 58
    assert {f"2017/{tv}" for tv in ids} <= _rows()


def test_every_test_the_table_names_exists_with_its_case() -> None:
    refs = TEST_REF.findall(DOC)
    assert len(refs) > 150
    for file, function, case in refs:
        source = (ROOT / "tests" / "unit" / file).read_text(encoding="utf-8")
        assert f"def {function}(" in source, f"{file} has no {function}"
        if case:
            assert f'"{case}"' in source, f"{file} has no case {case!r} for {function}"
