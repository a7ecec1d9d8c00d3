"""The Competition's officials and entries: appointing and removing officials (bfsp 2), registering
participants (bfsp 1.1, 3.1, 7.2.3)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime

from domain.chained import JSON
from domain.competition.competition_state import CompetitionState, Recorder, recorded_meta
from domain.competition.events import (
    OfficialAppointed,
    OfficialRemoved,
    ParticipantRegistered,
    SeatAssignment,
)
from domain.competition.regulations import cite
from domain.errors import CompetitionError, NotPermittedError
from domain.officials import Act, Delegation
from domain.roles import Role


class RosterActs(CompetitionState):
    # --- officials (bfsp 2) ---------------------------------------------------------------------------------

    def appoint(
        self,
        person: str,
        role: Role,
        at: datetime,
        by: Recorder,
        delegations: Collection[Delegation] = (),
        meta: JSON | None = None,
        tables: Collection[int] = (),
    ) -> None:
        """Appoint an official: the Chief Judge by the federation, the others by the Chief Judge (bfsp 2.1.1);
        an authorised person holds only what the Chief Judge delegates (bfsp 3.1, 5.2, 6.3), a dealer deals at
        the tables the Chief Judge assigns him (bfsp 2.1.1, 2.4.1)."""
        self._authorise(Act.OFFICIAL_APPOINTED, by)
        rule = cite(self.rulebook, "officials")
        if role is Role.CHIEF_JUDGE and by.role is not Role.FEDERATION:
            raise NotPermittedError("only the federation appoints the Chief Judge", rule)
        if role is not Role.CHIEF_JUDGE and by.role is not Role.CHIEF_JUDGE:
            raise NotPermittedError(f"the Chief Judge appoints the {role.value.replace('_', ' ')}s", rule)
        if role not in {Role.JUDGE, Role.CHIEF_JUDGE, Role.SECRETARY, Role.DEALER, Role.AUTHORISED}:
            raise CompetitionError(f"a {role.value} is not an office of the competition", rule)
        if person in self.officials:
            raise CompetitionError(
                f"{person} already serves as {self.officials[person].role.value.replace('_', ' ')}", rule
            )
        if role is Role.CHIEF_JUDGE and self._chief_judge() is not None:
            raise CompetitionError(f"{self._chief_judge()} is already the Chief Judge", rule)
        if delegations and role is not Role.AUTHORISED:
            raise CompetitionError("only an authorised person holds delegations of the Chief Judge", rule)
        if tables and role is not Role.DEALER:
            raise CompetitionError("only a dealer is assigned tables", rule)
        if any(not isinstance(t, int) or isinstance(t, bool) or t < 1 for t in tables):
            raise CompetitionError(f"tables are numbered from 1; the appointment names {sorted(tables)}", rule)
        if role is Role.AUTHORISED:
            self._authorise(Act.AUTHORITY_DELEGATED, by)
        appointed = OfficialAppointed(
            person, role, tuple(sorted(Delegation(d).value for d in delegations)), tuple(sorted(set(tables)))
        )
        self._record(appointed, at, recorded_meta(by, meta))

    def remove_official(
        self, person: str, reason: str, at: datetime, by: Recorder, meta: JSON | None = None
    ) -> None:
        """The Chief Judge removes a judge or dealer from duty (bfsp 2.1.5)."""
        self._authorise(Act.OFFICIAL_REMOVED, by)
        if person not in self.officials:
            raise CompetitionError(
                f"{person} holds no office at this competition", cite(self.rulebook, "schedule")
            )
        if person == by.person:
            raise CompetitionError("the Chief Judge cannot remove himself", cite(self.rulebook, "schedule"))
        self._record(OfficialRemoved(person, reason), at, recorded_meta(by, meta))

    # --- registration (bfsp 1.1, 3.1, 7.2.3) ------------------------------------------------------------------

    def register(
        self,
        participant: str,
        person: str,
        birth_date: date,
        at: datetime,
        by: Recorder,
        *,
        season_disqualified: Collection[str] = (),
        membership_valid: bool = True,
        entry_fee_paid: bool = True,
        consent_personal_data: bool = True,
        consent_media: bool = False,
        seat: SeatAssignment | None = None,
        meta: JSON | None = None,
    ) -> None:
        """Register an entry. ``season_disqualified`` are the persons the federation's standing season
        disqualifications bar (the caller reads them; the domain does no I/O)."""
        self._authorise(Act.PARTICIPANT_REGISTERED, by)
        self._verify_not_over()
        book = self.rulebook
        if participant in self.entries:
            raise CompetitionError(f"entry {participant} is already registered", cite(book, "re_entry"))
        age = _age(birth_date, self.regulations.starts_on)
        if age < self.regulations.min_age:
            raise CompetitionError(
                f"{person} is {age} on {self.regulations.starts_on:%d %B %Y}, when the competition starts; "
                f"players must be {self.regulations.min_age} or older",
                cite(book, "min_age"),
            )
        if person in season_disqualified:
            raise CompetitionError(
                f"{person} is disqualified from official competitions for the season by the federation",
                cite(book, "season_disqualification"),
            )
        entry = self._entry_number(person, at)
        self._verify_seat_for_entry(participant, entry, seat)
        registered = ParticipantRegistered(
            participant,
            person,
            birth_date,
            entry,
            seat,
            membership_valid=membership_valid,
            entry_fee_paid=entry_fee_paid,
            consent_personal_data=consent_personal_data,
            consent_media=consent_media,
        )
        self._record(registered, at, recorded_meta(by, meta))

    def _entry_number(self, person: str, at: datetime) -> int:
        earlier = [e for e in self.entries.values() if e.person == person]
        if not earlier:
            if self.drawn:
                raise CompetitionError(
                    f"{person} cannot enter after the seat draw: the draw is among all participants",
                    cite(self.rulebook, "seat_draw"),
                )
            return 1
        rule = cite(self.rulebook, "re_entry")
        live = [e.participant for e in earlier if e.participant not in self.eliminated]
        if live:
            raise CompetitionError(f"{person} is still playing as entry {live[0]}", rule)
        re_entry = self.regulations.re_entry
        if re_entry is None:
            raise CompetitionError(f"{person} was eliminated, and the regulations allow no re-entry", rule)
        if len(earlier) >= re_entry.max_entries:
            raise CompetitionError(
                f"{person} has used all {re_entry.max_entries} entries the regulations allow", rule
            )
        level = self.level_at(at)
        if level is not None and level.number > re_entry.until_level:
            raise CompetitionError(
                f"re-entry closed at the end of level {re_entry.until_level}; level {level.number} is being played",
                rule,
            )
        return len(earlier) + 1

    def _verify_seat_for_entry(self, participant: str, entry: int, seat: SeatAssignment | None) -> None:
        rule = cite(self.rulebook, "re_entry")
        if not self.drawn:
            if seat is not None:
                raise CompetitionError(
                    "the seat draw seats every entry made before it", cite(self.rulebook, "seat_draw")
                )
            return
        if seat is None or seat.participant != participant:
            raise CompetitionError(f"re-entry {participant} (entry {entry}) needs a seat of its own", rule)
        assert self.floor is not None, "the seat draw opened the floor"
        self.floor.seat_newcomer(participant, seat.table, seat.seat)


def _age(born: date, on: date) -> int:
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))
