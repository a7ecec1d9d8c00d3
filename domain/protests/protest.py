"""The Protest aggregate: filed → (forwarded →) decided → filer notified (federation digest §3.6).

Tier 1 goes to the Chief Judge against a judge's finding of fact, and he decides it at the event (bfsp 2.2.3,
2.1.3). Tier 2 is written, filed by the sanctioned participant only, through the Chief Judge, before the
competition ends, against the Chief Judge's sanction; he forwards it with an immutable protocol snapshot and
its chain head, and the federation decides within 30 days of receipt, finally (bfsp 7.3.1-7.3.4). A decision
after the deadline is recorded and flagged overdue. The competition's end is passed in by the caller, who
holds the Competition; the clock never is.

The id is ``uuid5`` of the competition and the protest's own id.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta
from enum import StrEnum
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.chained import JSON
from domain.errors import ProtestError, RuleRef, verify_agrees
from domain.officials import Act, verify_permitted
from domain.officials.codec import decode, encode
from domain.officials.recorded import OfficialsRecord, applies, recorded_events
from domain.protests.events import (
    CATALOG,
    ContestedKind,
    FilerNotified,
    ProtestDecided,
    ProtestDecision,
    ProtestFiled,
    ProtestForwarded,
    ProtestReceived,
    ProtestTier,
)
from domain.roles import Role
from domain.rulebooks import get_rulebook

PROTEST_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/protest")
_CHAIN_HEAD = re.compile(r"[0-9a-f]{64}")


def protest_id(competition: str, protest: str) -> UUID:
    return uuid5(PROTEST_NAMESPACE, f"{competition}/{protest}")


def _bfsp(rule: str) -> RuleRef:
    return RuleRef("bfsp", rule)


class ProtestState(StrEnum):
    FILED = "filed"
    FORWARDED = "forwarded"
    DECIDED = "decided"
    FILER_NOTIFIED = "filer_notified"


class Protest(OfficialsRecord):
    RECORDS = (ProtestForwarded, ProtestDecided, FilerNotified)

    @event("ProtestFiled")
    def __init__(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self.filing: ProtestFiled = decode(payload, CATALOG)
        self.state = ProtestState.FILED
        self.forwarding: ProtestForwarded | None = None
        self.decision: ProtestDecided | None = None
        self.chain_head = link

    @classmethod
    def file(
        cls,
        filed: ProtestFiled,
        competition_ended_at: datetime | None,
        filed_by: Role = Role.PARTICIPANT,
        meta: JSON | None = None,
        received_at: datetime | None = None,
    ) -> Protest:
        """A protest, refused (nothing created) when late, by the wrong filer or through the wrong channel.

        ``received_at`` is when the service received the filing (DESIGN decision 9): the window is judged on it,
        and on the service's time of the end, not on the time the filing claims; None judges the claim (a
        protest recorded without a log, as the domain's own tests do)."""
        verify_permitted(Act.PROTEST_FILED, filed_by)
        at = filed.filed_at if received_at is None else received_at
        if filed.tier is ProtestTier.CHIEF_JUDGE:
            _verify_to_chief_judge(filed, at, competition_ended_at)
        else:
            _verify_to_federation(filed, at, competition_ended_at)
        protest: Protest = cls._create_chained(
            "ProtestFiled",
            protest_id(filed.competition, filed.protest),
            at,
            encode(replace(filed, filed_at=at)),  # filed when the service received it; the claim stays in the meta
            meta or {},
        )
        return protest

    @classmethod
    def receive(
        cls,
        received: ProtestReceived,
        competition_ended_at: datetime | None,
        received_by: Role,
        meta: JSON | None = None,
        received_at: datetime | None = None,
    ) -> Protest:
        """The participant's protest, handed in and recorded by the Secretary or the Chief Judge on his behalf: the
        same filing (:meth:`file`), received for the Chief Judge, refused when it would be refused filed; a paper
        protest names its scan's SHA-256, a written one its text or its scan."""
        verify_permitted(Act.PROTEST_RECEIVED, received_by)
        if received.document_sha256 and not _CHAIN_HEAD.fullmatch(received.document_sha256):
            raise ProtestError(
                "a paper protest is kept by its scan's SHA-256: 64 hexadecimal digits", _bfsp("7.3.1")
            )
        if received.written and not (received.grounds.strip() or received.document_sha256):
            raise ProtestError(
                "a written protest received is recorded with its text or the SHA-256 of its scan", _bfsp("7.3.1")
            )
        filed = ProtestFiled(
            received.protest, received.competition, received.tier, received.filer, received.contested,
            received.grounds or f"written protest, scan sha256 {received.document_sha256}", received.written,
            Role.CHIEF_JUDGE, received.received_at, received.rulebook, received.document_sha256,
        )  # fmt: skip
        return cls.file(filed, competition_ended_at, Role.PARTICIPANT, meta, received_at)

    # --- what the record says -------------------------------------------------------------------------------

    @property
    def deadline(self) -> datetime | None:
        """When the federation's decision is due (its receipt + the rulebook's days), once forwarded."""
        forwarding = self.forwarding
        return None if forwarding is None else forwarding.deadline

    def is_overdue(self, now: datetime) -> bool:
        """The federation's decision is late: not made by its deadline, or made after it."""
        decision = self.decision
        if decision is not None:
            return decision.overdue
        deadline = self.deadline
        return deadline is not None and now > deadline

    # --- the acts -------------------------------------------------------------------------------------------

    def forward(
        self,
        protocol_snapshot: str,
        chain_head: str,
        forwarded_by: Role,
        at: datetime,
        meta: JSON | None = None,
        *,
        reported: tuple[datetime, datetime] | None = None,
    ) -> ProtestForwarded:
        """Forward the protest at ``at`` (the service's clock: the federation's days run from it). A record that
        reports its own ``(forwarded_at, deadline)`` must count the rulebook's days from the time it claims: a
        wrong deadline is refused with the rule and the right value, never stored corrected."""
        verify_permitted(Act.PROTEST_FORWARDED, forwarded_by)
        filing = self.filing
        if filing.tier is ProtestTier.CHIEF_JUDGE:
            raise ProtestError(
                "a protest against a judge's finding is the Chief Judge's to decide at the event; it is not "
                "forwarded to the federation",
                _bfsp("2.1.3"),
            )
        self._verify_state(ProtestState.FILED, "forwarded")
        if not protocol_snapshot or not _CHAIN_HEAD.fullmatch(chain_head):
            raise ProtestError(
                "a protest goes to the federation together with the competition protocol: name its snapshot and "
                "the snapshot's chain head (64 hexadecimal digits)",
                _bfsp("7.3.3"),
            )
        days = get_rulebook(filing.rulebook).protest_decision_days
        deadline = at + timedelta(days=days)
        if reported is not None:
            claimed_at, claimed_deadline = reported
            verify_agrees(claimed_deadline, claimed_at + timedelta(days=days),
                          f"the federation decides by ({days} days from receipt)", _bfsp("7.3.4"), ProtestError)
        forwarded = ProtestForwarded(filing.protest, protocol_snapshot, chain_head, at, deadline)
        self._record(forwarded, at, meta)
        return forwarded

    def decide(
        self,
        decision: ProtestDecision,
        reasons: str,
        decided_by: Role,
        at: datetime,
        meta: JSON | None = None,
    ) -> ProtestDecided:
        filing = self.filing
        if filing.tier is ProtestTier.CHIEF_JUDGE:
            verify_permitted(Act.PROTEST_DECIDED_AT_EVENT, decided_by)
            self._verify_state(ProtestState.FILED, "decided")
        else:
            verify_permitted(Act.PROTEST_DECIDED_BY_FEDERATION, decided_by)
            if self.state is ProtestState.FILED:
                raise ProtestError(
                    "the federation decides a protest it received from the Chief Judge with the competition "
                    "protocol; this one has not been forwarded",
                    _bfsp("7.3.3"),
                )
            self._verify_state(ProtestState.FORWARDED, "decided")
        if not reasons.strip():
            raise ProtestError("a decision on a protest states its reasons", _bfsp("7.3.4"))
        deadline = self.deadline
        overdue = deadline is not None and at > deadline
        decided = ProtestDecided(filing.protest, decision, decided_by, reasons, at, overdue)
        self._record(decided, at, meta)
        return decided

    def notify_filer(self, notified_by: Role, at: datetime, meta: JSON | None = None) -> FilerNotified:
        verify_permitted(Act.FILER_NOTIFIED, notified_by)
        decision = self.decision
        if decision is not None and notified_by is not decision.decided_by:
            raise ProtestError(
                f"the filer is notified by whoever decided his protest: {_who(decision.decided_by)}",
                _bfsp("7.3.4"),
            )
        self._verify_state(ProtestState.DECIDED, "notified")
        notified = FilerNotified(self.filing.protest, notified_by, at)
        self._record(notified, at, meta)
        return notified

    # --- checks and recording -------------------------------------------------------------------------------

    def _verify_state(self, expected: ProtestState, act: str) -> None:
        if self.state is expected:
            return
        if self.state in (ProtestState.DECIDED, ProtestState.FILER_NOTIFIED):
            final = self.filing.tier is ProtestTier.FEDERATION
            raise ProtestError(
                "the federation's decision on the protest is final; nothing follows it"
                if final
                else "the Chief Judge has decided this protest; what remains is a written protest to the "
                "federation against his decision",
                _bfsp("7.3.4" if final else "7.3.1"),
            )
        raise ProtestError(f"the protest is {self.state.value.replace('_', ' ')}; it cannot be {act} now", _bfsp("7.3"))

    # --- the events: recorded by their type, applied by the method registered for their type ---------------

    locals().update(recorded_events(RECORDS))

    @applies(ProtestForwarded)
    def _protest_forwarded(self, e: ProtestForwarded) -> None:
        self.forwarding = e
        self.state = ProtestState.FORWARDED

    @applies(ProtestDecided)
    def _protest_decided(self, e: ProtestDecided) -> None:
        self.decision = e
        self.state = ProtestState.DECIDED

    @applies(FilerNotified)
    def _filer_notified(self, e: FilerNotified) -> None:
        self.state = ProtestState.FILER_NOTIFIED


def verify_new_protest(protest: str, filed_before: object | None) -> None:
    """A protest is filed once: ``filed_before`` is what the store already holds under its id (None: nothing)."""
    if filed_before is not None:
        raise ProtestError(f"protest {protest} has been filed already", _bfsp("7.3"))


def verify_filed_time(claimed: datetime, recorded_at: datetime) -> None:
    """The time a protest's filing (or receipt) says it was filed at is the time its record reports."""
    if claimed != recorded_at:
        raise ProtestError(
            f"the protest says it was filed at {claimed.isoformat()} and was recorded as filed at "
            f"{recorded_at.isoformat()}; the two claims must agree",
            _bfsp("7.3.2"),
        )


def verify_forwarded_snapshot(snapshot: str, chain_head: str, kept_chain_head: str | None) -> None:
    """A protest goes to the federation with a protocol snapshot the archive keeps, named with its chain head:
    ``kept_chain_head`` is the archive's for ``snapshot`` (None: the archive keeps no such snapshot)."""
    if kept_chain_head is None or kept_chain_head != chain_head:
        raise ProtestError(
            f"the protocol forwarded must be a snapshot the archive keeps with that chain head; {snapshot} "
            + ("is not in the archive" if kept_chain_head is None else f"has chain head {kept_chain_head[:16]}…"),
            _bfsp("7.3.3"),
        )


def verify_own_filing(filed: ProtestFiled, registered_person: str | None, person: str) -> None:
    """A participant files his own protest (bfsp 7.3.1): ``person`` recording it as a participant is the person
    the competition registered as ``filed.filer`` (``registered_person``, None when the filer is not registered)."""
    if registered_person is None:
        raise ProtestError(f"{filed.filer} is not registered at {filed.competition}: he files no protest there",
                           _bfsp("7.3.1"))
    if registered_person != person:
        raise ProtestError(
            f"a participant files his own protest: {person} may not file in the name of {filed.filer}", _bfsp("7.3.1")
        )


def _who(role: Role) -> str:
    return "the Chief Judge" if role is Role.CHIEF_JUDGE else f"the {role.value.replace('_', ' ')}"


def _verify_before_the_end(filed: ProtestFiled, at: datetime, ended_at: datetime | None, rule: RuleRef) -> None:
    if ended_at is not None and at >= ended_at:
        claim = "" if at == filed.filed_at else f" (it says {filed.filed_at.isoformat()}; the service's clock decides)"
        raise ProtestError(
            f"a protest must be filed before the end of the competition, which ended at {ended_at.isoformat()}; "
            f"this one was filed at {at.isoformat()}{claim} and is not accepted",
            rule,
        )


def _verify_received_by_chief_judge(filed: ProtestFiled, rule: RuleRef, how: str) -> None:
    if filed.received_by is not Role.CHIEF_JUDGE:
        raise ProtestError(f"{how}; this one went to {_who(filed.received_by)}", rule)


def _verify_to_chief_judge(filed: ProtestFiled, at: datetime, ended_at: datetime | None) -> None:
    contested = filed.contested
    if contested.kind is not ContestedKind.FINDING_OF_FACT or contested.decided_by is not Role.JUDGE:
        raise ProtestError(
            "a protest to the Chief Judge is against a judge's finding of fact; against the Chief Judge's own "
            "decision or sanction the sanctioned participant protests in writing to the federation",
            _bfsp("2.2.3"),
        )
    _verify_received_by_chief_judge(filed, _bfsp("2.1.3"), "a protest against a judge's finding goes to the Chief Judge")
    _verify_before_the_end(filed, at, ended_at, _bfsp("2.1.3"))


def _verify_to_federation(filed: ProtestFiled, at: datetime, ended_at: datetime | None) -> None:
    contested = filed.contested
    rule = _bfsp("7.3.1")
    if contested.kind is not ContestedKind.PENALTY or contested.decided_by is not Role.CHIEF_JUDGE:
        raise ProtestError(
            "a protest to the federation is against a disciplinary sanction the Chief Judge decided; a judge's "
            "finding or sanction goes to the Chief Judge first",
            rule,
        )
    if filed.filer != contested.sanctioned:
        raise ProtestError(
            f"only the participant the sanction was imposed on ({contested.sanctioned}) may protest it to the "
            f"federation; {filed.filer} may not",
            rule,
        )
    if not filed.written:
        raise ProtestError("a protest to the federation is a written statement with its grounds", rule)
    if not filed.grounds.strip():
        raise ProtestError("a protest to the federation states its grounds", rule)
    _verify_received_by_chief_judge(filed, rule, "a protest to the federation is filed through the Chief Judge")
    _verify_before_the_end(filed, at, ended_at, _bfsp("7.3.2"))
