"""Challenging a hand's result: until the next hand starts, or a minute after the award at a break (bfsp 5.9.1,
TDA 2022 22)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.errors import NotPermittedError, ProtestError, RuleRef
from domain.protests import ChallengeKind, ChallengeWindow, challenge, challenge_deadline
from domain.roles import Role
from domain.rulebooks import get_rulebook

pytestmark = pytest.mark.unit

AWARDED = datetime(2026, 3, 14, 20, 0, 0, tzinfo=UTC)
NEXT_HAND = AWARDED + timedelta(seconds=40)
SUBSTANTIAL_ACTION = NEXT_HAND + timedelta(seconds=75)
BFSP, TDA = get_rulebook("bfsp"), get_rulebook("tda-2022")


def _challenge(kind: ChallengeKind, at: datetime, window: ChallengeWindow, rulebook: str = "bfsp") -> None:
    challenge("hand-88", "athlete-4", kind, "the low hand was read wrong", at, window, get_rulebook(rulebook))


def test_tv_99_a_pot_count_disputed_after_substantial_action_on_the_next_hand_is_out_of_time() -> None:
    window = ChallengeWindow(AWARDED, next_hand_started_at=NEXT_HAND, next_hand_substantial_action_at=SUBSTANTIAL_ACTION)
    # under the TDA a pot-count error stays open through the next hand's start ...
    _challenge(ChallengeKind.POT_COUNT, NEXT_HAND + timedelta(seconds=10), window, "tda-2022")
    # ... until substantial action on it
    with pytest.raises(ProtestError, match="ended with substantial action on the next hand") as late:
        _challenge(ChallengeKind.POT_COUNT, SUBSTANTIAL_ACTION + timedelta(seconds=1), window, "tda-2022")
    assert late.value.rule == RuleRef("tda-2022", "22")


def test_tv_99_under_the_federation_the_next_hands_start_ends_a_pot_count_dispute_too() -> None:
    window = ChallengeWindow(AWARDED, next_hand_started_at=NEXT_HAND, next_hand_substantial_action_at=SUBSTANTIAL_ACTION)
    with pytest.raises(ProtestError, match="ended with the start of the next hand") as late:
        _challenge(ChallengeKind.POT_COUNT, NEXT_HAND + timedelta(seconds=10), window)
    assert late.value.rule == RuleRef("bfsp", "5.9.1")


@pytest.mark.parametrize("rulebook", ["bfsp", "tda-2022", "tda-2017"])
def test_tv_100_a_hand_reading_protest_after_the_next_hands_first_riffle_is_out_of_time(rulebook: str) -> None:
    window = ChallengeWindow(AWARDED, next_hand_started_at=NEXT_HAND)
    _challenge(ChallengeKind.RESULT, NEXT_HAND - timedelta(seconds=1), window, rulebook)
    with pytest.raises(ProtestError, match="start of the next hand") as late:
        _challenge(ChallengeKind.RESULT, NEXT_HAND, window, rulebook)
    assert late.value.rule == get_rulebook(rulebook).cite("dispute")


@pytest.mark.parametrize("rulebook", ["bfsp", "tda-2022"])
def test_tv_101_the_last_hand_before_a_break_61_seconds_after_the_push_is_out_of_time(rulebook: str) -> None:
    window = ChallengeWindow(AWARDED, at_break=True)
    _challenge(ChallengeKind.RESULT, AWARDED + timedelta(seconds=60), window, rulebook)
    with pytest.raises(ProtestError) as late:
        _challenge(ChallengeKind.RESULT, AWARDED + timedelta(seconds=61), window, rulebook)
    assert late.value.message == (
        "the hand ended at a break: its result could be challenged until 60 seconds after the pot was awarded; "
        f"this challenge came 61 seconds after ({get_rulebook(rulebook).cite('dispute')})"
    )


def test_the_window_stays_open_while_the_next_hand_has_not_started() -> None:
    window = ChallengeWindow(AWARDED)
    assert challenge_deadline(window, ChallengeKind.RESULT, BFSP) is None
    raised = challenge(
        "hand-88", "athlete-4", ChallengeKind.RESULT, "misread", AWARDED + timedelta(hours=1), window, BFSP
    )
    assert raised.deadline is None and raised.participant == "athlete-4"


def test_the_deadline_is_shown() -> None:
    window = ChallengeWindow(AWARDED, at_break=True)
    assert challenge_deadline(window, ChallengeKind.POT_COUNT, TDA) == AWARDED + timedelta(seconds=60)
    window = ChallengeWindow(AWARDED, next_hand_started_at=NEXT_HAND, next_hand_substantial_action_at=SUBSTANTIAL_ACTION)
    assert challenge_deadline(window, ChallengeKind.RESULT, TDA) == NEXT_HAND
    assert challenge_deadline(window, ChallengeKind.POT_COUNT, TDA) == SUBSTANTIAL_ACTION
    assert challenge_deadline(window, ChallengeKind.POT_COUNT, BFSP) == NEXT_HAND


def test_a_challenge_is_a_participants() -> None:
    with pytest.raises(NotPermittedError, match="a dealer may not challenge a hand's result"):
        challenge("hand-88", "athlete-4", ChallengeKind.RESULT, "misread", AWARDED, ChallengeWindow(AWARDED), BFSP,
                  raised_by=Role.DEALER)
