"""The SeasonRecord aggregate: an athlete's standing for one sports season, across competitions.

Only the federation disqualifies for a season, and only on a violation the Chief Judge entered in the protocol
of the competition where it happened (bfsp 7.2.3); registration asks :meth:`SeasonRecord.is_disqualified`.
The athlete is named as the competitions name their participants (one person, one id across competitions).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.chained import JSON
from domain.discipline.case import DisciplinaryCase
from domain.discipline.events import CATALOG, SeasonDisqualificationDecided, SeasonRecordOpened
from domain.discipline.ladder import PenaltyKind, verify_sanction, violation
from domain.errors import DisciplineError, RuleRef
from domain.officials import Act, verify_permitted
from domain.officials.codec import decode, encode
from domain.officials.recorded import OfficialsRecord, applies, recorded_events
from domain.roles import Role

SEASON_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/season-record")
SEASON_RULE = RuleRef("bfsp", "7.2.3")


def season_record_id(athlete: str, season: str) -> UUID:
    return uuid5(SEASON_NAMESPACE, f"{athlete}/{season}")


def verify_case_to_decide_on(athlete: str, competition: str, case: DisciplinaryCase | None) -> DisciplinaryCase:
    """A season disqualification rests on a violation in ``athlete``'s disciplinary ``case`` at ``competition``
    (None: he has none there)."""
    if case is None:
        raise DisciplineError(
            f"{athlete} has no disciplinary record at {competition}: a season disqualification rests on a "
            "violation there",
            SEASON_RULE,
        )
    return case


def verify_counts_in(competition: str, counted_in: str, season: str) -> None:
    """A season disqualification bars the athlete from the season of the competition where the violation
    happened: ``counted_in``, the year it starts in."""
    if season != counted_in:
        raise DisciplineError(
            f"{competition} counts in season {counted_in} (the year it starts), not {season}: the disqualification "
            "is for the season of the competition where the violation happened",
            SEASON_RULE,
        )


def entry_of(competition: str, persons: Mapping[str, str], athlete: str, participant: str = "") -> str:
    """The entry at ``competition`` whose case a season disqualification of person ``athlete`` rests on:
    ``participant`` when it is his, else his only entry there (``persons``: each entry's person, as the
    competition registered them). A decision naming an entry instead of the person is refused: the season
    record is the person's, and registration at a later competition asks by the person (bfsp 7.2.3)."""
    if athlete in persons and persons[athlete] != athlete:
        raise DisciplineError(
            f"{athlete} is an entry at {competition}, {persons[athlete]}'s: the federation names the athlete by "
            f"his person ({persons[athlete]}), whom every competition of the season registers, and the entry as "
            "participant",
            SEASON_RULE,
        )
    entries = [p for p, person in persons.items() if person == athlete]
    if participant:
        if persons.get(participant) != athlete:
            owner = persons.get(participant)
            raise DisciplineError(
                f"entry {participant} at {competition} is "
                + (f"{owner}'s, not {athlete}'s" if owner is not None else "not registered"),
                SEASON_RULE,
            )
        return participant
    if not entries:
        raise DisciplineError(f"{athlete} has no entry at {competition}", SEASON_RULE)
    if len(entries) > 1:
        raise DisciplineError(
            f"{athlete} played {len(entries)} entries at {competition} ({', '.join(entries)}): the decision names "
            "the entry whose violation it rests on (participant)",
            SEASON_RULE,
        )
    return entries[0]


class SeasonRecord(OfficialsRecord):
    RECORDS = (SeasonDisqualificationDecided,)

    @event("SeasonRecordOpened")
    def __init__(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        opened: SeasonRecordOpened = decode(payload, CATALOG)
        self.athlete = opened.athlete
        self.season = opened.season
        self.decisions: list[SeasonDisqualificationDecided] = []
        self.chain_head = link

    @classmethod
    def open(cls, athlete: str, season: str, at: datetime, meta: JSON | None = None) -> SeasonRecord:
        payload = encode(SeasonRecordOpened(athlete, season))
        record: SeasonRecord = cls._create_chained(
            "SeasonRecordOpened", season_record_id(athlete, season), at, payload, meta or {}
        )
        return record

    @property
    def disqualifications(self) -> tuple[SeasonDisqualificationDecided, ...]:
        return tuple(self.decisions)

    def is_disqualified(self, season: str, at: datetime) -> bool:
        """Barred from ``season``'s official and rating competitions at ``at`` (the registration check)."""
        return season == self.season and any(d.decided_at <= at for d in self.disqualifications)

    def decide(
        self,
        case: DisciplinaryCase,
        number: int,
        decided_by: Role,
        at: datetime,
        protocol: str = "",
        meta: JSON | None = None,
        person: str | None = None,
        participant: str = "",
    ) -> SeasonDisqualificationDecided:
        """The federation's season disqualification on violation ``number`` of ``case``; ``person`` is whose entry
        the case's participant is (the competition's registration: :func:`entry_of`), None where the entry's id
        names the person itself."""
        verify_permitted(Act.SEASON_DISQUALIFICATION, decided_by)
        owner = case.participant if person is None else person
        if owner != self.athlete:
            raise DisciplineError(
                f"the case at {case.competition} is {owner}'s, not {self.athlete}'s", SEASON_RULE
            )
        if not 1 <= number <= len(case.violations):
            raise DisciplineError(
                f"{self.athlete} has no violation {number} at {case.competition}", SEASON_RULE
            )
        recorded = case.violations[number - 1]
        if not case.entered_in_protocol(number):
            raise DisciplineError(
                f"the federation disqualifies for the season only on a violation the Chief Judge entered in the "
                f"competition protocol; {recorded.code} at {case.competition} is not in it",
                SEASON_RULE,
            )
        rule = violation(recorded.code)
        verify_sanction(rule, recorded.occurrence, recorded.intentional, PenaltyKind.SEASON_DISQUALIFICATION, 0)
        if self.is_disqualified(self.season, at):
            raise DisciplineError(f"{self.athlete} is already disqualified for season {self.season}", SEASON_RULE)
        decided = SeasonDisqualificationDecided(
            self.athlete, self.season, case.competition, number, recorded.code, at, protocol, participant
        )
        self._record(decided, at, meta)
        return decided

    locals().update(recorded_events(RECORDS))

    @applies(SeasonDisqualificationDecided)
    def _season_disqualification_decided(self, e: SeasonDisqualificationDecided) -> None:
        self.decisions.append(e)
