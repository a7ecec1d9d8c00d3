"""Who is at the browser: an API token kept in an HttpOnly, SameSite=Strict cookie, and the forms' CSRF check.

Signing in exchanges a token (from ``pokeraudit token`` or the federation's identity provider) for the cookie;
the token is checked by the API's own :func:`api.auth.decode_token`, so a page's reader is exactly the API's
principal: the same roles, the same expiry. Scripts in the page never see the token (HttpOnly), and another
site's page cannot send it (SameSite=Strict).

Forms carry a CSRF token: an HMAC, under the server's key, of a random value kept in a cookie of its own
(HttpOnly, SameSite=Strict). A POST whose form field (or ``X-CSRF-Token`` header, for htmx) is not that HMAC is
refused, and so is one whose ``Origin`` is another site's. The sign-in form is protected the same way, so
nobody can sign a browser in under their own token.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from fastapi import Request, Response

from api.auth import AuthError, Principal, decode_token
from api.settings import Settings

SESSION_COOKIE = "pokeraudit_session"
CSRF_COOKIE = "pokeraudit_csrf"
CSRF_FIELD = "csrf"
CSRF_HEADER = "X-CSRF-Token"


@dataclass(frozen=True, slots=True)
class Reader:
    """The signed-in person: the API's principal and the token the pages call the API with."""

    principal: Principal
    token: str

    @property
    def official(self) -> bool:
        return self.principal.role.value in {"judge", "chief_judge", "secretary", "federation", "integrity"}

    @property
    def records_acts(self) -> bool:
        """Shown the forms of officials' acts: the roles the API lets report (a dealer reports his table's
        hands, not acts; which act each may record is the referee's roles table's to say)."""
        return self.principal.role.value in {"judge", "chief_judge", "secretary", "federation"}


class SignInRequired(Exception):
    """No valid session: the page sends the browser to sign in (and back to ``next`` afterwards)."""

    def __init__(self, next_path: str, why: str = "") -> None:
        self.next_path = next_path
        self.why = why
        super().__init__(why or "sign in first")


class CsrfRefused(Exception):
    """A form came without this browser's CSRF token, or from another site."""


def secret_of(settings: Settings) -> str | None:
    return settings.jwt_secret.get_secret_value() if settings.jwt_secret else None


def reader_of(request: Request, settings: Settings, *, header: bool = True) -> Reader:
    """The session's reader; :class:`SignInRequired` when there is none or its token no longer holds.

    Without a session, a page also takes the API's own ``Authorization: Bearer`` header (a federation's screen
    or a script reading a page with a token): a browser never sends that header by itself, so reading a page
    with it needs no CSRF check, and the forms, which change something, take only the session."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token and header:
        scheme, _, value = (request.headers.get("authorization") or "").partition(" ")
        token = value.strip() if scheme.lower() == "bearer" else None
    secret = secret_of(settings)
    where = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    if not token or secret is None:
        raise SignInRequired(where)
    try:
        return Reader(decode_token(secret, token), token)
    except AuthError as err:
        raise SignInRequired(where, err.message) from err


def sign_in(response: Response, request: Request, settings: Settings, token: str) -> Principal:
    """Check ``token`` as the API would and keep it in the session cookie until it expires."""
    secret = secret_of(settings)
    if secret is None:
        raise AuthError(401, "not_authenticated", "this server has no token key (POKERAUDIT_JWT_SECRET) set")
    principal = decode_token(secret, token.strip())
    expires = _expiry(secret, token.strip())
    response.set_cookie(
        SESSION_COOKIE, token.strip(), httponly=True, samesite="strict", secure=request.url.scheme == "https",
        path="/", max_age=max(1, int((expires - datetime.now(UTC)).total_seconds())),
    )
    return principal


def sign_out(response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/")
    response.delete_cookie(CSRF_COOKIE, path="/")


def _expiry(secret: str, token: str) -> datetime:
    import jwt

    claims = jwt.decode(token, secret, algorithms=["HS256"])
    return datetime.fromtimestamp(int(claims["exp"]), UTC)


class Csrf:
    """The forms' CSRF tokens: a random value per browser (cookie) and its HMAC under the server's key."""

    def __init__(self, settings: Settings) -> None:
        # without a token key nobody signs in; the sign-in form still needs a key of its own
        self._key = (secret_of(settings) or secrets.token_urlsafe(32)).encode()

    def token(self, request: Request, response: Response | None = None) -> str:
        """The form token of this browser, setting its cookie on ``response`` the first time."""
        value = request.cookies.get(CSRF_COOKIE) or getattr(request.state, "csrf_value", None)
        if not value:
            value = secrets.token_urlsafe(24)
            request.state.csrf_value = value
        if response is not None and request.cookies.get(CSRF_COOKIE) != value:
            response.set_cookie(
                CSRF_COOKIE, value, httponly=True, samesite="strict", secure=request.url.scheme == "https", path="/"
            )
        return self._mac(value)

    def verify(self, request: Request, sent: str | None) -> None:
        origin = request.headers.get("origin")
        if origin and origin != "null" and origin.rstrip("/") != f"{request.url.scheme}://{request.url.netloc}":
            raise CsrfRefused(f"a form from {origin} is not accepted here")
        value = request.cookies.get(CSRF_COOKIE)
        sent = sent or request.headers.get(CSRF_HEADER)
        if not value or not sent or not hmac.compare_digest(self._mac(value), sent):
            raise CsrfRefused("the form's CSRF token is missing or not this browser's: reload the page and try again")

    def _mac(self, value: str) -> str:
        return hmac.new(self._key, f"csrf:{value}".encode(), hashlib.sha256).hexdigest()
