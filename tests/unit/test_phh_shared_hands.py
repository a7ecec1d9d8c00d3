"""Every shared real hand (../shared/data/phh, or $POKERAUDIT_PHH_DIR) replays, and our finishing stacks equal
the recorded ones except where the record itself breaks the rulebook — and there the report says which rule."""

from __future__ import annotations

import csv
import os
from decimal import Decimal
from pathlib import Path

import pytest

from domain.rulebooks import get_rulebook
from ingest.phh import load_hands
from ingest.phh_validate import HandReport, validate_hand

pytestmark = [pytest.mark.unit, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT / ".." / "shared" / "data" / "phh"))
#: the record splits a pot into half chips (MANIFEST: finishing_stacks_match_pokerkit = 0)
HALF_CHIP_HANDS = {
    "data/pluribus/102/0.phh",
    "data/pluribus/41b/204.phh",
    "data/pluribus/91/43.phh",
    "data/pluribus/91/53.phh",
}
#: the record has a fixed-limit raise to less than the limit (to the amount that puts the other player all-in)
RAZZ_HAND = "data/wsop/2023/43/5/03-50-24.phh"


def relative(report: HandReport) -> str:
    return Path(report.file).resolve().relative_to(PHH_DIR.resolve()).as_posix()


@pytest.fixture(scope="module")
def reports() -> dict[tuple[str, int], HandReport]:
    assert PHH_DIR.is_dir(), f"the shared hands are not at {PHH_DIR} (set POKERAUDIT_PHH_DIR)"
    rulebook = get_rulebook("bfsp")
    found = {}
    for hand in load_hands([PHH_DIR / "data"]):
        report = validate_hand(hand, rulebook)
        found[(relative(report), report.hand)] = report
    return found


def test_every_shared_hand_is_read(reports: dict[tuple[str, int], HandReport]) -> None:
    with open(PHH_DIR / "MANIFEST.tsv", newline="") as manifest:
        expected = sum(int(row["hands"]) for row in csv.DictReader(manifest, delimiter="\t"))
    assert len(reports) == expected == 2149


def test_every_hand_but_the_razz_record_is_legal(reports: dict[tuple[str, int], HandReport]) -> None:
    refused = sorted(path for (path, _), report in reports.items() if not report.ok)
    assert refused == [RAZZ_HAND]


def test_recorded_finishing_stacks_are_ours_except_the_known_breaks(
    reports: dict[tuple[str, int], HandReport],
) -> None:
    recorded = {key: r for key, r in reports.items() if r.matches is not None}
    assert len(recorded) == 2083
    differing = sorted(path for (path, _), r in recorded.items() if not r.matches)
    assert differing == sorted(HALF_CHIP_HANDS | {RAZZ_HAND})


@pytest.mark.parametrize("path", sorted(HALF_CHIP_HANDS))
def test_a_half_chip_record_is_explained_by_the_odd_chip_rule(
    reports: dict[tuple[str, int], HandReport], path: str
) -> None:
    report = reports[(path, 1)]
    assert report.ok and report.complete
    assert len(report.differences) == 2
    for difference in report.differences:
        assert difference.ours is not None
        assert abs(Decimal(str(difference.ours)) - Decimal(str(difference.record))) == Decimal("0.5")
        assert "fractions of the smallest chip" in difference.explanation
        assert "odd chip" in difference.explanation and "(bfsp 5.9.3)" in difference.explanation
    assert any(pot.odd_chip for pot in report.pots)


def test_the_razz_record_is_refused_with_the_limit_rule(reports: dict[tuple[str, int], HandReport]) -> None:
    report = reports[(RAZZ_HAND, 1)]
    assert report.rejection is not None
    assert report.rejection.rule == "bfsp 4.7.3"
    assert report.rejection.action == "p2 cbr 750000"
    assert "must be to 1,200,000" in report.rejection.message
    assert report.matches is False
    assert all(report.rejection.message in d.explanation for d in report.differences)


def test_unknown_stacks_are_reported_unknown(reports: dict[tuple[str, int], HandReport]) -> None:
    ipoker = [r for (path, _), r in reports.items() if "/IPN-" in path]
    assert len(ipoker) == 22
    assert all(stack is None for r in ipoker for stack in r.finishing_stacks)


def test_every_report_writes_the_json_its_pydantic_model_writes(reports: dict[tuple[str, int], HandReport]) -> None:
    """``pokeraudit validate --json`` writes each report by hand, without pydantic (issue 17): the same bytes as
    the report's pydantic model, on every shared hand — and by the hand-written path, not pydantic's fallback."""
    from ingest.phh_report_model import model_of

    floats = 0
    for key, report in reports.items():
        written = report._json()  # the hand-written path alone: it raises Unusual where it would defer
        assert written == report.to_json() == model_of(report).model_dump_json(), key
        floats += ".5" in written
    assert floats >= len(HALF_CHIP_HANDS)  # the half chips' floats were among them
