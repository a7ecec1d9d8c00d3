"""The Regulations: validated once when adopted, each refusal naming the field and the rule."""

from __future__ import annotations

import pytest

from competition.a_competition import CHIEF, FEDERATION, JUDGE, LEVELS, at, regulations, staffed
from domain.competition.aggregate import Competition
from domain.competition.events import decode
from domain.competition.regulations import Break, Level, Prize, ReEntry, cite, verify_regulations
from domain.errors import CompetitionError, NotPermittedError, RuleRef
from domain.rulebooks import get_rulebook

pytestmark = pytest.mark.unit


def test_regulations_adopted_by_the_federation_are_recorded_whole() -> None:
    regs = regulations(re_entry=ReEntry(2, 2, 10_000), add_on=5_000, breaks=(Break(2, 15),))
    competition = Competition.adopt("minsk-open-2026", regs, at(0), FEDERATION)
    adopted = decode(competition.collect_events()[0].payload)
    assert adopted.regulations == regs
    assert adopted.competition_id == "minsk-open-2026"


@pytest.mark.parametrize(
    ("change", "words", "rule"),
    [
        (
            {"max_seats": 11},
            "max_seats: a table seats 6 to 10 players under bfsp, and the regulations say 11",
            "3.1",
        ),
        ({"levels": (LEVELS[0], LEVELS[1], Level(4, 30, 100, 200))}, "level 3 is missing", "3.3"),
        (
            {"levels": (Level(1, 30, 50, 100), Level(2, 30, 25, 50))},
            "level 2 (25/50) is lower than level 1",
            "3.3",
        ),
        ({"levels": (Level(1, 0, 25, 50),)}, "level 1 lasts 0 minutes", "3.3"),
        ({"breaks": (Break(7, 15),)}, "breaks: a break of 15 minutes after level 7", "3.3"),
        ({"starting_stack": 0}, "starting_stack: every participant starts with the same positive", "5.1"),
        ({"starting_stack": 10_010}, "denominations: a starting stack of 10,010", "5.1"),
        ({"re_entry": ReEntry(2, 2, 5_000)}, "a re-entry of 5,000 against a starting stack of 10,000", "5.1"),
        ({"re_entry": ReEntry(2, 9, 10_000)}, "until level 9", "3.1"),
        ({"min_age": 16}, "min_age: the regulations cannot admit players younger than 18", "1.1"),
        (
            {"final_table": 10},
            "final_table: the final table of an event played 9 to a table seats 2 to 9",
            "3.1",
        ),
        ({"prizes": (Prize(1, 100), Prize(3, 50))}, "prizes: the paid places must run 1, 2, 3", "5.10.2"),
        ({"prizes": (Prize(1, 100), Prize(2, 150))}, "a higher place never pays less", "5.10.2"),
    ],
)
def test_regulations_a_competition_cannot_be_run_by_are_refused(change: dict, words: str, rule: str) -> None:
    with pytest.raises(CompetitionError, match=words.replace("(", r"\(").replace(")", r"\)")) as refused:
        verify_regulations(regulations(**change))
    assert refused.value.rule == RuleRef("bfsp", rule)


def test_a_refused_regulation_creates_no_competition() -> None:
    with pytest.raises(CompetitionError):
        Competition.adopt("c", regulations(max_seats=11), at(0), FEDERATION)


def test_under_the_tda_the_table_size_cites_its_final_table_rule() -> None:
    with pytest.raises(CompetitionError) as refused:
        verify_regulations(regulations(max_seats=11, rulebook="tda-2022"))
    assert refused.value.rule == RuleRef("tda-2022", "RP-9")


@pytest.mark.parametrize(
    ("rulebook", "max_seats", "final"),
    [("bfsp", 10, 9), ("bfsp", 9, 9), ("tda-2022", 10, 10), ("tda-2017", 9, 10), ("tda-2022", 6, 7)],
)
def test_the_final_table_size_comes_from_the_rulebook_unless_the_regulations_set_it(
    rulebook: str, max_seats: int, final: int
) -> None:
    assert regulations(rulebook=rulebook, max_seats=max_seats).final_table_size == final
    assert regulations(rulebook=rulebook, max_seats=max_seats, final_table=6).final_table_size == 6


def test_a_ten_max_federation_event_plays_its_last_two_tables_nine_max() -> None:
    bfsp, tda = regulations(max_seats=10), regulations(max_seats=10, rulebook="tda-2022")
    assert [bfsp.seats_at(n) for n in (40, 19, 18, 9)] == [10, 10, 9, 9]
    assert [tda.seats_at(n) for n in (40, 18, 9)] == [10, 10, 10]


def test_only_the_federation_or_the_chief_judge_adopts_regulations() -> None:
    with pytest.raises(NotPermittedError, match="a judge may not adopt the competition's Regulations"):
        Competition.adopt("c", regulations(), at(0), JUDGE)
    Competition.adopt("c", regulations(), at(0), CHIEF)


def test_where_the_federation_is_silent_the_tda_rule_is_cited_as_the_tdas() -> None:
    assert cite(get_rulebook("bfsp"), "chip_race") == RuleRef("tda-2022", "24")
    assert cite(get_rulebook("tda-2017"), "chip_race") == RuleRef("tda-2017", "D-23")
    assert cite(get_rulebook("bfsp"), "seat_draw") == RuleRef("bfsp", "5.2")
    assert cite(get_rulebook("bfsp"), "final_table") == RuleRef("bfsp", "3.1")


def test_the_chief_judge_changes_the_schedule() -> None:
    competition = staffed()
    longer = (*LEVELS, Level(5, 30, 150, 300, ante=25))
    competition.change_schedule(longer, (Break(4, 20),), "more levels for a late finish", at(0), CHIEF)
    assert competition.levels == longer
    assert competition.breaks == (Break(4, 20),)
    with pytest.raises(NotPermittedError, match="a judge may not change the game schedule"):
        competition.change_schedule(LEVELS, (), "shorter", at(1), JUDGE)
    with pytest.raises(CompetitionError, match="level 2 is missing"):
        competition.change_schedule((LEVELS[0], LEVELS[3]), (), "skip", at(1), CHIEF)
