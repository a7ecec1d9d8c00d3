"""The records behind the federation's views tests (unit and e2e): the Minsk Open of tests/federation_records.py
with a ruling, two protests and a missed-round penalty on the way, and a two-table cup left unbalanced.

Minsk Open (three players, one table): p01 is warned by the Chief Judge (7.1.2); hand 1 busts p02; a judge
finds the board was dealt right (ruling r-1) and p02 protests that finding to the Chief Judge, who dismisses it;
p01 protests his warning to the federation in writing; hand 2 busts p03 (9,950 after his big blind in hand 1), who
is then given a missed round (7.1.6, two players at the table: two hands) he never serves; p01 wins. After the end
the protocol is snapshotted and the protest forwarded: the federation's 30 days run from ``FORWARDED_AT``.

Gomel Cup (eight players, 6-max, two tables of four): two players at one table bust, four against two.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date, timedelta

from federation_records import (
    CHIEF,
    FEDERATION,
    JUDGE,
    REGULATIONS,
    SECRETARY,
    STACK,
    STACKS_AFTER_HAND_1,
    Records,
    at,
    hand,
    opening,
    table,
)

from domain.competition.draw import commitment, draw, starting_buttons
from domain.competition.events import (
    EliminationReason,
    LevelStarted,
    ParticipantRegistered,
    PlayerEliminated,
    RegulationsAdopted,
    SeatDrawCommitted,
    SeatDrawConducted,
)
from domain.competition.events import OfficialAppointed as Appointed
from domain.competition.regulations import Break
from domain.discipline.events import PenaltyImposed, ViolationRecorded
from domain.discipline.ladder import PenaltyKind
from domain.protests import Contested, ContestedKind, ProtestFiled, ProtestTier
from domain.protests.events import ProtestDecided, ProtestDecision, ProtestForwarded
from domain.roles import Role
from domain.rulings import RulingIssued, RulingKind
from ingest.envelope import RecordedBy

P01 = RecordedBy(person="person-p01", role=Role.PARTICIPANT)
P02 = RecordedBy(person="person-p02", role=Role.PARTICIPANT)
FILED_AT = at(15)
FORWARDED_AT = at(40)
GROUNDS = "I folded in time; the judge saw my cards go in"

Record = tuple[bytes, bytes]


def minsk_open(records: Records) -> Iterator[Record]:
    """Everything up to the winner (the snapshot and the forwarding need the store: :func:`forwarded`)."""
    yield from opening(records)
    yield records.record(
        ViolationRecorded("p01", "7.1.2", f"{table()}/1", False, 1, "kept his cards after announcing a fold"),
        JUDGE, at(5),
    )
    yield records.record(PenaltyImposed("p01", 1, PenaltyKind.WARNING, Role.CHIEF_JUDGE), CHIEF, at(6))
    yield from hand(records, 1, "p01", "p02", 10)
    yield records.record(
        PlayerEliminated("p02", f"{table()}/1", EliminationReason.NO_CHIPS, 3, starting_stack=STACK), JUDGE, at(12)
    )
    finding = RulingIssued("r-1", f"{table()}/1", RulingKind.FINDING_OF_FACT, JUDGE.person, Role.JUDGE,
                           "bfsp 2.2.3", "the board was dealt from the top of the deck")
    yield records.record(finding, JUDGE, at(13), table_id=table(), hand_id="1")
    against_finding = ProtestFiled(
        "protest-2", records.competition_id, ProtestTier.CHIEF_JUDGE, "p02",
        Contested("r-1", ContestedKind.FINDING_OF_FACT, Role.JUDGE), "the flop came off the bottom", False,
        Role.CHIEF_JUDGE, at(13.5),
    )
    yield records.record(against_finding, P02, at(13.5))
    yield records.record(
        ProtestDecided("protest-2", ProtestDecision.DISMISSED, Role.CHIEF_JUDGE, "the dealer's video is clear",
                       at(14)),
        CHIEF, at(14),
    )
    to_federation = ProtestFiled(
        "protest-1", records.competition_id, ProtestTier.FEDERATION, "p01",
        Contested("penalty-1", ContestedKind.PENALTY, Role.CHIEF_JUDGE, sanctioned="p01"),
        GROUNDS, True, Role.CHIEF_JUDGE, FILED_AT,
    )
    yield records.record(to_federation, P01, FILED_AT)
    yield from hand(records, 2, "p01", "p03", 20)
    # after hand 2, not before it: a player serving missed rounds is dealt in only to have his hand killed
    # (bfsp 7.1.2), and p03 plays hand 2 out
    yield records.record(ViolationRecorded("p03", "7.1.6", "", False, 1, "used his phone at the table"), JUDGE, at(21))
    yield records.record(
        PenaltyImposed("p03", 1, PenaltyKind.MISSED_ROUNDS, Role.JUDGE, rounds=1, players_at_table=2, hands_to_miss=2), JUDGE, at(21.5)
    )
    yield records.record(
        PlayerEliminated("p03", f"{table()}/2", EliminationReason.NO_CHIPS, 2, starting_stack=STACKS_AFTER_HAND_1["p03"]),
        JUDGE, at(22),
    )


def forwarded(records: Records, snapshot: str, chain_head: str) -> Record:
    """The Chief Judge forwards protest-1 with the protocol snapshot (its deadline is the desk's to compute)."""
    return records.record(
        ProtestForwarded("protest-1", snapshot, chain_head, FORWARDED_AT, FORWARDED_AT + timedelta(days=30)), CHIEF, FORWARDED_AT
    )


GOMEL = "gomel-cup-2026"
GOMEL_PLAYERS = tuple(f"g{n}" for n in range(1, 9))
GOMEL_SEED = "gomel-cup-2026 seat draw"
#: a 15-minute break after level 1 (12:30–12:45 by the clock)
GOMEL_REGULATIONS = replace(REGULATIONS, title="Gomel Cup 2026", max_seats=6, breaks=(Break(1, 15),))


def gomel_cup(records: Records) -> Iterator[Record]:
    """Two tables of four; both busts come from the lower-numbered table, which is left with two."""
    yield records.record(RegulationsAdopted(records.competition_id, GOMEL_REGULATIONS), FEDERATION, at(-600))
    yield records.record(Appointed(CHIEF.person, Role.CHIEF_JUDGE), FEDERATION, at(-590))
    for official in (SECRETARY, JUDGE):
        yield records.record(Appointed(official.person, official.role), CHIEF, at(-580))
    for n, player in enumerate(GOMEL_PLAYERS):
        yield records.record(ParticipantRegistered(player, f"person-{player}", date(1990, 1, 1)), SECRETARY,
                             at(-500 + n))
    yield records.record(SeatDrawCommitted(commitment(GOMEL_SEED)), SECRETARY, at(-30))
    assignments = draw(GOMEL_SEED, GOMEL_PLAYERS, GOMEL_REGULATIONS.max_seats)
    yield records.record(SeatDrawConducted(GOMEL_SEED, assignments, starting_buttons(assignments), CHIEF.person),
                         SECRETARY, at(-20))
    yield records.record(LevelStarted(GOMEL_REGULATIONS.levels[0], at(0)), JUDGE, at(0))
    first = min(a.table for a in assignments)
    busted = sorted(a.participant for a in assignments if a.table == first)[:2]
    for n, participant in enumerate(busted):
        place = len(GOMEL_PLAYERS) - n
        yield records.record(
            PlayerEliminated(participant, f"{first}/{n + 1}", EliminationReason.NO_CHIPS, place, starting_stack=STACK),
            JUDGE, at(5 + n),
        )


def gomel_seating() -> dict[str, tuple[int, int]]:
    return {a.participant: (a.table, a.seat) for a in draw(GOMEL_SEED, GOMEL_PLAYERS, GOMEL_REGULATIONS.max_seats)}


