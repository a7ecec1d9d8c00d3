"""The HandReview aggregate: the officials' rulings on one hand and the Chief Judge's inspections, in order.

The hand's own stream keeps what the table reported and what followed mechanically; this one keeps what the
officials decided about it, so the record shows both, each hash-chained. Its id is ``uuid5`` of the
competition and the hand.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.chained import JSON
from domain.errors import DisciplineError, RuleRef
from domain.officials.codec import decode, encode
from domain.officials.recorded import OfficialsRecord, applies, recorded_events
from domain.roles import Role
from domain.rulings.amend import AmendedOutcome, MechanicalOutcome, amend, in_force, verify_replaces
from domain.rulings.events import (
    CATALOG,
    HandReviewOpened,
    InspectionOutcome,
    MuckedCardsInspected,
    RulingIssued,
)
from domain.rulings.inspection import inspect_mucked_cards

REVIEW_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/hand-review")


def hand_review_id(competition: str, hand: str) -> UUID:
    return uuid5(REVIEW_NAMESPACE, f"{competition}/{hand}")


class HandReview(OfficialsRecord):
    RECORDS = (RulingIssued, MuckedCardsInspected)

    @event("HandReviewOpened")
    def __init__(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        opened: HandReviewOpened = decode(payload, CATALOG)
        self.competition = opened.competition
        self.hand = opened.hand
        self._rulings: list[RulingIssued] = []
        self._inspections: list[MuckedCardsInspected] = []
        self.chain_head = link

    @classmethod
    def open(cls, competition: str, hand: str, at: datetime, meta: JSON | None = None) -> HandReview:
        payload = encode(HandReviewOpened(competition, hand))
        review: HandReview = cls._create_chained(
            "HandReviewOpened", hand_review_id(competition, hand), at, payload, meta or {}
        )
        return review

    @property
    def rulings(self) -> tuple[RulingIssued, ...]:
        return tuple(self._rulings)

    @property
    def inspections(self) -> tuple[MuckedCardsInspected, ...]:
        return tuple(self._inspections)

    @property
    def ruling_in_force(self) -> RulingIssued | None:
        """The latest ruling no later one replaced."""
        return in_force(self.rulings)

    def issue(
        self, ruling: RulingIssued, outcome: MechanicalOutcome, at: datetime, meta: JSON | None = None
    ) -> AmendedOutcome:
        """Record ``ruling`` on this hand's mechanical ``outcome``; the amended outcome it gives."""
        amended = amend(outcome, ruling)
        known = {r.ruling: r for r in self.rulings}
        if ruling.hand != self.hand:
            raise DisciplineError(f"this is the record of hand {self.hand}, not {ruling.hand}", RuleRef("bfsp", "2.1.1"))
        if ruling.ruling in known:
            raise DisciplineError(f"ruling {ruling.ruling} is already recorded", RuleRef("bfsp", "2.1.1"))
        if ruling.amends:
            if ruling.amends not in known:
                raise DisciplineError(f"hand {self.hand} has no ruling {ruling.amends} to amend", RuleRef("bfsp", "2.1.3"))
            if ruling.role is not Role.CHIEF_JUDGE:
                raise DisciplineError(
                    "only the Chief Judge amends an earlier ruling: he decides the protests against judges' findings",
                    RuleRef("bfsp", "2.1.3"),
                )
        verify_replaces(outcome, tuple(known.values()), ruling)
        self._record(ruling, at, meta)
        return amended

    def inspect(
        self,
        seats: tuple[int, ...],
        mucked: Collection[int],
        suspected_by: Role,
        suspicion: str,
        outcome: InspectionOutcome,
        shown_to_table: bool,
        inspected_by: Role,
        at: datetime,
        meta: JSON | None = None,
    ) -> MuckedCardsInspected:
        inspection = inspect_mucked_cards(
            self.hand, seats, mucked, suspected_by, suspicion, outcome, shown_to_table, inspected_by
        )
        self._record(inspection, at, meta)
        return inspection

    # --- the events: recorded by their type, applied by the method registered for their type ---------------

    locals().update(recorded_events(RECORDS))

    @applies(RulingIssued)
    def _ruling_issued(self, e: RulingIssued) -> None:
        self._rulings.append(e)

    @applies(MuckedCardsInspected)
    def _mucked_cards_inspected(self, e: MuckedCardsInspected) -> None:
        self._inspections.append(e)
