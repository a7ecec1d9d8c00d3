"""The season's rating list (issue 13, "Season"): the federation's rating rules (domain/rating.py) on a hand-worked
example, their refusals, and the read model the projector keeps, through the referee: two competitions of 2026
played to their winners, an athlete disqualified for the season, the rules adopted, the list read back and
rebuilt."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from embedded_referee import Pipeline
from federation_records import CHIEF, FEDERATION, JUDGE, Records, at, opening, play_to_the_end
from read_model_checks import everything

from domain.discipline.events import (
    SeasonDisqualificationDecided,
    ViolationEnteredInProtocol,
    ViolationRecorded,
)
from domain.errors import NotPermittedError
from domain.rating import Placed, RatingError, RatingRulesAdopted, SeasonRating, rating_list, verify_rules
from domain.roles import Role
from ingest.envelope import RecordedBy
from projections.database import SqliteReadDatabase
from projections.read_models import ReadModels
from projections.runner import Projector

pytestmark = pytest.mark.unit

RULES = RatingRulesAdopted("2026", (10, 7, 5, 3), best_of=2)


def test_the_rating_list_of_a_hand_worked_season() -> None:
    """Three competitions, points 10-7-5-3 for places 1-4, an athlete's best two results count.

    ===========  ========================  =====================  ====================  =====  ====
    athlete      cup-a                     cup-b                  cup-c                 total  rank
    ===========  ========================  =====================  ====================  =====  ====
    anna         1st: 10                   3rd: 5                 2nd-3rd shared: 6     16     1
    boris        2nd: 7                    1st: 10                (none)                17     —
    dasha        3rd: 5                    2nd: 7                 2nd-3rd shared: 6     13     2
    egor         4th: 3                    disqualified: 0        1st: 10               13     2
    fedor        6th: 0 (past the points)  4th: 3 (and 7th)       (none)                3      4
    ===========  ========================  =====================  ====================  =====  ====

    boris has the highest total but is disqualified for the season: listed last, unranked. anna's best two are
    cup-a's 10 and cup-c's 6 (cup-b's 5 does not count); egor's disqualification at cup-b scores nothing; fedor
    played two entries at cup-b, the better (4th) counts; dasha and egor share rank 2, so the next is 4th.
    """
    placed = [
        Placed("cup-a", "a1", "anna", 1), Placed("cup-a", "a2", "boris", 2), Placed("cup-a", "a3", "dasha", 3),
        Placed("cup-a", "a4", "egor", 4), Placed("cup-a", "a6", "fedor", 6),
        Placed("cup-b", "b1", "boris", 1), Placed("cup-b", "b2", "dasha", 2), Placed("cup-b", "b3", "anna", 3),
        Placed("cup-b", "b4", "fedor", 4), Placed("cup-b", "b7", "fedor", 7),
        Placed("cup-b", "b5", "egor", 5, disqualified=True),
        Placed("cup-c", "c1", "egor", 1), Placed("cup-c", "c2", "anna", 2, shared=2),
        Placed("cup-c", "c3", "dasha", 2, shared=2),
    ]
    rated = rating_list(RULES, placed, {"boris": "cup-b"})
    assert [(r.athlete, r.rank, r.total) for r in rated] == [
        ("anna", 1, 16), ("dasha", 2, 13), ("egor", 2, 13), ("fedor", 4, 3), ("boris", None, 17),
    ]
    anna = rated[0]
    assert [(c.competition, c.place, c.shared, c.points, c.counts) for c in anna.results] == [
        ("cup-a", 1, 1, 10, True), ("cup-b", 3, 1, 5, False), ("cup-c", 2, 2, 6, True),
    ]
    egor = rated[2]
    assert [(c.competition, c.disqualified, c.points) for c in egor.results] == [
        ("cup-a", False, 3), ("cup-b", True, 0), ("cup-c", False, 10),
    ]
    fedor = rated[3]
    assert [(c.competition, c.participant, c.place) for c in fedor.results] == [("cup-a", "a6", 6), ("cup-b", "b4", 4)]
    assert rated[-1].season_disqualified == "cup-b"


def test_shared_places_share_the_points_of_the_places_they_cover() -> None:
    rated = rating_list(RatingRulesAdopted("2026", (10, 7, 4)), [
        Placed("cup", "x", "x", 2, shared=3), Placed("cup", "y", "y", 2, shared=3), Placed("cup", "z", "z", 2, shared=3),
        Placed("cup", "w", "w", 1),
    ])
    assert [(r.athlete, r.rank, r.total) for r in rated] == [
        ("w", 1, 10), ("x", 2, Fraction(11, 3)), ("y", 2, Fraction(11, 3)), ("z", 2, Fraction(11, 3)),
    ]


def test_only_the_named_competitions_count_when_the_rules_name_them() -> None:
    rules = RatingRulesAdopted("2026", (5,), competitions=("cup-b",))
    rated = rating_list(rules, [Placed("cup-a", "a", "anna", 1), Placed("cup-b", "b", "boris", 1)])
    assert [(r.athlete, r.total) for r in rated] == [("boris", 5)]


@pytest.mark.parametrize(
    ("rules", "says"),
    [
        (RatingRulesAdopted("26", (10,)), "season '26' is not a year"),
        (RatingRulesAdopted("2026", ()), "points: the winner scores more than nothing"),
        (RatingRulesAdopted("2026", (10, 12)), "points: place 2 scores 12, more than place 1's 10"),
        (RatingRulesAdopted("2026", (10, -1)), "points: no place scores fewer than nothing"),
        (RatingRulesAdopted("2026", (10,), best_of=-1), "best_of: -1 results cannot count"),
        (RatingRulesAdopted("2026", (10,), competitions=("a", "a")), "competitions: each competition"),
    ],
)
def test_rules_no_list_can_be_computed_by_are_refused_naming_the_field(rules: RatingRulesAdopted, says: str) -> None:
    with pytest.raises(RatingError, match=says) as refused:
        verify_rules(rules, None)
    assert str(refused.value.rule) == "bfsp 2.10"


def test_only_the_federation_adopts_rules_and_says_why_it_adopts_them_again() -> None:
    rating = SeasonRating.open("2026", at(0))
    with pytest.raises(NotPermittedError):
        rating.adopt(RULES, Role.CHIEF_JUDGE, at(1))
    rating.adopt(RULES, Role.FEDERATION, at(1))
    with pytest.raises(RatingError, match="rules adopted again say why"):
        rating.adopt(RatingRulesAdopted("2026", (12, 8)), Role.FEDERATION, at(2))
    rating.adopt(RatingRulesAdopted("2026", (12, 8), reason="the board's decision of 2 June"), Role.FEDERATION, at(2))
    assert rating.rules is not None and rating.rules.points == (12, 8)
    with pytest.raises(RatingError, match="season 2026's rules, not season 2027's"):
        rating.adopt(RatingRulesAdopted("2027", (1,)), Role.FEDERATION, at(3))


# --- through the referee and the projector ----------------------------------------------------------------------


def test_the_rating_list_read_model_through_the_referee(tmp_path: Path) -> None:
    """The Minsk Open and the Minsk Cup of 2026 each end p01 1st, p03 2nd, p02 3rd (persons person-p0x); p02
    insulted the dealer at the Open, the Chief Judge entered it in its protocol and the federation disqualifies
    person-p02 for the season; the rules give 10-6-3."""
    pipeline = Pipeline(tmp_path)
    cup = Records("minsk-cup-2026")
    records = Records()
    verdicts = pipeline.judge([
        *opening(records), *play_to_the_end(records),
        records.record(ViolationRecorded("p02", "7.1.11", "", True, 1, "insulted the dealer"), JUDGE, at(11)),
        records.record(ViolationEnteredInProtocol("p02", 1), CHIEF, at(11.5)),
        *opening(cup), *play_to_the_end(cup),
        records.record(SeasonDisqualificationDecided("person-p02", "2026", "minsk-open-2026", 1, "7.1.11", at(30)),
                       FEDERATION, at(30)),
    ])
    assert {v.outcome for v in verdicts} == {"accepted"}, [v.rejection for v in verdicts if v.rejection]
    read = tmp_path / "read.sqlite"
    projector = Projector(pipeline.store, SqliteReadDatabase(read))
    projector.catch_up()
    models = ReadModels(SqliteReadDatabase(read))
    assert models.season_rating("2026") is None, "no rules adopted: no list"
    refused = pipeline.judge([records.record(RatingRulesAdopted("2026", (10, 6, 3)), RecordedBy(
        person=CHIEF.person, role=Role.CHIEF_JUDGE), at(31))])
    assert refused[0].rejection is not None and refused[0].rejection.rule == "bfsp 2.10"
    adopted = pipeline.judge([records.record(RatingRulesAdopted("2026", (10, 6, 3)), FEDERATION, at(31))])
    assert [v.outcome for v in adopted] == ["accepted"], adopted[0].rejection
    projector.catch_up()
    rating = models.season_rating("2026")
    assert rating is not None
    assert [(c.competition, c.counted, c.over) for c in rating.competitions] == [
        ("minsk-cup-2026", True, True), ("minsk-open-2026", True, True),
    ]
    assert [(a.athlete, a.rank, a.total) for a in rating.athletes] == [
        ("person-p01", 1, 20.0), ("person-p03", 2, 12.0), ("person-p02", None, 6.0),
    ]
    barred = rating.athletes[-1].season_disqualified
    assert barred is not None and (barred.competition, barred.code) == ("minsk-open-2026", "7.1.11")
    assert [(r.competition, r.place, r.points) for r in rating.athletes[0].results] == [
        ("minsk-cup-2026", 1, 10.0), ("minsk-open-2026", 1, 10.0),
    ]
    assert models.season_rating("2027") is None
    # rebuilt from the store: the same rows
    before = everything(SqliteReadDatabase(read))
    projector.rebuild()
    assert everything(SqliteReadDatabase(read)) == before
    projector.close()
