"""A penalty lifted by a protest (bfsp 7.3.4): the worked example of docs/CONTRIBUTING.md.

The act is ``PenaltyRescinded`` (domain/discipline/events.py); its rule, that only a protest decided in the
participant's favour lifts a penalty, is :func:`domain.protests.contested.verify_upheld`; its handler is
``_rescind`` in ingest/handlers/discipline.py, which loads the case and the protest by natural key.
"""

from __future__ import annotations

from pathlib import Path

import embedded_referee
import pytest
from federation_records import CHIEF, COMPETITION, JUDGE, Records, at, opening

from domain.discipline import PenaltyKind
from domain.discipline.events import PenaltyImposed, PenaltyRescinded, ViolationRecorded
from domain.errors import DisciplineError
from domain.protests import Contested, ContestedKind, Protest, ProtestFiled, ProtestTier
from domain.protests.contested import verify_upheld
from domain.protests.events import ProtestDecision
from domain.roles import Role
from ingest.envelope import RecordedBy

pytestmark = pytest.mark.unit

P01 = RecordedBy(person="person-p01", role=Role.PARTICIPANT)


def test_the_desk_refuses_a_rescission_whose_protest_was_not_filed_or_not_upheld(tmp_path: Path) -> None:
    pipeline = embedded_referee.Pipeline(tmp_path)
    records = Records()
    pipeline.judge(opening(records))
    warned = [
        records.record(ViolationRecorded("p01", "7.1.2", "", False, 1, "kept his cards after a fold"), JUDGE, at(5)),
        records.record(PenaltyImposed("p01", 1, PenaltyKind.WARNING, Role.CHIEF_JUDGE), CHIEF, at(6)),
        records.record(
            ProtestFiled(
                "protest-1", COMPETITION, ProtestTier.FEDERATION, "p01",
                Contested("penalty-1", ContestedKind.PENALTY, Role.CHIEF_JUDGE, sanctioned="p01"),
                "I folded in time", True, Role.CHIEF_JUDGE, at(7),
            ),
            P01, at(7),
        ),
    ]  # fmt: skip
    verdicts = pipeline.judge(warned)
    assert [v.outcome for v in verdicts] == ["accepted"] * 3, [v.rejection for v in verdicts]

    unfiled = pipeline.judge([records.record(PenaltyRescinded("p01", 1, "protest-9", Role.CHIEF_JUDGE), CHIEF, at(8))])
    pending = pipeline.judge([records.record(PenaltyRescinded("p01", 1, "protest-1", Role.CHIEF_JUDGE), CHIEF, at(8))])
    for judged, why in ((unfiled, "protest protest-9 has not been filed"), (pending, "protest-1 has not been upheld")):
        rejection = judged[0].rejection
        assert judged[0].outcome == "rejected" and rejection is not None
        assert (rejection.kind, rejection.rule) == ("illegal", "bfsp 7.3.4")
        assert why in rejection.reason


@pytest.mark.parametrize("decision", list(ProtestDecision))
def test_only_an_upheld_protest_lifts_a_penalty(decision: ProtestDecision) -> None:
    filed = ProtestFiled(
        "protest-2", COMPETITION, ProtestTier.CHIEF_JUDGE, "p02",
        Contested("r-1", ContestedKind.FINDING_OF_FACT, Role.JUDGE), "the flop came off the bottom", False,
        Role.CHIEF_JUDGE, at(13),
    )  # fmt: skip
    protest = Protest.file(filed, None)
    protest.decide(decision, "the dealer's video", Role.CHIEF_JUDGE, at(14))
    if decision is ProtestDecision.UPHELD:
        verify_upheld("protest-2", protest)
    else:
        with pytest.raises(DisciplineError, match="protest-2 has not been upheld"):
            verify_upheld("protest-2", protest)
