"""The federation's event types a record on the log may carry, beside the hand's (ingest/envelope.py).

Only what an official, a participant or the federation *reports* is here: the acts. What an aggregate derives
from an act (a finishing place's winner, an Olympic stage started, a case opened, a penalty fully served) is
recorded by the aggregate after the act and never comes off the log, so a record naming one is of an unknown
type. So is the floor's record of a table's hand (``TableHandStarted``, ``TableHandEnded``): the desk records it
when the competition's hand starts and ends, so a table's hand is reported once, as the hand. The desk
(ingest/handlers/, assembled in ingest/desk.py) judges each of these types.
"""

from __future__ import annotations

from domain import rating
from domain.competition import events as competition
from domain.competition import floor_events as floor
from domain.discipline import events as discipline
from domain.final_protocol import CATALOG as FINAL_PROTOCOL
from domain.integrity.case_events import CATALOG as INTEGRITY_CASES
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
    "LevelClockPaused",
    "LevelClockResumed",
    "ScheduleChanged",
    "ChipRaceConducted",
    "PlayerEliminated",
    "HandForHandStarted",
    "HandForHandHandStarted",
    "HandForHandEnded",
    "FinalTableDrawCommitted",
    "FinalTableDrawConducted",
    "DealAgreed",
    "CompetitionEnded",
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
#: the federation's rules of a season's rating list (domain/rating.py)
RATING_CATALOG: dict[str, type] = dict(rating.CATALOG)
_PROTEST_ACTS = (
    "HandChallenged", "ProtestFiled", "ProtestReceived", "ProtestForwarded", "ProtestDecided", "FilerNotified",
)
_RULING_ACTS = ("RulingIssued", "MuckedCardsInspected")

COMPETITION_CATALOG: dict[str, type] = {
    **{name: competition.CATALOG[name] for name in _COMPETITION_ACTS},
    **{name: floor.CATALOG[name] for name in _FLOOR_ACTS},
}
DISCIPLINE_CATALOG: dict[str, type] = {name: discipline.CATALOG[name] for name in _DISCIPLINE_ACTS}
PROTEST_CATALOG: dict[str, type] = {name: protests.CATALOG[name] for name in _PROTEST_ACTS}
RULING_CATALOG: dict[str, type] = {name: rulings.CATALOG[name] for name in _RULING_ACTS}
#: an integrity analyst's case on suspected collusion (domain/integrity/case.py): every event of it is an act
INTEGRITY_CASE_CATALOG: dict[str, type] = dict(INTEGRITY_CASES)

#: every federation event type a record may carry, by name
FEDERATION_CATALOG: dict[str, type] = {
    **COMPETITION_CATALOG,
    **DISCIPLINE_CATALOG,
    **PROTEST_CATALOG,
    **RULING_CATALOG,
    **PROTOCOL,
    **FINAL_PROTOCOL,
    **REVOCATIONS,
    **INTEGRITY_CASE_CATALOG,
    **RATING_CATALOG,
}


# --- what a record's values may be (checked at the envelope, before the log: ingest/envelope.py) -------------

#: chips, stacks, antes, blinds, prizes and every other number a payload carries lie between minus and plus this
#: (the PHH importer's "unknown stack" is this many chips): no competition comes near it, and every sum of them the
#: read models keep, over a thousand seats, stays within a BIGINT
CHIPS_BOUND = 10**15
#: numbers that count something smaller than chips: (least, most) by the field's name, wherever it appears
NUMBER_BOUNDS: dict[str, tuple[int, int]] = {
    **dict.fromkeys(("seat", "button", "from_seat", "to_seat", "empty_big_blind_seat", "max_seats"), (0, 999)),
    **dict.fromkeys(("table", "from_table", "to_table", "fullest_table", "final_table"), (0, 100_000)),
    **dict.fromkeys(("level", "after_level", "until_level", "number"), (0, 100_000)),
    # an imported hand keeps its site's number: PokerStars' run past 2 * 10^11
    "hand_number": (0, CHIPS_BOUND),
    "place": (0, 10_000_000),
    "pot_index": (0, 999),
    "version": (0, 1_000_000_000),
}
#: the envelope's sequence number: a hand's records are counted in it, and no hand has a million of them
SEQ_BOUND = 1_000_000
#: free texts an official writes (grounds, findings, reasons): at most this many characters
TEXT_BOUND = 10_000
TEXT_FIELDS = frozenset(
    {"reason", "reasons", "description", "grounds", "finding", "justification", "suspicion", "title", "note", "summary"}
)
#: every other string (names, ids, codes, rules, seeds, hashes): at most this many characters
NAME_BOUND = 200
#: items in one list of a payload (seats, motions, denominations, placings …)
ITEMS_BOUND = 10_000
