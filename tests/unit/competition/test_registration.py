"""Officials appointed (bfsp 2.1.1) and participants registered: 18 or older on the first day (bfsp 1.1), not
while a season disqualification stands (bfsp 7.2.3), re-entries only as the regulations allow (bfsp 3.1)."""

from __future__ import annotations

from datetime import date

import pytest

from competition.a_competition import (
    ADULT,
    CHIEF,
    DEALER,
    FEDERATION,
    JUDGE,
    SECRETARY,
    at,
    drawn,
    regulations,
    staffed,
)
from domain.competition.aggregate import Recorder
from domain.competition.events import SeatAssignment, decode
from domain.competition.placings import Bust
from domain.competition.regulations import ReEntry
from domain.errors import CompetitionError, NotPermittedError, RuleRef
from domain.officials import Delegation
from domain.roles import Role

pytestmark = pytest.mark.unit


def test_a_player_who_turns_18_on_the_first_day_may_enter_one_a_day_younger_may_not() -> None:
    competition = staffed()
    competition.register("p1", "anna", date(2008, 5, 9), at(0), SECRETARY)
    with pytest.raises(CompetitionError, match="boris is 17 on 09 May 2026") as refused:
        competition.register("p2", "boris", date(2008, 5, 10), at(1), SECRETARY)
    assert refused.value.rule == RuleRef("bfsp", "1.1")
    assert list(competition.entries) == ["p1"]


def test_a_standing_season_disqualification_bars_registration() -> None:
    competition = staffed()
    with pytest.raises(
        CompetitionError, match="disqualified from official competitions for the season"
    ) as refused:
        competition.register("p1", "anna", ADULT, at(0), SECRETARY, season_disqualified={"anna", "oleg"})
    assert refused.value.rule == RuleRef("bfsp", "7.2.3")
    competition.register("p1", "anna", ADULT, at(1), SECRETARY, season_disqualified={"oleg"})


def test_membership_fee_and_consents_are_recorded() -> None:
    competition = staffed()
    competition.register(
        "p1", "anna", ADULT, at(0), SECRETARY, membership_valid=False, entry_fee_paid=True, consent_media=True
    )
    registered = decode(competition.collect_events()[-1].payload)
    assert (registered.membership_valid, registered.entry_fee_paid, registered.consent_media) == (
        False,
        True,
        True,
    )
    assert registered.consent_personal_data and registered.entry == 1 and registered.birth_date == ADULT


def test_only_the_secretary_or_the_chief_judge_registers_and_only_as_appointed() -> None:
    competition = staffed()
    with pytest.raises(NotPermittedError, match="a dealer may not register a participant"):
        competition.register("p1", "anna", ADULT, at(0), DEALER)
    with pytest.raises(NotPermittedError, match="stranger is not appointed secretary"):
        competition.register("p1", "anna", ADULT, at(0), Recorder("stranger", Role.SECRETARY))


def test_a_person_plays_one_entry_at_a_time() -> None:
    competition = staffed()
    competition.register("p1", "anna", ADULT, at(0), SECRETARY)
    with pytest.raises(CompetitionError, match="anna is still playing as entry p1"):
        competition.register("p2", "anna", ADULT, at(1), SECRETARY)
    with pytest.raises(CompetitionError, match="entry p1 is already registered"):
        competition.register("p1", "boris", ADULT, at(1), SECRETARY)


def test_nobody_enters_after_the_draw_except_a_re_entry() -> None:
    competition = drawn(12)
    with pytest.raises(CompetitionError, match="cannot enter after the seat draw") as refused:
        competition.register("late", "latecomer", ADULT, at(5), SECRETARY)
    assert refused.value.rule == RuleRef("bfsp", "5.2")


def _busted(regs_re_entry: ReEntry | None) -> tuple:
    competition = drawn(12, regulations(re_entry=regs_re_entry))
    table, seat = competition.seats["p01"]
    competition.eliminate("hand-3", [Bust("p01", table, 800)], at(10), JUDGE)
    return competition, table, seat


def test_a_re_entry_takes_a_free_seat_while_the_regulations_allow_it() -> None:
    competition, table, seat = _busted(ReEntry(2, 2, 10_000))
    competition.register(
        "p01-2", "person-p01", ADULT, at(11), SECRETARY, seat=SeatAssignment("p01-2", table, seat)
    )
    assert competition.entries["p01-2"].entry == 2
    assert competition.seats["p01-2"] == (table, seat)
    competition.eliminate("hand-9", [Bust("p01-2", table, 300)], at(20), JUDGE)
    with pytest.raises(CompetitionError, match="used all 2 entries") as refused:
        competition.register(
            "p01-3", "person-p01", ADULT, at(21), SECRETARY, seat=SeatAssignment("p01-3", table, seat)
        )
    assert refused.value.rule == RuleRef("bfsp", "3.1")


def test_a_re_entry_needs_a_free_seat() -> None:
    competition, table, _ = _busted(ReEntry(2, 2, 10_000))
    taken = next(s for p, (t, s) in competition.seats.items() if t == table and p != "p01")
    with pytest.raises(CompetitionError, match=f"table {table} seat {taken} is not free"):
        competition.register(
            "p01-2", "person-p01", ADULT, at(11), SECRETARY, seat=SeatAssignment("p01-2", table, taken)
        )
    with pytest.raises(CompetitionError, match="needs a seat of its own"):
        competition.register("p01-2", "person-p01", ADULT, at(11), SECRETARY)


def test_no_re_entry_without_the_regulations_or_after_its_last_level() -> None:
    competition, table, seat = _busted(None)
    with pytest.raises(CompetitionError, match="the regulations allow no re-entry"):
        competition.register(
            "p01-2", "person-p01", ADULT, at(11), SECRETARY, seat=SeatAssignment("p01-2", table, seat)
        )
    competition, table, seat = _busted(ReEntry(3, 1, 10_000))
    competition.start_level(at(30), JUDGE)
    with pytest.raises(
        CompetitionError, match="re-entry closed at the end of level 1; level 2 is being played"
    ):
        competition.register(
            "p01-2", "person-p01", ADULT, at(31), SECRETARY, seat=SeatAssignment("p01-2", table, seat)
        )


def test_the_federation_appoints_the_chief_judge_and_he_appoints_the_others() -> None:
    competition = staffed()
    assert {p: o.role for p, o in competition.officials.items()} == {
        CHIEF.person: Role.CHIEF_JUDGE,
        SECRETARY.person: Role.SECRETARY,
        JUDGE.person: Role.JUDGE,
        DEALER.person: Role.DEALER,
    }
    with pytest.raises(NotPermittedError, match="only the federation appoints the Chief Judge") as refused:
        competition.appoint("someone", Role.CHIEF_JUDGE, at(0), CHIEF)
    assert refused.value.rule == RuleRef("bfsp", "2.1.1")
    with pytest.raises(CompetitionError, match="cj-ivanov is already the Chief Judge"):
        competition.appoint("someone", Role.CHIEF_JUDGE, at(0), FEDERATION)
    with pytest.raises(NotPermittedError, match="the Chief Judge appoints the judges"):
        competition.appoint("someone", Role.JUDGE, at(0), FEDERATION)
    with pytest.raises(NotPermittedError, match="a judge may not appoint an official"):
        competition.appoint("someone", Role.DEALER, at(0), JUDGE)
    with pytest.raises(CompetitionError, match="judge-sidorov already serves as judge"):
        competition.appoint(JUDGE.person, Role.DEALER, at(0), CHIEF)


def test_an_authorised_person_holds_only_what_the_chief_judge_delegates() -> None:
    competition = staffed()
    with pytest.raises(CompetitionError, match="only an authorised person holds delegations"):
        competition.appoint("clerk", Role.JUDGE, at(0), CHIEF, delegations=[Delegation.DRAW])
    competition.appoint(
        "clerk", Role.AUTHORISED, at(0), CHIEF, delegations=[Delegation.BALANCING, Delegation.DRAW]
    )
    assert competition.officials["clerk"].delegations == ("balancing", "draw")


def test_the_chief_judge_removes_an_official_from_duty() -> None:
    competition = staffed()
    competition.remove_official(DEALER.person, "unsportsmanlike behaviour", at(0), CHIEF)
    assert DEALER.person not in competition.officials
    with pytest.raises(NotPermittedError, match="dealer-kozlov is not appointed dealer"):
        competition.conduct_chip_race(1, 25, [], [], at(1), DEALER)
    with pytest.raises(NotPermittedError, match="the secretary may not remove an official"):
        competition.remove_official(JUDGE.person, "no reason", at(1), SECRETARY)
