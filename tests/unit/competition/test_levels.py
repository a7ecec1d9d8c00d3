"""Levels and breaks (bfsp 3.3, 2.1.5), the level a hand is played at (TDA 2022 23), and the hand-for-hand
clock (TDA 2022 RP-8-b)."""

from __future__ import annotations

import pytest

from competition.a_competition import CHIEF, JUDGE, LEVELS, SECRETARY, at, drawn, registered, regulations
from domain.competition.regulations import Break, Level, Prize
from domain.errors import CompetitionError, NotPermittedError, RuleRef

pytestmark = pytest.mark.unit


def test_levels_start_in_the_schedules_order_and_no_further() -> None:
    competition = drawn(12)
    assert competition.current_level == LEVELS[0]
    for number in (2, 3, 4):
        assert competition.start_level(at(30 * (number - 1)), JUDGE, number=number).number == number
    # the last level runs on: there is no level 5, and level 4 is not announced twice
    with pytest.raises(CompetitionError, match="level 5 is not the level in force: at 14:30:00 the clock is in "
                       r"level 4 \(100/200, ante 25\), since 13:30:00 by the clock") as refused:
        competition.start_level(at(150), JUDGE, number=5)
    assert refused.value.rule == RuleRef("bfsp", "3.3")
    with pytest.raises(CompetitionError, match="level 4 has started already"):
        competition.start_level(at(150), JUDGE)


def test_a_level_announced_before_the_clock_reaches_it_is_refused_with_the_level_in_force() -> None:
    competition = drawn(12)
    with pytest.raises(CompetitionError, match="level 2 is not the level in force: at 12:20:00 the clock is in "
                       r"level 1 \(25/50\), 12:00:00–12:30:00 by the clock") as refused:
        competition.start_level(at(20), JUDGE, number=2)
    assert refused.value.rule == RuleRef("bfsp", "3.3")
    # a level the clock reached without an announcement is in force all the same
    assert competition.level_at(at(61)) == LEVELS[2]
    assert competition.start_level(at(61), JUDGE).number == 3


def test_play_starts_after_the_draw() -> None:
    with pytest.raises(CompetitionError, match="play starts after the seat draw"):
        registered(12).start_level(at(0), JUDGE)


def test_a_level_does_not_start_during_a_break() -> None:
    competition = drawn(12, regulations(breaks=(Break(1, 15),)))
    with pytest.raises(NotPermittedError, match="a judge may not announce a break"):
        competition.start_break(15, at(30), JUDGE)
    with pytest.raises(CompetitionError, match="no scheduled break is due: at 12:20:00 the clock is in level 1"):
        competition.start_break(15, at(20), CHIEF)
    with pytest.raises(CompetitionError, match="the break in force is the 15-minute break after level 1, not 10"):
        competition.start_break(10, at(30), CHIEF)
    competition.start_break(15, at(30), CHIEF)
    with pytest.raises(CompetitionError, match="no level starts now: at 12:40:00 the clock is in the 15-minute "
                       "break after level 1, 12:30:00–12:45:00 by the clock"):
        competition.start_level(at(40), JUDGE)
    with pytest.raises(CompetitionError, match="the break has not ended: at 12:40:00"):
        competition.end_break(at(40), CHIEF)
    competition.end_break(at(45), CHIEF)
    assert competition.start_level(at(45), JUDGE).number == 2
    with pytest.raises(CompetitionError, match="there is no break to end"):
        competition.end_break(at(46), CHIEF)


def test_a_schedule_change_leaves_the_levels_played_as_they_were() -> None:
    competition = drawn(12)
    competition.start_level(at(30), SECRETARY)
    faster = (LEVELS[0], Level(2, 20, 50, 100), *LEVELS[2:])
    with pytest.raises(CompetitionError, match="levels 1 to 2 have been played") as refused:
        competition.change_schedule(faster, (), "speed up", at(35), CHIEF)
    assert refused.value.rule == RuleRef("bfsp", "2.1.5")
    shorter_third = (*LEVELS[:2], Level(3, 20, 75, 150, ante=25), LEVELS[3])
    competition.change_schedule(shorter_third, (), "speed up", at(35), CHIEF)
    assert competition.start_level(at(60), JUDGE).minutes == 20


@pytest.mark.parametrize("rulebook", ["tda-2022", "bfsp"])
def test_tv_102_a_hand_started_at_the_old_blinds_after_the_level_changed(rulebook: str) -> None:
    competition = drawn(12, regulations(rulebook=rulebook))
    competition.start_level(at(30), JUDGE)
    competition.verify_hand_level(at(29.5), 1, substantial_action=False)
    competition.verify_hand_level(at(30.5), 2, substantial_action=False)
    with pytest.raises(
        CompetitionError, match="after level 2 began at 12:30:00 by the clock; it must be played at 50/100"
    ) as refused:
        competition.verify_hand_level(at(30.5), 1, substantial_action=False)
    assert refused.value.rule == (
        RuleRef("tda-2022", "23") if rulebook == "tda-2022" else RuleRef("bfsp", "3.3")
    )
    competition.verify_hand_level(at(30.5), 1, substantial_action=True)
    with pytest.raises(CompetitionError, match="level 3, which had not begun"):
        competition.verify_hand_level(at(30.5), 3, substantial_action=True)
    assert competition.level_at(at(29.9)) == LEVELS[0]
    assert competition.level_at(at(30)) == LEVELS[1]


def _bubble(players: int = 12, paid: int = 3):
    prizes = tuple(Prize(place, 1000 * (paid + 1 - place)) for place in range(1, paid + 1))
    return drawn(players, regulations(prizes=prizes, rulebook="tda-2022"))


@pytest.mark.parametrize("tv", ["TV-113", "2017/TV-50"])
def test_hand_for_hand_charges_two_minutes_a_hand_after_every_hand(tv: str) -> None:
    competition = _bubble()
    competition.start_hand_for_hand(int(17.5 * 60), at(12.5), CHIEF)
    clock = [competition.start_hand_for_hand_hand(at(13 + n), CHIEF).level_seconds_left for n in range(3)]
    assert clock == [int(15.5 * 60), int(13.5 * 60), int(11.5 * 60)]


def test_hand_for_hand_starts_the_next_level_when_its_clock_runs_out() -> None:
    competition = _bubble()
    competition.start_hand_for_hand(150, at(27.5), CHIEF)
    assert competition.start_hand_for_hand_hand(at(28), CHIEF).level_seconds_left == 30
    assert competition.current_level == LEVELS[0]
    started = competition.start_hand_for_hand_hand(at(29), CHIEF)
    assert competition.current_level == LEVELS[1]
    assert (started.round, started.level_seconds_left) == (2, 30 * 60)


def test_hand_for_hand_is_for_the_bubble() -> None:
    competition = _bubble(players=4, paid=4)
    with pytest.raises(CompetitionError, match="4 players are left and 4 places are paid") as refused:
        competition.start_hand_for_hand(600, at(10), CHIEF)
    assert refused.value.rule == RuleRef("tda-2022", "RP-8")
    competition = _bubble()
    with pytest.raises(CompetitionError, match="play is not hand-for-hand"):
        competition.start_hand_for_hand_hand(at(10), CHIEF)
    with pytest.raises(CompetitionError, match="at 12:10:00 the clock has 1200 s left of level 1, not 1860 s"):
        competition.start_hand_for_hand(31 * 60, at(10), CHIEF)
    with pytest.raises(CompetitionError, match="the clock has 1200 s left of level 1, not 600 s"):
        competition.start_hand_for_hand(600, at(10), CHIEF)
    with pytest.raises(NotPermittedError, match="a judge may not start hand-for-hand play"):
        competition.start_hand_for_hand(1200, at(10), JUDGE)
    competition.start_hand_for_hand(1200, at(10), CHIEF)
    with pytest.raises(CompetitionError, match="hand-for-hand already"):
        competition.start_hand_for_hand(500, at(11), CHIEF)
    competition.end_hand_for_hand(at(20), CHIEF)
    assert competition.hand_for_hand is None


def test_the_chief_judges_pause_and_hand_for_hand_each_stop_the_clock_and_not_both() -> None:
    competition = _bubble()
    with pytest.raises(NotPermittedError, match="a judge may not stop the level clock"):
        competition.pause_clock("a dispute", at(5), JUDGE)
    with pytest.raises(CompetitionError, match="reason: the Chief Judge says why he stops the clock"):
        competition.pause_clock(" ", at(5), CHIEF)
    competition.pause_clock("a dispute at table 1", at(5), CHIEF)
    with pytest.raises(CompetitionError, match="the level clock is stopped already"):
        competition.pause_clock("again", at(6), CHIEF)
    with pytest.raises(CompetitionError, match="is not what is left of a level being played: at 12:10:00 the clock "
                       r"is in level 1 \(25/50\), since 12:00:00 by the clock, the clock stopped \(a dispute"):
        competition.start_hand_for_hand(1500, at(10), CHIEF)
    competition.resume_clock(at(5), at(15), CHIEF)
    # level 1 ran 5 minutes before the pause and 5 after it: 20 of its 30 are left
    competition.start_hand_for_hand(1200, at(20), CHIEF)
    with pytest.raises(CompetitionError, match="the level clock is stopped already \\(hand-for-hand"):
        competition.pause_clock("a dispute", at(21), CHIEF)
    with pytest.raises(CompetitionError, match="the Chief Judge has not stopped the level clock"):
        competition.resume_clock(at(20), at(22), CHIEF)
    competition.end_hand_for_hand(at(40), CHIEF)
    # hand-for-hand kept the clock at 20 minutes left from 12:20 to 12:40: level 2 begins at 13:00
    assert competition.level_at(at(59)) == LEVELS[0] and competition.level_at(at(60)) == LEVELS[1]
