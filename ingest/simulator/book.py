"""The simulated federation's books: every act judged by the domain's aggregates before it is reported.

The simulator keeps its own Competition, one DisciplinaryCase per penalised participant, the protests and the
reviews of the hands ruled on, and makes each act there first, as the official whose act it is: an act the
rules refuse raises here, so a simulation never reports what the referee would refuse. What the act recorded
is what goes on the log (:class:`Reported`), in the order it was made; what the aggregates derive from it (a
finishing place's winner, an Olympic stage, a penalty served) is theirs to derive again and never reported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from domain.competition.aggregate import Competition, recorded_event
from domain.competition.hand_checks import hand_name
from domain.competition.placings import Bust
from domain.competition.regulations import Regulations
from domain.discipline import DisciplinaryCase, PenaltyKind
from domain.discipline.events import PenaltyImposed
from domain.hand.events import HandEnded, PotAwarded
from domain.protests import Protest
from domain.protests.events import (
    Contested,
    ContestedKind,
    ProtestDecided,
    ProtestDecision,
    ProtestFiled,
    ProtestForwarded,
    ProtestTier,
)
from domain.protocol import ProtocolArchive
from domain.roles import Role
from domain.rulebooks import get_rulebook
from domain.rulings import HandReview, MechanicalOutcome
from domain.rulings.events import RulingIssued, RulingKind
from ingest.envelope import RecordedBy
from ingest.simulator.federation import Official


@dataclass(frozen=True, slots=True)
class Reported:
    """One federation act as the log carries it: the event, who recorded it, when, and the hand it is about."""

    event: Any
    recorded_by: RecordedBy
    at: datetime
    table_id: str | None = None
    hand_id: str | None = None


@dataclass(frozen=True, slots=True)
class Forwarding:
    """The Chief Judge forwards a protest with the protocol as it stands: the snapshot is taken when the record
    is written (by the service that keeps the archive), so the record waits for it."""

    protest: str
    recorded_by: RecordedBy
    at: datetime
    decision_days: int

    def reported(self, snapshot: str, chain_head: str) -> Reported:
        forwarded = ProtestForwarded(
            self.protest, snapshot, chain_head, self.at, self.at + timedelta(days=self.decision_days)
        )
        return Reported(forwarded, self.recorded_by, self.at)


class Book:
    """The competition's acts, each made on the aggregate it belongs to and kept as it will be reported."""

    def __init__(
        self, competition_id: str, regulations: Regulations, federation: Official, at: datetime
    ) -> None:
        self.competition_id = competition_id
        self.entries: list[Reported | Forwarding | Any] = []
        self.competition = Competition.adopt(competition_id, regulations, at, federation.recorder)
        self._seen = 0
        self._keep("RegulationsAdopted", federation, at)
        self.cases: dict[str, DisciplinaryCase] = {}
        self.protests: dict[str, Protest] = {}
        self.reviews: dict[str, HandReview] = {}

    # --- the competition's acts ---------------------------------------------------------------------------

    def act(self, name: str, official: Official, at: datetime, method: Callable[..., Any], *args: Any) -> Any:
        """Make the Competition's act ``method(*args, at, recorder)`` as ``official``; report the event called
        ``name`` it recorded."""
        result = method(self.competition, *args, at, official.recorder)
        self._keep(name, official, at)
        return result

    def _keep(self, name: str, official: Official, at: datetime) -> None:
        pending = self.competition.pending_events[self._seen :]
        self._seen = len(self.competition.pending_events)
        event = recorded_event(next(e for e in pending if type(e).__name__ == name))
        self.entries.append(Reported(event, official.recorded_by, at))

    def follow(self, official: Official, at: datetime, method: Callable[..., Any], *args: Any) -> Any:
        """Make an act the referee's desk records by itself from the hands (the floor's record of a table's hand
        starting and ending): kept in the books, never reported."""
        result = method(self.competition, *args, at, official.recorder)
        self._seen = len(self.competition.pending_events)
        return result

    def eliminate(self, hand: str, busts: list[Bust], judge: Official, at: datetime) -> None:
        """Players busted in one hand, the smaller starting stack first, one record for each stack: each takes
        the last places still open, so the larger stack places higher, and equal stacks share their places in
        one record (bfsp 5.10.2)."""
        for stack in sorted({b.starting_stack for b in busts}):
            group = sorted((b for b in busts if b.starting_stack == stack), key=lambda b: b.participant)
            self.act("PlayerEliminated", judge, at, Competition.eliminate, hand, group)

    # --- discipline -----------------------------------------------------------------------------------------

    def case(self, participant: str, at: datetime) -> DisciplinaryCase:
        if participant not in self.cases:
            self.cases[participant] = DisciplinaryCase.open(self.competition_id, participant, at)
        return self.cases[participant]

    def violation(
        self, participant: str, code: str, hand: str, description: str, official: Official, at: datetime
    ) -> int:
        """A violation recorded by ``official``; its number in the participant's case."""
        case = self.case(participant, at)
        recorded = case.record_violation(code, hand, False, at, official.role, description)
        self._report(recorded, official, at)
        return len(case.violations)

    def penalty(
        self,
        participant: str,
        violation: int,
        kind: PenaltyKind,
        rounds: int,
        official: Official,
        at: datetime,
    ) -> PenaltyImposed:
        case = self.cases[participant]
        players = 0
        if kind is PenaltyKind.MISSED_ROUNDS:
            c = self.competition
            table = c.seats[participant][0]
            players = sum(1 for p, (t, _) in c.seats.items() if t == table and p not in c.eliminated)
        imposed = case.impose(violation, kind, official.role, at, rounds=rounds, players_at_table=players)
        self._report(imposed, official, at)
        return imposed

    def serve(self, participant: str, hand: str, dealer: Official, at: datetime) -> None:
        served = self.cases[participant].serve_hand(hand, at, dealer.role)
        self._report(served, dealer, at)

    def serving(self, participant: str) -> int | None:
        case = self.cases.get(participant)
        return case.serving if case is not None else None

    # --- rulings and protests -----------------------------------------------------------------------------

    def finding(
        self,
        table_id: str,
        hand_number: int,
        pots: tuple[PotAwarded, ...],
        ended: HandEnded,
        finding: str,
        judge: Official,
        at: datetime,
    ) -> RulingIssued:
        """A judge's finding of fact on a hand played out; it leaves the engine's award as it was."""
        hand = hand_name(table_id, hand_number)
        ruling = RulingIssued(
            f"ruling-{len(self.reviews) + 1}", hand, RulingKind.FINDING_OF_FACT, judge.person, judge.role,
            "bfsp 2.2.3", finding,
        )  # fmt: skip
        review = HandReview.open(self.competition_id, hand, at)
        review.issue(ruling, MechanicalOutcome(pots, ended), at)
        self.reviews[hand] = review
        self.entries.append(Reported(ruling, judge.recorded_by, at, table_id, str(hand_number)))
        return ruling

    def file(
        self,
        tier: ProtestTier,
        filer: str,
        filer_person: str,
        contested: Contested,
        grounds: str,
        at: datetime,
    ) -> str:
        name = f"protest-{len(self.protests) + 1}"
        filed = ProtestFiled(
            name, self.competition_id, tier, filer, contested, grounds, tier is ProtestTier.FEDERATION,
            Role.CHIEF_JUDGE, at, self.competition.regulations.rulebook,
        )  # fmt: skip
        self.protests[name] = Protest.file(filed, None, Role.PARTICIPANT)
        self.entries.append(Reported(filed, RecordedBy(person=filer_person, role=Role.PARTICIPANT), at))
        return name

    def forward(
        self, protest: str, snapshot: str, chain_head: str, chief_judge: Official, at: datetime
    ) -> None:
        """Forwarded with the simulator's own snapshot; the record names the one the service takes then."""
        self.protests[protest].forward(snapshot, chain_head, chief_judge.role, at)
        days = get_rulebook(self.competition.regulations.rulebook).protest_decision_days
        self.entries.append(Forwarding(protest, chief_judge.recorded_by, at, days))

    def decide(
        self, protest: str, decision: ProtestDecision, reasons: str, official: Official, at: datetime
    ) -> ProtestDecided:
        decided = self.protests[protest].decide(decision, reasons, official.role, at)
        self._report(decided, official, at)
        notified = self.protests[protest].notify_filer(official.role, at)
        self._report(notified, official, at)
        return decided

    def snapshot(self, at: datetime) -> tuple[str, str]:
        """A snapshot of the simulator's own books, named like the service's: the Chief Judge forwards the protest
        with it here, and the record names the one the service takes (:class:`Forwarding`)."""
        archive = ProtocolArchive.open(self.competition_id, at)
        c = self.competition
        protocol = {"competition": {"id": self.competition_id}, "eliminated": sorted(c.eliminated)}
        taken = archive.take(protocol, {str(c.id): (c.version, c.chain_head)}, "simulator", at)
        return taken.name, taken.chain_head

    def _report(self, event: Any, official: Official, at: datetime) -> None:
        self.entries.append(Reported(event, official.recorded_by, at))


def penalty_reference(number: int) -> str:
    """How a protest names a penalty: its number in the participant's case (the desk reads it so)."""
    return f"penalty-{number}"


def contested_penalty(number: int, participant: str) -> Contested:
    return Contested(penalty_reference(number), ContestedKind.PENALTY, Role.CHIEF_JUDGE, participant)


def contested_finding(ruling: RulingIssued) -> Contested:
    return Contested(ruling.ruling, ContestedKind.FINDING_OF_FACT, Role.JUDGE)
