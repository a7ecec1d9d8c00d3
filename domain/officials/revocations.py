"""API tokens revoked: the service's deny list, a stream of events like every other record (DESIGN decision 10).

The federation revokes a token by reporting ``TokenRevoked`` with the token's id (its ``jti`` claim); the
referee judges it here; the API refuses the token from then on (docs/OPERATIONS.md, "Security"). What the deny
list records of it is typed (:class:`Revocation`, :mod:`domain.recorded`): the act's fields, who revoked the token
and when, stored under the act's name as it always was.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.errors import NotPermittedError, RuleRef
from domain.recorded import TypedRecord, applies, recorded_events
from domain.roles import Role

JSON = dict[str, Any]

#: the service's own policy (not a rulebook's): who may revoke an API token
REVOCATION_RULE = RuleRef("pokeraudit", "security.revocation")
#: who may revoke a token
REVOKERS = frozenset({Role.FEDERATION})
#: the one deny list of the service
DENY_LIST_ID = uuid5(NAMESPACE_URL, "https://pokeraudit/api-tokens/revoked")
#: what a revocation record names as its competition (the log's key: the deny list's records share a partition)
SERVICE = "pokeraudit-service"


@dataclass(frozen=True, slots=True)
class TokenRevoked:
    """The token whose ``jti`` is ``token_id`` is refused from now on, for ``reason``."""

    token_id: UUID
    reason: str


CATALOG: dict[str, type] = {"TokenRevoked": TokenRevoked}


@dataclass(frozen=True, slots=True)
class Revocation:
    """A token revoked, as the deny list records it: the act (:class:`TokenRevoked`), who revoked it and when."""

    #: stored under the act's name, as a revocation always was
    RECORDED_AS: ClassVar[str] = "TokenRevoked"

    token_id: UUID
    reason: str
    #: the person who revoked it (a federation official)
    by: str
    at: datetime


class TokenDenyList(TypedRecord):
    """The ids of the revoked API tokens, each with who revoked it, when and why."""

    plain_json = True
    RECORDS = (Revocation,)

    @event("Opened")
    def __init__(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        #: each revocation by its token's id (the text of the ``jti`` claim)
        self.revoked: dict[str, Revocation] = {}
        self.chain_head = link

    @classmethod
    def open(cls, at: datetime) -> TokenDenyList:
        opened: TokenDenyList = cls._create_chained("Opened", DENY_LIST_ID, at, {}, {})
        return opened

    def revoke(self, revoked: TokenRevoked, by: str, role: Role, at: datetime, meta: JSON) -> None:
        if role not in REVOKERS:
            raise NotPermittedError(
                f"a {role.value.replace('_', ' ')} may not revoke an API token: the federation revokes them",
                REVOCATION_RULE,
            )
        if not revoked.reason.strip():
            raise NotPermittedError("a revocation says why the token is revoked", REVOCATION_RULE)
        self._record(Revocation(revoked.token_id, revoked.reason, by, at), at, meta)

    @classmethod
    def payload_of(cls, recorded: Any) -> JSON:
        return {"token_id": str(recorded.token_id), "reason": recorded.reason, "by": recorded.by,
                "at": recorded.at.isoformat()}

    @classmethod
    def recorded_from(cls, kind: type, payload: JSON) -> Any:
        return Revocation(UUID(payload["token_id"]), payload["reason"], payload["by"],
                          datetime.fromisoformat(payload["at"]))

    locals().update(recorded_events(RECORDS))

    @applies(Revocation)
    def _revoked(self, e: Revocation) -> None:
        self.revoked[str(e.token_id)] = e
