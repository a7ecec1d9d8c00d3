"""Our finishing stacks equal PokerKit 0.7.7's on every shared hand both can decide — also the hands whose
record gives none (online cash with decimal stacks, the historical hands)."""

from __future__ import annotations

import os
import warnings
from decimal import Decimal
from pathlib import Path

import pytest
from pokerkit import HandHistory

from domain.rulebooks import get_rulebook
from ingest.phh import load_file, phh_files
from ingest.phh_validate import validate_hand

pytestmark = [pytest.mark.unit, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT / ".." / "shared" / "data" / "phh"))


def pokerkit_histories(path: Path) -> list[HandHistory]:
    with open(path, "rb") as file:
        return list(HandHistory.load_all(file)) if path.suffix == ".phhs" else [HandHistory.load(file)]


def pokerkit_final_stacks(history: HandHistory) -> list[Decimal]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, last = iter(history)
    return [Decimal(str(stack)) for stack in last.stacks]


def test_our_finishing_stacks_equal_pokerkits_wherever_both_decide() -> None:
    assert PHH_DIR.is_dir(), f"the shared hands are not at {PHH_DIR} (set POKERAUDIT_PHH_DIR)"
    rulebook = get_rulebook("bfsp")
    compared, differing, left_out = 0, [], []
    for path in phh_files([PHH_DIR / "data"]):
        for hand, history in zip(load_file(path), pokerkit_histories(path), strict=True):
            report = validate_hand(hand, rulebook)
            # PokerKit splits a pot of unseen hands evenly and plays unknown stacks as infinite: nothing to compare
            if not (report.ok and report.complete) or report.undetermined or hand.unknown_stacks:
                left_out.append((path.name, hand.index))
                continue
            ours = [Decimal(str(stack)) for stack in report.finishing_stacks]
            compared += 1
            if ours != pokerkit_final_stacks(history):
                differing.append((str(path), hand.index))
    assert differing == []
    # 2,149 hands less 22 iPoker (unknown stacks), 5 other undetermined HandHQ pots and the refused razz hand
    assert (compared, len(left_out)) == (2121, 28)
