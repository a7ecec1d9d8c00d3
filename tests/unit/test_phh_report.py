"""A validation report's JSON written by hand is byte for byte what its pydantic model writes, for the values
the hand-written path writes itself and for those it leaves to pydantic (every shared hand's report:
tests/unit/test_phh_shared_hands.py)."""

from __future__ import annotations

import json
import math

import pytest

from ingest.phh_report import (
    DifferenceReport,
    HandReport,
    PotReport,
    RejectionReport,
    Report,
    ShareReport,
    UnreadableReport,
    Unusual,
)
from ingest.phh_report_model import model_of

pytestmark = [pytest.mark.unit]


def hand_report(**changed: object) -> HandReport:
    fields: dict[str, object] = dict(
        file="data/x.phh", hand=1, line=3, variant="NT", scale=2, players=["Ann", "Bob"], ok=True, complete=True,
        undetermined=False, finishing_stacks=[10162.5, None],
        pots=[PotReport(amount=0.5, eligible=["Ann", "Bob"], winners=[ShareReport(player="Ann", amount=0.5)],
                        half="low", winning_hand="flush, ace high", odd_chip="Ann: first left of the button")],
        showdown_order=["Bob", "Ann"],
    )
    fields.update(changed)
    return HandReport(**fields)  # type: ignore[arg-type]


def written_alike(report: Report) -> str:
    ours, theirs = report.to_json(), model_of(report).model_dump_json()
    assert ours == theirs
    return ours


def test_a_report_with_every_field_set_writes_as_pydantic_writes_it() -> None:
    report = hand_report(
        rejection=RejectionReport(event_index=4, event="PlayerActed(seat=2)", rule="bfsp 4.7.3", message="no",
                                  action="p2 cbr 5", line=8),
        expected_finishing_stacks=[10162, 10000.25], matches=False,
        differences=[DifferenceReport(player="Ann", ours=10162.5, record=10162, explanation="odd chip")],
    )
    line = written_alike(report)
    assert report._json() == line  # written by hand, not deferred
    assert json.loads(line)["rejection"]["line"] == 8 and json.loads(line)["differences"][0]["ours"] == 10162.5


def test_the_defaults_write_as_pydantic_writes_them() -> None:
    report = hand_report()
    assert report.differences == [] and report.differences is not hand_report().differences
    assert report._json() == written_alike(report)
    unreadable = UnreadableReport(file="a.phh", hand=None, field=None, line=None, error="no such file or folder")
    assert unreadable._json() == written_alike(unreadable)


@pytest.mark.parametrize(
    "text", ["é ♠ 😀", 'a "quoted" \\ back/slash', "tab\tnew\nline\r\x08\x0c", "\x00\x01\x1f\x7f\x80", "\u2028"]
)
def test_text_is_escaped_as_pydantic_escapes_it(text: str) -> None:
    report = hand_report(players=[text, "Bob"], file=text)
    assert report._json() == written_alike(report)


@pytest.mark.parametrize("amount", [0.0001, 0.5, 10162.5, 1e15 + 0.5, 1e16, 1.5e300, -2.25, 0.0, -0.0])
def test_floats_pydantic_writes_as_python_does_are_written_by_hand(amount: float) -> None:
    report = hand_report(finishing_stacks=[amount, 3])
    assert report._json() == written_alike(report)


@pytest.mark.parametrize("amount", [9.99e-5, 1e-5, 2.5e-7, math.inf, -math.inf, math.nan])
def test_floats_pydantic_writes_its_own_way_are_left_to_it(amount: float) -> None:
    report = hand_report(finishing_stacks=[amount, 3])
    with pytest.raises(Unusual):
        report._json()
    line = written_alike(report)
    assert f'"finishing_stacks":[{amount!r},' not in line  # where Python's repr is not what pydantic writes


@pytest.mark.parametrize("changed", [{"hand": True}, {"ok": 1}, {"finishing_stacks": [True, None]}])
def test_values_pydantic_would_convert_are_left_to_it(changed: dict[str, object]) -> None:
    report = hand_report(**changed)
    with pytest.raises(Unusual):
        report._json()
    written_alike(report)


def test_text_that_cannot_be_utf8_is_refused_as_pydantic_refuses_it() -> None:
    report = UnreadableReport(file="bad-\udce9.phh", hand=None, field=None, line=None, error="unreadable")
    with pytest.raises(Unusual):
        report._json()
    with pytest.raises(Exception, match="surrogates not allowed") as raised:
        report.to_json()
    with pytest.raises(type(raised.value)):
        model_of(report).model_dump_json()


def test_reports_compare_by_their_fields() -> None:
    assert hand_report() == hand_report()
    assert hand_report() != hand_report(hand=2)
    assert ShareReport(player="A", amount=1) != DifferenceReport(player="A", ours=1, record=1, explanation="")
    assert repr(ShareReport(player="A", amount=1)) == "ShareReport(player='A', amount=1)"
