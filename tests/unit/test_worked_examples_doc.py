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


ROW = re.compile(r"^\| ((?:2017/)?TV-\d+) \| [^|]* \| [^|]* \| ([^|]*) \| ([^|]*) \|", flags=re.MULTILINE)


def _counted(prefix: str) -> list[int]:
    rows = [(decided.strip(), tests) for tv, decided, tests in ROW.findall(DOC) if tv.startswith(prefix)]
    kind = [decided.split(" ")[0] for decided, _ in rows]
    tested = sum(1 for decided, tests in rows if "`" in tests and decided.startswith(("mechanical", "discretionary")))
    return [
        len(rows),
        tested,
        kind.count("mechanical"),
        kind.count("discretionary"),
        sum(1 for decided, _ in rows if decided.startswith("issue 6")),
        sum(1 for decided, _ in rows if decided.startswith("not built")),
    ]


@pytest.mark.parametrize(("name", "prefix"), [("TDA 2022", "TV-"), ("TDA 2017", "2017/TV-")])
def test_the_counts_table_adds_up_the_rows(name: str, prefix: str) -> None:
    line = re.search(rf"^\| {name} \|([^\n]*)\|$", DOC, flags=re.MULTILINE)
    assert line is not None
    stated = [int(cell) for cell in line.group(1).split("|")]
    assert stated == _counted(prefix)
