"""An OFC competition in the Competition (bfsp 8): Regulations of 2–3 seats and a number of rounds, the draw's
tables playing their rounds through the referee (players, round numbers and the button's move checked), points
instead of chips, and the places by points once every table has played its rounds."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from uuid import NAMESPACE_URL, uuid5

import pytest
from embedded_referee import Pipeline
from federation_records import CHIEF, FEDERATION, JUDGE, SECRETARY, Records, at

from domain.competition.aggregate import Competition, competition_stream_id
from domain.competition.draw import commitment, draw, starting_buttons
from domain.competition.events import (
    LevelStarted,
    OfcPoints,
    OfcRoundCounted,
    OfficialAppointed,
    ParticipantRegistered,
    RegulationsAdopted,
    SeatDrawCommitted,
    SeatDrawConducted,
)
from domain.competition.ofc_points import next_button, standings
from domain.competition.regulations import Format, Level, Prize, Regulations, verify_regulations
from domain.errors import CompetitionError
from domain.ofc.events import OfcPlayer, OfcRoundScored, OfcRoundStarted
from domain.roles import Role
from domain.rulebooks import BFSP
from domain.variants import BettingStructure
from ingest.envelope import RecordedBy, encode, make_envelope
from ingest.simulator.ofc import next_fantasy, play_round
from projections import federation
from projections.protocol import protocol, verify_snapshot

pytestmark = pytest.mark.unit

COMPETITION = "ofc-cup-2026"
PLAYERS = tuple(f"p{n:02d}" for n in range(1, 7))
SEED = "ofc-cup-2026 seat draw"
DEALER = RecordedBy(person="dealer-ofc", role=Role.DEALER)
OFC_REGULATIONS = Regulations(
    title="OFC Cup 2026",
    format=Format.AMERICAN,
    variant="OFC",
    betting=BettingStructure.NO_LIMIT,
    starting_stack=1000,
    levels=(Level(1, 60, 25, 50),),
    max_seats=3,
    starts_on=at(0).date(),
    prizes=(Prize(1, 3000), Prize(2, 2000)),
    rounds=3,
)


def test_ofc_regulations_seat_two_or_three_and_name_their_rounds() -> None:
    verify_regulations(OFC_REGULATIONS)
    with pytest.raises(CompetitionError, match=r"OFC is played 2 or 3 to a table.*\(bfsp 8 \(set-up\)\)"):
        verify_regulations(Regulations(**{**_fields(OFC_REGULATIONS), "max_seats": 4}))
    with pytest.raises(CompetitionError, match=r"rounds: .* not 0 \(bfsp 8 \(scoring\)\)"):
        verify_regulations(Regulations(**{**_fields(OFC_REGULATIONS), "rounds": 0}))


def test_the_olympic_format_is_not_for_ofc_its_tables_play_down_to_one_winner_of_all_the_chips() -> None:
    olympic = Regulations(**{**_fields(OFC_REGULATIONS), "format": Format.OLYMPIC})
    with pytest.raises(CompetitionError, match=r"^format: the Olympic format .*American format \(bfsp 3\.2\)$"):
        verify_regulations(olympic)


def _fields(regulations: Regulations) -> dict[str, object]:
    return {name: getattr(regulations, name) for name in regulations.__dataclass_fields__}


def opening(records: Records) -> Iterator[tuple[bytes, bytes]]:
    yield records.record(RegulationsAdopted(COMPETITION, OFC_REGULATIONS), FEDERATION, at(-600))
    yield records.record(OfficialAppointed(CHIEF.person, Role.CHIEF_JUDGE), FEDERATION, at(-590))
    for official in (SECRETARY, JUDGE, DEALER):
        yield records.record(OfficialAppointed(official.person, official.role), CHIEF, at(-580))
    for n, player in enumerate(PLAYERS):
        yield records.record(
            ParticipantRegistered(player, f"person-{player}", date(1990, 1, 1)), SECRETARY, at(-500 + n)
        )
    yield records.record(SeatDrawCommitted(commitment(SEED)), SECRETARY, at(-30))
    assignments = draw(SEED, PLAYERS, OFC_REGULATIONS.max_seats)
    yield records.record(
        SeatDrawConducted(SEED, assignments, starting_buttons(assignments), CHIEF.person), SECRETARY, at(-20)
    )
    yield records.record(LevelStarted(OFC_REGULATIONS.levels[0], at(0)), JUDGE, at(0))


def tables() -> dict[int, tuple[OfcPlayer, ...]]:
    out: dict[int, list[OfcPlayer]] = {}
    for a in draw(SEED, PLAYERS, OFC_REGULATIONS.max_seats):
        out.setdefault(a.table, []).append(OfcPlayer(a.seat, a.participant))
    return {t: tuple(sorted(p, key=lambda x: x.seat)) for t, p in out.items()}


def round_records(
    started: OfcRoundStarted, events: tuple[object, ...], minutes: float, by: RecordedBy = DEALER
) -> list[tuple[bytes, bytes]]:
    out = []
    for seq, event in enumerate(events):
        envelope = make_envelope(
            event,
            event_id=uuid5(
                NAMESPACE_URL, f"{COMPETITION}/{started.table_id}/{started.round_number}/{seq}/{minutes}"
            ),
            competition_id=COMPETITION,
            seq=seq,
            recorded_by=by,
            occurred_at=at(minutes + seq / 60),
            table_id=started.table_id,
            hand_id=str(started.round_number),
        )
        out.append((COMPETITION.encode(), encode(envelope)))
    return out


def test_the_draws_tables_play_their_rounds_and_the_places_go_by_points(tmp_path: Path) -> None:
    pipeline = Pipeline(tmp_path)
    assert {v.outcome for v in pipeline.judge(opening(Records(COMPETITION)))} == {"accepted"}
    rng = random.Random(21)
    scored: list[OfcRoundScored] = []
    minutes = 10.0
    for table, seated in tables().items():
        buttons = [max(p.seat for p in seated)]  # the draw's starting button: the highest seat taken
        previous = None
        for number in range(1, OFC_REGULATIONS.rounds + 1):
            if number > 1:
                seats = sorted(p.seat for p in seated)
                after = [s for s in seats if s > buttons[-1]]
                buttons.append(after[0] if after else seats[0])
            started = OfcRoundStarted(str(table), number, buttons[-1], seated, next_fantasy(previous, rng))
            played = play_round(started, BFSP, rng)
            verdicts = pipeline.judge(round_records(started, played.events, minutes))
            assert {v.outcome for v in verdicts} == {"accepted"}, [
                v.rejection for v in verdicts if v.rejection
            ]
            scored.append(played.scored)
            previous = played.scored
            minutes += 10
    competition = pipeline.competition(COMPETITION)
    totals: dict[str, int] = {}
    for result in scored:
        for hand in result.hands:
            totals[hand.player] = totals.get(hand.player, 0) + hand.points
    assert competition.ofc_points == totals and sum(totals.values()) == 0
    assert competition.is_over
    standings = competition.standings()
    assert [s.participant for s in standings] == sorted(totals, key=lambda p: -totals[p])
    assert standings[0].place == 1
    for s in standings:  # equal points share the place
        assert all(totals[q] == totals[s.participant] for q in s.shared_with)
    assert {p.participant for p in competition.payouts() if p.gross} == {
        s.participant for s in standings if s.place <= 2
    }
    document = protocol(pipeline.store, COMPETITION)
    assert [p["participant"] for p in document["placings"]][: len(standings)] == [
        s.participant for s in sorted(standings, key=lambda s: (s.place, s.participant))
    ]
    assert len(document["ofc"]["rounds"]) == 2 * OFC_REGULATIONS.rounds
    snapshot = pipeline.take_snapshot(SECRETARY, at(600), COMPETITION)
    assert verify_snapshot(pipeline.store, snapshot).ok
    # the federation's views speak points, not chips
    ranked = federation.standings(pipeline.store, None, COMPETITION)
    assert ranked is not None and (ranked.variant, ranked.unit, ranked.eliminations) == ("OFC", "points", [])
    assert {p.participant: p.points for p in ranked.remaining} == totals
    assert {p.participant: p.place for p in ranked.remaining} == {s.participant: s.place for s in standings}
    assert all(p.chips is None for p in ranked.remaining)
    assert [p.place for p in ranked.remaining] == sorted(p.place or 0 for p in ranked.remaining)
    floor = federation.balance(pipeline.store, COMPETITION)
    assert floor is not None and not floor.judged_by_the_floor and floor.next_move is None
    assert (floor.variant, floor.rule) == ("OFC", "bfsp 8 (set-up)")
    assert sorted(len(t.seats) for t in floor.tables) == [3, 3]
    timed = federation.clock(pipeline.store, COMPETITION, at(600))
    assert timed is not None and timed.ofc_rounds is not None
    assert timed.ofc_rounds.per_table == OFC_REGULATIONS.rounds
    assert timed.ofc_rounds.played == {str(t): OFC_REGULATIONS.rounds for t in tables()}


def test_a_round_the_draw_or_the_button_contradicts_is_refused(tmp_path: Path) -> None:
    pipeline = Pipeline(tmp_path)
    pipeline.judge(opening(Records(COMPETITION)))
    (table, seated), (other, _) = list(tables().items())[:2]
    button = max(p.seat for p in seated)
    cases = [
        (OfcRoundStarted(str(table), 1, min(p.seat for p in seated), seated), "the button of round 1"),
        (OfcRoundStarted(str(table), 2, button, seated), "its next is round 1, not 2"),
        (OfcRoundStarted(str(other), 1, button, seated), "the draw seated"),
        (OfcRoundStarted("final", 1, button, seated), "plays at numbered tables"),
    ]
    stranger = RecordedBy(person="dealer-elsewhere", role=Role.DEALER)
    (verdict,) = pipeline.judge(
        round_records(
            OfcRoundStarted(str(table), 1, button, seated),
            (OfcRoundStarted(str(table), 1, button, seated),),
            99.0,
            stranger,
        )
    )
    assert verdict.rejection is not None and verdict.rejection.rule == "bfsp 2.4.1"
    assert "dealer-elsewhere is not appointed dealer of ofc-cup-2026" in verdict.rejection.reason
    for n, (started, why) in enumerate(cases):
        (verdict,) = pipeline.judge(round_records(started, (started,), 100.0 + n))
        assert verdict.outcome == "rejected" and verdict.rejection is not None, why
        assert why in verdict.rejection.reason and verdict.rejection.rule.startswith("bfsp 8 ("), (
            verdict.rejection
        )
    competition = pipeline.store.repository.get(competition_stream_id(COMPETITION))
    assert isinstance(competition, Competition) and not competition.ofc_rounds


def test_equal_points_share_the_place_and_a_disqualified_player_is_flagged() -> None:
    counted = [
        OfcRoundCounted(1, 1, 3, (OfcPoints("a", 7), OfcPoints("b", -7))),
        OfcRoundCounted(2, 1, 2, (OfcPoints("c", 7), OfcPoints("d", 5), OfcPoints("e", -12))),
    ]
    placed = standings(["a", "b", "c", "d", "e"], counted, disqualified=["d"])
    assert [(s.participant, s.place, s.places, s.shared_with, s.disqualified) for s in placed] == [
        ("a", 1, 2, ("c",), False),
        ("c", 1, 2, ("a",), False),
        ("d", 3, 1, (), True),
        ("b", 4, 1, (), False),
        ("e", 5, 1, (), False),
    ]


def test_the_button_moves_to_the_next_seat_taken() -> None:
    assert next_button(3, {1: "a", 3: "b", 7: "c"}) == 7
    assert next_button(7, {1: "a", 3: "b", 7: "c"}) == 1
