"""The schema of a PHH hand's validation report, as pydantic models: the API's view of the plain reports of
ingest/phh_report.py, and the writer of their JSON for the values the plain reports leave to pydantic (a float
in pydantic's own notation, text that cannot be UTF-8). ``model_of(report).model_dump_json()`` is the report's
JSON; ``report.to_json()`` writes the same bytes without importing this module."""

from __future__ import annotations

from pydantic import BaseModel

from ingest.phh_report import (
    Amount,
    DifferenceReport,
    HandReport,
    PotReport,
    RejectionReport,
    Report,
    ShareReport,
    UnreadableReport,
)


class RejectionReportModel(BaseModel):
    event_index: int
    event: str
    rule: str
    message: str
    #: the PHH action the refused event came from, and its line ("" / None for the hand's fields)
    action: str = ""
    line: int | None = None


class ShareReportModel(BaseModel):
    player: str
    amount: Amount


class PotReportModel(BaseModel):
    amount: Amount
    eligible: list[str]
    winners: list[ShareReportModel]
    half: str = ""
    winning_hand: str = ""
    odd_chip: str = ""


class DifferenceReportModel(BaseModel):
    player: str
    ours: Amount | None
    record: Amount
    explanation: str


class HandReportModel(BaseModel):
    file: str
    hand: int
    line: int | None
    variant: str
    #: chips per unit of the file: amounts in the engine's messages are in chips, the rest in the file's units
    scale: int
    players: list[str]
    ok: bool
    complete: bool
    undetermined: bool
    rejection: RejectionReportModel | None = None
    #: in the file's player order and units; ``None`` for a stack the file does not know (``inf``)
    finishing_stacks: list[Amount | None]
    pots: list[PotReportModel]
    showdown_order: list[str]
    expected_finishing_stacks: list[Amount] | None = None
    matches: bool | None = None
    differences: list[DifferenceReportModel] = []


class UnreadableReportModel(BaseModel):
    file: str
    hand: int | None
    field: str | None
    line: int | None
    error: str


MODELS: dict[type[Report], type[BaseModel]] = {
    RejectionReport: RejectionReportModel,
    ShareReport: ShareReportModel,
    PotReport: PotReportModel,
    DifferenceReport: DifferenceReportModel,
    HandReport: HandReportModel,
    UnreadableReport: UnreadableReportModel,
}


def model_of(report: Report) -> BaseModel:
    """The pydantic model of a plain report, validated from its fields (nested reports as dictionaries)."""
    return MODELS[type(report)].model_validate(report.fields())
