"""A small competition as log records, for the desk's and the protocol's tests (unit and integration).

Three players at one table of the Minsk Open: the federation adopts the Regulations and appoints the Chief
Judge, who appoints a secretary, a judge and a dealer; the secretary registers three players and conducts the
committed seat draw; level 1 starts; p02 busts in hand 1 and p03 in hand 2, so p01 wins. On the way a judge
records a violation by p01 and the Chief Judge warns him.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any
from uuid import NAMESPACE_URL, uuid5

from domain.cards import parse_cards
from domain.competition.draw import commitment, draw, starting_buttons
from domain.competition.events import (
    EliminationReason,
    LevelStarted,
    OfficialAppointed,
    ParticipantRegistered,
    PlayerEliminated,
    RegulationsAdopted,
    SeatDrawCommitted,
    SeatDrawConducted,
)
from domain.competition.regulations import Format, Level, Prize, Regulations
from domain.discipline.events import PenaltyImposed, ViolationRecorded
from domain.discipline.ladder import PenaltyKind
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    ForcedBetKind,
    ForcedBetPosted,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    ReportedEvent,
    SeatEntry,
    Stakes,
)
from domain.roles import Role
from domain.variants import BettingStructure
from ingest.envelope import RecordedBy, encode, make_envelope
from ingest.publish import hand_records

COMPETITION = "minsk-open-2026"
START = datetime(2026, 5, 9, 12, 0, tzinfo=UTC)
FEDERATION = RecordedBy(person="bfsp-board", role=Role.FEDERATION)
CHIEF = RecordedBy(person="cj-ivanov", role=Role.CHIEF_JUDGE)
SECRETARY = RecordedBy(person="sec-petrova", role=Role.SECRETARY)
JUDGE = RecordedBy(person="judge-sidorov", role=Role.JUDGE)
DEALER = RecordedBy(person="dealer-kozlov", role=Role.DEALER)
PLAYERS = ("p01", "p02", "p03")
SEED = "minsk-open-2026 seat draw"
STACK = 10_000
LEVEL_1 = Level(1, 30, 25, 50)
REGULATIONS = Regulations(
    title="Minsk Open 2026",
    format=Format.AMERICAN,
    variant="NT",
    betting=BettingStructure.NO_LIMIT,
    starting_stack=STACK,
    levels=(LEVEL_1, Level(2, 30, 50, 100)),
    max_seats=9,
    starts_on=START.date(),
    rulebook_version="2024-01",
    prizes=(Prize(1, 5000), Prize(2, 3000)),
)
_IDS = uuid5(NAMESPACE_URL, "https://pokeraudit/tests/federation-records")


def at(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


class Records:
    """Federation records with event ids from a counter, so the same scenario always gives the same ids."""

    def __init__(self, competition_id: str = COMPETITION) -> None:
        self.competition_id = competition_id
        self.count = 0

    def record(
        self,
        event: Any,
        by: RecordedBy,
        when: datetime,
        table_id: str | None = None,
        hand_id: str | None = None,
        seq: int = 0,
    ) -> tuple[bytes, bytes]:
        """``seq`` matters for a hand's own events only (the federation's acts are not sequenced)."""
        self.count += 1
        envelope = make_envelope(
            event,
            event_id=uuid5(_IDS, f"{self.competition_id}/{self.count}"),
            competition_id=self.competition_id,
            seq=seq,
            recorded_by=by,
            occurred_at=when,
            table_id=table_id,
            hand_id=hand_id,
        )
        return self.competition_id.encode(), encode(envelope)


def seats() -> dict[str, tuple[int, int]]:
    return {a.participant: (a.table, a.seat) for a in draw(SEED, PLAYERS, REGULATIONS.max_seats)}


def opening(records: Records) -> Iterator[tuple[bytes, bytes]]:
    """Regulations, officials, registrations, the draw and level 1."""
    yield records.record(RegulationsAdopted(records.competition_id, REGULATIONS), FEDERATION, at(-600))
    yield records.record(OfficialAppointed(CHIEF.person, Role.CHIEF_JUDGE), FEDERATION, at(-590))
    for official in (SECRETARY, JUDGE, DEALER):
        yield records.record(OfficialAppointed(official.person, official.role), CHIEF, at(-580))
    for n, player in enumerate(PLAYERS):
        registered = ParticipantRegistered(player, f"person-{player}", date(1990, 1, 1))
        yield records.record(registered, SECRETARY, at(-500 + n))
    yield records.record(SeatDrawCommitted(commitment(SEED)), SECRETARY, at(-30))
    assignments = draw(SEED, PLAYERS, REGULATIONS.max_seats)
    conducted = SeatDrawConducted(SEED, assignments, starting_buttons(assignments), CHIEF.person)
    yield records.record(conducted, SECRETARY, at(-20))
    yield records.record(LevelStarted(LEVEL_1, at(0)), JUDGE, at(0))


def all_in_hand(number: int, winner: str, loser: str, button: str) -> list[ReportedEvent]:
    """Heads-up at the draw's table: ``loser`` moves all in with queens, ``winner`` calls with ace-king and
    pairs his ace on the flop."""
    where = seats()
    entries = tuple(sorted((SeatEntry(where[p][1], p, STACK) for p in (winner, loser)), key=lambda e: e.seat))
    other = winner if button == loser else loser
    return [
        HandStarted(
            str(where[winner][0]), number, "NT", entries, where[button][1],
            Stakes(blinds=((where[button][1], 25), (where[other][1], 50)), min_bet=50), burns_recorded=False,
        ),
        ForcedBetPosted(where[button][1], ForcedBetKind.SMALL_BLIND, 25),
        ForcedBetPosted(where[other][1], ForcedBetKind.BIG_BLIND, 50),
        HoleCardsDealt(where[winner][1], parse_cards("AsKd")),
        HoleCardsDealt(where[loser][1], parse_cards("QsQd")),
        PlayerActed(where[button][1], ActionKind.RAISE, STACK),
        PlayerActed(where[other][1], ActionKind.CALL),
        HandShown(where[winner][1], parse_cards("AsKd")),
        HandShown(where[loser][1], parse_cards("QsQd")),
        BoardDealt(parse_cards("Ah9c4d")),
        BoardDealt(parse_cards("Tc")),
        BoardDealt(parse_cards("3h")),
    ]


def hand(records: Records, number: int, winner: str, loser: str, minutes: float) -> Iterable[tuple[bytes, bytes]]:
    events = all_in_hand(number, winner, loser, button=loser)
    return hand_records(events, records.competition_id, DEALER, at(minutes))


def table() -> str:
    return str(seats()["p01"][0])


def play_to_the_end(records: Records) -> Iterator[tuple[bytes, bytes]]:
    """p01's violation and warning, hand 1 (p02 busts, third), hand 2 (p03 busts, second): p01 wins."""
    yield records.record(ViolationRecorded("p01", "7.1.2", f"{table()}/1", False, 1, "kept his cards after announcing a fold"),
                         JUDGE, at(5))
    yield records.record(PenaltyImposed("p01", 1, PenaltyKind.WARNING, Role.CHIEF_JUDGE), CHIEF, at(6))
    yield from hand(records, 1, "p01", "p02", 10)
    yield records.record(
        PlayerEliminated("p02", f"{table()}/1", EliminationReason.NO_CHIPS, 3, starting_stack=STACK), JUDGE, at(12)
    )
    yield from hand(records, 2, "p01", "p03", 20)
    yield records.record(
        PlayerEliminated("p03", f"{table()}/2", EliminationReason.NO_CHIPS, 2, starting_stack=STACK), JUDGE, at(22)
    )


def three_way_hand(records: Records, stacks: dict[str, int], minutes: float) -> Iterable[tuple[bytes, bytes]]:
    """Hand 1 three-handed: p01 on the button moves all in with ace-king, p02 (small blind, queens) and p03 (big
    blind, jacks) call all in for less and both bust when p01 pairs his ace."""
    where = seats()
    entries = tuple(SeatEntry(where[p][1], p, stacks[p]) for p in sorted(PLAYERS, key=lambda p: where[p][1]))
    cards = {"p01": "AsKd", "p02": "QsQd", "p03": "JsJd"}
    events: list[ReportedEvent] = [
        HandStarted(
            table(), 1, "NT", entries, where["p01"][1],
            Stakes(blinds=((where["p02"][1], 25), (where["p03"][1], 50)), min_bet=50), burns_recorded=False,
        ),
        ForcedBetPosted(where["p02"][1], ForcedBetKind.SMALL_BLIND, 25),
        ForcedBetPosted(where["p03"][1], ForcedBetKind.BIG_BLIND, 50),
        *(HoleCardsDealt(where[p][1], parse_cards(cards[p])) for p in ("p02", "p03", "p01")),
        PlayerActed(where["p01"][1], ActionKind.RAISE, stacks["p01"]),
        PlayerActed(where["p02"][1], ActionKind.CALL),
        PlayerActed(where["p03"][1], ActionKind.CALL),
        *(HandShown(where[p][1], parse_cards(cards[p])) for p in ("p02", "p03", "p01")),
        BoardDealt(parse_cards("Ah9c4d")),
        BoardDealt(parse_cards("Tc")),
        BoardDealt(parse_cards("3h")),
    ]
    return hand_records(events, records.competition_id, DEALER, at(minutes))
