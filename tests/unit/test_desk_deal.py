"""A final deal (TDA 2017 Part G): the worked example of docs/CONTRIBUTING.md for a competition act.

The act is ``DealAgreed`` (domain/competition/events.py), recorded by ``Competition.agree_deal`` and applied by
its ``@_applies(DealAgreed)`` method; its rule, that every player left takes one amount and the amounts and
what is left to play for add up to the prizes still to pay, is :func:`domain.competition.prizes.verify_deal`;
its handler is the ``"DealAgreed"`` line of ingest/handlers/competition.py.
"""

from __future__ import annotations

from pathlib import Path

import embedded_referee
import pytest
from federation_records import CHIEF, PLAYERS, REGULATIONS, SECRETARY, Records, at, opening

from domain.competition.aggregate import recorded_event
from domain.competition.events import DealAgreed
from domain.competition.prizes import DealShare, still_to_pay, verify_deal
from domain.errors import CompetitionError, RuleRef, chips

pytestmark = pytest.mark.unit


def test_the_desk_records_a_deal_that_shares_out_the_prizes_still_to_pay_and_refuses_one_that_does_not(
    tmp_path: Path,
) -> None:
    pipeline = embedded_referee.Pipeline(tmp_path)
    records = Records()
    pipeline.judge(opening(records))
    pool = still_to_pay(len(PLAYERS), REGULATIONS)
    short = DealAgreed(tuple(DealShare(p, 1_000) for p in PLAYERS), 0)
    by_the_secretary = DealAgreed((DealShare("p01", pool - 2_000), DealShare("p02", 1_000), DealShare("p03", 1_000)), 0)
    refused = pipeline.judge([records.record(short, CHIEF, at(5)), records.record(by_the_secretary, SECRETARY, at(6))])
    assert [(v.outcome, v.rejection.rule if v.rejection else None) for v in refused] == [
        ("rejected", "bfsp 5.10.2"),  # the amounts do not add up to the prizes still to pay
        ("rejected", "bfsp 2.1.6"),  # the Chief Judge approves a deal, not the secretary
    ]
    assert refused[0].rejection is not None
    assert f"not the {chips(pool)} still to be paid" in refused[0].rejection.reason

    [accepted] = pipeline.judge([records.record(by_the_secretary, CHIEF, at(7))])
    assert accepted.outcome == "accepted", accepted.rejection
    competition = pipeline.competition()
    assert competition.deal == by_the_secretary and competition.is_over
    stored = list(pipeline.store.events.get(competition.id))
    assert recorded_event(stored[-1]) == by_the_secretary, "the stored event reads back as the typed event"


def test_a_deal_names_every_player_left_once() -> None:
    two_of_three = (DealShare("p01", 4_000), DealShare("p02", 4_000))
    with pytest.raises(CompetitionError, match="a deal gives every player left one amount; it names p01, p02"):
        verify_deal(two_of_three, 0, PLAYERS, 8_000, RuleRef("bfsp", "5.10.2"))
