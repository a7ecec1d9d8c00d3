"""Whole simulated competitions: American and Olympic, from the Regulations to the winner, every record accepted
by the referee on the embedded log, each recorded by the role that may record it, the protocol agreeing with
the simulation, and the same seed giving the same records."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from api.cli_simulate import CompetitionPublisher
from domain.competition.regulations import Format
from domain.hand.codec import REPORTED
from domain.protests.events import ProtestTier
from domain.roles import Role
from ingest.log import EmbeddedLog
from ingest.referee import Referee, Verdict
from ingest.runners import drain_embedded
from ingest.simulator import CompetitionSimulation, SimulatedHand, simulate_competition
from ingest.simulator.book import Reported
from ingest.simulator.clock import simulation_clock
from ingest.store import Store, store_env
from projections.protocol import compile_snapshot, protocol, snapshots, verify_snapshot

pytestmark = pytest.mark.unit


@pytest.fixture(scope="module")
def american() -> CompetitionSimulation:
    return simulate_competition(1, players=45, format="american")


@pytest.fixture(scope="module")
def jumped() -> CompetitionSimulation:
    """A field that never stands one or two from the money between hands: several bust in one hand across it."""
    return simulate_competition(32, players=45, format="american")


@pytest.fixture(scope="module")
def bubble() -> CompetitionSimulation:
    """A field whose count of players left stands two from the money between hands (seed 32's does not: its busts
    jump past the bubble)."""
    return simulate_competition(2, players=45, format="american")


@pytest.fixture(scope="module")
def olympic() -> CompetitionSimulation:
    return simulate_competition(2, players=45, format="olympic")


@pytest.fixture(scope="module")
def ten_max() -> CompetitionSimulation:
    """60 at tables of ten: the last two tables play nine-handed (bfsp 3.1); seed 2's field moves players off the
    seats closed for the last two tables as well as for balance."""
    return simulate_competition(2, players=60, format="american", table_size=10)


def _acts(simulation: CompetitionSimulation, name: str) -> list[Reported]:
    return [a for a in simulation.acts if type(a.event).__name__ == name]


def _records(simulation: CompetitionSimulation) -> list[dict[str, Any]]:
    return [json.loads(value) for _, value in simulation.records()]


def judged(simulation: CompetitionSimulation, tmp_path: Path) -> tuple[list[Verdict], Store]:
    """Every record put on an embedded log and judged, as ``pokeraudit simulate`` publishes them: the protocol
    snapshot a forwarding names is taken in the store once the records before it are judged."""
    log = EmbeddedLog(tmp_path / "log.sqlite", "events", partitions=1, clock=simulation_clock)
    store = Store(env=store_env(None, str(tmp_path / "store.sqlite")))
    referee = Referee(store, "events", protocols=compile_snapshot)
    verdicts: list[Verdict] = []
    publisher = CompetitionPublisher(
        log, lambda: store, lambda: verdicts.extend(drain_embedded(log, referee))
    )
    published = publisher.publish(simulation)
    verdicts.extend(drain_embedded(log, referee))
    # the simulation's records, and the Chief Judge's snapshot request before each forwarding
    assert published == len(list(simulation.records())) + len(snapshots(store, simulation.competition_id))
    return verdicts, store


def test_an_american_competition_of_45_reaches_its_winner_through_the_floor(
    american: CompetitionSimulation,
) -> None:
    kinds = Counter(type(a.event).__name__ for a in american.acts)
    assert kinds["RegulationsAdopted"] == 1 and kinds["ParticipantRegistered"] == 45
    assert kinds["PlayerEliminated"] == 44 and american.winner not in {
        p.participant for p in american.placings
    }
    assert kinds["SeatDrawCommitted"] == kinds["SeatDrawConducted"] == 1
    assert kinds["FinalTableDrawCommitted"] == kinds["FinalTableDrawConducted"] == 1
    assert kinds["TableBreakCommitted"] == kinds["TableBroken"] >= 1
    assert kinds["PlayerMoved"] >= 1
    hand_for_hand = 1 if _stood_near_the_bubble(american) else 0
    assert kinds["HandForHandStarted"] == kinds["HandForHandEnded"] == hand_for_hand
    assert kinds["BreakStarted"] == kinds["BreakEnded"] == 1 and kinds["LevelStarted"] >= 5
    assert len(american.hands) < 3000
    # the floor's record of each table's hand is the desk's to make from the hand, never reported
    assert kinds["TableHandStarted"] == kinds["TableHandEnded"] == 0
    assert american.book.competition.version > len(american.acts)


def _stood_near_the_bubble(simulation: CompetitionSimulation) -> bool:
    """Whether the field stood, between two hands, one or two players from the money (TDA 2022 RP-8)."""
    paid = len(simulation.book.competition.regulations.prizes)
    busts: dict[Any, list[int]] = {}
    for e in (a.event for a in _acts(simulation, "PlayerEliminated")):
        busts.setdefault(e.hand, []).append(e.place)
    left_after_each_hand = {min(places) - 1 for places in busts.values()}
    return any(paid < left <= paid + 2 for left in left_after_each_hand)


def test_hand_for_hand_is_played_once_from_two_before_the_bubble_by_the_chief_judge(
    jumped: CompetitionSimulation, bubble: CompetitionSimulation
) -> None:
    assert _stood_near_the_bubble(bubble) and not _stood_near_the_bubble(jumped)
    started = _acts(bubble, "HandForHandStarted")
    assert len(started) == len(_acts(bubble, "HandForHandEnded")) == 1
    assert {a.recorded_by.role for a in started} == {Role.CHIEF_JUDGE}
    paid = len(bubble.book.competition.regulations.prizes)
    assert paid < started[0].event.players_left <= paid + 2
    assert not _acts(jumped, "HandForHandStarted")


def test_the_chips_of_25_are_raced_off_at_the_break_and_the_stacks_after_the_race_are_played(
    american: CompetitionSimulation,
) -> None:
    races = _acts(american, "ChipRaceConducted")
    assert races and {r.event.removed_denomination for r in races} == {25}
    assert {r.recorded_by.role for r in races} == {Role.DEALER}
    entries = american.entries
    for race in races:
        later = [e for e in entries[entries.index(race) :] if isinstance(e, SimulatedHand)]
        for result in race.event.results:
            first = next(h for h in later if result.participant in {s.player for s in h.started.seats})
            assert {s.player: s.stack for s in first.started.seats}[result.participant] == result.stack_after


def test_the_seat_draw_is_committed_before_it_is_conducted_and_recomputes_from_its_seed(
    american: CompetitionSimulation,
) -> None:
    from domain.competition.draw import commitment, draw

    committed, conducted = _acts(american, "SeatDrawCommitted")[0], _acts(american, "SeatDrawConducted")[0]
    assert american.acts.index(committed) < american.acts.index(conducted)
    assert commitment(conducted.event.seed) == committed.event.seed_sha256
    entrants = [a.event.participant for a in _acts(american, "ParticipantRegistered")]
    assert draw(conducted.event.seed, entrants, 9) == conducted.event.assignments


def test_placings_follow_the_eliminations_and_two_busted_in_one_hand_place_by_their_stacks(
    american: CompetitionSimulation,
) -> None:
    eliminated = [a.event for a in _acts(american, "PlayerEliminated")]
    assert [e.place for e in eliminated] == list(range(45, 1, -1))
    assert {(p.participant, p.place) for p in american.placings} == {
        (e.participant, e.place) for e in eliminated
    }
    by_hand: dict[str, list[Any]] = {}
    for e in eliminated:
        by_hand.setdefault(e.hand, []).append(e)
    together = [busts for busts in by_hand.values() if len(busts) >= 2]
    assert together, "a 45-player field has some hand that busts two"
    for busts in together:
        assert [b.starting_stack for b in busts] == sorted(b.starting_stack for b in busts)
        assert [b.place for b in busts] == sorted((b.place for b in busts), reverse=True)


def test_each_record_is_recorded_by_the_role_that_may_record_it(american: CompetitionSimulation) -> None:
    roles: dict[str, set[str]] = {}
    for record in _records(american):
        roles.setdefault(record["type"], set()).add(record["recorded_by"]["role"])
    assert all(roles[name] == {Role.DEALER} for name in roles if name in REPORTED)
    expected = {
        "RegulationsAdopted": {Role.FEDERATION}, "ParticipantRegistered": {Role.SECRETARY},
        "SeatDrawConducted": {Role.SECRETARY}, "PlayerMoved": {Role.CHIEF_JUDGE}, "TableBroken": {Role.CHIEF_JUDGE},
        "PlayerEliminated": {Role.JUDGE}, "HandStarted": {Role.DEALER},
        "PenaltyHandServed": {Role.DEALER}, "ProtestFiled": {Role.PARTICIPANT}, "ProtestForwarded": {Role.CHIEF_JUDGE},
        "ProtestDecided": {Role.CHIEF_JUDGE, Role.FEDERATION}, "RulingIssued": {Role.JUDGE},
    }  # fmt: skip
    assert {name: roles[name] for name in expected} == expected


def test_penalties_follow_the_ladder_and_missed_rounds_are_served_with_the_hand_killed(
    american: CompetitionSimulation,
) -> None:
    imposed = [a.event for a in _acts(american, "PenaltyImposed")]
    assert [(p.participant, p.kind) for p in imposed] == [(p.participant, p.kind) for p in american.penalties]
    missed = [p for p in imposed if p.hands_to_miss]
    assert missed, "the Chief Judge's penalty is missed rounds"
    served = Counter(a.event.participant for a in _acts(american, "PenaltyHandServed"))
    killed = [e for h in american.hands for e in h.events if type(e).__name__ == "PenaltyHandKilled"]
    assert sum(served.values()) == len(killed) > 0
    for penalty in missed:
        busted = penalty.participant in {p.participant for p in american.placings}
        assert served[penalty.participant] == penalty.hands_to_miss or busted


def test_a_finding_is_protested_to_the_chief_judge_and_a_penalty_to_the_federation(
    american: CompetitionSimulation,
) -> None:
    first, second = american.protests
    assert (
        first.tier is ProtestTier.CHIEF_JUDGE
        and first.contested == _acts(american, "RulingIssued")[0].event.ruling
    )
    assert second.tier is ProtestTier.FEDERATION and second.contested == "penalty-1"
    filed = _acts(american, "ProtestFiled")[1].event
    assert filed.filer == filed.contested.sanctioned and filed.written
    winner_declared = _acts(american, "PlayerEliminated")[-1].at
    assert filed.filed_at < winner_declared < _acts(american, "ProtestDecided")[-1].at


def test_the_same_seed_gives_the_same_records_and_another_seed_others() -> None:
    one = list(simulate_competition(5, players=20).records())
    assert one == list(simulate_competition(5, players=20).records())
    assert one != list(simulate_competition(6, players=20).records())


def test_an_olympic_competition_plays_its_stages_table_winners_advancing_with_stacks_reset(
    olympic: CompetitionSimulation,
) -> None:
    draws = [a.event for a in _acts(olympic, "SeatDrawConducted")]
    assert [d.stage for d in draws] == ["semi-final", "final"]
    first_tables = {a.table for a in draws[0].assignments}
    finalists = {a.participant for a in draws[1].assignments}
    assert len(finalists) == len(first_tables) == 5 and olympic.winner in finalists
    out_in_stage_one = {p.participant for p in olympic.placings if p.place > len(finalists)}
    assert finalists.isdisjoint(out_in_stage_one) and len(out_in_stage_one) == 40
    final_hands = [h for h in olympic.hands if {s.player for s in h.started.seats} <= finalists]
    first_final = final_hands[[len(h.started.seats) for h in final_hands].index(5)]
    assert {s.stack for s in first_final.started.seats} == {5000}
    assert not _acts(olympic, "PlayerMoved") and not _acts(olympic, "TableHandStarted")


def test_at_tables_of_ten_the_players_on_a_closed_seat_move_and_the_final_table_seats_nine(
    ten_max: CompetitionSimulation,
) -> None:
    rules = {a.event.rule_applied.value for a in _acts(ten_max, "PlayerMoved")}
    assert {"closed_seat", "next_big_blind"} <= rules
    final = next(a for a in ten_max.acts if type(a.event).__name__ == "FinalTableDrawConducted")
    after = ten_max.entries[ten_max.entries.index(final) :]
    assert {s.seat for h in after if isinstance(h, SimulatedHand) for s in h.started.seats} <= set(
        range(1, 10)
    )


@pytest.mark.parametrize("fixture", ["american", "olympic", "ten_max"])
def test_every_record_is_accepted_by_the_referee_and_the_protocol_agrees(
    fixture: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    simulation: CompetitionSimulation = request.getfixturevalue(fixture)
    verdicts, store = judged(simulation, tmp_path)
    taken = snapshots(store, simulation.competition_id)  # each the Chief Judge's act on the log, forwarding a protest
    assert Counter(v.outcome for v in verdicts) == {"accepted": len(list(simulation.records())) + len(taken)}
    assert [s.taken_by for s in taken] == [f"{simulation.competition_id}-chief-judge"] * len(taken)
    document = protocol(store, simulation.competition_id)
    assert document["competition"]["winner"] == simulation.winner
    assert {(p["participant"], p["place"]) for p in document["placings"] if p["place"] > 1} == {
        (p.participant, p.place) for p in simulation.placings
    }
    assert [(p["participant"], p["kind"]) for p in document["penalties"]] == [
        (p.participant, p.kind.value) for p in simulation.penalties
    ]
    assert [(p["protest"], p["tier"], p["decision"]["decision"]) for p in document["protests"]] == [
        (p.protest, p.tier.value, p.decision.value) for p in simulation.protests
    ]
    forwarded = snapshots(store, simulation.competition_id)[0]
    assert document["protests"][1]["forwarded"]["snapshot"] == forwarded.name
    assert verify_snapshot(store, forwarded).ok


def test_a_45_player_competition_is_simulated_in_well_under_a_minute() -> None:
    import time

    began = time.perf_counter()
    simulate_competition(9, players=45)
    assert time.perf_counter() - began < 20


def test_what_cannot_be_simulated_is_refused() -> None:
    with pytest.raises(ValueError, match="american or olympic"):
        simulate_competition(1, format="swiss")
    with pytest.raises(ValueError, match="two players"):
        simulate_competition(1, players=1)
    with pytest.raises(ValueError, match="tables seat 6 to 10 players under bfsp, not 4"):
        simulate_competition(1, players=8, table_size=4)
    with pytest.raises(ValueError, match="dead button"):
        simulate_competition(1, rulebook="tda-2022")
    assert Format("olympic") is Format.OLYMPIC


def test_the_command_publishes_a_whole_competition_and_the_referee_accepts_all_of_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from api.bootstrap import bootstrap
    from api.cli import main
    from api.operations import referee_once
    from api.settings import Settings

    for name in ("KAFKA_BOOTSTRAP_SERVERS", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("POKERAUDIT_DATA_DIR", str(tmp_path))
    argv = ["simulate", "--seed", "4", "--competition-format", "olympic", "--players", "20", "--quiet"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[0])
    assert (summary["format"], summary["players"], summary["protests"]) == ("olympic", 20, 2)
    pipeline = bootstrap(Settings())
    try:
        referee_once(pipeline)
        assert set(pipeline.store.outcome_counts()) == {"accepted"}
        assert protocol(pipeline.store, summary["competition"])["competition"]["winner"] == summary["winner"]
    finally:
        pipeline.close()
    with pytest.raises(SystemExit):
        main(["simulate", "--seed", "4", "--competition-format", "swiss"])
