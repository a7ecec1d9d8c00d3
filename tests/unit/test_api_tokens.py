"""A token is decoded once and its principal kept until it expires (api/auth.py, issue 17): the kept answer is the
decoded one, an expired token is refused as expired however often it was used before, and a token is kept by the
key it was checked with."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

from api import auth
from api.auth import AuthError, decode_token, issue_token
from domain.roles import Role

pytestmark = pytest.mark.unit

SECRET = "test-secret-of-at-least-thirty-two-bytes"


def test_a_kept_token_names_the_same_principal_and_is_refused_once_it_expires(monkeypatch: pytest.MonkeyPatch) -> None:
    token = issue_token(SECRET, "judge-sidorov", "judge", lifetime=timedelta(seconds=60))
    first = decode_token(SECRET, token)
    assert first.person == "judge-sidorov" and first.role is Role.JUDGE and first.token_id
    assert decode_token(SECRET, token) == first
    # the token's minute has passed: the kept principal is not answered, the token is refused as expired
    later = time.time() + 61
    monkeypatch.setattr(auth.time, "time", lambda: later)
    monkeypatch.setattr("jwt.api_jwt.datetime", _Frozen(later))
    with pytest.raises(AuthError) as refused:
        decode_token(SECRET, token)
    assert (refused.value.status, refused.value.code) == (401, "token_expired")


def test_a_token_kept_under_one_key_is_checked_again_under_another() -> None:
    token = issue_token(SECRET, "judge-sidorov", "judge")
    decode_token(SECRET, token)
    with pytest.raises(AuthError) as refused:
        decode_token("another-secret-of-at-least-thirty-two-bytes", token)
    assert refused.value.code == "invalid_token"
    with pytest.raises(AuthError) as refused:
        decode_token(SECRET, token, max_lifetime=timedelta(minutes=1))
    assert "POKERAUDIT_TOKEN_MAX_HOURS" in refused.value.message


class _Frozen:
    """``datetime`` as PyJWT asks it for now, at ``at``."""

    def __init__(self, at: float) -> None:
        self.at = at

    def now(self, tz: object = None) -> object:
        from datetime import UTC, datetime

        return datetime.fromtimestamp(self.at, UTC)

    def __getattr__(self, name: str) -> object:
        from datetime import datetime

        return getattr(datetime, name)
