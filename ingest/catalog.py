"""The federation's event types a record on the log may carry, beside the hand's (ingest/envelope.py).

Only what an official, a participant or the federation *reports* is here: the acts. What an aggregate derives
from an act (a finishing place's winner, an Olympic stage started, a case opened, a penalty fully served) is
recorded by the aggregate after the act and never comes off the log, so a record naming one is of an unknown
type. So is the floor's record of a table's hand (``TableHandStarted``, ``TableHandEnded``): the desk records it
when the competition's hand starts and ends, so a table's hand is reported once, as the hand. The desk
(ingest/desk.py) judges each of these types.
"""

from __future__ import annotations

from domain.competition import events as competition
from domain.competition import floor_events as floor
from domain.discipline import events as discipline
from domain.officials.revocations import CATALOG as REVOCATIONS
from domain.protests import events as protests
from domain.protocol import CATALOG as PROTOCOL
from domain.rulings import events as rulings

_COMPETITION_ACTS = (
    "RegulationsAdopted",
    "OfficialAppointed",
    "OfficialRemoved",
    "ParticipantRegistered",
    "SeatDrawCommitted",
    "SeatDrawConducted",
    "LevelStarted",
    "BreakStarted",
    "BreakEnded",
    "ScheduleChanged",
    "ChipRaceConducted",
    "PlayerEliminated",
    "HandForHandStarted",
    "HandForHandHandStarted",
    "HandForHandEnded",
    "FinalTableDrawCommitted",
    "FinalTableDrawConducted",
    "DealAgreed",
)
_FLOOR_ACTS = (
    "PlayerMoved",
    "BalanceToleranceWidened",
    "MoverExceptionDecided",
    "TableHalted",
    "TableBreakCommitted",
    "TableBroken",
)
_DISCIPLINE_ACTS = (
    "ViolationRecorded",
    "PenaltyImposed",
    "ViolationEnteredInProtocol",
    "PenaltyHandServed",
    "PenaltyRescinded",
    "SeasonDisqualificationDecided",
)
_PROTEST_ACTS = ("HandChallenged", "ProtestFiled", "ProtestForwarded", "ProtestDecided", "FilerNotified")
_RULING_ACTS = ("RulingIssued", "MuckedCardsInspected")

COMPETITION_CATALOG: dict[str, type] = {
    **{name: competition.CATALOG[name] for name in _COMPETITION_ACTS},
    **{name: floor.CATALOG[name] for name in _FLOOR_ACTS},
}
DISCIPLINE_CATALOG: dict[str, type] = {name: discipline.CATALOG[name] for name in _DISCIPLINE_ACTS}
PROTEST_CATALOG: dict[str, type] = {name: protests.CATALOG[name] for name in _PROTEST_ACTS}
RULING_CATALOG: dict[str, type] = {name: rulings.CATALOG[name] for name in _RULING_ACTS}

#: every federation event type a record may carry, by name
FEDERATION_CATALOG: dict[str, type] = {
    **COMPETITION_CATALOG,
    **DISCIPLINE_CATALOG,
    **PROTEST_CATALOG,
    **RULING_CATALOG,
    **PROTOCOL,
    **REVOCATIONS,
}
