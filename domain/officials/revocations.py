"""API tokens revoked: the service's deny list, a stream of events like every other record (DESIGN decision 10).

The federation revokes a token by reporting ``TokenRevoked`` with the token's id (its ``jti`` claim); the
referee judges it here; the API refuses the token from then on (docs/OPERATIONS.md, "Security").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from domain.chained import ChainedAggregate
from domain.errors import NotPermittedError, RuleRef
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


class TokenDenyList(ChainedAggregate):
    """The ids of the revoked API tokens, each with who revoked it, when and why."""

    plain_json = True

    @event("Opened")
    def __init__(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self.revoked: dict[str, JSON] = {}
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
        payload = {"token_id": str(revoked.token_id), "reason": revoked.reason, "by": by, "at": at.isoformat()}
        self._trigger_chained("TokenRevoked", payload, at, meta)

    @event("TokenRevoked")
    def _revoked(self, payload: JSON, meta: JSON, prev_link: str, link: str) -> None:
        self.revoked[str(payload["token_id"])] = payload
        self.chain_head = link
