"""The competition protocol's own record: its immutable snapshots and the officials' signatures on them.

The protocol itself is a projection (``projections/protocol.py``): it is read from the stored events, never
stored as a document that could be edited. What is stored is what must not change once done:

* a :class:`ProtocolArchive` per competition holds the **snapshots**, numbered 1, 2, 3 … Each snapshot keeps
  the protocol's JSON, its SHA-256 and the chain head of every stream it was read from, so the copy forwarded
  with a protest (bfsp 7.3.3) can be checked against the store years later; the archive is hash-chained like
  every stream, so a snapshot cannot be rewritten either;
* a :class:`HandChallenges` per competition holds the **challenges** of hands' results the referee accepted
  (bfsp 5.9.1: each checked in time by :func:`domain.protests.challenge`), which the protocol lists;
* a :class:`ProtocolSignatures` per competition holds the **signatures**: the Secretary and the Chief Judge
  sign the final protocol (bfsp 2.1.4, 2.3.3), each naming the snapshot he signs and its SHA-256, so a
  signature is on one fixed text.

Their events are typed (:mod:`domain.recorded`): each class names the types it records in ``RECORDS`` and applies
each with one ``@applies`` method, stored in the very form they always were (a snapshot by
:func:`snapshot_to_json`, a signature as its fields, a challenge as the officials' events are).

All three are written by the referee alone (DESIGN decision 10): taking a snapshot is an official's act on the log
(:class:`ProtocolSnapshotRequested`, the Secretary's or the Chief Judge's, bfsp 2.3.3) judged like any other, and
the referee fixes what the snapshot covers — every stream of the competition as the log stood at that record —
so the same log replayed into an empty store gives the same snapshot, byte for byte. A signature is one too.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, ClassVar
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.chain import canonical
from domain.chained import JSON
from domain.errors import CompetitionError, NotPermittedError, RuleRef
from domain.officials import Act, NamesItsOfficial, verify_permitted
from domain.officials.permissions import permission
from domain.officials.recorded import OfficialsRecord
from domain.protests.events import HandChallenged
from domain.recorded import TypedRecord, applies, recorded_events
from domain.roles import Role

ARCHIVE_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/protocol-archive")
SIGNATURES_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/protocol-signatures")
CHALLENGES_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/hand-challenges")
#: the protocol is compiled and signed by the Secretary and the Chief Judge (bfsp 2.1.4, 2.3.3)
SIGNING_RULE = RuleRef("bfsp", "2.1.4")
_HEX64 = re.compile(r"[0-9a-f]{64}")


def archive_id(competition_id: str) -> UUID:
    return uuid5(ARCHIVE_NAMESPACE, competition_id)


def signatures_id(competition_id: str) -> UUID:
    return uuid5(SIGNATURES_NAMESPACE, competition_id)


def challenges_id(competition_id: str) -> UUID:
    return uuid5(CHALLENGES_NAMESPACE, competition_id)


def snapshot_name(competition_id: str, version: int) -> str:
    """How a snapshot is named where it is cited (a forwarded protest): ``"<competition>/protocol/v3"``."""
    return f"{competition_id}/protocol/v{version}"


def protocol_digest(protocol: Mapping[str, Any]) -> str:
    """SHA-256 of the protocol's canonical JSON (sorted keys, no insignificant white space)."""
    return hashlib.sha256(canonical(protocol)).hexdigest()


def heads_digest(heads: Mapping[str, tuple[int, str]]) -> str:
    """One digest over every stream's (version, link) head: the snapshot's chain head, cited in a protest."""
    rows = sorted((stream, version, head) for stream, (version, head) in heads.items())
    return hashlib.sha256(canonical({"heads": rows})).hexdigest()


@dataclass(frozen=True, slots=True)
class ProtocolSnapshotTaken:
    competition_id: str
    version: int
    #: SHA-256 of the protocol's canonical JSON
    sha256: str
    #: stream id → (version, link) of the last event of that stream the protocol was read from
    heads: dict[str, tuple[int, str]]
    #: :func:`heads_digest` of ``heads``: what a forwarded protest cites as the snapshot's chain head
    chain_head: str
    protocol: JSON
    taken_by: str
    taken_at: datetime
    #: a final version of the protocol, compiled by the Secretary after the competition's end (bfsp 2.3.2-2.3.3;
    #: domain/final_protocol.py), for the Chief Judge to sign (2.1.4)
    final: bool = False

    @property
    def name(self) -> str:
        return snapshot_name(self.competition_id, self.version)


@dataclass(frozen=True, slots=True)
class ProtocolSnapshotRequested:
    """An official asks for a snapshot of the protocol as it stands at this record's place in the log. What it
    covers, its number and its SHA-256 are the referee's to fix (:meth:`ProtocolArchive.take`), never the
    requester's.

    ``request_id`` is the requester's own name for the request (``""``: none): the record of a request so named
    has the event id :func:`snapshot_request_event_id` gives, so a request sent again after a timeout is the same
    record, judged once, and never a second snapshot."""

    competition_id: str
    request_id: str = ""


#: the namespace of the event ids of snapshot requests named by their requester
SNAPSHOT_REQUESTS = uuid5(NAMESPACE_URL, "https://pokeraudit/protocol-snapshot-requests")
#: what a requester may name his request by: a UUID fits, and so does any short name of his own
REQUEST_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,99}")


def snapshot_request_event_id(competition_id: str, person: str, role: Role, request_id: str) -> UUID:
    """The event id of ``person``'s (in ``role``) snapshot request named ``request_id``: one per requester and
    name, so nobody else's request can take it."""
    return uuid5(SNAPSHOT_REQUESTS, f"{competition_id}/{person}/{role.value}/request/{request_id}")


@dataclass(frozen=True, slots=True)
class CompiledProtocol:
    """The protocol as the store holds it at one moment: the document, the (version, link) head of every
    stream it was read from, and every break its streams' verification found (none: the chains hold)."""

    document: JSON
    heads: dict[str, tuple[int, str]]
    breaks: tuple[str, ...] = ()


#: a snapshot is the record a protest is forwarded with: never one of stored events that fail verification
TAMPER_RULE = RuleRef("DESIGN", "7")


@dataclass(frozen=True, slots=True)
class ProtocolSigned:
    """An official's signature on snapshot ``version`` of the protocol, whose SHA-256 is ``sha256``."""

    competition_id: str
    version: int
    sha256: str
    person: str
    role: Role

    #: an official signs in his own name: the signature names him and his office (bfsp 2.1.4)
    NAMES_ITS_OFFICIAL: ClassVar[NamesItsOfficial] = NamesItsOfficial(
        "signature", "signed", role="role", person="person", rule=SIGNING_RULE,
        principle="an official signs in his own name",
    )


CATALOG: dict[str, type] = {"ProtocolSnapshotRequested": ProtocolSnapshotRequested, "ProtocolSigned": ProtocolSigned}


class ProtocolArchive(TypedRecord):
    """A competition's protocol snapshots, in the order they were taken; none is ever changed."""

    RECORDS = (ProtocolSnapshotTaken,)

    @event("Opened")
    def __init__(self, competition_id: str, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self.competition_id = competition_id
        self.snapshots: list[ProtocolSnapshotTaken] = []
        self.chain_head = link

    @classmethod
    def open(cls, competition_id: str, at: datetime, meta: JSON | None = None) -> ProtocolArchive:
        archive: ProtocolArchive = cls._create_chained(
            "Opened", archive_id(competition_id), at, {"competition_id": competition_id}, meta or {},
            competition_id=competition_id,
        )
        return archive

    @classmethod
    def payload_of(cls, recorded: Any) -> JSON:
        return snapshot_to_json(recorded)

    @classmethod
    def recorded_from(cls, kind: type, payload: JSON) -> Any:
        return snapshot_from_json(payload)

    def take(
        self,
        protocol: JSON,
        heads: Mapping[str, tuple[int, str]],
        taken_by: str,
        at: datetime,
        meta: JSON | None = None,
        breaks: tuple[str, ...] = (),
        final: bool = False,
    ) -> ProtocolSnapshotTaken:
        """Keep ``protocol`` as the next snapshot, with the chain heads it was read from; refused when the
        streams it was read from fail verification (``breaks``: what the caller's reading found). ``final``: a
        final version of the protocol (its rules are the caller's: domain/final_protocol.py)."""
        if breaks:
            raise CompetitionError(
                f"the stored events of {self.competition_id} fail verification ({len(breaks)} breaks, first: "
                f"{breaks[0]}): a snapshot of them would not be the record",
                TAMPER_RULE,
            )
        if protocol.get("competition", {}).get("id") != self.competition_id:
            raise CompetitionError(
                f"the archive of {self.competition_id} keeps that competition's protocol only",
                SIGNING_RULE,
            )
        taken = ProtocolSnapshotTaken(
            self.competition_id,
            len(self.snapshots) + 1,
            protocol_digest(protocol),
            {stream: (int(v), str(h)) for stream, (v, h) in heads.items()},
            heads_digest(heads),
            protocol,
            taken_by,
            at,
            final,
        )
        self._record(taken, at, {**(meta or {}), "competition_id": self.competition_id})
        return taken

    def snapshot(self, version: int) -> ProtocolSnapshotTaken | None:
        if not 1 <= version <= len(self.snapshots):
            return None
        return self.snapshots[version - 1]

    def named(self, name: str) -> ProtocolSnapshotTaken | None:
        return next((s for s in self.snapshots if s.name == name), None)

    def finals(self) -> tuple[ProtocolSnapshotTaken, ...]:
        """The final versions of the protocol, in the order compiled (the last is the one in force)."""
        return tuple(s for s in self.snapshots if s.final)

    locals().update(recorded_events(RECORDS))

    @applies(ProtocolSnapshotTaken)
    def _snapshot_taken(self, e: ProtocolSnapshotTaken) -> None:
        self.snapshots.append(e)


def snapshot_to_json(taken: ProtocolSnapshotTaken) -> JSON:
    """A snapshot as its stored event's payload (the protocol copied whole, the heads as [version, link] pairs);
    ``final`` only when it is one, as a snapshot was always stored."""
    payload = asdict(taken)
    if not taken.final:
        del payload["final"]
    payload["taken_at"] = taken.taken_at.isoformat()
    payload["heads"] = {stream: list(head) for stream, head in taken.heads.items()}
    return payload


def snapshot_from_json(payload: Mapping[str, Any]) -> ProtocolSnapshotTaken:
    return ProtocolSnapshotTaken(
        competition_id=payload["competition_id"],
        version=int(payload["version"]),
        sha256=payload["sha256"],
        heads={stream: (int(head[0]), str(head[1])) for stream, head in payload["heads"].items()},
        chain_head=payload["chain_head"],
        protocol=payload["protocol"],
        taken_by=payload["taken_by"],
        taken_at=datetime.fromisoformat(payload["taken_at"]),
        final=bool(payload.get("final", False)),
    )


class ProtocolSignatures(TypedRecord):
    """The officials' signatures on a competition's protocol snapshots (each stored as its fields)."""

    RECORDS = (ProtocolSigned,)

    @event("Opened")
    def __init__(self, competition_id: str, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self.competition_id = competition_id
        self.signatures: list[ProtocolSigned] = []
        self.chain_head = link

    @classmethod
    def open(cls, competition_id: str, at: datetime, meta: JSON | None = None) -> ProtocolSignatures:
        signatures: ProtocolSignatures = cls._create_chained(
            "Opened", signatures_id(competition_id), at, {"competition_id": competition_id}, meta or {},
            competition_id=competition_id,
        )
        return signatures

    def sign(
        self,
        signed: ProtocolSigned,
        snapshot: ProtocolSnapshotTaken | None,
        holds_office: bool,
        at: datetime,
        meta: JSON | None = None,
    ) -> None:
        """Record ``signed``. ``snapshot`` is the archive's snapshot of that version (None: there is none) and
        ``holds_office`` whether the signer is appointed to his role at this competition: the caller reads
        both, the domain does no I/O."""
        verify_permitted(Act.FINAL_PROTOCOL_SIGNED, signed.role)
        if not holds_office:
            raise NotPermittedError(
                f"{signed.person} is not appointed {signed.role.value.replace('_', ' ')} of this competition",
                permission(Act.FINAL_PROTOCOL_SIGNED).cite(),
            )
        if signed.competition_id != self.competition_id:
            raise CompetitionError(
                f"a signature on {signed.competition_id}'s protocol is not one on {self.competition_id}'s",
                SIGNING_RULE,
            )
        if snapshot is None:
            raise CompetitionError(
                f"there is no snapshot {signed.version} of the protocol to sign; the signature is on a fixed text",
                SIGNING_RULE,
            )
        if not _HEX64.fullmatch(signed.sha256) or signed.sha256 != snapshot.sha256:
            raise CompetitionError(
                f"snapshot {signed.version} of the protocol has SHA-256 {snapshot.sha256[:16]}…; the signature "
                f"names {signed.sha256[:16]}…, another text",
                SIGNING_RULE,
            )
        if any(s.version == signed.version and s.role is signed.role for s in self.signatures):
            raise CompetitionError(
                f"snapshot {signed.version} already carries the {signed.role.value.replace('_', ' ')}'s signature",
                SIGNING_RULE,
            )
        self._record(signed, at, meta)

    def signed(self, version: int) -> tuple[ProtocolSigned, ...]:
        return tuple(s for s in self.signatures if s.version == version)

    locals().update(recorded_events(RECORDS))

    @applies(ProtocolSigned)
    def _signed(self, e: ProtocolSigned) -> None:
        self.signatures.append(e)


class HandChallenges(OfficialsRecord):
    """The challenges of hands' results raised at a competition, each judged in time before it is recorded (stored
    as the officials' events are, naming their type)."""

    RECORDS = (HandChallenged,)

    @event("Opened")
    def __init__(self, competition_id: str, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self.competition_id = competition_id
        self.challenges: list[HandChallenged] = []
        self.chain_head = link

    @classmethod
    def open(cls, competition_id: str, at: datetime, meta: JSON | None = None) -> HandChallenges:
        challenges: HandChallenges = cls._create_chained(
            "Opened", challenges_id(competition_id), at, {"competition_id": competition_id}, meta or {},
            competition_id=competition_id,
        )
        return challenges

    def record(self, challenged: HandChallenged, meta: JSON | None = None) -> None:
        """Record ``challenged``, already judged in time (:func:`domain.protests.challenge`)."""
        self._record(challenged, challenged.raised_at, meta)

    locals().update(recorded_events(RECORDS))

    @applies(HandChallenged)
    def _challenged(self, e: HandChallenged) -> None:
        self.challenges.append(e)
