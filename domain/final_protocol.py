"""The final protocol and the result documents (bfsp 2.1.4, 2.3.2-2.3.3): what follows the competition's end.

* The Secretary **compiles the final protocol** (:class:`FinalProtocolCompiled`): a snapshot of the protocol
  marked final (:meth:`domain.protocol.ProtocolArchive.take`), once the Chief Judge has ended the competition,
  and again only when the record has changed since the last final version.
* The Chief Judge **signs** it (2.1.4) as any snapshot is signed (``ProtocolSigned``); only the latest final
  version may be signed as the final protocol. With his signature the record is final: nothing amends it but
  the federation's protest decisions (7.3.4), each followed by a new final version to compile and sign
  (:func:`verify_record_open`).
* The Secretary **issues the result documents** (:class:`ResultDocumentsIssued`): one per participant, read from
  the signed final protocol — place, prize gross, tax withheld, net, the violations and penalties recorded
  against him — each naming the final version and its SHA-256 it derives from (:func:`result_documents`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, ClassVar
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.chain import canonical
from domain.chained import JSON
from domain.errors import CompetitionError, RuleRef
from domain.protocol import ProtocolSnapshotTaken, snapshot_name
from domain.recorded import TypedRecord, applies, recorded_events
from domain.roles import Role

RESULTS_NAMESPACE = uuid5(NAMESPACE_URL, "https://pokeraudit/result-documents")
#: the Secretary compiles and signs the final protocol and issues the documents based on it (bfsp 2.3.3)
COMPILE_RULE = RuleRef("bfsp", "2.3.3")
#: the Chief Judge signs the final protocol (bfsp 2.1.4)
SIGN_RULE = RuleRef("bfsp", "2.1.4")
#: the federation's decisions on protests are final (bfsp 7.3.4): the only acts that amend a signed record
AMEND_RULE = RuleRef("bfsp", "7.3.4")

#: what does not amend the record and may follow the final signature: the protocol's own acts (a new final version
#: after a federation decision, its signatures, its documents), the Chief Judge forwarding a protest filed before
#: the end with the protocol (7.3.3), a filer told of a decision, and an API token revoked (the service's security)
FOLLOWS_THE_FINAL = frozenset({
    "ProtocolSnapshotRequested", "ProtocolSigned", "FinalProtocolCompiled", "ResultDocumentsIssued",
    "ProtestForwarded", "FilerNotified", "TokenRevoked",
})
#: the federation's acts after the final signature: its protest decisions and what they order (7.3.4), and the
#: season disqualification it decides on the protocol (7.2.3)
FEDERATION_AFTER_THE_FINAL = frozenset({
    "ProtestDecided", "PenaltyRescinded", "SeasonDisqualificationDecided", "FilerNotified",
})
#: an integrity case is the federation's integrity team's record, not the competition's (domain/integrity/case.py)
_INTEGRITY = frozenset({Role.INTEGRITY, Role.FEDERATION})
#: the protocol's parts that change with no act of the competition's: when it was read, who signed what, the
#: annex of refused records
_NOT_THE_RECORD = ("as_of", "read_at", "signatures", "rejections", "verification")


@dataclass(frozen=True, slots=True)
class FinalProtocolCompiled:
    """The Secretary compiles the final protocol: the referee keeps it as a snapshot marked final."""

    competition_id: str


@dataclass(frozen=True, slots=True)
class ResultDocumentsIssued:
    """The Secretary issues each participant's result document from signed final version ``version``."""

    competition_id: str
    version: int
    #: the SHA-256 of that final version's text, as the Secretary read it
    sha256: str


CATALOG: dict[str, type] = {"FinalProtocolCompiled": FinalProtocolCompiled, "ResultDocumentsIssued": ResultDocumentsIssued}


def results_id(competition_id: str) -> UUID:
    return uuid5(RESULTS_NAMESPACE, competition_id)


def record_digest(protocol: Mapping[str, Any]) -> str:
    """The digest of what the protocol records (its acts and results), less what changes with no act of the
    competition's (signatures, refusals, when it was read): two final versions of one record digest alike."""
    return hashlib.sha256(canonical({k: v for k, v in protocol.items() if k not in _NOT_THE_RECORD})).hexdigest()


def chief_judge_signed(version: int, signed: Sequence[tuple[int, Role]]) -> bool:
    return any(v == version and role is Role.CHIEF_JUDGE for v, role in signed)


def signed_final(finals: Sequence[ProtocolSnapshotTaken], signed: Sequence[tuple[int, Role]]) -> int | None:
    """The latest final version the Chief Judge signed (``signed``: each signature's version and role), or None:
    from its signature the record is final."""
    versions = [f.version for f in finals if chief_judge_signed(f.version, signed)]
    return max(versions) if versions else None


def verify_compile(ended: bool, finals: Sequence[ProtocolSnapshotTaken], signed: Sequence[tuple[int, Role]],
                   record_now: Mapping[str, Any]) -> None:
    """Refuse a final protocol compiled before the end, or compiled again of a record no act has changed since the
    last final version (it is to be signed, or it is signed and final)."""
    if not ended:
        raise CompetitionError(
            "the final protocol is compiled after the competition's end, and the Chief Judge has not ended it",
            COMPILE_RULE,
        )
    if not finals:
        return
    latest = finals[-1]
    if record_digest(latest.protocol) != record_digest(record_now):
        return
    if chief_judge_signed(latest.version, signed):
        raise CompetitionError(
            f"final version {latest.version} ({latest.name}), signed by the Chief Judge, holds the record as it "
            "stands: only a protest decision of the federation amends it, and none has come since",
            AMEND_RULE,
        )
    raise CompetitionError(
        f"final version {latest.version} ({latest.name}) holds the record as it stands: it is to be signed, not "
        "compiled again",
        COMPILE_RULE,
    )


def verify_final_signature(version: int, finals: Sequence[ProtocolSnapshotTaken]) -> None:
    """Refuse a signature on a final version a later one has replaced: the final protocol is the latest."""
    numbers = [f.version for f in finals]
    if version in numbers and version != numbers[-1]:
        raise CompetitionError(
            f"final version {version} of the protocol was replaced by final version {numbers[-1]}: that is the "
            "final protocol to sign",
            SIGN_RULE,
        )


def verify_record_open(act: str, role: Role, final_version: int | None, competition_id: str) -> None:
    """Refuse ``act`` (recorded by ``role``) once the Chief Judge has signed a final version of the protocol,
    unless it is the federation's protest decision or what follows one, or an act that amends nothing."""
    if final_version is None or act in FOLLOWS_THE_FINAL:
        return
    if role is Role.FEDERATION and act in FEDERATION_AFTER_THE_FINAL:
        return
    if role in _INTEGRITY and act.startswith("IntegrityCase"):
        return
    raise CompetitionError(
        f"the final protocol of {competition_id} ({snapshot_name(competition_id, final_version)}) is signed by the "
        f"Chief Judge: no {act} amends the record after it; only the federation's protest decisions do, each "
        "compiled into a new final version",
        SIGN_RULE,
    )


def verify_issue(issued: ResultDocumentsIssued, finals: Sequence[ProtocolSnapshotTaken],
                 signed: Sequence[tuple[int, Role]], issued_versions: Sequence[int]) -> ProtocolSnapshotTaken:
    """The final version the documents are issued from: the latest, signed by the Chief Judge, its SHA-256 the one
    the Secretary read, its documents not issued yet."""
    if not finals:
        raise CompetitionError("no final protocol has been compiled: the documents are issued from it", COMPILE_RULE)
    latest = finals[-1]
    if issued.version != latest.version:
        raise CompetitionError(
            f"the documents are issued from the final protocol in force, final version {latest.version} "
            f"({latest.name}), not version {issued.version}",
            COMPILE_RULE,
        )
    if issued.sha256 != latest.sha256:
        raise CompetitionError(
            f"{latest.name} has SHA-256 {latest.sha256[:16]}…; the record names {issued.sha256[:16]}…, another text",
            COMPILE_RULE,
        )
    if not chief_judge_signed(latest.version, signed):
        raise CompetitionError(
            f"{latest.name} is not signed by the Chief Judge yet: the documents are based on the signed final "
            "protocol",
            SIGN_RULE,
        )
    if latest.version in issued_versions:
        raise CompetitionError(f"the documents of {latest.name} have been issued already", COMPILE_RULE)
    return latest


# --- the documents ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Prize:
    gross: int
    #: the tax withheld (the federation's FAQ: 13 %), rounded down
    withheld: int
    withheld_percent: int
    net: int


@dataclass(frozen=True, slots=True)
class ResultDocument:
    """A participant's result document, based on the signed final protocol (bfsp 2.3.3)."""

    competition_id: str
    title: str
    participant: str
    person: str
    place: int | None
    disqualified: bool
    prize: Prize
    #: the violations recorded against him: code, rule, what, hand, whether entered in the protocol (7.2.3)
    violations: tuple[Mapping[str, Any], ...]
    #: the penalties imposed on him: kind, rule, rounds, and the protest that rescinded one
    penalties: tuple[Mapping[str, Any], ...]
    #: the final protocol it derives from: its name, version and SHA-256
    protocol: str
    protocol_version: int
    protocol_sha256: str


def result_documents(final: ProtocolSnapshotTaken) -> tuple[ResultDocument, ...]:
    """Each participant's document, read from final version ``final`` of the protocol."""
    protocol = final.protocol
    competition = protocol.get("competition", {})
    places = {p["participant"]: p for p in protocol.get("placings", [])}
    out = []
    for entry in protocol.get("participants", []):
        participant = entry["participant"]
        placing = places.get(participant, {})
        prize = placing.get("prize") or {}
        out.append(ResultDocument(
            competition_id=final.competition_id,
            title=str(competition.get("title", "")),
            participant=participant,
            person=str(entry.get("person", "")),
            place=placing.get("place"),
            disqualified=bool(placing.get("disqualified", False)),
            prize=Prize(int(prize.get("gross", 0)), int(prize.get("withheld", 0)),
                        int(prize.get("withheld_percent", 0)), int(prize.get("net", 0))),
            violations=tuple(
                {k: v.get(k) for k in ("code", "rule", "what", "hand", "occurrence", "entered_in_protocol", "at")}
                for v in protocol.get("violations", []) if v.get("participant") == participant
            ),
            penalties=tuple(
                {k: p.get(k) for k in ("reference", "kind", "rule", "rounds", "hands_to_miss", "rescinded_by_protest",
                                       "at")}
                for p in protocol.get("penalties", []) if p.get("participant") == participant
            ),
            protocol=final.name,
            protocol_version=final.version,
            protocol_sha256=final.sha256,
        ))
    return tuple(out)


def document_json(document: ResultDocument) -> JSON:
    out = asdict(document)
    out["violations"] = [dict(v) for v in document.violations]
    out["penalties"] = [dict(p) for p in document.penalties]
    return out


def document_from_json(payload: Mapping[str, Any]) -> ResultDocument:
    """A document as :func:`document_json` wrote it."""
    prize = payload["prize"]
    return ResultDocument(
        competition_id=payload["competition_id"], title=payload["title"], participant=payload["participant"],
        person=payload["person"], place=payload["place"], disqualified=payload["disqualified"],
        prize=Prize(prize["gross"], prize["withheld"], prize["withheld_percent"], prize["net"]),
        violations=tuple(dict(v) for v in payload["violations"]),
        penalties=tuple(dict(p) for p in payload["penalties"]),
        protocol=payload["protocol"], protocol_version=payload["protocol_version"],
        protocol_sha256=payload["protocol_sha256"],
    )


@dataclass(frozen=True, slots=True)
class DocumentsIssued:
    """The result documents issued from signed final version ``version`` (``protocol``, its SHA-256 ``sha256``):
    what :class:`ResultDocuments` records of the Secretary's act (:class:`ResultDocumentsIssued`)."""

    #: stored under the act's name, as an issue always was
    RECORDED_AS: ClassVar[str] = "ResultDocumentsIssued"

    version: int
    sha256: str
    protocol: str
    issued_at: datetime
    documents: tuple[ResultDocument, ...]


def issue_json(issued: DocumentsIssued) -> JSON:
    """An issue as its stored event's payload (and as the results' pages read it): the documents as
    :func:`document_json` writes them, the time in ISO 8601."""
    return {"version": issued.version, "sha256": issued.sha256, "protocol": issued.protocol,
            "issued_at": issued.issued_at.isoformat(), "documents": [document_json(d) for d in issued.documents]}


def issue_from_json(payload: Mapping[str, Any]) -> DocumentsIssued:
    return DocumentsIssued(
        int(payload["version"]), payload["sha256"], payload["protocol"], datetime.fromisoformat(payload["issued_at"]),
        tuple(document_from_json(d) for d in payload["documents"]),
    )


class ResultDocuments(TypedRecord):
    """The result documents issued at a competition, each issue from one signed final version."""

    RECORDS = (DocumentsIssued,)

    @event("Opened")
    def __init__(self, competition_id: str, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self.competition_id = competition_id
        self.issues: list[DocumentsIssued] = []
        self.chain_head = link

    @classmethod
    def open(cls, competition_id: str, at: datetime, meta: JSON | None = None) -> ResultDocuments:
        opened: ResultDocuments = cls._create_chained(
            "Opened", results_id(competition_id), at, {"competition_id": competition_id},
            {**(meta or {}), "competition_id": competition_id}, competition_id=competition_id,
        )
        return opened

    @classmethod
    def payload_of(cls, recorded: Any) -> JSON:
        return issue_json(recorded)

    @classmethod
    def recorded_from(cls, kind: type, payload: JSON) -> Any:
        return issue_from_json(payload)

    @property
    def issued_versions(self) -> tuple[int, ...]:
        return tuple(i.version for i in self.issues)

    def issue(self, final: ProtocolSnapshotTaken, at: datetime, meta: JSON | None = None) -> tuple[ResultDocument, ...]:
        """Issue every participant's document from ``final`` (checked by :func:`verify_issue` first)."""
        documents = result_documents(final)
        issued = DocumentsIssued(final.version, final.sha256, final.name, at, documents)
        self._record(issued, at, {**(meta or {}), "competition_id": self.competition_id})
        return documents

    locals().update(recorded_events(RECORDS))

    @applies(DocumentsIssued)
    def _issued(self, e: DocumentsIssued) -> None:
        self.issues.append(e)
