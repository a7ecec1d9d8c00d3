"""A ruling that re-awards a pot carries into the next hand's stacks, through the embedded referee.

Hand 1 (three-handed): p01 raises on the button, p02 calls from the small blind, p03 folds his big blind, and
p01's ace-king wins on the ace-high board. The Chief Judge then splits the pot between p01 and p02. The next hand
is dealt with the chips as the ruling left them (bfsp 5.1), and a ruling that comes after the next hand has
started is refused with the challenge window (bfsp 5.9.1) unless it is the Chief Judge's fairness override
departing from that rule (bfsp 7.4.1), which moves the chips once the hand being played ends.
"""

from __future__ import annotations

from pathlib import Path

import embedded_referee
import pytest
from federation_records import (
    CHIEF,
    COMPETITION,
    DEALER,
    JUDGE,
    LEVEL_1,
    RAISE_TO,
    STACK,
    Records,
    at,
    called_raise_hand,
    called_raise_start,
    hand,
    opening,
    seats,
    table,
)

from domain.competition.events import EliminationReason, LevelClockPaused, PlayerEliminated
from domain.errors import chips
from domain.hand.events import HandStarted, PotShare
from domain.rejections import Rejection
from domain.roles import Role
from domain.rulings import PotReaward, RulingIssued, RulingKind
from ingest.envelope import RecordedBy
from ingest.referee import Verdict
from projections import federation
from projections.database import SqliteReadDatabase
from projections.protocol import protocol
from projections.read_models import ReadModels
from projections.runner import Projector

pytestmark = pytest.mark.unit

Record = tuple[bytes, bytes]
POT_1 = 2 * RAISE_TO + LEVEL_1.big_blind
#: the engine's award of hand 1: p01 takes the pot
MECHANICAL_1 = {"p01": STACK + RAISE_TO + LEVEL_1.big_blind, "p02": STACK - RAISE_TO, "p03": STACK - LEVEL_1.big_blind}
#: the Chief Judge's split of hand 1's pot
AMENDED_1 = {"p01": STACK - RAISE_TO + POT_1 // 2, "p02": STACK - RAISE_TO + POT_1 // 2, "p03": MECHANICAL_1["p03"]}


class Pipeline(embedded_referee.Pipeline):
    def standings(self) -> dict[str, tuple[int | None, int]]:
        """Participant → (chips, of which moved by rulings), from read models caught up with the store."""
        database = SqliteReadDatabase(self.folder / "read.sqlite")
        Projector(self.store, database).catch_up()
        try:
            view = federation.standings(self.store, ReadModels(database), COMPETITION)
        finally:
            database.close()
        assert view is not None
        return {r.participant: (r.chips, r.moved_by_rulings) for r in view.remaining}


@pytest.fixture
def pipeline(tmp_path: Path) -> Pipeline:
    return Pipeline(tmp_path)


def accepted(verdicts: list[Verdict]) -> None:
    assert verdicts and {v.outcome for v in verdicts} == {"accepted"}, [v.rejection for v in verdicts if v.rejection]


def refusal(verdicts: list[Verdict]) -> Rejection:
    assert [v.outcome for v in verdicts] == ["rejected"], [v.rejection for v in verdicts]
    rejection = verdicts[0].rejection
    assert rejection is not None and rejection.kind == "illegal"
    return rejection


def split(ruling: str = "r-1", kind: RulingKind = RulingKind.CHIEF_JUDGE_DECISION, **more: object) -> RulingIssued:
    """The Chief Judge splits hand 1's pot between p01 and p02."""
    where = seats()
    shares = (PotShare(where["p01"][1], POT_1 // 2), PotShare(where["p02"][1], POT_1 // 2))
    return RulingIssued(
        ruling, f"{table()}/1", kind, CHIEF.person, Role.CHIEF_JUDGE,
        "bfsp 7.4.1" if kind is RulingKind.FAIRNESS_OVERRIDE else "bfsp 2.1.6",
        "the dealer read p02's queens as the losing hand before the board was complete and mucked the deck",
        reawards=(PotReaward(0, shares),), **more,  # type: ignore[arg-type]
    )  # fmt: skip


def ruled(records: Records, ruling: RulingIssued, minutes: float, by: RecordedBy = CHIEF) -> Record:
    return records.record(ruling, by, at(minutes), table(), "1")


def start(records: Records, started: HandStarted, minutes: float) -> Record:
    """A hand's start alone, with an event id of its own (a refused start is not the retry of a right one)."""
    return records.record(started, DEALER, at(minutes), started.table_id, str(started.hand_number))


def hand_1_played(pipeline: Pipeline, records: Records) -> None:
    accepted(pipeline.judge(list(opening(records))))
    accepted(pipeline.judge(list(called_raise_hand(records, 1, {p: STACK for p in MECHANICAL_1}, 10))))


def test_the_next_hand_is_dealt_with_the_stacks_the_ruling_left(pipeline: Pipeline) -> None:
    records = Records()
    hand_1_played(pipeline, records)
    accepted(pipeline.judge([ruled(records, split(), 15)]))
    unamended = refusal(pipeline.judge([start(records, called_raise_start(2, MECHANICAL_1), 20)]))
    assert unamended.rule == "bfsp 5.1"
    assert unamended.reason == (
        f"p02 sits down to hand {table()}/2 with {chips(MECHANICAL_1['p02'])}; ruling r-1 on hand {table()}/1 left "
        f"him {chips(AMENDED_1['p02'])}: chips come into play with an entry and move only through the hands"
    )
    accepted(pipeline.judge(list(called_raise_hand(records, 2, AMENDED_1, 21))))


def test_the_protocol_shows_the_hand_both_as_the_engine_left_it_and_as_ruled(pipeline: Pipeline) -> None:
    records = Records()
    hand_1_played(pipeline, records)
    accepted(pipeline.judge([ruled(records, split(), 15)]))
    first = protocol(pipeline.store, COMPETITION)["hands"][0]
    decided_by = {"ruling": "r-1", "kind": "chief_judge_decision", "official": CHIEF.person, "role": "chief_judge",
                  "rule": "bfsp 2.1.6"}  # fmt: skip
    assert first["final_stacks"] == {"mechanical": MECHANICAL_1, "in_force": AMENDED_1, "decided_by": [decided_by]}
    assert first["pots"][0]["decided_by"] == decided_by
    assert [s["player"] for s in first["pots"][0]["shares"]] == ["p01"]
    assert first["winners"] == ["p01", "p02"]


def test_the_standings_count_the_chips_a_ruling_moved_until_a_hand_is_dealt_with_them(pipeline: Pipeline) -> None:
    records = Records()
    hand_1_played(pipeline, records)
    accepted(pipeline.judge([ruled(records, split(), 15)]))
    moved = AMENDED_1["p01"] - MECHANICAL_1["p01"]
    assert pipeline.standings() == {
        "p01": (AMENDED_1["p01"], moved), "p02": (AMENDED_1["p02"], -moved), "p03": (AMENDED_1["p03"], 0),
    }
    accepted(pipeline.judge(list(called_raise_hand(records, 2, AMENDED_1, 21))))
    p02_won = AMENDED_1["p02"] + RAISE_TO + LEVEL_1.big_blind
    assert pipeline.standings()["p02"] == (p02_won, 0), "hand 2 was dealt with the ruled chips: nothing to add"


def test_the_ruling_is_counted_again_after_a_restart(pipeline: Pipeline) -> None:
    records = Records()
    hand_1_played(pipeline, records)
    accepted(pipeline.judge([ruled(records, split(), 15)]))
    pipeline.restart()
    assert refusal(pipeline.judge([start(records, called_raise_start(2, MECHANICAL_1), 20)])).rule == "bfsp 5.1"
    accepted(pipeline.judge(list(called_raise_hand(records, 2, AMENDED_1, 21))))


def test_a_ruling_that_moves_no_chips_leaves_the_engines_stacks(pipeline: Pipeline) -> None:
    records = Records()
    hand_1_played(pipeline, records)
    confirmed = RulingIssued("r-1", f"{table()}/1", RulingKind.FINDING_OF_FACT, JUDGE.person, Role.JUDGE,
                             "bfsp 2.2.3", "the board was dealt from the top of the deck")  # fmt: skip
    accepted(pipeline.judge([ruled(records, confirmed, 15, JUDGE)]))
    assert refusal(pipeline.judge([start(records, called_raise_start(2, AMENDED_1), 20)])).rule == "bfsp 5.1"
    accepted(pipeline.judge(list(called_raise_hand(records, 2, MECHANICAL_1, 21))))


def test_a_later_decision_replaces_the_ruling_it_amends_rather_than_adding_to_it(pipeline: Pipeline) -> None:
    records = Records()
    hand_1_played(pipeline, records)
    accepted(pipeline.judge([ruled(records, split(), 15)]))
    where = seats()
    whole = PotReaward(0, (PotShare(where["p01"][1], POT_1),))
    restored = RulingIssued("r-2", f"{table()}/1", RulingKind.CHIEF_JUDGE_DECISION, CHIEF.person,
                            Role.CHIEF_JUDGE, "bfsp 2.1.3", "on p01's protest: the award stands",
                            reawards=(whole,), amends="r-1")  # fmt: skip
    accepted(pipeline.judge([ruled(records, restored, 16)]))
    assert [(r.ruling, r.in_force) for r in federation.rulings(pipeline.store, COMPETITION)] == [
        ("r-1", False), ("r-2", True),
    ]
    assert refusal(pipeline.judge([start(records, called_raise_start(2, AMENDED_1), 20)])).rule == "bfsp 5.1"
    accepted(pipeline.judge(list(called_raise_hand(records, 2, MECHANICAL_1, 21))))


#: what hand 2 (p02's queens beat p03's jacks, p01 folding his big blind) leaves on hand 1's engine stacks
MECHANICAL_2 = {
    "p01": MECHANICAL_1["p01"] - LEVEL_1.big_blind,
    "p02": MECHANICAL_1["p02"] + RAISE_TO + LEVEL_1.big_blind,
    "p03": MECHANICAL_1["p03"] - RAISE_TO,
}


def test_a_ruling_after_the_next_hand_started_is_refused_with_the_challenge_window(pipeline: Pipeline) -> None:
    records = Records()
    hand_1_played(pipeline, records)
    hand_2 = list(called_raise_hand(records, 2, MECHANICAL_1, 20))
    accepted(pipeline.judge(hand_2[:3]))
    late = refusal(pipeline.judge([ruled(records, split(), 20.5)]))
    assert (late.rule, late.reason) == (
        "bfsp 5.9.1",
        f"the right to challenge the result of hand {table()}/1 ended when the next hand at the table started, "
        "which was dealt with the chips as they stood: only the Chief Judge, departing from bfsp 5.9.1 for "
        "fairness, re-awards its pots now",
    )
    unnamed = split("r-2", RulingKind.FAIRNESS_OVERRIDE, deviates_from=("bfsp 6.4.7",),
                    justification="the winning hand was killed by the dealer's error")  # fmt: skip
    assert refusal(pipeline.judge([ruled(records, unnamed, 20.6)])).rule == "bfsp 5.9.1"


@pytest.mark.parametrize("restarted", [False, True], ids=["followed", "counted-again-after-a-restart"])
def test_the_chief_judges_fairness_override_reopens_a_closed_result_between_hands(
    pipeline: Pipeline, restarted: bool
) -> None:
    records = Records()
    hand_1_played(pipeline, records)
    hand_2 = list(called_raise_hand(records, 2, MECHANICAL_1, 20))
    accepted(pipeline.judge(hand_2[:3]))
    override = split("r-1", RulingKind.FAIRNESS_OVERRIDE, deviates_from=("bfsp 5.9.1",),
                     justification="the dealer's error was found only when the next hand had begun")  # fmt: skip
    in_play = refusal(pipeline.judge([ruled(records, override, 20.5)]))
    assert (in_play.rule, in_play.reason) == (
        "bfsp 5.1",
        f"p01's chips are in play in a hand not yet finished: ruling r-1 on hand {table()}/1 moves them once it ends",
    )
    accepted(pipeline.judge(hand_2[3:]))
    accepted(pipeline.judge([ruled(records, override, 25)]))
    if restarted:
        pipeline.restart()
    amended = {**MECHANICAL_2, "p01": MECHANICAL_2["p01"] - POT_1 // 2, "p02": MECHANICAL_2["p02"] + POT_1 // 2}
    # hand 3 still in level 1 (its 30 minutes run to 12:30 by the clock), dealt with the chips the ruling left
    assert refusal(pipeline.judge([start(records, called_raise_start(3, MECHANICAL_2), 27)])).rule == "bfsp 5.1"
    accepted(pipeline.judge([start(records, called_raise_start(3, amended), 28)]))


def test_a_player_the_ruling_left_without_chips_is_the_one_eliminated(pipeline: Pipeline) -> None:
    """Hand 1 all in, p01's ace-king against p02's queens: the engine busts p02, and the Chief Judge, finding
    that the dealer pushed the pot to the wrong player, gives all of it to p02, which leaves p01 with none."""
    records = Records()
    accepted(pipeline.judge(list(opening(records))))
    accepted(pipeline.judge(list(hand(records, 1, "p01", "p02", 10))))
    where = seats()
    pot = 2 * STACK + LEVEL_1.big_blind
    to_p02 = RulingIssued("r-1", f"{table()}/1", RulingKind.CHIEF_JUDGE_DECISION, CHIEF.person, Role.CHIEF_JUDGE,
                          "bfsp 2.1.6", "the dealer pushed the pot to the wrong player",
                          reawards=(PotReaward(0, (PotShare(where["p02"][1], pot),)),))  # fmt: skip
    accepted(pipeline.judge([ruled(records, to_p02, 11)]))

    def busted(participant: str, minutes: float) -> Record:
        eliminated = PlayerEliminated(participant, f"{table()}/1", EliminationReason.NO_CHIPS, 3, starting_stack=STACK)
        return records.record(eliminated, JUDGE, at(minutes))

    kept = refusal(pipeline.judge([busted("p02", 12)]))
    assert (kept.rule, kept.reason) == (
        "bfsp 5.10.2",
        f"p02 finished hand {table()}/1 as ruled with {chips(pot)} chips; a player is eliminated when he has none left",
    )
    accepted(pipeline.judge([busted("p01", 13)]))


def test_a_finding_after_a_decision_leaves_it_standing_and_its_pot_is_awarded_otherwise_only_by_amending_it(
    pipeline: Pipeline,
) -> None:
    records = Records()
    hand_1_played(pipeline, records)
    accepted(pipeline.judge([ruled(records, split(), 15)]))
    confirmed = RulingIssued("r-2", f"{table()}/1", RulingKind.FINDING_OF_FACT, JUDGE.person, Role.JUDGE,
                             "bfsp 2.2.3", "the board was dealt from the top of the deck")  # fmt: skip
    accepted(pipeline.judge([ruled(records, confirmed, 16, JUDGE)]))
    where = seats()
    again = RulingIssued("r-3", f"{table()}/1", RulingKind.CHIEF_JUDGE_DECISION, CHIEF.person, Role.CHIEF_JUDGE,
                         "bfsp 2.1.6", "the pot is p01's after all",
                         reawards=(PotReaward(0, (PotShare(where["p01"][1], POT_1),)),))  # fmt: skip
    stacked = refusal(pipeline.judge([ruled(records, again, 17)]))
    assert (stacked.rule, stacked.reason) == (
        "bfsp 2.1.3",
        "ruling r-1 awarded the main pot again: a ruling that awards it otherwise amends ruling r-1, and only the "
        "Chief Judge does",
    )
    assert [(r.ruling, r.in_force) for r in federation.rulings(pipeline.store, COMPETITION)] == [
        ("r-1", True), ("r-2", True),
    ]
    assert refusal(pipeline.judge([start(records, called_raise_start(2, MECHANICAL_1), 20)])).rule == "bfsp 5.1"
    accepted(pipeline.judge(list(called_raise_hand(records, 2, AMENDED_1, 21))))


def test_the_last_hand_before_a_break_may_be_ruled_on_for_a_minute_after_its_award(pipeline: Pipeline) -> None:
    records = Records()
    hand_1_played(pipeline, records)
    events = len(list(called_raise_hand(records, 1, {p: STACK for p in MECHANICAL_1}, 10)))
    awarded = 10 + (events - 1) / 60  # the hand's records are a second apart, its pot awarded with the last
    # the Chief Judge announces a break (bfsp 2.1.5): the level clock stops, and no next hand closes the window
    announced = LevelClockPaused("a break announced by the Chief Judge")
    accepted(pipeline.judge([records.record(announced, CHIEF, at(awarded + 0.1))]))
    accepted(pipeline.judge([ruled(records, split(), awarded + 0.9)]))
    where = seats()
    undone = RulingIssued("r-2", f"{table()}/1", RulingKind.CHIEF_JUDGE_DECISION, CHIEF.person, Role.CHIEF_JUDGE,
                          "bfsp 2.1.3", "the award stands", amends="r-1",
                          reawards=(PotReaward(0, (PotShare(where["p01"][1], POT_1),)),))  # fmt: skip
    late = refusal(pipeline.judge([ruled(records, undone, awarded + 1.1)]))
    assert (late.rule, late.reason) == (
        "bfsp 5.9.1",
        f"the right to challenge the result of hand {table()}/1, the last before a break, ended 60 seconds after "
        "the pot was awarded: only the Chief Judge, departing from bfsp 5.9.1 for fairness, re-awards its pots now",
    )


def test_no_judge_rules_on_a_hand_of_a_competition_that_appointed_nobody(pipeline: Pipeline) -> None:
    """A competition without Regulations (an import, a plain simulation) appointed no officials (bfsp 2.1.1):
    a judge's token is no office there, so no ruling rewrites its hands' results."""
    from federation_records import hand

    records = Records("nowhere-cup")
    accepted(pipeline.judge(list(hand(records, 1, "p01", "p02", 10))))
    confirmed = RulingIssued("r-1", f"{table()}/1", RulingKind.FINDING_OF_FACT, JUDGE.person, Role.JUDGE,
                             "bfsp 2.2.3", "the board was dealt from the top of the deck")  # fmt: skip
    for ruling, by in ((confirmed, JUDGE), (split(), CHIEF)):
        rejection = refusal(pipeline.judge([ruled(records, ruling, 15, by)]))
        assert rejection.rule == "bfsp 2.1.1", rejection
        assert "nowhere-cup has adopted no Regulations and so appointed no officials" in rejection.reason


def test_the_standings_kept_between_reads_change_at_once_with_a_ruling_and_with_a_hand(pipeline: Pipeline) -> None:
    """The standings' answer is kept with what it was worked out from (issue 17): asked again unchanged, the
    same answer; after a ruling or a hand, the new one on the very next read."""
    records = Records()
    hand_1_played(pipeline, records)
    database = SqliteReadDatabase(pipeline.folder / "read.sqlite")
    projector = Projector(pipeline.store, database)

    def read() -> federation.Standings:
        projector.catch_up()
        found = federation.standings(pipeline.store, ReadModels(database), COMPETITION)
        assert found is not None
        return found

    try:
        first = read()
        assert read() is first, "nothing moved: the kept answer"
        assert {r.participant: r.chips for r in first.remaining} == MECHANICAL_1
        accepted(pipeline.judge([ruled(records, split(), 15)]))
        moved = AMENDED_1["p01"] - MECHANICAL_1["p01"]
        assert {r.participant: (r.chips, r.moved_by_rulings) for r in read().remaining} == {
            "p01": (AMENDED_1["p01"], moved), "p02": (AMENDED_1["p02"], -moved), "p03": (AMENDED_1["p03"], 0),
        }
        accepted(pipeline.judge(list(called_raise_hand(records, 2, AMENDED_1, 21))))
        p02_won = AMENDED_1["p02"] + RAISE_TO + LEVEL_1.big_blind
        assert {r.participant: (r.chips, r.moved_by_rulings) for r in read().remaining}["p02"] == (p02_won, 0)
    finally:
        database.close()
