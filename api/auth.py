"""Who is asking: API tokens (JWT, HS256, signed with POKERAUDIT_JWT_SECRET) and the roles they carry.

A token's claims are ``sub`` (the person), ``role`` (one of :class:`domain.roles.Role`'s API roles),
``table`` and ``competition`` (a dealer's: he reports only at that table of that competition, and the
referee checks that the competition's records assigned it to him), ``competition`` for the others optional
(a token scoped to one competition), and ``exp``.
PyJWT checks the signature and the expiry; nothing of ours parses tokens.

Without a token a request is anonymous. Anonymous reads are allowed only when the settings say so
(``POKERAUDIT_PUBLIC_READ``, which the demo turns on); they are a viewer's reads, sealed as
:mod:`api.sealing` says (DESIGN decision 8).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from uuid import uuid4

import jwt

from domain.roles import Role
from ingest.catalog import NAME_BOUND

ALGORITHM = "HS256"

#: The roles an API token may carry (the federation digest's roles table, plus the read-only system roles).
API_ROLES: frozenset[Role] = frozenset(
    {
        Role.DEALER,
        Role.JUDGE,
        Role.CHIEF_JUDGE,
        Role.SECRETARY,
        Role.FEDERATION,
        Role.INTEGRITY,
        Role.VIEWER,
        #: a player of one competition: he files his own protests and challenges there (bfsp 5.9.1, 7.3.1)
        Role.PARTICIPANT,
    }
)

class AuthError(Exception):
    """The request's credentials are missing, malformed, expired or not enough for what it asks."""

    def __init__(self, status: int, code: str, message: str) -> None:
        self.status = status
        self.code = code
        self.message = message
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class Principal:
    person: str
    role: Role
    #: the one table a dealer may report at; None for every other role
    table: str | None = None
    competition: str | None = None
    anonymous: bool = False
    #: the token's own id (claim 'jti'), what rate limits count by; None for tokens issued without one
    token_id: str | None = None

ANONYMOUS = Principal(person="anonymous", role=Role.VIEWER, anonymous=True)


def issue_token(
    secret: str,
    person: str,
    role: Role | str,
    *,
    table: str | None = None,
    competition: str | None = None,
    lifetime: timedelta = timedelta(hours=12),
    now: datetime | None = None,
    max_lifetime: timedelta | None = None,
) -> str:
    """A signed token (for operators' tooling, the demo and tests: the federation's identity provider issues
    the real ones with the same claims)."""
    role = Role(role)
    if role not in API_ROLES:
        raise ValueError(f"role {role.value!r} cannot hold an API token; one of {sorted(r.value for r in API_ROLES)}")
    if role is Role.DEALER and not (table and competition):
        raise ValueError(
            "a dealer's token names the competition and the table the dealer deals at (claims 'competition' and "
            "'table'): a table's name means nothing outside its competition"
        )
    if role is Role.PARTICIPANT and not competition:
        raise ValueError(
            "a participant's token names the competition he plays (claim 'competition'): his name there is his entry"
        )
    if max_lifetime is not None and lifetime > max_lifetime:
        raise ValueError(
            f"a token may live at most {max_lifetime.total_seconds() / 3600:g} hours (POKERAUDIT_TOKEN_MAX_HOURS); "
            f"asked for {lifetime.total_seconds() / 3600:g}"
        )
    issued = now or datetime.now(UTC)
    # jti: the token's own id, what a revocation names
    claims: dict[str, object] = {
        "sub": person, "role": role.value, "iat": issued, "exp": issued + lifetime, "jti": str(uuid4()),
    }
    if table:
        claims["table"] = table
    if competition:
        claims["competition"] = competition
    return jwt.encode(claims, secret, algorithm=ALGORITHM)


#: tokens decoded and found valid, with when each expires: (token, key, longest lifetime) → (principal, exp)
_DECODED: dict[tuple[str, str, timedelta | None], tuple[Principal, float]] = {}
#: most tokens kept (forgotten all at once beyond: a token is then decoded again, as it always was)
_MOST_DECODED = 4096


def decode_token(secret: str, token: str, max_lifetime: timedelta | None = None) -> Principal:
    """The principal a token names; :class:`AuthError` (401) when it is not a valid, current token of ours, or
    (with ``max_lifetime``) one issued to live longer than the service allows.

    A token found valid is kept with its expiry: its next use is answered without checking its signature and
    claims again (a tenth of a millisecond a request: issue 17), until it expires — then it is decoded again and
    refused as expired. Nothing else can make it invalid later (its not-before and issued-at times have passed;
    the key is part of what it is kept by); a revoked token is refused after this (api/deps.py)."""
    key = (token, secret, max_lifetime)
    kept = _DECODED.get(key)
    if kept is not None and time.time() < kept[1]:
        return kept[0]
    found, expires = _decoded(secret, token, max_lifetime)
    if len(_DECODED) >= _MOST_DECODED:
        _DECODED.clear()
    _DECODED[key] = (found, expires)
    return found


def _decoded(secret: str, token: str, max_lifetime: timedelta | None) -> tuple[Principal, float]:
    """The principal a valid token names and when it expires (PyJWT refuses a token once ``exp <= now``: it is
    kept while now < exp)."""
    try:
        claims = jwt.decode(token, secret, algorithms=[ALGORITHM], options={"require": ["sub", "role", "exp"]})
    except jwt.ExpiredSignatureError as exc:
        raise AuthError(401, "token_expired", "the token has expired; ask for a new one") from exc
    except jwt.InvalidTokenError as exc:
        raise AuthError(401, "invalid_token", f"the token is not valid: {exc}") from exc
    for claim in ("sub", "table", "competition"):
        _verify_name(claims, claim)
    try:
        role = Role(claims["role"])
    except (ValueError, TypeError) as exc:
        raise AuthError(401, "invalid_token", f"the token's role {claims['role']!r:.40} is not a known role") from exc
    if role not in API_ROLES:
        raise AuthError(401, "invalid_token", f"the role {role.value!r} cannot hold an API token")
    table = claims.get("table")
    if role is Role.DEALER and not (table and claims.get("competition")):
        # an unscoped dealer's token would report (and read live cards) at a table of that name in every
        # competition: it names both
        raise AuthError(
            401, "invalid_token", "a dealer's token must name its competition and its table (claims 'competition', 'table')"
        )
    if role is Role.PARTICIPANT and not claims.get("competition"):
        raise AuthError(401, "invalid_token", "a participant's token must name his competition (claim 'competition')")
    # after what the claims say, so that a malformed token is told what is wrong with it first
    if max_lifetime is not None:
        _verify_lifetime(claims, max_lifetime)
    found = Principal(
        person=str(claims["sub"]),
        role=role,
        table=str(table) if table else None,
        competition=str(claims["competition"]) if claims.get("competition") else None,
        token_id=str(claims["jti"]) if claims.get("jti") else None,
    )
    return found, float(claims["exp"])


def _verify_name(claims: dict[str, object], claim: str) -> None:
    """A claim naming a person, a table or a competition is a non-blank string of at most NAME_BOUND characters
    (it signs records: an empty or outsized name would be refused at the envelope after the token was taken)."""
    if claim not in claims:
        return
    value = claims[claim]
    if not isinstance(value, str) or not value.strip() or len(value) > NAME_BOUND or not _utf8(value):
        raise AuthError(
            401, "invalid_token", f"the token's claim {claim!r} must name someone: 1 to {NAME_BOUND} characters"
        )


def _utf8(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _verify_lifetime(claims: dict[str, object], max_lifetime: timedelta) -> None:
    """A token living longer than the service allows is refused, however validly signed (an old key's
    ten-year token must not outlive the rule)."""
    expires = float(claims["exp"])  # type: ignore[arg-type]
    issued = claims.get("iat")
    start = float(issued) if isinstance(issued, int | float) else datetime.now(UTC).timestamp()
    if expires - start > max_lifetime.total_seconds() + 1:
        raise AuthError(
            401, "invalid_token",
            f"the token lives {(expires - start) / 3600:g} hours; this service accepts at most "
            f"{max_lifetime.total_seconds() / 3600:g} (POKERAUDIT_TOKEN_MAX_HOURS): ask for a new one",
        )


def principal_from_header(
    authorization: str | None, secret: str | None, public_read: bool, max_lifetime: timedelta | None = None
) -> Principal:
    """The principal of an ``Authorization: Bearer …`` header, or the anonymous viewer where allowed."""
    if not authorization:
        if public_read:
            return ANONYMOUS
        raise AuthError(401, "not_authenticated", "this endpoint needs a bearer token (Authorization: Bearer …)")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise AuthError(401, "not_authenticated", "the Authorization header must be 'Bearer <token>'")
    if secret is None:
        raise AuthError(401, "not_authenticated", "this server has no token key (POKERAUDIT_JWT_SECRET) set")
    return decode_token(secret, token.strip(), max_lifetime)


def require(principal: Principal, roles: Iterable[Role], what: str) -> None:
    """403 unless ``principal`` holds one of ``roles``; the message names what was asked and who may."""
    allowed = frozenset(roles)
    if principal.role not in allowed:
        who = ", ".join(sorted(r.value for r in allowed))
        raise AuthError(403, "forbidden", f"{what} is for {who}; this token's role is {principal.role.value}")
