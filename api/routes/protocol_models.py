"""What the protocol's routes answer, as the OpenAPI document describes it (api/routes/protocol.py).

The protocol itself is a document of sections (projections/protocol.py builds it, api/sealing.py seals it for the
reader); each section's entries are described in docs/ and kept as the document has them, so a client reads
the same JSON whatever this module says. Its top level is closed: a section the builder adds must be named
here (tests/unit/test_api_response_models.py reads a real protocol through this model).
"""

from __future__ import annotations

from typing import Any

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from domain.protocol import REQUEST_ID

Entries = list[dict[str, Any]]


class ProtocolDocument(BaseModel):
    """The competition protocol (bfsp 2.1.4) as the caller may read it."""

    model_config = ConfigDict(extra="forbid")

    format: int = Field(description="the protocol's format number: older snapshots are verified by their hash")
    competition: dict[str, Any] = Field(description="id, title, format, variant, rulebook, adoption; winner once declared")
    as_of: str | None = Field(description="the time of the last stored event the protocol is read from")
    read_at: str | None = Field(default=None, description="when it was read (overdue protests are judged then)")
    regulations: dict[str, Any] | None = Field(default=None, description="as adopted: levels, breaks, prizes")
    officials: Entries = Field(default_factory=list, description="appointments and delegations")
    participants: Entries = Field(default_factory=list, description="registered participants")
    draws: Entries = Field(default_factory=list, description="seat draws, with the buttons")
    levels: Entries = Field(
        default_factory=list,
        description="levels as the level clock ran them (bfsp 3.3): stakes, start, end, the announcement if any",
    )
    breaks: Entries = Field(default_factory=list, description="scheduled breaks as the level clock ran them")
    clock_pauses: Entries = Field(
        default_factory=list,
        description="stops of the level clock: the Chief Judge's pauses (bfsp 2.1.5) and hand-for-hand (TDA RP-8)",
    )
    chip_races: Entries = Field(default_factory=list)
    moves: Entries = Field(default_factory=list, description="the floor's moves, each with its rule and recorder")
    eliminations: Entries = Field(default_factory=list)
    other_acts: Entries = Field(default_factory=list, description="schedule changes, deals, stages, table winners")
    placings: Entries = Field(default_factory=list, description="places with names, gross prize, tax withheld, net")
    hands: Entries = Field(default_factory=list, description="every hand, anchored by its chain and linked to its history")
    rulings: Entries = Field(default_factory=list)
    misdeals_and_voids: Entries = Field(default_factory=list)
    incorrect_bets: Entries = Field(default_factory=list)
    violations: Entries = Field(default_factory=list)
    penalties: Entries = Field(default_factory=list)
    season_disqualifications: Entries = Field(default_factory=list)
    challenges: Entries = Field(default_factory=list)
    protests: Entries = Field(default_factory=list)
    rejections: Entries = Field(default_factory=list, description="the annex: what was refused, with rule and reason")
    ofc: dict[str, Any] | None = Field(default=None, description="OFC rounds and points (bfsp 8), where played")
    signatures: Entries = Field(default_factory=list)
    verification: dict[str, Any] = Field(description="ok, the streams and events checked, and every break found")


class Signature(BaseModel):
    """An official's signature on a snapshot (bfsp 2.1.4): who, in which office, on which text, when."""

    competition_id: str
    version: int
    sha256: str = Field(description="the SHA-256 of the text signed: the snapshot's")
    person: str
    role: str
    at: str = Field(description="when the log received the signature")


class SnapshotSummary(BaseModel):
    """A protocol snapshot as listed: its name, number, digest and chain head, who took it and when, and (when
    listed) the signatures on it."""

    name: str
    version: int
    sha256: str = Field(description="SHA-256 of the protocol's canonical JSON")
    chain_head: str = Field(description="the digest of the streams' heads a forwarded protest cites")
    streams: int = Field(description="how many stored streams the protocol was read from")
    taken_by: str
    taken_at: str
    final: bool = Field(default=False, description="a final version, compiled after the competition's end (bfsp 2.3.3)")
    signatures: list[Signature] | None = Field(default=None, description="the signatures on it, in the order signed")


class SignedSnapshot(BaseModel):
    """A snapshot's signatures after one more was accepted."""

    name: str
    version: int
    signatures: list[Signature]


class SnapshotList(BaseModel):
    items: list[SnapshotSummary]
    total: int


class SnapshotVerification(BaseModel):
    ok: bool
    difference: str = Field(description="the first difference in words (blank when the snapshot verifies)")
    note: str = Field(description="what was checked and what not, when the snapshot verifies only in part")


class SnapshotRead(SnapshotSummary):
    """A snapshot re-verified against the store, its text as the caller may read it."""

    heads: dict[str, list[int | str]] = Field(description="stream id → [version, link] of its last event read")
    protocol: dict[str, Any] = Field(description="the protocol as snapshotted, sealed for the caller")
    verification: SnapshotVerification
    sealed: bool = Field(description="whether cards were sealed for the caller: the SHA-256 covers the text unsealed")


class SnapshotRequest(BaseModel):
    """A snapshot request named by its requester, so that sending it again (after a timeout, a lost answer) is
    the same record on the log, judged once: one snapshot, whatever the retries. Send both fields, and the same
    both times."""

    model_config = ConfigDict(extra="forbid")

    request_id: str = Field(
        pattern=f"^{REQUEST_ID.pattern}$",
        description="the requester's own name for this request (a UUID fits): 1 to 100 letters, digits and . _ : -",
    )
    requested_at: AwareDatetime = Field(
        description="when the request was first made (ISO 8601 with its offset): a retry sends the same time, "
        "within the service's clock skew of now (POKERAUDIT_CLOCK_SKEW_S)"
    )
