"""The bounded memo behind the envelope's times read and the chain's times written (domain/memo.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain import chain
from domain.chain import time_text
from domain.memo import BoundedMemo


def test_a_memo_answers_what_it_keeps_and_empties_when_a_new_answer_would_pass_its_bound() -> None:
    memo: BoundedMemo[str, int] = BoundedMemo(3)
    assert memo.keep("a", 1) == 1
    memo.keep("b", 2)
    memo.keep("c", 3)
    assert memo.get("a") == 1 and len(memo) == 3
    memo.keep("c", 30)  # an answer replaced: the memo does not grow, so it is not emptied
    assert len(memo) == 3 and memo.get("c") == 30 and "a" in memo
    memo.keep("d", 4)  # a fourth key: emptied first, then remembered
    assert len(memo) == 1 and memo.get("d") == 4
    assert memo.get("a") is None


def test_a_memo_without_room_is_refused() -> None:
    with pytest.raises(ValueError, match="bound is at least 1"):
        BoundedMemo(0)


def test_a_time_written_is_its_isoformat_and_the_memo_stays_bounded() -> None:
    times = [datetime(2026, 12, 2, 12, 0, second % 60, second, tzinfo=UTC) for second in range(chain._TIME_TEXTS.bound + 5)]
    for at in times:
        assert time_text(at) == at.isoformat()
        assert len(chain._TIME_TEXTS) <= chain._TIME_TEXTS.bound
    # written again: the same text, whether the memo still held it or had been emptied since
    assert [time_text(at) for at in times] == [at.isoformat() for at in times]
