"""Sports discipline (bfsp 7.1-7.2): violations by code, the penalty ladder, penalties and how they are served,
and the season record the federation's disqualifications are kept on."""

from domain.discipline.case import DisciplinaryCase, case_id
from domain.discipline.ladder import LADDER, PenaltyKind, Sanction, Violation, violation
from domain.discipline.penalties import hands_to_miss
from domain.discipline.season import SeasonRecord, season_record_id

__all__ = [
    "LADDER",
    "DisciplinaryCase",
    "PenaltyKind",
    "Sanction",
    "SeasonRecord",
    "Violation",
    "case_id",
    "hands_to_miss",
    "season_record_id",
    "violation",
]
