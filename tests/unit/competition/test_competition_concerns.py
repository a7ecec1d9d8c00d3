"""The Competition's acts split by concern: each concern a mixin over one explicit state.

The state every concern reads is declared once (:class:`CompetitionState`); the concerns share nothing else but
the checks on it, and none of them defines what another does.
"""

from __future__ import annotations

import typing

import pytest

from competition.a_competition import drawn
from domain.competition.aggregate import Competition
from domain.competition.competition_state import CompetitionState
from domain.competition.draw_acts import DrawActs
from domain.competition.floor_acts import FloorActs
from domain.competition.level_acts import LevelActs
from domain.competition.result_acts import ResultActs
from domain.competition.roster_acts import RosterActs

pytestmark = pytest.mark.unit

CONCERNS = (RosterActs, DrawActs, LevelActs, FloorActs, ResultActs)
#: what eventsourcing and the hash chain keep on every aggregate, not the competition's own state
_AGGREGATE_OWN = {"_id", "_version", "_created_on", "_modified_on", "_pending_events", "_bodies", "_stream_text",
                  "_floor_clock"}


def test_every_attribute_of_a_competition_is_declared_on_the_state_the_concerns_read() -> None:
    competition = drawn(9)
    declared = set(typing.get_type_hints(CompetitionState))
    held = {name for name in vars(competition) if name not in _AGGREGATE_OWN}
    assert held - declared == set(), "an attribute the concerns cannot see declared"
    assert declared - held == set(), "a declared attribute no competition holds"


def test_no_two_concerns_define_the_same_act_and_each_is_a_competitions() -> None:
    defined: dict[str, str] = {}
    for concern in CONCERNS:
        assert issubclass(Competition, concern) and issubclass(concern, CompetitionState)
        for name, member in vars(concern).items():
            if callable(member) or isinstance(member, property):
                assert name not in defined, f"{name} in {defined.get(name)} and {concern.__name__}"
                defined[name] = concern.__name__
    shared = {n for n, m in vars(CompetitionState).items() if callable(m) or isinstance(m, property)}
    # only the two steps an act takes that another part owns are declared on the state and defined elsewhere
    assert {n for n in shared if n in defined or n in vars(Competition)} == {"_record", "_start_next_level"}
