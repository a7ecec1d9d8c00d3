"""Who records an act: the officials of the federation's rules (bfsp 2), the federation itself, the
participants, and the system's own roles. The permissions each role has live with the acts they govern
(the federation digest §3.5 roles table)."""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    DEALER = "dealer"
    JUDGE = "judge"
    CHIEF_JUDGE = "chief_judge"
    SECRETARY = "secretary"
    #: a person the Chief Judge delegated balancing, the draw or declaring a misdeal to (bfsp 3.1, 5.2, 6.3)
    AUTHORISED = "authorised"
    #: the federation's board: protests of the second tier, season disqualifications (bfsp 7.2.3, 7.3.4)
    FEDERATION = "federation"
    PARTICIPANT = "participant"
    #: read-only system roles
    INTEGRITY = "integrity"
    VIEWER = "viewer"
    #: machines that report on someone's behalf: importers of recorded histories, the simulator
    IMPORTER = "importer"
    SIMULATOR = "simulator"
