"""A small competition as log records, for the desk's and the protocol's tests (unit and integration).

Three players at one table of the Minsk Open: the federation adopts the Regulations and appoints the Chief
Judge, who appoints a secretary, a judge and a dealer; the secretary registers three players and conducts the
committed seat draw; level 1 starts; p02 busts in hand 1 (three-handed, p03 folding his big blind) and p03 in
hand 2 (heads-up), so p01 wins. On the way a judge
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


def opening(records: Records, regulations: Regulations = REGULATIONS) -> Iterator[tuple[bytes, bytes]]:
    """Regulations, officials, registrations, the draw and level 1."""
    yield records.record(RegulationsAdopted(records.competition_id, regulations), FEDERATION, at(-600))
    yield records.record(OfficialAppointed(CHIEF.person, Role.CHIEF_JUDGE), FEDERATION, at(-590))
    for official in (SECRETARY, JUDGE):
        yield records.record(OfficialAppointed(official.person, official.role), CHIEF, at(-580))
    # the dealer is assigned the draw's one table: he reports there and nowhere else (bfsp 2.1.1)
    yield records.record(OfficialAppointed(DEALER.person, DEALER.role, tables=(int(table()),)), CHIEF, at(-580))
    for n, player in enumerate(PLAYERS):
        registered = ParticipantRegistered(player, f"person-{player}", date(1990, 1, 1))
        yield records.record(registered, SECRETARY, at(-500 + n))
    yield records.record(SeatDrawCommitted(commitment(SEED)), SECRETARY, at(-30))
    assignments = draw(SEED, PLAYERS, REGULATIONS.max_seats)
    conducted = SeatDrawConducted(SEED, assignments, starting_buttons(assignments), CHIEF.person)
    yield records.record(conducted, SECRETARY, at(-20))
    yield records.record(LevelStarted(regulations.levels[0], at(0)), JUDGE, at(0))


#: what hand 1 leaves the two players still in: p01 won p02's stack and p03's big blind
STACKS_AFTER_HAND_1 = {"p01": 2 * STACK + LEVEL_1.big_blind, "p03": STACK - LEVEL_1.big_blind}
CARDS = {"p01": "AsKd", "p02": "QsQd", "p03": "JsJd"}


def dealt_in(number: int) -> tuple[dict[str, int], tuple[str, ...]]:
    """Who is dealt in at hand ``number`` of the draw's table and with what, and who acts first before the flop
    (the floor's positions, bfsp 5.3, 5.4.1): hand 1 three-handed from the starting button (p01 on seat 3, p02
    the small blind, p03 the big blind), hand 2 heads-up once p02 is out (p03 on the button and small blind)."""
    if number == 1:
        return {p: STACK for p in PLAYERS}, ("p01", "p02", "p03")
    return dict(STACKS_AFTER_HAND_1), ("p03", "p01")


def all_in_hand(number: int, winner: str, loser: str) -> list[ReportedEvent]:
    """``loser`` and ``winner`` all in before the flop, queens against ace-king, the ace on the flop; at hand 1
    the third player folds his big blind."""
    where = seats()
    stacks, order = dealt_in(number)
    entries = tuple(sorted((SeatEntry(where[p][1], p, stacks[p]) for p in stacks), key=lambda e: e.seat))
    small, big = (order[1], order[2]) if len(order) == 3 else (order[0], order[1])
    first, second = [p for p in order if p in (winner, loser)]
    third = [p for p in order if p not in (winner, loser)]
    return [
        HandStarted(
            str(where[winner][0]), number, "NT", entries, where[order[0]][1],
            Stakes(blinds=((where[small][1], LEVEL_1.small_blind), (where[big][1], LEVEL_1.big_blind)),
                   min_bet=LEVEL_1.big_blind),
            burns_recorded=False,
        ),
        ForcedBetPosted(where[small][1], ForcedBetKind.SMALL_BLIND, LEVEL_1.small_blind),
        ForcedBetPosted(where[big][1], ForcedBetKind.BIG_BLIND, LEVEL_1.big_blind),
        *(HoleCardsDealt(where[p][1], parse_cards(CARDS[p])) for p in (small, *[q for q in order if q != small])),
        PlayerActed(where[first][1], ActionKind.RAISE, stacks[first]),
        PlayerActed(where[second][1], ActionKind.CALL),
        *(PlayerActed(where[p][1], ActionKind.FOLD) for p in third),
        HandShown(where[winner][1], parse_cards(CARDS[winner])),
        HandShown(where[loser][1], parse_cards(CARDS[loser])),
        BoardDealt(parse_cards("Ah9c4d")),
        BoardDealt(parse_cards("Tc")),
        BoardDealt(parse_cards("3h")),
    ]


def hand(records: Records, number: int, winner: str, loser: str, minutes: float) -> Iterable[tuple[bytes, bytes]]:
    return hand_records(all_in_hand(number, winner, loser), records.competition_id, DEALER, at(minutes))


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
        PlayerEliminated("p03", f"{table()}/2", EliminationReason.NO_CHIPS, 2, starting_stack=STACKS_AFTER_HAND_1["p03"]),
        JUDGE, at(22),
    )


#: the stacks a first hand of raise-and-folds leaves (:func:`blinds_stolen`): p01 takes both blinds
STACKS_AFTER_A_STEAL = {
    "p01": STACK + LEVEL_1.small_blind + LEVEL_1.big_blind,
    "p02": STACK - LEVEL_1.small_blind,
    "p03": STACK - LEVEL_1.big_blind,
}


def _three_handed(number: int) -> tuple[dict[str, int], tuple[str, str, str]]:
    """Stacks and (button, small blind, big blind) at a three-handed hand 1 or 2 (the button moves one seat)."""
    if number == 1:
        return {p: STACK for p in PLAYERS}, ("p01", "p02", "p03")
    return dict(STACKS_AFTER_A_STEAL), ("p02", "p03", "p01")


def _three_handed_start(number: int) -> tuple[HandStarted, list[ReportedEvent]]:
    where = seats()
    stacks, (button, small, big) = _three_handed(number)
    entries = tuple(SeatEntry(where[p][1], p, stacks[p]) for p in sorted(PLAYERS, key=lambda p: where[p][1]))
    started = HandStarted(
        table(), number, "NT", entries, where[button][1],
        Stakes(blinds=((where[small][1], LEVEL_1.small_blind), (where[big][1], LEVEL_1.big_blind)),
               min_bet=LEVEL_1.big_blind),
        burns_recorded=False,
    )
    return started, [
        ForcedBetPosted(where[small][1], ForcedBetKind.SMALL_BLIND, LEVEL_1.small_blind),
        ForcedBetPosted(where[big][1], ForcedBetKind.BIG_BLIND, LEVEL_1.big_blind),
        *(HoleCardsDealt(where[p][1], parse_cards(CARDS[p])) for p in (small, big, button)),
    ]


def blinds_stolen(records: Records, minutes: float) -> Iterable[tuple[bytes, bytes]]:
    """Hand 1: p01 raises on the button and both blinds fold."""
    where = seats()
    started, dealt = _three_handed_start(1)
    events: list[ReportedEvent] = [
        started, *dealt,
        PlayerActed(where["p01"][1], ActionKind.RAISE, 3 * LEVEL_1.big_blind),
        PlayerActed(where["p02"][1], ActionKind.FOLD),
        PlayerActed(where["p03"][1], ActionKind.FOLD),
    ]
    return hand_records(events, records.competition_id, DEALER, at(minutes))


def three_way_hand(records: Records, number: int, minutes: float) -> Iterable[tuple[bytes, bytes]]:
    """Hand ``number`` (1, or 2 after :func:`blinds_stolen`) three-handed: the button moves all in, both blinds
    call all in, and p01's ace-king beats p02's queens and p03's jacks, so both bust (at hand 1 with equal
    stacks, at hand 2 p03 with fewer chips than p02)."""
    where = seats()
    stacks, (button, small, big) = _three_handed(number)
    started, dealt = _three_handed_start(number)
    events: list[ReportedEvent] = [
        started, *dealt,
        PlayerActed(where[button][1], ActionKind.RAISE, stacks[button]),
        PlayerActed(where[small][1], ActionKind.CALL),
        PlayerActed(where[big][1], ActionKind.CALL),
        *(HandShown(where[p][1], parse_cards(CARDS[p])) for p in (small, big, button)),
        BoardDealt(parse_cards("Ah9c4d")),
        BoardDealt(parse_cards("Tc")),
        BoardDealt(parse_cards("3h")),
    ]
    return hand_records(events, records.competition_id, DEALER, at(minutes))


#: the raise the button makes in :func:`called_raise_hand`
RAISE_TO = 20 * LEVEL_1.big_blind


def called_raise_positions(number: int) -> tuple[str, str, str]:
    """(button, small blind, big blind) at three-handed hand ``number``: from the starting button (p01, p02, p03
    at hand 1) the button moves one seat a hand (bfsp 5.3.2)."""
    turn = (number - 1) % 3
    return PLAYERS[turn], PLAYERS[(turn + 1) % 3], PLAYERS[(turn + 2) % 3]


def called_raise_start(number: int, stacks: dict[str, int]) -> HandStarted:
    """The start of three-handed hand ``number``, each player sitting down with his ``stacks``."""
    where = seats()
    button, small, big = called_raise_positions(number)
    entries = tuple(SeatEntry(where[p][1], p, stacks[p]) for p in sorted(PLAYERS, key=lambda p: where[p][1]))
    return HandStarted(
        table(), number, "NT", entries, where[button][1],
        Stakes(blinds=((where[small][1], LEVEL_1.small_blind), (where[big][1], LEVEL_1.big_blind)),
               min_bet=LEVEL_1.big_blind),
        burns_recorded=False,
    )


def called_raise_hand(
    records: Records, number: int, stacks: dict[str, int], minutes: float
) -> Iterable[tuple[bytes, bytes]]:
    """Three-handed hand ``number`` with these ``stacks``: the button raises to :data:`RAISE_TO`, the small blind
    calls, the big blind folds; both check it down and show, the button first (he made the last aggressive
    action). With :data:`CARDS` the button wins at hand 1 (p01's ace-king on the ace-high board against p02's
    queens) and at hand 2 (p02's queens against p03's jacks)."""
    where = seats()
    button, small, big = called_raise_positions(number)
    checks = (PlayerActed(where[small][1], ActionKind.CHECK), PlayerActed(where[button][1], ActionKind.CHECK))
    events: list[ReportedEvent] = [
        called_raise_start(number, stacks),
        ForcedBetPosted(where[small][1], ForcedBetKind.SMALL_BLIND, LEVEL_1.small_blind),
        ForcedBetPosted(where[big][1], ForcedBetKind.BIG_BLIND, LEVEL_1.big_blind),
        *(HoleCardsDealt(where[p][1], parse_cards(CARDS[p])) for p in (small, big, button)),
        PlayerActed(where[button][1], ActionKind.RAISE, RAISE_TO),
        PlayerActed(where[small][1], ActionKind.CALL),
        PlayerActed(where[big][1], ActionKind.FOLD),
        BoardDealt(parse_cards("Ah9c4d")), *checks,
        BoardDealt(parse_cards("Tc")), *checks,
        BoardDealt(parse_cards("3h")), *checks,
        HandShown(where[button][1], parse_cards(CARDS[button])),
        HandShown(where[small][1], parse_cards(CARDS[small])),
    ]
    return hand_records(events, records.competition_id, DEALER, at(minutes))
