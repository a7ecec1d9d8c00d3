"""The floor's moves judged by the service's clock (issue 13, "Moves"): a simulated protocol showed a player moved
into a seat still occupied in a hand in play, players moved for balance between equal tables and a table broken
before it played a hand, all accepted. Each is submitted to the referee here and refused with its rule; then
simulated competitions of several seeds and sizes are judged and their protocols read back — the seats, hands,
moves and eliminations in them, by their times — for any of the three."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from embedded_referee import Pipeline

from api.cli_simulate import CompetitionPublisher
from domain.competition.aggregate import Competition
from domain.competition.draw import commitment
from domain.competition.floor_events import MoveReason, MoveRule, PlayerMoved, TableBreakCommitted
from domain.rejections import Rejection
from ingest.envelope import RecordedBy, encode, make_envelope
from ingest.referee import Verdict
from ingest.runners import drain_embedded
from ingest.simulator import CompetitionSimulation, simulate_competition
from projections.protocol import protocol

pytestmark = pytest.mark.unit

Record = tuple[bytes, bytes]


@pytest.fixture
def pipeline(tmp_path: Path) -> Pipeline:
    return Pipeline(tmp_path)


def refusal(verdicts: list[Verdict]) -> Rejection:
    assert [v.outcome for v in verdicts] == ["rejected"], [v.rejection for v in verdicts]
    rejection = verdicts[0].rejection
    assert rejection is not None and rejection.kind == "illegal"
    return rejection


def accepted(verdicts: list[Verdict]) -> None:
    assert {v.outcome for v in verdicts} <= {"accepted"}, [v.rejection for v in verdicts if v.rejection]


def floor_act(simulation: CompetitionSimulation, event: Any, by: dict[str, Any], at: datetime, n: int) -> Record:
    """A floor act of the simulation's Chief Judge, as the log carries it, at ``at``."""
    envelope = make_envelope(
        event, event_id=f"00000000-0000-4000-8000-{n:012d}", competition_id=simulation.competition_id, seq=0,
        recorded_by=RecordedBy(**by), occurred_at=at, rulebook=simulation.rulebook,
    )  # fmt: skip
    return simulation.competition_id.encode(), encode(envelope)


def records_of(simulation: CompetitionSimulation) -> list[tuple[Record, dict[str, Any]]]:
    return [(r, json.loads(r[1])) for r in simulation.records()]


def up_to(records: list[tuple[Record, dict[str, Any]]], index: int) -> list[Record]:
    return [r for r, _ in records[:index]]


@pytest.fixture(scope="module")
def forty_five() -> CompetitionSimulation:
    return simulate_competition(1, players=45, penalties=0.0, protests=False)


def _moved(value: dict[str, Any]) -> PlayerMoved:
    p = value["payload"]
    return PlayerMoved(p["participant"], p["from_table"], p["from_seat"], p["to_table"], p["to_seat"],
                       MoveReason(p["reason"]), MoveRule(p["rule_applied"]), p["authorised_by"])


def balancing_moves(
    pipeline: Pipeline, simulation: CompetitionSimulation, records: list[tuple[Record, dict[str, Any]]]
) -> Iterator[tuple[int, PlayerMoved, Competition]]:
    """Each balancing move of the simulation, the records before it judged."""
    judged = 0
    for index, (_, value) in enumerate(records):
        if value["type"] != "PlayerMoved" or value["payload"]["rule_applied"] != "next_big_blind":
            continue
        accepted(pipeline.judge(up_to(records, index)[judged:]))
        judged = index
        yield index, _moved(value), pipeline.competition(simulation.competition_id)


def _first_move_into_a_busted_seat(
    pipeline: Pipeline, simulation: CompetitionSimulation, records: list[tuple[Record, dict[str, Any]]]
) -> tuple[int, PlayerMoved, Competition]:
    """The first balancing move into a seat a player left, busted in the last hand at that table."""
    for index, move, competition in balancing_moves(pipeline, simulation, records):
        left = competition.floor_clock.seats_left.get((move.to_table, move.to_seat))
        ended = competition.floor_clock.hands_ended.get(move.to_table)
        if left is not None and left.why == "eliminated" and ended is not None and left.at >= ended:
            return index, move, competition
    raise AssertionError("no balancing move into a busted player's seat")


def test_a_player_moved_into_a_seat_still_occupied_in_a_hand_in_play_is_refused(
    pipeline: Pipeline, forty_five: CompetitionSimulation
) -> None:
    records = records_of(forty_five)
    index, move, competition = _first_move_into_a_busted_seat(pipeline, forty_five, records)
    left = competition.floor_clock.seats_left[(move.to_table, move.to_seat)]
    ended = competition.floor_clock.hands_ended[move.to_table]
    by = records[index][1]["recorded_by"]
    # by the clock, the move comes while the busted player's hand was still being played at his table
    early = floor_act(forty_five, move, by, ended - timedelta(seconds=20), 1)
    refused = refusal(pipeline.judge([early]))
    assert refused.rule == "bfsp 3.1"
    assert (
        f"table {move.to_table} seat {move.to_seat} was still {left.participant}'s at" in refused.reason
        and "no player is moved into a seat still occupied in a hand in play" in refused.reason
    ), refused.reason
    # and in the log's own order: a seat a player still sits on is not free
    someone = next(seat for seat, _ in competition.floor.table(move.to_table).seats)  # type: ignore[union-attr]
    taken = floor_act(forty_five, replace(move, to_seat=someone), by, records[index][1]["occurred_at"], 2)
    refused = refusal(pipeline.judge([taken]))
    assert refused.rule == "bfsp 3.1" and f"seat {someone} is not free" in refused.reason
    # the move as the simulator made it, at its time, is the floor's
    accepted(pipeline.judge([records[index][0]]))


def test_a_player_moved_for_balance_between_equal_tables_is_refused(
    pipeline: Pipeline, forty_five: CompetitionSimulation
) -> None:
    """A move timed before the elimination that left the tables unequal (but after the hands at its two tables
    ended and its seat was left) moves a player between tables that were still balanced then."""
    records = records_of(forty_five)
    chosen = None
    for index, move, competition in balancing_moves(pipeline, forty_five, records):
        clock, changed = competition.floor_clock, competition.floor_clock.changed
        assert changed is not None
        left = clock.seats_left.get((move.to_table, move.to_seat))
        times = [clock.hands_ended.get(move.from_table), clock.hands_ended.get(move.to_table), left and left.at]
        at = max(t for t in times if t is not None)
        if at < changed.at:
            chosen = (index, move, at, changed)
            break
    if chosen is None:
        pytest.fail("every move follows at once the change it balances")
    index, move, at, changed = chosen
    refused = refusal(pipeline.judge([floor_act(forty_five, move, records[index][1]["recorded_by"], at, 3)]))
    assert refused.rule == "bfsp 3.1"
    assert f"the tables changed at {changed.at.isoformat(timespec='seconds')} ({changed.what})" in refused.reason
    assert "players are moved only to balance tables that were unequal then" in refused.reason
    accepted(pipeline.judge([records[index][0]]))


def test_a_player_moved_between_balanced_tables_is_refused_in_the_logs_order(pipeline: Pipeline) -> None:
    simulation = simulate_competition(1, players=45, penalties=0.0, protests=False)
    records = records_of(simulation)
    # the first hand, at table 1, played, and nobody busted in it: five tables of nine, balanced
    ended = [i for i, (_, v) in enumerate(records) if v["type"] == "HandStarted"][1] - 1
    accepted(pipeline.judge(up_to(records, ended + 1)))
    competition = pipeline.competition(simulation.competition_id)
    floor = competition.floor
    assert floor is not None and set(floor.counts().values()) == {9}
    big_blind = floor.table(1).last_hand
    assert big_blind is not None
    mover = floor.table(1).occupant(big_blind.big_blind % 9 + 1)
    assert mover is not None
    move = PlayerMoved(mover, 1, big_blind.big_blind % 9 + 1, 2, 1, MoveReason.BALANCE, authorised_by="cj")
    chief = next(v["recorded_by"] for _, v in records if v["type"] == "PlayerMoved")
    refused = refusal(pipeline.judge([floor_act(simulation, move, chief, records[ended][1]["occurred_at"], 4)]))
    assert refused.rule == "bfsp 3.1"
    assert refused.reason.startswith("the tables are balanced (table 1: 9, table 2: 9")


def test_a_table_broken_before_it_played_a_hand_is_refused(pipeline: Pipeline) -> None:
    """28 players draw four tables of seven: once a player busts in the first round, the others' free seats hold
    the last table's players before it has dealt its first hand."""
    simulation = simulate_competition(1, players=28, penalties=0.0, protests=False)
    records = records_of(simulation)
    chief = next(v["recorded_by"] for _, v in records if v["type"] == "TableBroken")
    judged = 0
    for index, (_, value) in enumerate(records):
        if value["type"] != "PlayerEliminated":
            continue
        accepted(pipeline.judge(up_to(records, index + 1)[judged:]))
        judged = index + 1
        floor = pipeline.competition(simulation.competition_id).floor
        assert floor is not None
        unplayed = [t for t in floor.tables if t.last_hand is None]
        room = {t.number: 9 - len(t.seats) for t in floor.tables}
        fits = [t for t in unplayed if sum(room.values()) - room[t.number] >= len(t.seats)]
        if not fits:
            continue
        table = fits[-1].number
        committed = TableBreakCommitted(table, commitment(f"break T{table}"))
        refused = refusal(pipeline.judge([floor_act(simulation, committed, chief, value["occurred_at"], 5)]))
        assert refused.rule == "tda-2022 10-B"
        assert refused.reason == (
            f"table {table} has played no hand since its players were seated there: they play where the draw "
            "seated them, and it breaks after its first hand"
        )
        return
    pytest.fail("no table could have been broken before its first hand")


# --- the simulator's protocols, read back ----------------------------------------------------------------------


@dataclass
class Moment:
    at: str
    order: int
    kind: str
    item: dict[str, Any]


def _moments(document: dict[str, Any]) -> Iterator[Moment]:
    order = 0
    for draw in document["draws"]:
        order += 1
        yield Moment(draw["conducted_at"], order, "draw", draw)
    for move in document["moves"]:
        order += 1
        yield Moment(move["at"], order, move["type"], move)
    for elimination in document["eliminations"]:
        order += 1
        yield Moment(elimination["at"], order, "eliminated", elimination)


def floor_faults(document: dict[str, Any]) -> list[str]:
    """What a reviewer reading the protocol by its times would object to: a move into a seat still occupied (in
    a hand in play at that table), a move out of a hand in play, a balancing move between tables whose counts
    were within one, a table broken before it played a hand or while it played one."""
    hands: dict[int, list[tuple[str, str, set[str]]]] = {}
    for h in document["hands"]:
        hands.setdefault(int(h["table"].lstrip("T")), []).append((h["started_at"], h["ended_at"], set(h["players"])))

    def in_play(table: int, at: str) -> list[set[str]]:
        return [players for start, end, players in hands.get(table, []) if start <= at < end]

    seats: dict[tuple[int, int], str] = {}
    faults: list[str] = []

    def arrive(m: dict[str, Any], at: str) -> None:
        where = (m["to_table"], m["to_seat"])
        if where in seats:
            playing = [p for p in in_play(m["to_table"], at) if seats[where] in p]
            faults.append(f"{at}: {m['participant']} moved into table {where[0]} seat {where[1]}, still "
                          f"{seats[where]}'s" + (" in a hand in play" if playing else ""))
        seats[where] = m["participant"]

    for moment in sorted(_moments(document), key=lambda m: (m.at, m.order)):
        item, at = moment.item, moment.at
        if moment.kind == "draw":
            seats = {(a["table"], a["seat"]): a["participant"] for a in item["assignments"]}
        elif moment.kind == "eliminated":
            seats = {w: p for w, p in seats.items() if p != item["participant"]}
        elif moment.kind == "PlayerMoved":
            counts = Counter(t for t, _ in seats)
            if any(item["participant"] in p for p in in_play(item["from_table"], at)):
                faults.append(f"{at}: {item['participant']} moved out of a hand in play at table {item['from_table']}")
            if item["reason"] == "balance" and item["rule_applied"] != "closed_seat" and (
                counts[item["from_table"]] - counts[item["to_table"]] < 2
            ):
                faults.append(f"{at}: {item['participant']} moved for balance from table {item['from_table']} "
                              f"({counts[item['from_table']]}) to table {item['to_table']} ({counts[item['to_table']]})")
            del seats[(item["from_table"], item["from_seat"])]
            arrive(item, at)
        elif moment.kind == "TableBroken":
            table = item["table"]
            if not any(end is not None and end <= at for _, end, _ in hands.get(table, [])):
                faults.append(f"{at}: table {table} broken before it played a hand")
            if in_play(table, at):
                faults.append(f"{at}: table {table} broken while it played a hand")
            for move in item["moves"]:
                del seats[(move["from_table"], move["from_seat"])]
            for move in item["moves"]:
                arrive(move, at)
    return faults


def judged_protocol(simulation: CompetitionSimulation, folder: Path) -> dict[str, Any]:
    """Every record on an embedded log under the simulation's clock, judged as ``pokeraudit simulate`` does, and
    the protocol the store gives."""
    pipeline = Pipeline(folder)
    verdicts: list[Verdict] = []
    publisher = CompetitionPublisher(
        pipeline.log, lambda: pipeline.store, lambda: verdicts.extend(drain_embedded(pipeline.log, pipeline.referee))
    )
    published = publisher.publish(simulation)
    verdicts.extend(drain_embedded(pipeline.log, pipeline.referee))
    assert Counter(v.outcome for v in verdicts) == {"accepted": published}, [v.rejection for v in verdicts if v.rejection][:3]
    return protocol(pipeline.store, simulation.competition_id)


def test_the_checker_finds_each_fault_in_a_protocol() -> None:
    """The protocol reading below can fail: a hand-made protocol with each fault in it."""
    hand = {"table": "T2", "started_at": "10:00", "ended_at": "10:05", "players": ["a", "b"]}
    document = {
        "draws": [{"conducted_at": "09:00", "assignments": [
            {"participant": p, "table": t, "seat": s}
            for p, t, s in (("a", 2, 1), ("b", 2, 2), ("c", 1, 1), ("d", 1, 2), ("e", 3, 1), ("f", 3, 2))
        ]}],
        "hands": [hand],
        "eliminations": [{"participant": "b", "at": "10:06"}],
        "moves": [
            {"type": "PlayerMoved", "at": "10:03", "participant": "c", "from_table": 1, "from_seat": 1,
             "to_table": 2, "to_seat": 2, "reason": "balance", "rule_applied": "next_big_blind"},
            {"type": "TableBroken", "at": "10:04", "table": 3, "moves": []},
        ],
    }
    assert floor_faults(document) == [
        "10:03: c moved for balance from table 1 (2) to table 2 (2)",
        "10:03: c moved into table 2 seat 2, still b's in a hand in play",
        "10:04: table 3 broken before it played a hand",
    ]


@pytest.mark.parametrize(
    ("seed", "players", "table_size"),
    [(1, 45, 9), (1, 46, 9), (4, 60, 10), (5, 27, 9), (6, 250, 9)],
)
def test_simulated_protocols_move_no_player_into_a_seat_in_play_nor_between_equal_tables(
    tmp_path: Path, seed: int, players: int, table_size: int
) -> None:
    simulation = simulate_competition(seed, players=players, table_size=table_size, penalties=0.0, protests=False)
    document = judged_protocol(simulation, tmp_path)
    assert floor_faults(document) == []
    kinds = Counter(m["type"] for m in document["moves"])
    assert kinds["PlayerMoved"] > 0 and (players < 40 or kinds["TableBroken"] > 0)
