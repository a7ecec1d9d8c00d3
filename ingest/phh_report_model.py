"""The schema of a PHH hand's validation report, as pydantic models: the API's view of the plain reports of
ingest/phh_report.py, and the writer of their JSON for the values the plain reports leave to pydantic (a float
in pydantic's own notation, text that cannot be UTF-8). ``model_of(report).model_dump_json()`` is the report's
JSON; ``report.to_json()`` writes the same bytes without importing this module."""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel

#: an amount in the file's units: whole (most files) or not (a file in half chips)
Amount = int | float


class Plain(Protocol):
    """A plain report of ingest/phh_report.py (not imported here: that module imports this one to write what
    it leaves to pydantic)."""

    def fields(self) -> dict[str, Any]: ...


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


#: the model of each plain report, by the plain report's class name
MODELS: dict[str, type[BaseModel]] = {
    "RejectionReport": RejectionReportModel,
    "ShareReport": ShareReportModel,
    "PotReport": PotReportModel,
    "DifferenceReport": DifferenceReportModel,
    "HandReport": HandReportModel,
    "UnreadableReport": UnreadableReportModel,
}


def model_of(report: Plain) -> BaseModel:
    """The pydantic model of a plain report, validated from its fields (nested reports as dictionaries)."""
    return MODELS[type(report).__name__].model_validate(report.fields())
