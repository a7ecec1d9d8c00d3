"""The DisciplinaryCase aggregate: one participant's violations and penalties at one competition.

Each act validates, then records (the Hand's pattern): a violation is numbered by its occurrence, a penalty
checked against the ladder for that occurrence (:mod:`domain.discipline.ladder`) and against the role that
imposes it (the roles table), a missed-round penalty counted in hands and served hand by hand. The accepted
events are typed values (``events``), each applied by the one method registered for its type
(:mod:`domain.officials.recorded`).

The id is ``uuid5`` of the competition and the participant: a redelivered record lands on the same case.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.chained import JSON
from domain.discipline.events import (
    CATALOG,
    CaseOpened,
    PenaltyHandServed,
    PenaltyImposed,
    PenaltyRescinded,
    PenaltyServed,
    ViolationEnteredInProtocol,
    ViolationRecorded,
)
from domain.discipline.ladder import PenaltyKind, Violation, verify_sanction, violation
from domain.discipline.penalties import MISSED_ROUND_RULE, hands_to_miss
from domain.errors import DisciplineError, RuleRef, verify_agrees
from domain.officials import Act, verify_permitted
from domain.officials.codec import decode, encode
from domain.officials.recorded import OfficialsRecord, applies, recorded_events
from domain.roles import Role

CASE_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/disciplinary-case")
DISQUALIFIED_RULE = RuleRef("bfsp", "5.10.2")


def case_id(competition: str, participant: str) -> UUID:
    return uuid5(CASE_NAMESPACE, f"{competition}/{participant}")


def verify_entrant(competition: str, participant: str, entries: Collection[str]) -> None:
    """A disciplinary case is opened for a participant registered at the competition (``entries``)."""
    if participant not in entries:
        raise DisciplineError(f"{participant} is not registered at {competition}", RuleRef("bfsp", "7.2.1"))


class DisciplinaryCase(OfficialsRecord):
    RECORDS = (
        ViolationRecorded, PenaltyImposed, ViolationEnteredInProtocol, PenaltyHandServed, PenaltyServed,
        PenaltyRescinded,
    )  # fmt: skip

    @event("CaseOpened")
    def __init__(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        opened: CaseOpened = decode(payload, CATALOG)
        self.competition = opened.competition
        self.participant = opened.participant
        self._violations: list[ViolationRecorded] = []
        self._penalties: list[PenaltyImposed] = []
        self._in_protocol: set[int] = set()
        self._hands_served: list[PenaltyHandServed] = []
        self._rescinded: set[int] = set()
        self.chain_head = link

    @classmethod
    def open(cls, competition: str, participant: str, at: datetime, meta: JSON | None = None) -> DisciplinaryCase:
        payload = encode(CaseOpened(competition, participant))
        case: DisciplinaryCase = cls._create_chained(
            "CaseOpened", case_id(competition, participant), at, payload, meta or {}
        )
        return case

    # --- what the record holds ----------------------------------------------------------------------------

    @property
    def violations(self) -> tuple[ViolationRecorded, ...]:
        return tuple(self._violations)

    @property
    def penalties(self) -> tuple[PenaltyImposed, ...]:
        return tuple(self._penalties)

    def occurrences(self, code: str) -> int:
        return sum(1 for v in self._violations if v.code == code)

    def entered_in_protocol(self, number: int) -> bool:
        return number in self._in_protocol

    def rescinded(self, number: int) -> bool:
        return number in self._rescinded

    def in_force(self) -> list[tuple[int, PenaltyImposed]]:
        """(number, penalty) for every penalty not rescinded, numbered from 1 in the order imposed."""
        return [(n, p) for n, p in enumerate(self.penalties, start=1) if not self.rescinded(n)]

    @property
    def disqualified(self) -> bool:
        """Out of the competition: eliminated, his chips out of play, no prize (bfsp 5.10.2, 7.2.2)."""
        return any(p.kind is PenaltyKind.COMPETITION_DISQUALIFICATION for _, p in self.in_force())

    def hands_remaining(self, number: int) -> int:
        penalty = self._penalties[number - 1]
        served = [s for s in self._hands_served if s.penalty == number]
        return served[-1].hands_remaining if served else penalty.hands_to_miss

    @property
    def serving(self) -> int | None:
        """The missed-round penalty being served (the earliest with hands left), or None."""
        for number, penalty in self.in_force():
            if penalty.kind is PenaltyKind.MISSED_ROUNDS and self.hands_remaining(number) > 0:
                return number
        return None

    @property
    def hands_to_sit_out(self) -> int:
        """Every hand still owed, across the missed-round penalties in force (served one after another)."""
        return sum(
            self.hands_remaining(n) for n, p in self.in_force() if p.kind is PenaltyKind.MISSED_ROUNDS
        )

    # --- what a record reports that the case derives ---------------------------------------------------------

    def verify_reported_occurrence(self, code: str, occurrence: int) -> None:
        """A record of violation ``code`` reports its occurrence here: the case's own count (bfsp 7.2.1)."""
        verify_agrees(occurrence, self.occurrences(code) + 1, f"violation {code} occurs for the time",
                      RuleRef("bfsp", "7.2.1"), DisciplineError)

    def verify_served_towards(self, penalty: int) -> None:
        """A hand served is served towards the penalty being served (when one is)."""
        if self.serving is not None:
            verify_agrees(penalty, self.serving, "the hand is served towards penalty", MISSED_ROUND_RULE,
                          DisciplineError)

    # --- the acts -------------------------------------------------------------------------------------------

    def record_violation(
        self,
        code: str,
        hand: str,
        intentional: bool,
        at: datetime,
        recorded_by: Role,
        description: str = "",
        meta: JSON | None = None,
    ) -> ViolationRecorded:
        verify_permitted(Act.VIOLATION_RECORDED, recorded_by)
        violation(code)
        self._verify_in_competition("commits no further violation here")
        recorded = ViolationRecorded(
            self.participant, code, hand, intentional, self.occurrences(code) + 1, description
        )
        self._record(recorded, at, meta)
        return recorded

    def impose(
        self,
        number: int,
        kind: PenaltyKind,
        imposed_by: Role,
        at: datetime,
        *,
        rounds: int = 0,
        players_at_table: int = 0,
        chips_removed: int = 0,
        reported_hands_to_miss: int | None = None,
        meta: JSON | None = None,
    ) -> PenaltyImposed:
        """Impose ``kind`` for violation ``number`` (its position in this case, from 1). A record that reports
        the hands to miss (``reported_hands_to_miss``) must report the rules' own count: a wrong one is refused
        with the rule and the right count, never stored corrected."""
        verify_permitted(kind.act, imposed_by)
        recorded = self._violation(number)
        rule = violation(recorded.code)
        if kind is not PenaltyKind.SEASON_DISQUALIFICATION:
            self._verify_in_competition("is not penalised again at it")
        self._verify_not_penalised(number, kind, rule)
        verify_sanction(rule, recorded.occurrence, recorded.intentional, kind, rounds)
        if kind is PenaltyKind.SEASON_DISQUALIFICATION and not self.entered_in_protocol(number):
            raise DisciplineError(
                f"the federation disqualifies for the season only on a violation the Chief Judge entered in the "
                f"competition protocol; violation {number} ({recorded.code}) is not in it",
                RuleRef("bfsp", "7.2.3"),
            )
        missed = hands_to_miss(players_at_table, rounds) if kind is PenaltyKind.MISSED_ROUNDS else 0
        if reported_hands_to_miss is not None:
            verify_agrees(reported_hands_to_miss, missed, "hands to miss", MISSED_ROUND_RULE, DisciplineError)
        if kind is not PenaltyKind.MISSED_ROUNDS and players_at_table:
            raise DisciplineError(f"{kind.words} is not counted in hands at a table", MISSED_ROUND_RULE)
        if chips_removed < 0 or (chips_removed and kind is not PenaltyKind.COMPETITION_DISQUALIFICATION):
            raise DisciplineError(
                "chips are removed from play only with a disqualification from the competition",
                RuleRef("tda-2022", "71-D"),
            )
        imposed = PenaltyImposed(
            self.participant,
            number,
            kind,
            imposed_by,
            rounds,
            players_at_table,
            missed,
            kill_hand=rule.kills_hand and recorded.intentional,
            chips_removed=chips_removed,
        )
        self._record(imposed, at, meta)
        return imposed

    def enter_in_protocol(
        self, number: int, entered_by: Role, at: datetime, meta: JSON | None = None
    ) -> ViolationEnteredInProtocol:
        verify_permitted(Act.VIOLATION_ENTERED_IN_PROTOCOL, entered_by)
        recorded = self._violation(number)
        if self.entered_in_protocol(number):
            raise DisciplineError(
                f"violation {number} ({recorded.code}) is already in the competition protocol",
                RuleRef("bfsp", "7.2.3"),
            )
        entry = ViolationEnteredInProtocol(self.participant, number)
        self._record(entry, at, meta)
        return entry

    def serve_hand(
        self, hand: str, at: datetime, recorded_by: Role, *, misdealt: bool = False, meta: JSON | None = None
    ) -> PenaltyHandServed:
        """He was dealt in at ``hand``, his forced bets posted, his hand killed. A misdealt deal is recorded and
        not counted: it and its re-deal are one penalty hand (TDA 2022 35-C, TV-76)."""
        verify_permitted(Act.PENALTY_HAND_SERVED, recorded_by)
        number = self.serving
        if number is None:
            raise DisciplineError(
                f"{self.participant} is serving no missed-round penalty: he plays his hands",
                MISSED_ROUND_RULE,
            )
        counted = [s for s in self._hands_served if not s.misdealt]
        if any(s.hand == hand for s in counted):
            raise DisciplineError(
                f"hand {hand} already counted towards {self.participant}'s penalty; a hand is missed once",
                MISSED_ROUND_RULE,
            )
        remaining = self.hands_remaining(number) - (0 if misdealt else 1)
        served = PenaltyHandServed(self.participant, number, hand, misdealt, remaining)
        self._record(served, at, meta)
        if remaining == 0:
            self._record(PenaltyServed(self.participant, number), at, {"follows": (meta or {}).get("event_id")})
        return served

    def rescind(
        self, number: int, protest: str, rescinded_by: Role, at: datetime, meta: JSON | None = None
    ) -> PenaltyRescinded:
        verify_permitted(Act.PENALTY_RESCINDED, rescinded_by)
        if not 1 <= number <= len(self.penalties) or self.rescinded(number):
            raise DisciplineError(
                f"{self.participant} has no penalty {number} in force to rescind", RuleRef("bfsp", "7.3.4")
            )
        lifted = PenaltyRescinded(self.participant, number, protest, rescinded_by)
        self._record(lifted, at, meta)
        return lifted

    # --- checks ---------------------------------------------------------------------------------------------

    def _violation(self, number: int) -> ViolationRecorded:
        violations = self.violations
        if not 1 <= number <= len(violations):
            raise DisciplineError(
                f"{self.participant} has {len(violations)} violation(s) recorded at this competition; "
                f"there is no violation {number} to penalise",
                RuleRef("bfsp", "7.2.1"),
            )
        return violations[number - 1]

    def _verify_in_competition(self, what: str) -> None:
        if self.disqualified:
            raise DisciplineError(
                f"{self.participant} was disqualified from the competition and {what}", DISQUALIFIED_RULE
            )

    def _verify_not_penalised(self, number: int, kind: PenaltyKind, rule: Violation) -> None:
        for _, penalty in self.in_force():
            same_violation = penalty.violation == number
            if same_violation and (kind is not PenaltyKind.SEASON_DISQUALIFICATION or penalty.kind is kind):
                raise DisciplineError(
                    f"violation {number} ({rule.code}) already carries {penalty.kind.words}; a violation is "
                    f"penalised once",
                    rule.rule,
                )

    # --- the events: recorded by their type, applied by the method registered for their type ---------------

    locals().update(recorded_events(RECORDS))

    @applies(ViolationRecorded)
    def _violation_recorded(self, e: ViolationRecorded) -> None:
        self._violations.append(e)

    @applies(PenaltyImposed)
    def _penalty_imposed(self, e: PenaltyImposed) -> None:
        self._penalties.append(e)

    @applies(ViolationEnteredInProtocol)
    def _violation_entered(self, e: ViolationEnteredInProtocol) -> None:
        self._in_protocol.add(e.violation)

    @applies(PenaltyHandServed)
    def _penalty_hand_served(self, e: PenaltyHandServed) -> None:
        self._hands_served.append(e)

    @applies(PenaltyServed)
    def _penalty_served(self, e: PenaltyServed) -> None:
        """Nothing to change: the hands served already say that none is left (:meth:`hands_remaining`)."""

    @applies(PenaltyRescinded)
    def _penalty_rescinded(self, e: PenaltyRescinded) -> None:
        self._rescinded.add(e.penalty)
